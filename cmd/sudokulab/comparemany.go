package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/ranking"
)

// rankingHelp is the part of compare's help about ranking many
// configurations.
const rankingHelp = `each configuration gets a score per
puzzle, --measure ert (default: the expected running time in --time),
success (the success rate) or par (PAR-k of CPU seconds: a run that did not
solve counts --par-k times its time budget, or without one the most CPU
seconds a run spent on the puzzle); the puzzles where every configuration
has a score are ranked, Friedman's test asks whether the mean ranks differ,
and every pair is tested by Nemenyi's test on the mean ranks and by
Wilcoxon's signed-rank test on the paired scores, Holm-adjusted. Each
configuration's verdict is "best", "tied with best", or "worse than" the
best (Friedman and the pair's adjusted Wilcoxon p below --alpha). The table
holds the ranking; --pairs prints the pairs instead`

// rankingFlags are compare's flags for ranking many configurations.
type rankingFlags struct {
	measure string
	parK    float64
	alpha   float64
	pairs   bool
}

func (r *rankingFlags) register(f *pflag.FlagSet) {
	f.StringVar(&r.measure, "measure", string(ranking.ERT), "with many configurations: rank by ert, success or par")
	f.Float64Var(&r.parK, "par-k", ranking.DefaultParK, "with --measure par: the penalty factor k of PAR-k")
	f.Float64Var(&r.alpha, "alpha", ranking.DefaultAlpha, "with many configurations: the significance level of the verdicts and of Nemenyi's critical difference")
	f.BoolVar(&r.pairs, "pairs", false, "with many configurations: print the post-hoc tests of every pair instead of the ranking")
}

// asked reports whether a ranking flag was given, which ranks two
// configurations too.
func (r *rankingFlags) asked(cmd *cobra.Command) bool {
	for _, name := range []string{"measure", "par-k", "alpha", "pairs"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// runRanking ranks the configurations compare was given.
func runRanking(ctx context.Context, cmd *cobra.Command, o *compareOptions) error {
	if len(o.configs) == 0 && o.experiment == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "compare needs --config twice or more, or an --experiment whose configurations to rank")
	}
	measure, err := ranking.ParseMeasure(o.ranking.measure)
	if err != nil {
		return err
	}
	timeMeasure, err := compare.ParseMeasure(o.time)
	if err != nil {
		return err
	}
	if err := cmp.Or(ranking.CheckAlpha(o.ranking.alpha), ranking.CheckParK(o.ranking.parK)); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	// Time is asked for as compare asks for it: evaluations by default,
	// refused over mixed effort units.
	res, err := ranking.Compute(ctx, d, db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where},
		ranking.Options{Measure: measure, Time: timeMeasure, ParK: o.ranking.parK, Alpha: o.ranking.alpha})
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if o.format == "table" {
		fmt.Fprintln(w, res.Summary())
	}
	t := res.Table()
	if o.ranking.pairs {
		t = res.PairTable()
	}
	return writeRows(w, o.format, t.Columns, t.Rows)
}
