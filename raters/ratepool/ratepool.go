// Package ratepool rates many puzzles by several raters at once and stores
// the ratings as they come: the work of sudokulab rate. Each rating runs
// under its rater's time limit; a rating cut short by it is reported, never
// stored. The ratings are written in short transactions (db.BatchWriter),
// so an interrupted rate keeps what it finished and rate again resumes.
package ratepool

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sudokulab"
	"sudokulab/internal/workpool"
	"sudokulab/raters"
)

// The ratings are written in short transactions of at most DefaultBatch
// puzzles, and at least every DefaultEvery while some wait: an
// interrupted rate keeps what it wrote, and other writers wait for a
// transaction of milliseconds at most.
const (
	DefaultBatch = 200
	DefaultEvery = 250 * time.Millisecond
)

// CutShortShown bounds the puzzles a Summary names whose rating was cut
// short.
const CutShortShown = 10

// Limits are the time limits of one rating by each rater, by name; a
// rater not in the map (or with 0) has none.
type Limits map[string]time.Duration

// DefaultLimits returns each rater's own time limit
// (raters.Info.TimeLimit), long enough for the hardest puzzles it is
// meant for; a rater reg does not hold is an ENOTFOUND error.
func DefaultLimits(reg *raters.Registry, rs []raters.Rater) (Limits, error) {
	out := Limits{}
	for _, r := range rs {
		in, err := reg.Lookup(r.Name())
		if err != nil {
			return nil, err
		}
		out[r.Name()] = in.TimeLimit()
	}
	return out, nil
}

// TimeLimits returns the limits of rate's --timeout: timeout for each of
// rs when given (0: none), else each rater's own (DefaultLimits). A
// negative timeout is an EINVALID error (CheckTimeout).
func TimeLimits(reg *raters.Registry, rs []raters.Rater, timeout time.Duration, given bool) (Limits, error) {
	if err := CheckTimeout(timeout); err != nil {
		return nil, err
	}
	if given {
		return SameLimits(rs, timeout), nil
	}
	return DefaultLimits(reg, rs)
}

// CheckTimeout refuses a negative time limit, in the words of --timeout.
func CheckTimeout(timeout time.Duration) error {
	if timeout < 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "--timeout %s: want a duration of 0 (no limit) or more", timeout)
	}
	return nil
}

// SameLimits returns the limit d (0: none) for each of rs.
func SameLimits(rs []raters.Rater, d time.Duration) Limits {
	out := Limits{}
	for _, r := range rs {
		out[r.Name()] = d
	}
	return out
}

// Outcome is one rating made: complete, or, when CutShort, cut short by
// its time limit (then only Rating.Rater and Rating.PuzzleID are set: a
// cut-short rating is never stored).
type Outcome struct {
	sudokulab.Rating
	CutShort bool
}

// errTimeout is the cause of a rating's context when its limit ends it.
var errTimeout = errors.New("rating timed out")

// RateOne rates puzzle p by r under a deadline of timeout (0: none). A
// rating the deadline cut short (ctx itself still alive) is no error: it
// comes back with CutShort set.
func RateOne(ctx context.Context, r raters.Rater, p sudokulab.Puzzle, timeout time.Duration) (Outcome, error) {
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		rctx, cancel = context.WithTimeoutCause(ctx, timeout, errTimeout)
	}
	defer cancel()
	rating, err := r.Rate(rctx, p.Givens)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) && errors.Is(context.Cause(rctx), errTimeout) {
			return Outcome{Rating: sudokulab.Rating{PuzzleID: p.ID, Rater: r.Name()}, CutShort: true}, nil
		}
		return Outcome{}, err
	}
	rating.PuzzleID = p.ID
	return Outcome{Rating: rating}, nil
}

// Each rates puzzle p by each of rs under its limit, one after the
// other, as rate FILE... does: ratings[i] is rs[i]'s when rated[i]; a
// rating that fails or is cut short is not, and problems say why, one
// per rater in order. Only ctx ending (or a rater canceled) is an error.
func Each(ctx context.Context, rs []raters.Rater, p sudokulab.Puzzle, limits Limits) (ratings []sudokulab.Rating, rated []bool, problems []string, err error) {
	ratings, rated = make([]sudokulab.Rating, len(rs)), make([]bool, len(rs))
	for i, r := range rs {
		out, err := RateOne(ctx, r, p, limits[r.Name()])
		switch {
		case ctx.Err() != nil:
			return ratings, rated, problems, context.Cause(ctx)
		case err != nil && errors.Is(err, context.Canceled):
			return ratings, rated, problems, err
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", r.Name(), err))
		case out.CutShort:
			problems = append(problems, fmt.Sprintf("%s: cut short by --timeout %v", r.Name(), limits[r.Name()]))
		default:
			ratings[i], rated[i] = out.Rating, true
		}
	}
	return ratings, rated, problems, nil
}

// Job is a puzzle and the raters to rate it by.
type Job struct {
	Puzzle sudokulab.Puzzle
	Raters []raters.Rater
}

// All rates every job's puzzle by its raters on workers goroutines (0:
// one per CPU), each rating under its limit, and hands each outcome to
// take on the calling goroutine, in no set order; tick and every are as
// in workpool.Options. A rating cut short by its limit is handed on as
// such; any other error stops it all.
func All(ctx context.Context, work []Job, workers int, limits Limits, take func(Outcome) error, tick func() error, every time.Duration) error {
	return workpool.Run(ctx, work, workpool.Options{Workers: workers, Tick: tick, Every: every},
		func(ctx context.Context, j Job, emit func(Outcome) error) error {
			for _, r := range j.Raters {
				out, err := RateOne(ctx, r, j.Puzzle, limits[r.Name()])
				if err != nil {
					return fmt.Errorf("rate puzzle %d by %s: %w", j.Puzzle.ID, r.Name(), err)
				}
				if err := emit(out); err != nil {
					return err
				}
			}
			return nil
		}, take)
}
