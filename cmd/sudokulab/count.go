package main

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/importers/recount"
	"sudokulab/internal/progress"
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
	f.DurationVar(&o.timeout, "timeout", recount.DefaultTimeout, "time to count one puzzle's solutions (0: the default, negative: no limit)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "goroutines counting solutions")
	return cmd
}

func runCount(ctx context.Context, cmd *cobra.Command, o *countOptions) error {
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	d, err := o.openWrite(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	where, err := db.SelectionPredicate(ctx, d, o.where, o.collection, nil)
	if err != nil {
		return err
	}
	ps, err := db.UncountedPuzzles(ctx, d, where)
	if err != nil {
		return err
	}
	start := time.Now()
	bar := progress.NewWork(cmd.ErrOrStderr(), "count", len(ps))
	sum, err := recount.Run(ctx, d, ps, recount.Options{Workers: o.jobs, Timeout: o.timeout,
		Progress: func(written int, s recount.Summary) {
			bar.Add(written, fmt.Sprintf("counted %d, undetermined %d", s.Counted, s.Undetermined))
		}})
	bar.Finish()
	w := cmd.OutOrStdout()
	elapsed := time.Since(start)
	left := sum.Todo - sum.Counted - sum.Undetermined
	if perr := writeRecord(w, o.format, func() error {
		fmt.Fprintf(w, "counted %d of %d puzzles (%d unique, %d with two or more solutions, %d with none); %d still undetermined within %v each; in %v\n",
			sum.Counted, sum.Todo, sum.ByCount[1], sum.ByCount[2], sum.ByCount[0], sum.Undetermined, budgetText(sum.Timeout),
			elapsed.Round(time.Millisecond))
		if left > 0 {
			fmt.Fprintf(w, "%d puzzles not attempted (interrupted); the same command continues with them\n", left)
		}
		return nil
	}, object{{"todo", sum.Todo}, {"counted", sum.Counted}, {"unique", sum.ByCount[1]}, {"two_or_more", sum.ByCount[2]},
		{"none", sum.ByCount[0]}, {"undetermined", sum.Undetermined}, {"not_attempted", left},
		{"timeout_seconds", sum.Timeout.Seconds()}, {"elapsed_seconds", elapsed.Seconds()}}); perr != nil && err == nil {
		err = perr
	}
	return err
}

// budgetText writes a count budget: "1m0s", or "no limit".
func budgetText(d time.Duration) string {
	if d < 0 {
		return "no limit"
	}
	return d.String()
}
