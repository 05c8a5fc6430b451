package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/compare"
)

type compareOptions struct {
	*options
	configs    []string
	experiment string
	where      string
	time       string
	resamples  int
	level      float64
	seed       uint64
	ranking    rankingFlags
}

func newCompareCmd(opts *options) *cobra.Command {
	o := &compareOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "compare --config A --config B [--config C ...]",
		Short: "Compare two configurations per puzzle (Fisher, log-rank, Mann-Whitney, ERT), or rank many (Friedman, Nemenyi, Wilcoxon)",
		Long: `compare compares two configurations, A (the first --config) and B, on their
recorded runs that ended solved, unsolved or timeout (canceled runs and
errors are left out). One row per puzzle either ran on, then the row "all"
over the puzzles both ran on:

  runs_a, solved_a, runs_b, solved_b  the runs and the solved runs of each
  fisher_p           Fisher's exact test (two-sided) of solved/unsolved by configuration
  median_a, median_b the median time to solve of the solved runs
  logrank_p          the log-rank test of the times to solve, runs that did not
                     solve censored at the time they spent (the "all" row
                     stratified by puzzle)
  mw_u, mw_p         the Mann-Whitney U test on the solved runs' times (U of A;
                     exact for small samples without ties)
  ert_a, ert_b       the expected running time: the time of all runs over the
                     number solved ("inf" when none), with a percentile
                     bootstrap interval (_low, _high; resampled within each
                     puzzle in the "all" row)
  *_holm             the p-values adjusted by Holm's method across the puzzles

Time is --time evaluations (default: the solver's effort, run_results.effort,
in evaluations, or in search nodes for the exact solver; the two do not
compare), seconds (wall clock) or cpu (CPU seconds). --where chooses the
puzzles with SQL over the puzzle_catalog view; --experiment keeps the runs of
one experiment. The bootstrap is deterministic for --seed. The database is
only read. docs/analysis.md explains the statistics.

With three or more --config, or none and an --experiment (all of its
configurations), compare ranks them instead (also two, given --measure,
--alpha, --par-k or --pairs): ` + rankingHelp + ".",
		Example: `  sudokulab compare --config franco-tabu-table2 --config franco-tabu-table2-ac3
  sudokulab compare --config exact --config soto-cuckoo --time cpu --where "collection = 'paper-puzzles'"
  sudokulab -O csv compare --config A --config B --experiment ga-table1 > compare.csv
  sudokulab compare --experiment tuning --measure success
  sudokulab compare --config A --config B --config C --measure par --pairs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.configs, "config", nil, "a configuration to compare (exactly two: A, then B)")
	f.StringVar(&o.experiment, "experiment", "", "only the runs of this experiment")
	f.StringVar(&o.where, "where", "", "only the puzzles matching this SQL predicate over the puzzle_catalog view (docs/schema.md)")
	f.StringVar(&o.time, "time", string(compare.Evaluations), "time to solve in: evaluations (the solver's effort), seconds (wall clock) or cpu (CPU seconds)")
	f.IntVar(&o.resamples, "resamples", compare.DefaultResamples, "bootstrap resamples of each ERT interval")
	f.Float64Var(&o.level, "level", compare.DefaultLevel, "confidence level of the ERT intervals")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the bootstrap")
	o.ranking.register(f)
	return cmd
}

func runCompare(ctx context.Context, cmd *cobra.Command, o *compareOptions) error {
	if len(o.configs) != 2 || o.ranking.asked(cmd) {
		return runRanking(ctx, cmd, o)
	}
	if len(o.configs) != 2 {
		return sudokulab.Errorf(sudokulab.EINVALID, "compare needs --config twice (A and B), got %d", len(o.configs))
	}
	measure, err := compare.ParseMeasure(o.time)
	if err != nil {
		return err
	}
	if err := compare.CheckBootstrap(o.resamples, o.level); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	res, err := compare.Compute(ctx, d, compare.Options{
		A: o.configs[0], B: o.configs[1],
		Experiment: o.experiment, Where: o.where, Time: measure,
		Resamples: o.resamples, Level: o.level, Seed: o.seed,
	})
	if err != nil {
		return err
	}
	runsA, runsB := res.Runs()
	for i, n := range []int{runsA, runsB} {
		if n == 0 {
			return sudokulab.Errorf(sudokulab.ENOTFOUND, "compare: no runs of %s on the puzzles chosen (--experiment %q --where %q)",
				o.configs[i], o.experiment, o.where)
		}
	}
	w := cmd.OutOrStdout()
	if o.format == "table" {
		fmt.Fprintf(w, "a = %s, b = %s; times in %s; %d puzzles, %d with runs of both; ERT intervals %g %% (%d resamples)\n",
			o.configs[0], o.configs[1], res.Unit, len(res.Puzzles), res.SharedPuzzles, 100*o.level, o.resamples)
		if res.Untimed > 0 {
			fmt.Fprintf(w, "%d runs have no %s recorded: they count as runs, not in the times\n", res.Untimed, res.Unit)
		}
	}
	t := res.Table()
	return writeRows(w, o.format, t.Columns, t.Rows)
}
