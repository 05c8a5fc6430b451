package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/solvers/exact"
)

// defaultCountTimeout is count's budget per puzzle: longer than the
// import's, as count is for the puzzles the import's budget left
// undetermined.
const defaultCountTimeout = time.Minute

// countBatch and countEvery bound what a commit of counts waits for: the
// counts of a killed count are lost only for the puzzles in flight.
const (
	countBatch = 50
	countEvery = 250 * time.Millisecond
)

type countOptions struct {
	*options
	where, collection string
	timeout           time.Duration
	jobs              int
}

func newCountCmd(opts *options) *cobra.Command {
	o := &countOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "count",
		Short: "Count the solutions of puzzles whose count is undetermined or unknown",
		Long: `count counts again, with the exact solver on every core, the solutions of the
puzzles whose solution count is undetermined (the budget of the import,
puzzles add or an earlier count ran out: count_status 'undetermined') or
unknown (solution_count NULL), selected with --collection and --where over
the view puzzle_catalog, giving each puzzle up to --timeout. A count that
finishes is stored (count_status 'counted', the solution when unique); one
cut short again stays undetermined, with the time it took.

Counts are committed every 50 puzzles or 250 ms, so an interruption (Ctrl-C,
kill -9) loses only the puzzles being counted; the same command again skips
the puzzles counted since.`,
		Example: `  sudokulab count
  sudokulab count --collection large-25x25 --timeout 10m --jobs 8
  sudokulab count --where "size = 16 AND givens > 100"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCount(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.where, "where", "", whereHelp)
	f.StringVar(&o.collection, "collection", "", "only puzzles of this collection")
	f.DurationVar(&o.timeout, "timeout", defaultCountTimeout, "time to count one puzzle's solutions (0: the default, negative: no limit)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "goroutines counting solutions")
	return cmd
}

// countSummary is what a count did.
type countSummary struct {
	todo, counted, undetermined int
	byCount                     [3]int // counted puzzles with 0, 1, 2+ solutions
}

func runCount(ctx context.Context, cmd *cobra.Command, o *countOptions) error {
	if o.jobs < 1 {
		return sudokulab.Errorf(sudokulab.EINVALID, "--jobs %d: want at least 1", o.jobs)
	}
	timeout := o.timeout
	if timeout == 0 {
		timeout = defaultCountTimeout
	}
	d, err := o.openWrite(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := checkCollection(ctx, d, o.collection); err != nil {
		return err
	}
	where, err := puzzlePredicate(o.where, o.collection)
	if err != nil {
		return err
	}
	if where, err = db.AndPredicates("solution_count IS NULL", where); err != nil {
		return err
	}
	ps, err := db.ListPuzzles(ctx, d, where, 0)
	if err != nil {
		return err
	}
	start := time.Now()
	sum := countSummary{todo: len(ps)}
	prog := newCountProgress(cmd.ErrOrStderr(), len(ps))

	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan *sudokulab.Puzzle)
	results := make(chan *sudokulab.Puzzle, o.jobs)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		for i := range ps {
			select {
			case jobs <- &ps[i]:
			case <-cctx.Done():
				return
			}
		}
	})
	for range o.jobs {
		wg.Go(func() {
			var s exact.Solver
			for p := range jobs {
				q, _, err := pipeline.Count(cctx, &s, p.Givens, timeout)
				if err != nil {
					cancel(fmt.Errorf("count puzzle %d: %w", p.ID, err))
					return
				}
				q.ID = p.ID
				results <- q
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	// Commit in small batches; what is counted when the counting stops
	// is committed all the same.
	var pending []*sudokulab.Puzzle
	flush := func(ctx context.Context) error {
		if len(pending) == 0 {
			return nil
		}
		err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
			for _, p := range pending {
				if err := db.SetCount(ctx, tx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, p := range pending {
			if p.SolutionCount != nil {
				sum.counted++
				sum.byCount[min(*p.SolutionCount, 2)]++
			} else {
				sum.undetermined++
			}
		}
		prog.add(len(pending), sum)
		pending = pending[:0]
		return nil
	}
	tick := time.NewTicker(countEvery)
	defer tick.Stop()
	var werr error
loop:
	for {
		select {
		case p, ok := <-results:
			if !ok {
				break loop
			}
			pending = append(pending, p)
			if len(pending) >= countBatch {
				werr = flush(cctx)
			}
		case <-tick.C:
			werr = flush(cctx)
		}
		if werr != nil {
			cancel(werr)
			for range results {
			}
			break
		}
	}
	if werr == nil {
		bg, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		werr = flush(bg)
		stop()
	}
	prog.finish()
	w := cmd.OutOrStdout()
	elapsed := time.Since(start)
	left := sum.todo - sum.counted - sum.undetermined
	if perr := writeRecord(w, o.format, func() error {
		fmt.Fprintf(w, "counted %d of %d puzzles (%d unique, %d with two or more solutions, %d with none); %d still undetermined within %v each; in %v\n",
			sum.counted, sum.todo, sum.byCount[1], sum.byCount[2], sum.byCount[0], sum.undetermined, budgetText(timeout),
			elapsed.Round(time.Millisecond))
		if left > 0 {
			fmt.Fprintf(w, "%d puzzles not attempted (interrupted); the same command continues with them\n", left)
		}
		return nil
	}, object{{"todo", sum.todo}, {"counted", sum.counted}, {"unique", sum.byCount[1]}, {"two_or_more", sum.byCount[2]},
		{"none", sum.byCount[0]}, {"undetermined", sum.undetermined}, {"not_attempted", left},
		{"timeout_seconds", timeout.Seconds()}, {"elapsed_seconds", elapsed.Seconds()}}); perr != nil && werr == nil {
		werr = perr
	}
	if werr != nil {
		return werr
	}
	if err := context.Cause(cctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// budgetText writes a count budget: "1m0s", or "no limit".
func budgetText(d time.Duration) string {
	if d < 0 {
		return "no limit"
	}
	return d.String()
}

// countProgress shows a count's progress on standard error: a bar on a
// terminal, a line every few seconds otherwise.
type countProgress struct {
	w               io.Writer
	bar             *progressbar.ProgressBar
	todo, done      int
	start, lastLine time.Time
}

func newCountProgress(w io.Writer, todo int) *countProgress {
	p := &countProgress{w: w, todo: todo, start: time.Now(), lastLine: time.Now()}
	if todo > 0 && isTerminal(w) {
		p.bar = progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("count"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

func (p *countProgress) add(n int, s countSummary) {
	p.done += n
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("count (counted %d, undetermined %d)", s.counted, s.undetermined))
		_ = p.bar.Add(n)
		return
	}
	if now := time.Now(); now.Sub(p.lastLine) >= 5*time.Second {
		p.lastLine = now
		fmt.Fprintf(p.w, "count %d/%d: counted %d, undetermined %d, elapsed %v\n",
			p.done, p.todo, s.counted, s.undetermined, now.Sub(p.start).Round(time.Second))
	}
}

func (p *countProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
