package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// plotOptions are the flags of `plot` and its subcommands.
type plotOptions struct {
	*options
	configs    []string
	where      string // over puzzle_catalog
	runsWhere  string // over run_results
	experiment string
	out        string
	width      string
	height     string
	title      string
	top        int

	convX, ecdfX, ertX   string
	convLogY, ertLogY    bool
	convPanels, ertPanel string
	quantiles            []float64
	resamples            int
	level                float64
	rater, by            string
	readings, paper      string // scoreboard
	rank                 rankPlotFlags

	// axisAsked is true when --x was given: an axis on which the
	// configurations' efforts do not compare is then refused, not
	// replaced by time (see figures.BudgetAxis).
	axisAsked bool

	// warn receives notes on runs left out; nil discards them.
	warn io.Writer
}

// rankPlotFlags are the flags of the ranking's pictures.
type rankPlotFlags struct {
	measure, time string
	timeAsked     bool
	parK, alpha   float64
	aggX          string
}

// Plot kinds, the subcommands of plot.
const (
	plotConvergence = figures.KindConvergence
	plotECDF        = figures.KindECDF
	plotSuccess     = figures.KindSuccess
	plotERT         = figures.KindERT
	plotScoreboard  = figures.KindScoreboard
	plotCD          = figures.KindCD
	plotProfile     = figures.KindProfile
	plotAggECDF     = figures.KindAggECDF
)

func newPlotCmd(opts *options) *cobra.Command {
	o := &plotOptions{options: opts}
	cmd := groupCmd("plot", "Draw convergence, runtime ECDF, success, ERT and ranking pictures as SVG, PNG or PDF",
		o.sub(plotConvergence, "Median best cost against generations, evaluations or seconds, one panel per puzzle",
			`convergence draws, for each configuration, the median over its runs of the
best cost reached within each budget (--x generations, evaluations or
seconds), read from the stored trajectory points, with the band between two
quantiles (--quantiles, 0.25,0.75 by default) shaded. With 2 to 16 puzzles
each puzzle gets its own panel (--panels puzzle|none to choose). A median
of 0 is drawn above the axis; --log-y puts the cost on a log scale that
keeps 0. The runs' budget is the dashed vertical line.`,
			`  sudokulab plot convergence --where "collection = 'reseda-2012'" --config reseda-table1-both-a0.7 --config exact -o conv.png
  sudokulab plot convergence --runs-where "experiment = 'ga-table1'" --x evaluations --panels none --log-y -o conv.pdf`),
		o.sub(plotECDF, "Runtime ECDF with bootstrap bands: fraction of runs solved within each budget",
			`ecdf draws, for each configuration, the fraction of its runs solved within
each budget of --x (evaluations, generations, effort, seconds or cpu):
the empirical distribution function of the running time, as IOHprofiler
and COCO draw it, with a 95 % percentile bootstrap band (--resamples, fixed
seed, so the picture is the same every time). A curve that stays below 1
has failed runs; runs solved at 0 (by the prefilter) are drawn at 0.
effort is the run_results column: evaluations, or nodes for exact.`,
			`  sudokulab plot ecdf --where "collection = 'paper-puzzles'" -o ecdf.png
  sudokulab plot ecdf --experiment cuckoo-table1 --x cpu --width 12cm --height 8cm -o ecdf.pdf`),
		o.sub(plotSuccess, "Success rate per difficulty label, collection or overall, with intervals and counts",
			`success draws the success rate of each configuration as bars with their 95 %
Wilson interval and the count solved/runs written above, grouped by the
difficulty labels of one rater (--by label, --rater human; labels in
rating_levels order), by collection (--by collection), or not at all
(--by all). Without labels by that rater it groups by collection.

By collection, a run counts once in each collection its puzzle belongs to
(paper-puzzles holds the puzzles of the others, so their runs appear in
both); --where "collection = 'X'" keeps the collection you choose. The
legend counts each run once.`,
			`  sudokulab plot success --rater human --runs-where "experiment = 'ga-table1'" -o success.png
  sudokulab plot success --by collection --where "collection <> 'paper-puzzles'" -o success.svg`),
		o.sub(plotERT, "Expected running time against the target cost, per configuration (as IOHanalyzer)",
			`ert draws, for each configuration, the expected running time (ERT) to reach
each target cost: the budget (--x evaluations, generations or seconds) all
its runs spent until they reached the target, or in all when they did not,
divided by the runs that reached it. The ERT axis is logarithmic (keeping
0) unless --log-y=false; with 2 to 16 puzzles each gets its panel.`,
			`  sudokulab plot ert --where "collection = 'sato-inoue-2010'" --config sato-inoue-mut-cross-ls --config reseda-table1-both-a0.7 -o ert.svg`),
		o.sub(plotScoreboard, "Ours against the papers' published values, one point per cell of the reproduction scoreboard",
			`scoreboard draws the rows of the canned query reproduction-scoreboard
(sudokulab query show reproduction-scoreboard): for every published cell of
the five papers, our success rate against the paper's (with our 95 % Wilson
interval) and our effort against the paper's on log axes, each with the
diagonal where they are equal (and, for effort, the factor-of-two
tolerance); the colour is the cell's status (matched, beaten, short), the
glyph its paper. Cells not run are counted in the note. --experiment keeps
the runs of one experiment; --paper one paper; --readings which
configurations may stand for a cell (paper, readings or all). --config,
--where and --runs-where do not apply.`,
			`  sudokulab plot scoreboard -o scoreboard.png
  sudokulab plot scoreboard --paper nb-coin --readings all -o nbcoin.svg`),
		o.sub(plotCD, "Critical-difference diagram of many configurations' mean ranks (Demšar 2006)",
			`cd ranks the selected configurations as compare does with many --config
(--measure ert, success or par; --time; --par-k) and draws Demšar's
critical-difference diagram: their mean ranks over the puzzles on an axis
(1, the best, on the left), Nemenyi's critical difference at --alpha, and
bars joining the groups that do not differ significantly. Every
configuration is drawn. Without --time, efforts counted in different units
are ranked on CPU seconds, as the note says.`,
			`  sudokulab plot cd --experiment tuning -o cd.svg
  sudokulab plot cd --config A --config B --config C --measure par -o cd.png`),
		o.sub(plotProfile, "Performance profiles (Dolan-Moré): share of puzzles within a factor of the best",
			`profile draws Dolan and Moré's performance profiles of the selected
configurations' scores per puzzle, as compare ranks them (--measure ert or
par, --time): for each factor tau, the share of puzzles on which a
configuration is within tau times the best. Counts of evaluations or nodes
get 1 added so that a puzzle solved at 0 counts.`,
			`  sudokulab plot profile --experiment tuning --time cpu -o profile.svg`),
		o.sub(plotAggECDF, "Runtime ECDF aggregated over puzzles and cost targets, with its area (as COCO's cocopp)",
			`aggecdf draws, per configuration, the fraction of its (run, target) pairs
reached within each budget (--x evaluations, generations or seconds), over
every puzzle and a range of cost targets per puzzle (0, and 1/2, 1/4, ...
of the puzzle's median starting cost), read from the trajectory points, as
COCO's cocopp aggregates runtime distributions; the legend gives the area
under each curve on the log budget axis, the configurations ordered by it.`,
			`  sudokulab plot aggecdf --experiment tuning -o aggecdf.svg`),
	)
	f := cmd.PersistentFlags()
	f.StringArrayVar(&o.configs, "config", nil, "draw this configuration (repeatable, at most 12; default: the 12 best by success of those with runs)")
	f.StringVar(&o.where, "where", "", "only runs on puzzles with a row of the puzzle_catalog view matching this SQL predicate")
	f.StringVar(&o.runsWhere, "runs-where", "", "only runs matching this SQL predicate over the run_results view")
	f.StringVar(&o.experiment, "experiment", "", "only the runs of this experiment (every run it planned)")
	f.StringVarP(&o.out, "output", "o", "", "write the picture to `FILE`.svg, FILE.png or FILE.pdf (required)")
	f.StringVar(&o.width, "width", "", "width of the picture with its unit: 16cm, 160mm, 6in, 450pt (default: sized to fit)")
	f.StringVar(&o.height, "height", "", "height of the picture with its unit (default: sized to fit)")
	f.StringVar(&o.title, "title", "", "title of the picture (default: says what it shows)")
	f.IntVar(&o.top, "top", plots.MaxSeries, "without --config, draw the N best configurations by success (1 to 12)")
	return cmd
}

// sub returns one plot subcommand with its own flags.
func (o *plotOptions) sub(kind, short, long, example string) *cobra.Command {
	c := &cobra.Command{
		Use:     kind + " -o FILE.svg|FILE.png|FILE.pdf",
		Short:   short,
		Long:    long,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlot(cmd.Context(), cmd, o, kind)
		},
	}
	f := c.Flags()
	switch kind {
	case plotConvergence:
		f.StringVar(&o.convX, "x", "generations", "budget axis: generations, evaluations or seconds")
		f.StringVar(&o.convX, "axis", "generations", "the same as --x")
		f.Float64SliceVar(&o.quantiles, "quantiles", []float64{0.25, 0.75}, "the two quantiles that bound the band")
		f.BoolVar(&o.convLogY, "log-y", false, "best cost on a log scale (0 kept)")
		f.StringVar(&o.convPanels, "panels", "auto", "puzzle (one panel per puzzle), none (runs pooled), or auto (per puzzle for 2 to 16 puzzles)")
	case plotECDF:
		f.StringVar(&o.ecdfX, "x", "evaluations", "budget axis: evaluations, generations, effort, seconds or cpu")
		f.StringVar(&o.ecdfX, "axis", "evaluations", "the same as --x")
		f.IntVar(&o.resamples, "resamples", 1000, "bootstrap resamples of the confidence band (0: no band)")
		f.Float64Var(&o.level, "level", 0.95, "confidence level of the band")
	case plotSuccess:
		f.StringVar(&o.rater, "rater", "human", "the rater whose labels group the puzzles")
		f.StringVar(&o.by, "by", "label", "group by label (of --rater), collection, or all (one group)")
		f.Float64Var(&o.level, "level", 0.95, "confidence level of the intervals")
	case plotScoreboard:
		f.StringVar(&o.readings, "readings", "readings", "the configurations that may stand for a cell: paper, readings or all")
		f.StringVar(&o.paper, "paper", "", "only the cells of this paper: reseda, sato-inoue, nb-coin, soto-cuckoo or franco")
	case plotCD, plotProfile:
		f.StringVar(&o.rank.measure, "measure", string(ranking.ERT), "rank by ert, success or par (profile: ert or par)")
		f.StringVar(&o.rank.time, "time", string(compare.Evaluations), "ERT in evaluations (the solver's effort), seconds or cpu")
		f.Float64Var(&o.rank.parK, "par-k", ranking.DefaultParK, "with --measure par: the penalty factor k of PAR-k")
		f.Float64Var(&o.rank.alpha, "alpha", ranking.DefaultAlpha, "significance level of the critical difference")
	case plotAggECDF:
		f.StringVar(&o.rank.aggX, "x", "evaluations", "budget axis: evaluations, generations or seconds")
	case plotERT:
		f.StringVar(&o.ertX, "x", "evaluations", "running time counted in evaluations, generations or seconds")
		f.BoolVar(&o.ertLogY, "log-y", true, "ERT on a log scale (0 kept)")
		f.StringVar(&o.ertPanel, "panels", "auto", "puzzle, none, or auto (per puzzle for 2 to 16 puzzles)")
	}
	if f.Lookup("axis") != nil {
		_ = f.MarkHidden("axis")
	}
	return c
}

func runPlot(ctx context.Context, cmd *cobra.Command, o *plotOptions, kind string) error {
	if o.out == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "%s needs -o FILE.svg, FILE.png or FILE.pdf", cmd.CommandPath())
	}
	if _, err := plots.FormatOf(o.out); err != nil {
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: want a .svg, .png or .pdf file", o.out)
	}
	if err := o.check(kind); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	o.warn = cmd.ErrOrStderr()
	o.axisAsked = cmd.Flags().Changed("x") || cmd.Flags().Changed("axis")
	o.rank.timeAsked = cmd.Flags().Changed("time")
	fig, err := plotFigure(ctx, d, kind, o)
	if err != nil {
		return err
	}
	if err := fig.Save(o.out); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", o.out)
	return nil
}

// request is the picture of kind the flags ask for.
func (o *plotOptions) request(kind string) figures.Request {
	r := figures.Request{Kind: kind, Selection: db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where, RunsWhere: o.runsWhere},
		Width: o.width, Height: o.height, Title: o.title, Top: o.top, AxisAsked: o.axisAsked, Quantiles: o.quantiles,
		Resamples: o.resamples, Level: o.level, Rater: o.rater, By: o.by, Readings: o.readings, Paper: o.paper,
		Measure: o.rank.measure, Time: o.rank.time, TimeAsked: o.rank.timeAsked, ParK: o.rank.parK, Alpha: o.rank.alpha, Warn: o.warn}
	switch kind {
	case plotConvergence:
		r.X, r.LogY, r.Panels = o.convX, o.convLogY, o.convPanels
	case plotECDF:
		r.X = o.ecdfX
	case plotERT:
		r.X, r.LogY, r.Panels = o.ertX, o.ertLogY, o.ertPanel
	case plotAggECDF:
		r.X = o.rank.aggX
	}
	return r
}

// check validates the flags of kind before the database is opened.
func (o *plotOptions) check(kind string) error { return o.request(kind).Check() }

// plotFigure draws the picture kind of the runs o selects from d: what
// `sudokulab plot KIND` saves. o must have passed check(kind).
func plotFigure(ctx context.Context, d *db.DB, kind string, o *plotOptions) (*plots.Figure, error) {
	return o.request(kind).Draw(ctx, d)
}
