package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
)

type runOptions struct {
	*options
	where, collection string
	puzzleIDs         []int64
	limit             int
	configs           []string
	solver            string
	sets              []string
	runs              int
	seed              int64
	maxEvaluations    int64
	maxGenerations    int64
	timeout           time.Duration
	jobs              int
	experiment        string
	trace             string
	shard             string
	lease             time.Duration
	enqueueOnly       bool
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
	f.StringVar(&o.where, "where", "", whereHelp)
	f.StringVar(&o.collection, "collection", "", "only puzzles of this collection")
	f.Int64SliceVar(&o.puzzleIDs, "puzzle", nil, "only these puzzle ids (repeatable)")
	f.IntVar(&o.limit, "limit", 0, "at most this many puzzles (0: all)")
	f.StringArrayVar(&o.configs, "config", nil, "configuration name (repeatable; see sudokulab configs list)")
	f.StringVar(&o.solver, "solver", "", "solver to run with --set parameters (see sudokulab solvers)")
	f.StringArrayVar(&o.sets, "set", nil, "solver parameter name=value (repeatable, with --solver)")
	f.IntVar(&o.runs, "runs", 1, "seeds per puzzle and configuration")
	f.Int64Var(&o.seed, "seed", 1, "first seed; runs use seed, seed+1, ...")
	f.Int64Var(&o.maxEvaluations, "max-evaluations", 0, "evaluation budget per run (0: none)")
	f.Int64Var(&o.maxGenerations, "max-generations", 0, "generation budget per run (0: none)")
	f.DurationVar(&o.timeout, "timeout", 0, "wall-time budget per run, such as 30s (0: none)")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "runs at a time")
	f.StringVar(&o.experiment, "experiment", "", "experiment name grouping the runs (created if needed)")
	f.StringVar(&o.trace, "trace", runner.DefaultTrace.String(), "trajectory points to store: none, or improve,log,every=N,final")
	f.StringVar(&o.shard, "shard", "", "run only the K-th of N deterministic slices of the plan, as `K/N` (one task of a cluster job array; merge the files with sudokulab merge)")
	f.BoolVar(&o.enqueueOnly, "enqueue-only", false, "put the plan in the work queue and return: sudokulab worker processes, here or on other machines, do the runs")
	f.DurationVar(&o.lease, "lease", runner.DefaultLease, "how long a claim on work lasts without renewal: a killed process's runs go to others after this")
	return cmd
}

func runRun(ctx context.Context, cmd *cobra.Command, o *runOptions) error {
	switch {
	case len(o.configs) == 0 && o.solver == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "say what to run: --config NAME or --solver NAME")
	case len(o.sets) > 0 && o.solver == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "--set needs --solver")
	case o.runs < 1:
		return sudokulab.Errorf(sudokulab.EINVALID, "--runs %d: want at least 1", o.runs)
	case o.seed > math.MaxInt64-int64(o.runs-1):
		return sudokulab.Errorf(sudokulab.EINVALID, "--seed %d --runs %d: the last seed would pass the largest, %d", o.seed, o.runs, int64(math.MaxInt64))
	case o.jobs < 1:
		return sudokulab.Errorf(sudokulab.EINVALID, "--jobs %d: want at least 1", o.jobs)
	case o.maxEvaluations < 0 || o.maxGenerations < 0 || o.timeout < 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "budgets cannot be negative (0 means no limit)")
	case o.lease < 3*time.Second && o.lease != 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "--lease %v: want at least 3s", o.lease)
	}
	shard, shards, err := parseShard(o.shard)
	if err != nil {
		return err
	}
	trace, err := runner.ParseTrace(o.trace)
	if err != nil {
		return err
	}
	sets, err := parseSets(o.sets)
	if err != nil {
		return err
	}
	d, err := o.open(ctx)
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
	spec := db.PlanSpec{
		Where:     where,
		Limit:     o.limit,
		FirstSeed: o.seed,
		SeedCount: int64(o.runs),
		Budget:    db.Budget{MaxEvaluations: o.maxEvaluations, MaxGenerations: o.maxGenerations, TimeoutMS: o.timeout.Milliseconds()},
		Trace:     trace.String(),
		Shard:     shard,
		Shards:    shards,
	}
	if len(o.puzzleIDs) > 0 {
		ids := make([]string, len(o.puzzleIDs))
		for i, id := range o.puzzleIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		if spec.Where, err = db.AndPredicates(spec.Where, "id IN ("+strings.Join(ids, ", ")+")"); err != nil {
			return err
		}
	}
	puzzles, err := db.CountPlanPuzzles(ctx, d, spec)
	if err != nil {
		return err
	}
	if puzzles == 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "no puzzle matches the selection; try sudokulab puzzles list with the same flags")
	}
	var configs []runner.Config
	for _, name := range o.configs {
		c, err := runner.LoadConfig(ctx, d, o.registry, name)
		if err != nil {
			return err
		}
		configs = append(configs, c)
	}
	if o.solver != "" {
		c, _, err := runner.EnsureConfig(ctx, d, o.registry, "", o.solver, sets, "", false)
		if err != nil {
			return err
		}
		configs = append(configs, c)
	}
	names := make([]string, len(configs))
	for i, c := range configs {
		names[i] = c.Name
		spec.ConfigIDs = append(spec.ConfigIDs, c.ID)
	}
	experiment := o.experiment
	if experiment == "" {
		experiment = planName(spec)
	}
	if spec.ExperimentID, err = db.EnsureExperiment(ctx, d, experiment, ""); err != nil {
		return err
	}
	planned := int64(puzzles) * int64(len(configs)) * int64(o.runs)
	share := planned
	if shards > 0 {
		share = planned / int64(shards)
		if int64(shard-1) < planned%int64(shards) {
			share++
		}
	}
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "%d puzzles matched; %d configurations (%s) x %d seeds: %d runs in experiment %s\n",
		puzzles, len(configs), strings.Join(names, ", "), o.runs, planned, experiment)
	if shards > 0 {
		fmt.Fprintf(stderr, "shard %d of %d: %d of the runs\n", shard, shards, share)
	}

	// The plan goes into the queue in short transactions while the workers
	// already take from it; other processes on the same experiment share it.
	doneBefore, err := db.PlanDone(ctx, d, spec)
	if err != nil {
		return err
	}
	if o.enqueueOnly {
		enq, err := db.Enqueue(ctx, d, spec, nil)
		if err != nil {
			return fmt.Errorf("enqueue the plan: %w", err)
		}
		left, err := db.RemainingWork(ctx, d, spec.ExperimentID, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "queued %d new runs in experiment %s (%d recorded before, linked); %d runs wait for a worker: start sudokulab worker --experiment %s\n",
			enq.Added-enq.Linked, experiment, enq.Linked, left.Pending+left.Lapsed, experiment)
		return writeRows(cmd.OutOrStdout(), o.format, []string{"experiment", "planned", "added", "linked", "pending"},
			[][]any{{experiment, enq.Planned, enq.Added, enq.Linked, left.Pending + left.Lapsed}})
	}
	prog := newProgress(stderr)
	prog.Start(int(max(0, share-doneBefore)), int(doneBefore))
	planDone := make(chan struct{})
	var (
		enq    db.EnqueueResult
		enqErr error
	)
	workCtx, cancelWork := context.WithCancelCause(ctx)
	defer cancelWork(nil)
	go func() {
		defer close(planDone)
		enq, enqErr = db.Enqueue(workCtx, d, spec, nil)
		if enqErr != nil {
			cancelWork(enqErr)
		}
	}()
	q := &runner.DBQueue{DB: d, Worker: runner.Worker(""), ExperimentID: spec.ExperimentID, Lease: o.lease}
	sum, err := runner.Work(workCtx, q, &runner.DBCatalog{DB: d, Registry: o.registry}, runner.WorkOptions{
		Options:  runner.Options{Jobs: o.jobs, Progress: prog},
		Lease:    o.lease,
		PlanDone: planDone,
		Configs:  configs,
	})
	cancelWork(nil)
	<-planDone
	if enqErr != nil && !errors.Is(enqErr, context.Canceled) {
		return fmt.Errorf("enqueue the plan: %w", enqErr)
	}
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		fmt.Fprintf(stderr, "interrupted: %d runs recorded by this command; run the same command again to do the rest\n", sum.Recorded)
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	left, err := q.Left(ctx)
	if err != nil {
		return err
	}
	if left.Claimable() {
		// The workers stopped with the plan unfinished: never report
		// success for work not done.
		return fmt.Errorf("the workers stopped with %d runs of experiment %s waiting (%d recorded here): run the same command again to do them",
			left.Pending+left.Lapsed, experiment, sum.Recorded)
	}
	if sum.Duplicates > 0 {
		fmt.Fprintf(stderr, "%d runs were recorded by another process first and were dropped here\n", sum.Duplicates)
	}
	fmt.Fprintf(stderr, "recorded %d runs; %d were recorded before (%d of them by other experiments, now linked to this one)\n",
		sum.Recorded, doneBefore+enq.Linked, enq.Linked)
	if left.Abandoned > 0 {
		fmt.Fprintf(stderr, "%d runs were abandoned after their workers died %d times: see sudokulab experiments show %s\n",
			left.Abandoned, db.DefaultMaxAttempts, experiment)
	}
	// The summary counts what the experiment holds for each configuration,
	// runs linked from earlier experiments included, as
	// experiment_run_results does.
	held, err := db.ExperimentRunCounts(ctx, d, spec.ExperimentID, spec.ConfigIDs)
	if err != nil {
		return err
	}
	rows := make([][]any, len(held))
	for i, c := range held {
		var rate, meanEffort, unit, meanGens any
		if c.Runs > 0 {
			rate = percent{100 * float64(c.Solved) / float64(c.Runs), 1}
		}
		if c.Solved > 0 {
			meanEffort = fixed{c.SolvedEffort / float64(c.Solved), 1}
			unit = c.EffortUnit
			meanGens = fixed{c.SolvedGenerations / float64(c.Solved), 1}
		}
		rows[i] = []any{c.Config, c.Runs, c.Linked, c.Solved, rate, meanEffort, unit, meanGens, c.Errors}
	}
	return writeRows(cmd.OutOrStdout(), o.format,
		[]string{"config", "runs", "linked", "solved", "success", "mean_effort_solved", "effort_unit", "mean_generations_solved", "errors"}, rows)
}

// planName names the experiment of a run given without --experiment:
// "run-" and the start of a hash of what selects the plan, so that the
// same command always lands in the same experiment, resuming it, and
// several processes given the same command share one plan.
func planName(spec db.PlanSpec) string {
	h := sha256.New()
	fmt.Fprintf(h, "where %q\nlimit %d\nconfigs %v\nseeds %d+%d\nbudget %d %d %d\nshard %d/%d\n",
		spec.Where, spec.Limit, spec.ConfigIDs, spec.FirstSeed, spec.SeedCount,
		spec.Budget.MaxEvaluations, spec.Budget.MaxGenerations, spec.Budget.TimeoutMS, spec.Shard, spec.Shards)
	return "run-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// parseShard reads --shard K/N; "" is the whole plan (0, 0).
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, sudokulab.Errorf(sudokulab.EINVALID, "--shard %q: want K/N with 1 <= K <= N, such as 3/8", s)
	}
	return k, n, nil
}
