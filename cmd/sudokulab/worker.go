package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"sudokulab/internal/progress"
	"sudokulab/runner"
)

type workerOptions struct {
	*options
	experiment string
	jobs       int
	lease      time.Duration
	follow     bool
}

func newWorkerCmd(opts *options) *cobra.Command {
	o := &workerOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Do queued runs of experiments planned by sudokulab run, alongside other workers",
		Long: `worker takes runs from the work queue that sudokulab run fills (the table
work), on --jobs cores, and records them, until the queue is empty; with
--follow it then waits for new work until interrupted. Start one on every
machine that shares the database (a postgres:// URL in --db or
$SUDOKULAB_DB): between them they do every planned run exactly once.

Work is claimed in small batches under a lease that the worker renews while
it runs; Ctrl-C records what finished and hands the rest back at once, and a
worker killed outright loses its unfinished runs to the others when the
lease lapses (--lease). A run whose workers die three times is left alone
and reported as abandoned by sudokulab experiments show.

With --experiment, a worker started before the run or tune that creates the
experiment waits for it, and for its first work, saying so once.`,
		Example: `  sudokulab --db postgres://lab@db.example.org/lab worker
  sudokulab worker --experiment reseda-table1 --jobs 4
  sudokulab worker --follow`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorker(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.experiment, "experiment", "", "only this experiment's work (default: any, oldest first)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "runs at a time")
	f.DurationVar(&o.lease, "lease", runner.DefaultLease, "how long a claim lasts without renewal")
	f.BoolVar(&o.follow, "follow", false, "wait for new work when the queue is empty, until interrupted")
	return cmd
}

func runWorker(ctx context.Context, cmd *cobra.Command, o *workerOptions) error {
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	if err := runner.CheckLease(o.lease); err != nil {
		return err
	}
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	stderr := cmd.ErrOrStderr()
	sum, err := runner.Run(ctx, d, o.registry, runner.Spec{Queued: true, Experiment: o.experiment, Lease: o.lease, Follow: o.follow},
		runner.Options{Jobs: o.jobs, Progress: progress.NewRuns(stderr), Begin: func(sum runner.Summary) {
			fmt.Fprintf(stderr, "worker %s: %d runs pending in %s\n", sum.Worker, sum.Total, d.Path())
		}, WaitExperiment: func(name string) {
			fmt.Fprintf(stderr, "worker: no experiment %s yet: waiting for the run or tune that creates it (Ctrl-C stops)\n", name)
		}})
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "interrupted: %d runs recorded by this worker; unfinished ones handed back\n", sum.Recorded)
		return err
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "recorded %d runs; the queue is empty\n", sum.Recorded)
	rows := make([][]any, len(sum.Configs))
	for i, c := range sum.Configs {
		rows[i] = []any{c.Name, c.Runs, c.Solved, c.Errors}
	}
	return writeRows(cmd.OutOrStdout(), o.format, []string{"config", "runs", "solved", "errors"}, rows)
}
