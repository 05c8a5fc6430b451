package main

import (
	"context"
	"errors"
	"fmt"
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
}

func newRunCmd(opts *options) *cobra.Command {
	o := &runOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run solver configurations on puzzles selected with SQL and record every run",
		Long: `run applies each configuration (--config, or --solver with --set) to each
selected puzzle with --runs seeds (--seed, --seed+1, ...), on --jobs cores,
and records every finished run and its trajectory in the database.

A run is identified by its puzzle, configuration, seed and budget: runs
already recorded are skipped, so repeating an interrupted command finishes
it, and two processes on one database never record a run twice. Ctrl-C
stops promptly and keeps every run that finished.

Puzzles are selected from the view puzzle_catalog (docs/schema.md) by
--where, --collection and --puzzle, combined with AND.`,
		Example: `  sudokulab run --collection reseda-2012 --solver exact --runs 3
  sudokulab run --where "collection = 'sato-inoue-2010' AND givens < 30" --config exact --runs 10 --experiment try
  sudokulab run --puzzle 4 --solver exact --timeout 10s --trace improve,every=100`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.where, "where", "", "SQL predicate over the view puzzle_catalog")
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
	case o.jobs < 1:
		return sudokulab.Errorf(sudokulab.EINVALID, "--jobs %d: want at least 1", o.jobs)
	case o.maxEvaluations < 0 || o.maxGenerations < 0 || o.timeout < 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "budgets cannot be negative (0 means no limit)")
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

	plan := runner.Plan{
		Budget:  sudokulab.Budget{MaxEvaluations: o.maxEvaluations, MaxGenerations: o.maxGenerations},
		Timeout: o.timeout,
	}
	pred := puzzlePredicate(o.where, o.collection)
	if len(o.puzzleIDs) > 0 {
		ids := make([]string, len(o.puzzleIDs))
		for i, id := range o.puzzleIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		pred = andPredicates(pred, "id IN ("+strings.Join(ids, ", ")+")")
	}
	if plan.Puzzles, err = db.ListPuzzles(ctx, d, pred, o.limit); err != nil {
		return err
	}
	if len(plan.Puzzles) == 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "no puzzle matches the selection; try sudokulab puzzles list with the same flags")
	}
	for _, name := range o.configs {
		c, err := runner.LoadConfig(ctx, d, o.registry, name)
		if err != nil {
			return err
		}
		plan.Configs = append(plan.Configs, c)
	}
	if o.solver != "" {
		c, _, err := runner.EnsureConfig(ctx, d, o.registry, "", o.solver, sets, "", false)
		if err != nil {
			return err
		}
		plan.Configs = append(plan.Configs, c)
	}
	for i := range o.runs {
		plan.Seeds = append(plan.Seeds, o.seed+int64(i))
	}
	if o.experiment != "" {
		if plan.ExperimentID, err = db.EnsureExperiment(ctx, d, o.experiment, ""); err != nil {
			return err
		}
	}
	stderr := cmd.ErrOrStderr()
	names := make([]string, len(plan.Configs))
	for i, c := range plan.Configs {
		names[i] = c.Name
	}
	fmt.Fprintf(stderr, "%d puzzles matched; %d configurations (%s) x %d seeds: %d runs\n",
		len(plan.Puzzles), len(plan.Configs), strings.Join(names, ", "), len(plan.Seeds), plan.Total())

	sum, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: o.jobs, Trace: trace, Progress: newProgress(stderr)})
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "interrupted: %d runs recorded by this command, %d of %d in all; run the same command again to do the rest\n",
			sum.Recorded, sum.Skipped+sum.Recorded+sum.Duplicates, sum.Total)
	}
	if err != nil {
		return err
	}
	if sum.Duplicates > 0 {
		fmt.Fprintf(stderr, "%d runs were recorded by another process first and were dropped here\n", sum.Duplicates)
	}
	rows := make([][]any, len(sum.Configs))
	for i, c := range sum.Configs {
		var rate, meanEvals, meanGens any
		if c.Runs > 0 {
			rate = fmt.Sprintf("%.1f%%", 100*float64(c.Solved)/float64(c.Runs))
		}
		if c.Solved > 0 {
			meanEvals = fmt.Sprintf("%.1f", float64(c.SolvedEvaluations)/float64(c.Solved))
			meanGens = fmt.Sprintf("%.1f", float64(c.SolvedGenerations)/float64(c.Solved))
		}
		rows[i] = []any{c.Name, c.Runs, c.Solved, rate, meanEvals, meanGens, c.Errors}
	}
	fmt.Fprintf(stderr, "recorded %d runs, skipped %d already recorded\n", sum.Recorded, sum.Skipped)
	return writeRows(cmd.OutOrStdout(), o.format,
		[]string{"config", "runs", "solved", "success", "mean_evaluations_solved", "mean_generations_solved", "errors"}, rows)
}

// andPredicates joins two SQL predicates with AND; either may be empty.
// The newline ends a trailing "--" comment in a.
func andPredicates(a, b string) string {
	switch {
	case strings.TrimSpace(a) == "":
		return b
	case strings.TrimSpace(b) == "":
		return a
	}
	return "(" + a + "\n) AND (" + b + ")"
}
