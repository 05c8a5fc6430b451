package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/importers/pipeline"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

// fileRating is what rate FILE... prints about one puzzle.
type fileRating struct {
	pipeline.Checked
	ratings []sudokulab.Rating // one per rater, in order; zero when not rated
	rated   []bool
}

// runRateFiles is rate FILE...: it rates the puzzles of the files by the
// raters of --rater without a database, and prints one row per puzzle in
// the order of the files, as it goes.
func runRateFiles(ctx context.Context, cmd *cobra.Command, o *rateOptions, files []string) error {
	for _, name := range []string{"where", "collection", "limit", "force"} {
		if cmd.Flags().Changed(name) {
			return usageError(cmd, fmt.Sprintf("--%s selects stored puzzles; rate FILE... rates the puzzles of the files", name))
		}
	}
	reg := raters.Default()
	if err := reg.RefuseDBRaters(o.rater, o.opts); err != nil {
		return err
	}
	rs, err := makeRaters(ctx, nil, reg, o.rater, o.opts)
	if err != nil {
		return err
	}
	limits, err := o.limits(cmd, reg, rs)
	if err != nil {
		return err
	}
	fr, err := fileReaderOf(o.fileFormat, &o.decodeFlags)
	if err != nil {
		return err
	}
	cols := []string{"file", "line", "label", "size", "givens", "solutions"}
	for _, r := range rs {
		cols = append(cols, r.Name()+"_value", r.Name()+"_label")
	}
	cols = append(cols, "problem")
	out, err := newRowStream(cmd.OutOrStdout(), o.format, cols, []int{longest(files)})
	if err != nil {
		return err
	}
	start := time.Now()
	n, rated := 0, 0
	err = inOrder(ctx, fr, files, o.jobs, func(ctx context.Context, e fileEntry) (fileRating, error) {
		return rateEntry(ctx, e, rs, limits, o.countTimeout)
	}, func(e fileEntry, fr fileRating) error {
		n++
		row := append(entryRow(e), fr.Solutions)
		some := false
		for i := range rs {
			if !fr.rated[i] {
				row = append(row, nil, nil)
				continue
			}
			some = true
			var v any
			if r := fr.ratings[i]; r.Value != nil {
				v = *r.Value
			}
			row = append(row, v, fr.ratings[i].Label)
		}
		if some {
			rated++
		}
		return out.Write(append(row, fr.Problem))
	})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "rated %d of %d puzzles of %d files by %d raters in %v\n",
		rated, n, len(files), len(rs), time.Since(start).Round(time.Millisecond))
	return nil
}

// rateEntry checks one entry as check does, then rates a puzzle that
// breaks no rule and has a solution by each rater, each under its limit.
// A rating cut short or failing is said in the problem.
func rateEntry(ctx context.Context, e fileEntry, rs []raters.Rater, limits ratepool.Limits, countTimeout time.Duration) (fileRating, error) {
	c, err := checkPuzzle(ctx, e, countTimeout)
	if err != nil {
		return fileRating{}, err
	}
	fr := fileRating{Checked: c, ratings: make([]sudokulab.Rating, len(rs)), rated: make([]bool, len(rs))}
	if e.Err != nil || c.Solutions == 0 {
		if c.Problem != "" {
			fr.Problem = c.Problem + ": not rated"
		}
		return fr, nil
	}
	ratings, rated, problems, err := ratepool.Each(ctx, rs, sudokulab.Puzzle{Givens: e.Record.Grid}, limits)
	if err != nil {
		return fr, err
	}
	fr.ratings, fr.rated = ratings, rated
	if c.Problem != "" {
		problems = append([]string{c.Problem}, problems...)
	}
	fr.Problem = strings.Join(problems, "; ")
	return fr, nil
}
