package main

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/internal/progress"
	"sudokulab/internal/shell"
	"sudokulab/runner"
)

// runOptions are run's flags: most go straight into the plan's spec.
type runOptions struct {
	*options
	spec         runner.Spec
	sets         []string
	jobs         int
	trace, shard string
}

func newRunCmd(opts *options) *cobra.Command {
	o := &runOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run solver configurations on puzzles selected with SQL and record every run",
		Long: `run applies each configuration (--config, or --solver with --set) to each
selected puzzle with --runs seeds (--seed, --seed+1, ...), on --jobs cores,
and records every finished run and its trajectory in the database.

The plan becomes rows of work in the database (the table work), grouped in
an experiment: --experiment, or one named after the plan ("run-" and a
hash), so that repeating a command resumes it. Any number of run and
worker processes, on this machine or others sharing the database, take
work from it in small batches under a lease and finish the plan exactly
once between them; run returns when the whole plan is recorded. A run is
identified by its puzzle, configuration, seed and budget: runs recorded
earlier, by any experiment, are not run again but linked to this one.
The summary on standard output counts, per configuration, every run the
experiment holds (as the view experiment_run_results does), and in linked
those another experiment recorded first.
Ctrl-C stops promptly, keeps every run that finished and hands the rest
back; a process killed outright loses its unfinished runs to the others
when their --lease lapses.

--shard K/N runs the K-th of N deterministic slices of the plan, for one
task of a cluster job array writing its own file; sudokulab merge joins
the files.

Puzzles are selected from the view puzzle_catalog (docs/schema.md) by
--where, --collection and --puzzle, combined with AND.`,
		Example: `  sudokulab run --collection reseda-2012 --solver exact --runs 3
  sudokulab run --where "collection = 'sato-inoue-2010' AND givens < 30" --config exact --runs 10 --experiment try
  sudokulab run --puzzle 4 --solver exact --timeout 10s --trace improve,every=100
  sudokulab --db shard-$SLURM_ARRAY_TASK_ID.db run --collection hard --config reseda-sec5.2-brute-force --runs 100 --shard $SLURM_ARRAY_TASK_ID/16`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.spec.Where, "where", "", whereHelp)
	f.StringVar(&o.spec.Collection, "collection", "", "only puzzles of this collection")
	f.Int64SliceVar(&o.spec.PuzzleIDs, "puzzle", nil, "only these puzzle ids (repeatable)")
	f.IntVar(&o.spec.Limit, "limit", 0, "at most this many puzzles (0: all)")
	f.StringArrayVar(&o.spec.Configs, "config", nil, "configuration name (repeatable; see sudokulab configs list)")
	f.StringVar(&o.spec.Solver, "solver", "", "solver to run with --set parameters (see sudokulab solvers)")
	f.StringArrayVar(&o.sets, "set", nil, "solver parameter name=value (repeatable, with --solver)")
	f.IntVar(&o.spec.Seeds, "runs", 1, "seeds per puzzle and configuration")
	f.Int64Var(&o.spec.FirstSeed, "seed", 1, "first seed; runs use seed, seed+1, ...")
	f.Int64Var(&o.spec.Budget.MaxEvaluations, "max-evaluations", 0, "evaluation budget per run (0: none)")
	f.Int64Var(&o.spec.Budget.MaxGenerations, "max-generations", 0, "generation budget per run (0: none)")
	f.DurationVar(&o.spec.Timeout, "timeout", 0, "wall-time budget per run, such as 30s (0: none)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "runs at a time")
	f.StringVar(&o.spec.Experiment, "experiment", "", "experiment name grouping the runs (created if needed)")
	f.StringVar(&o.trace, "trace", runner.DefaultTrace.String(), "trajectory points to store: none, or improve,log,every=N,final")
	f.StringVar(&o.shard, "shard", "", "run only the K-th of N deterministic slices of the plan, as `K/N` (one task of a cluster job array; merge the files with sudokulab merge)")
	f.BoolVar(&o.spec.EnqueueOnly, "enqueue-only", false, "put the plan in the work queue and return: sudokulab worker processes, here or on other machines, do the runs")
	f.DurationVar(&o.spec.Lease, "lease", runner.DefaultLease, "how long a claim on work lasts without renewal: a killed process's runs go to others after this")
	return cmd
}

func runRun(ctx context.Context, cmd *cobra.Command, o *runOptions) error {
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	// The first error of the flags' values or the spec, before the database is opened.
	spec, errs := o.spec, make([]error, 3)
	spec.Shard, spec.Shards, errs[0] = runner.ParseShard(o.shard)
	spec.Trace, errs[1] = runner.ParseTrace(o.trace)
	spec.Params, errs[2] = parseSets(o.sets)
	if err := cmp.Or(errs[0], errs[1], errs[2], spec.Check()); err != nil {
		return err
	}
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	stderr := cmd.ErrOrStderr()
	begin := func(sum runner.Summary) { // what the plan holds, before the work starts
		fmt.Fprintf(stderr, "%d puzzles matched; %d configurations (%s) x %d seeds: %d runs in experiment %s\n",
			sum.Puzzles, len(sum.Configs), strings.Join(sum.ConfigNames(), ", "), spec.Seeds, sum.Planned, sum.Experiment)
		if spec.Shards > 0 {
			fmt.Fprintf(stderr, "shard %d of %d: %d of the runs\n", spec.Shard, spec.Shards, sum.Total)
		}
	}
	sum, err := runner.Run(ctx, d, o.registry, spec, runner.Options{Jobs: o.jobs, Progress: progress.NewRuns(stderr), Begin: begin})
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "interrupted: %d runs recorded by this command; run the same command again to do the rest\n", sum.Recorded)
		return ctx.Err()
	case err != nil:
		return err
	case spec.EnqueueOnly:
		enq, pending := sum.Enqueued, sum.Left.Pending+sum.Left.Lapsed
		fmt.Fprintf(stderr, "queued %d new runs in experiment %s (%d recorded before, linked); %d runs wait for a worker: start sudokulab worker --experiment %s\n",
			enq.Added-enq.Linked, sum.Experiment, enq.Linked, pending, shell.Quote(sum.Experiment))
		return writeRows(cmd.OutOrStdout(), o.format, []string{"experiment", "planned", "added", "linked", "pending"},
			[][]any{{sum.Experiment, enq.Planned, enq.Added, enq.Linked, pending}})
	}
	if sum.Duplicates > 0 {
		fmt.Fprintf(stderr, "%d runs were recorded by another process first and were dropped here\n", sum.Duplicates)
	}
	fmt.Fprintf(stderr, "recorded %d runs; %d were recorded before (%d of them by other experiments, now linked to this one)\n",
		sum.Recorded, sum.Skipped, sum.Enqueued.Linked)
	if sum.Abandoned > 0 {
		fmt.Fprintf(stderr, "%d runs were abandoned after their workers died %d times: see sudokulab experiments show %s\n",
			sum.Abandoned, db.DefaultMaxAttempts, sum.Experiment)
	}
	rows := make([][]any, len(sum.Held))
	for i, c := range sum.Held {
		var rate, effort, unit, gens any
		if c.Runs > 0 {
			rate = percent{100 * float64(c.Solved) / float64(c.Runs), 1}
		}
		if n := float64(c.Solved); n > 0 {
			effort, unit, gens = fixed{c.SolvedEffort / n, 1}, c.EffortUnit, fixed{c.SolvedGenerations / n, 1}
		}
		rows[i] = []any{c.Config, c.Runs, c.Linked, c.Solved, rate, effort, unit, gens, c.Errors}
	}
	return writeRows(cmd.OutOrStdout(), o.format,
		[]string{"config", "runs", "linked", "solved", "success", "mean_effort_solved", "effort_unit", "mean_generations_solved", "errors"}, rows)
}
