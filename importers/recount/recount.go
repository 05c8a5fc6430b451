// Package recount counts again, on every core, the solutions of stored
// puzzles whose count is not known (the import's budget ran out, or no
// count was made), and stores each count as it comes: the work of
// sudokulab count. A count that finishes is stored as counted (with the
// solution when unique); one cut short again stays undetermined, with the
// time it took. The counts are written in short transactions
// (db.BatchWriter), so an interruption loses only the puzzles being
// counted and the same count again skips those counted since.
package recount

import (
	"context"
	"fmt"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/workpool"
	"sudokulab/solvers/exact"
)

// DefaultTimeout is the budget of one puzzle's count when Options.Timeout
// is 0: longer than the import's (pipeline.DefaultCountTimeout), as
// counting again is for the puzzles the import's budget left
// undetermined.
const DefaultTimeout = time.Minute

// DefaultBatch and DefaultEvery bound what a transaction of counts waits
// for: the counts of a killed count are lost only for the puzzles in
// flight.
const (
	DefaultBatch = 50
	DefaultEvery = 250 * time.Millisecond
)

// Options tune Run. Zero values mean the documented defaults.
type Options struct {
	// Workers is the number of goroutines counting (0: one per CPU).
	Workers int
	// Timeout is the budget of one puzzle's count (0: DefaultTimeout;
	// negative: no limit).
	Timeout time.Duration
	// Batch bounds the counts written in one transaction (0:
	// DefaultBatch), Every the time between two transactions while counts
	// wait (0: DefaultEvery).
	Batch int
	Every time.Duration
	// Progress, when not nil, is called after each transaction with the
	// number of counts it wrote and the Summary so far.
	Progress func(written int, s Summary)
}

// Summary is what Run did.
type Summary struct {
	// Todo is the number of puzzles given; Counted those whose count is
	// now known and stored, by count in ByCount (0, 1, 2 or more);
	// Undetermined those whose count was cut short again. The rest were
	// not attempted (Run was stopped).
	Todo, Counted, Undetermined int
	ByCount                     [3]int
	// Timeout is the budget Run gave each count: Options.Timeout, or
	// DefaultTimeout for 0 (negative: no limit).
	Timeout time.Duration
}

// Run counts the solutions of puzzles (as db.UncountedPuzzles lists them)
// on o.Workers goroutines and stores each count in d (db.SetCount). When
// ctx ends, the counts finished are stored all the same, and Run returns
// the cause of the end with the Summary of what was stored.
func Run(ctx context.Context, d *db.DB, puzzles []sudokulab.Puzzle, o Options) (Summary, error) {
	timeout, batch, every := o.Timeout, o.Batch, o.Every
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	sum := Summary{Todo: len(puzzles), Timeout: timeout}
	if batch <= 0 {
		batch = DefaultBatch
	}
	if every <= 0 {
		every = DefaultEvery
	}
	w := db.NewBatchWriter(d, db.SetCount, db.BatchOptions[*sudokulab.Puzzle]{
		Size: batch,
		Committed: func(ps []*sudokulab.Puzzle) {
			sum.add(ps)
			if o.Progress != nil {
				o.Progress(len(ps), sum)
			}
		},
	})
	// An exact solver keeps its buffers from one count to the next.
	solvers := sync.Pool{New: func() any { return new(exact.Solver) }}
	err := workpool.Run(ctx, puzzles, workpool.Options{Workers: o.Workers, Every: every, Tick: func() error { return w.Flush(ctx) }},
		func(ctx context.Context, p sudokulab.Puzzle, emit func(*sudokulab.Puzzle) error) error {
			s := solvers.Get().(*exact.Solver)
			defer solvers.Put(s)
			q, _, err := pipeline.Count(ctx, s, p.Givens, timeout)
			if err != nil {
				return fmt.Errorf("count puzzle %d: %w", p.ID, err)
			}
			q.ID = p.ID
			return emit(q)
		}, func(q *sudokulab.Puzzle) error { return w.Add(ctx, q) })
	err = w.Finish(ctx, err) // before sum is read: it counts what Finish stores
	return sum, err
}

// add counts the puzzles whose counts were stored.
func (s *Summary) add(ps []*sudokulab.Puzzle) {
	for _, p := range ps {
		if p.SolutionCount != nil {
			s.Counted++
			s.ByCount[min(*p.SolutionCount, 2)]++
		} else {
			s.Undetermined++
		}
	}
}
