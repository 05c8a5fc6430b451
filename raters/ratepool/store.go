package ratepool

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters"
)

// Options tune Rate. Zero values mean the documented defaults.
type Options struct {
	// Workers is the number of goroutines rating (0: one per CPU).
	Workers int
	// Limits bounds each rating by its rater (a rater not in it: none).
	Limits Limits
	// Force rates again the puzzles a rater has rated with the same
	// version and options; without it they are skipped.
	Force bool
	// Batch bounds the puzzles whose ratings are written in one
	// transaction (0: DefaultBatch), Every the time between two
	// transactions while ratings wait (0: DefaultEvery).
	Batch int
	Every time.Duration
	// Committed, when not nil, is told the number of ratings written so
	// far after each transaction.
	Committed func(ratings int)
	// Progress, when not nil, is told of the work.
	Progress Progress
}

// Progress follows a Rate.
type Progress interface {
	// Start is called once with the number of ratings to make.
	Start(todo int)
	// Rated is called for every rating made, or cut short, with the
	// number of ratings written so far.
	Rated(o Outcome, written int)
}

// Summary is what Rate did with one rater.
type Summary struct {
	// Rated counts the ratings made and stored, Valued those of them with
	// a value (whose sum is Sum), Skipped the puzzles skipped as rated
	// before, CutShort the ratings cut short by the rater's limit.
	Rated, Valued, Skipped, CutShort int
	Sum                              float64
	// Labels counts the ratings stored by label.
	Labels Histogram
	// CutShortIDs lists the first CutShortShown puzzles whose rating was
	// cut short.
	CutShortIDs []int64
}

// Result is what Rate did.
type Result struct {
	// Puzzles counts the puzzles given to at least one rater; Skipped the
	// ratings skipped as stored before; Written the ratings stored (on an
	// error too, as an interrupted rate keeps them).
	Puzzles, Skipped, Written int
	// ByRater holds each rater's Summary, by name.
	ByRater map[string]*Summary
}

// Rate rates puzzles by the raters rs on o.Workers goroutines and stores
// each complete rating in d (table ratings), replacing an older rating of
// the puzzle by the same rater. A puzzle a rater has rated with the same
// version and options is skipped unless o.Force, so rate again resumes.
// The ratings are written in short transactions as they come; when ctx
// ends the ratings made are written all the same, and Rate returns the
// cause of the end with the Result.
func Rate(ctx context.Context, d *db.DB, puzzles []sudokulab.Puzzle, rs []raters.Rater, o Options) (*Result, error) {
	res := &Result{ByRater: map[string]*Summary{}}
	for _, r := range rs {
		res.ByRater[r.Name()] = &Summary{Labels: Histogram{}}
	}
	work, todo, err := plan(ctx, d, puzzles, rs, o.Force, res)
	if err != nil {
		return res, err
	}
	res.Puzzles = len(work)
	if o.Progress != nil {
		o.Progress.Start(todo)
	}
	every, batch := o.Every, o.Batch
	if every <= 0 {
		every = DefaultEvery
	}
	if batch <= 0 {
		batch = DefaultBatch
	}
	var w *db.BatchWriter[sudokulab.Rating]
	w = db.NewBatchWriter(d, db.UpsertRating, db.BatchOptions[sudokulab.Rating]{
		Size: batch,
		// A puzzle's ratings by several raters count once.
		Key: func(r sudokulab.Rating) int64 { return r.PuzzleID },
		Committed: func([]sudokulab.Rating) {
			if o.Committed != nil {
				o.Committed(w.Written())
			}
		},
	})
	err = All(ctx, work, o.Workers, o.Limits, func(out Outcome) error {
		res.ByRater[out.Rater].add(out)
		if o.Progress != nil {
			o.Progress.Rated(out, w.Written())
		}
		if out.CutShort {
			// Not stored: a partial rating must not be averaged or
			// grouped as if complete, and having no row, the puzzle is
			// rated again by the next rate.
			return nil
		}
		return w.Add(ctx, out.Rating)
	}, func() error { return w.Flush(ctx) }, every)
	err = w.Finish(ctx, err)
	res.Written = w.Written()
	return res, err
}

// plan returns the work of a Rate: each puzzle with the raters that have
// not rated it yet with the same version and options (all of rs with
// force), and the number of ratings to make. It counts the skipped
// ratings in res.
func plan(ctx context.Context, d *db.DB, puzzles []sudokulab.Puzzle, rs []raters.Rater, force bool, res *Result) ([]Job, int, error) {
	done := map[string]map[int64]bool{}
	if !force {
		for _, r := range rs {
			var err error
			if done[r.Name()], err = db.RatedPuzzles(ctx, d, r.Name(), r.Version(), r.Options()); err != nil {
				return nil, 0, err
			}
		}
	}
	var (
		work []Job
		todo int
	)
	for _, p := range puzzles {
		var left []raters.Rater
		for _, r := range rs {
			if done[r.Name()][p.ID] {
				res.ByRater[r.Name()].Skipped++
				res.Skipped++
				continue
			}
			left = append(left, r)
		}
		if len(left) > 0 {
			work = append(work, Job{Puzzle: p, Raters: left})
			todo += len(left)
		}
	}
	return work, todo, nil
}

// add counts an outcome.
func (s *Summary) add(out Outcome) {
	if out.CutShort {
		s.CutShort++
		if len(s.CutShortIDs) < CutShortShown {
			s.CutShortIDs = append(s.CutShortIDs, out.PuzzleID)
		}
		return
	}
	s.Rated++
	if out.Value != nil {
		s.Valued++
		s.Sum += *out.Value
	}
	if out.Label != "" {
		s.Labels[out.Label]++
	}
}

// Mean returns the mean value of the ratings stored, and false when none
// has a value.
func (s *Summary) Mean() (float64, bool) {
	if s.Valued == 0 {
		return 0, false
	}
	return s.Sum / float64(s.Valued), true
}

// Table is what rate prints of res: a row per rater of rs, with its
// name, version and options, the puzzles it rated, skipped and cut short,
// the mean of its values (NULL without one) and its labels.
func (res *Result) Table(rs []raters.Rater) db.Table {
	rows := make([][]any, 0, len(rs))
	for _, r := range rs {
		s := res.ByRater[r.Name()]
		var mean any
		if m, ok := s.Mean(); ok {
			mean = m
		}
		rows = append(rows, []any{r.Name(), r.Version(), r.Options(), s.Rated, s.Skipped, s.CutShort, mean, s.Labels})
	}
	return db.Table{Columns: []string{"rater", "version", "options", "puzzles", "skipped", "cut_short", "mean_value", "labels"}, Rows: rows}
}

// CutShortPuzzles names the puzzles whose rating was cut short: the ids
// of the first CutShortShown, then how many more ("4, 9 and 2 more").
func (s *Summary) CutShortPuzzles() string {
	ids := make([]string, len(s.CutShortIDs))
	for i, id := range s.CutShortIDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	more := ""
	if s.CutShort > len(ids) {
		more = fmt.Sprintf(" and %d more", s.CutShort-len(ids))
	}
	return strings.Join(ids, ", ") + more
}
