package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// plotOptions are the flags of `plot` and its subcommands. A command that
// embeds pictures (report) fills one in and calls plotFigure.
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
	// replaced by time (see budgetAxis).
	axisAsked bool
	// axisNote says why the axis is not the one asked for (budgetAxis);
	// axis is the budget axis drawn, and budgetsDrawn the budgets marked
	// on it, for a caption (report).
	axisNote     string
	axis         string
	budgetsDrawn []float64

	// warn receives notes on runs left out; nil discards them.
	warn io.Writer
}

// Plot kinds, the subcommands of plot.
const (
	plotConvergence = "convergence"
	plotECDF        = "ecdf"
	plotSuccess     = "success"
	plotERT         = "ert"
	plotScoreboard  = "scoreboard"
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

// oneOf checks that a flag's value is one of the allowed.
func oneOf(flag, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "--%s %q: want %s", flag, v, strings.Join(allowed, ", "))
}

// check validates the flags of kind before the database is opened.
func (o *plotOptions) check(kind string) error {
	var err error
	switch kind {
	case plotConvergence:
		err = oneOf("x", o.convX, "generations", "evaluations", "seconds")
		if err == nil {
			err = oneOf("panels", o.convPanels, "auto", "puzzle", "none")
		}
		if q := o.quantiles; err == nil && (len(q) != 2 || q[0] < 0 || q[1] > 1 || q[0] >= q[1]) {
			err = sudokulab.Errorf(sudokulab.EINVALID, "--quantiles %v: want two increasing numbers between 0 and 1", q)
		}
	case plotECDF:
		err = oneOf("x", o.ecdfX, "evaluations", "generations", "effort", "seconds", "cpu")
		if err == nil && o.resamples < 0 {
			err = sudokulab.Errorf(sudokulab.EINVALID, "--resamples %d: want 0 (no band) or more", o.resamples)
		}
	case plotSuccess:
		err = oneOf("by", o.by, "label", "collection", "all")
	case plotERT:
		err = oneOf("x", o.ertX, "evaluations", "generations", "seconds")
		if err == nil {
			err = oneOf("panels", o.ertPanel, "auto", "puzzle", "none")
		}
	case plotScoreboard:
		err = oneOf("readings", o.readings, "paper", "readings", "all")
		if err == nil && (len(o.configs) > 0 || o.where != "" || o.runsWhere != "") {
			err = sudokulab.Errorf(sudokulab.EINVALID, "plot scoreboard takes no --config, --where or --runs-where: its cells are the published ones (use --paper, --readings or --experiment)")
		}
	case plotCD, plotProfile, plotAggECDF:
		err = o.checkRanking(kind)
	default:
		err = sudokulab.Errorf(sudokulab.EINVALID, "plot %q: want convergence, ecdf, success, ert, scoreboard, cd, profile or aggecdf", kind)
	}
	if err != nil {
		return err
	}
	if (kind == plotECDF || kind == plotSuccess) && o.level != 0 && (o.level <= 0 || o.level >= 1) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--level %g: want a confidence level between 0 and 1, such as 0.95", o.level)
	}
	if o.top < 1 || o.top > plots.MaxSeries {
		return sudokulab.Errorf(sudokulab.EINVALID, "--top %d: want 1 to %d, as many configurations as can be told apart", o.top, plots.MaxSeries)
	}
	if len(o.configs) > plots.MaxSeries && kind != plotCD {
		return sudokulab.Errorf(sudokulab.EINVALID, "%d configurations named with --config: no more than %d can be told apart in one picture; name fewer, or leave --config out for the %d best by success",
			len(o.configs), plots.MaxSeries, plots.MaxSeries)
	}
	for _, s := range []struct{ flag, v string }{{"width", o.width}, {"height", o.height}} {
		if s.v != "" {
			if _, err := plots.ParseLength(s.v); err != nil {
				return sudokulab.Errorf(sudokulab.EINVALID, "--%s: %v", s.flag, err)
			}
		}
	}
	if err := db.CheckPredicate(o.where); err != nil {
		return err
	}
	return db.CheckPredicate(o.runsWhere)
}

// plotOpts returns the picture options of the flags.
func (o *plotOptions) plotOpts() plots.Options {
	var w, h vg.Length
	if o.width != "" {
		w, _ = plots.ParseLength(o.width)
	}
	if o.height != "" {
		h, _ = plots.ParseLength(o.height)
	}
	// --top applies without --config; named configurations are all drawn.
	top := o.top
	if top == 0 || len(o.configs) > 0 {
		top = plots.MaxSeries
	}
	return plots.Options{Width: w, Height: h, Title: o.title, Top: top, Strict: len(o.configs) > 0, Resamples: o.resamples, Level: o.level, Note: o.axisNote}
}

// budgetAxis decides the budget axis x of a picture (trajectories: one
// drawn from trajectory points, which record evaluations, generations
// and wall-clock seconds only): x itself unless it counts effort
// (evaluations, effort) and the selected configurations' efforts do not
// compare on it, as compare decides (compare.EffortUnit): a tree search
// counts search nodes, not evaluations, and drawn on an evaluations axis
// it would solve everything at 0. Then, when --x was given, it refuses
// with the values of --x to use; else it draws on the time that compares
// them (CPU seconds when recorded for every run, as compare.TimeMeasure
// says; wall-clock seconds for trajectories) and says so in axisNote and
// on the warning writer.
func (o *plotOptions) budgetAxis(ctx context.Context, d *db.DB, x string, trajectories bool) (axis string, err error) {
	defer func() { o.axis = axis }()
	if x != "evaluations" && x != "effort" {
		return x, nil
	}
	units, allCPU, err := d.SelectionUnits(ctx, o.selection())
	if err != nil {
		return "", fmt.Errorf("plot: %w", err)
	}
	slices.SortStableFunc(units, func(a, b db.ConfigUnit) int {
		return slices.Index(o.configs, a.Config) - slices.Index(o.configs, b.Config)
	})
	unit, mixed := compare.EffortUnit(units)
	if mixed == nil && (x == "effort" || unit == "evaluations") {
		return x, nil
	}
	// Trajectory points record neither CPU time nor nodes.
	alternatives := []string{"--x cpu", "--x seconds"}
	time := compare.TimeMeasure(allCPU)
	if trajectories {
		alternatives, time = []string{"--x seconds"}, compare.Seconds
	}
	why := ""
	if mixed != nil {
		why = mixed.String()
	} else {
		// One unit, but not the evaluations the axis counts.
		why = fmt.Sprintf("%s counts its effort in %s, not evaluations", units[0].Config, unit)
		if !trajectories {
			if !o.axisAsked {
				return "effort", nil
			}
			alternatives = append([]string{"--x effort"}, alternatives...)
		}
	}
	if o.axisAsked {
		return "", sudokulab.Errorf(sudokulab.EINVALID, "plot --x %s: %s: use %s", x, why, strings.Join(alternatives, " or "))
	}
	axis = map[compare.Measure]string{compare.CPU: "cpu", compare.Seconds: "seconds"}[time]
	o.axisNote = fmt.Sprintf("on %s: %s", axisLabel(axis, ""), why)
	if o.warn != nil {
		fmt.Fprintf(o.warn, "plot: %s: drawn on %s instead of %s\n", why, axisLabel(axis, ""), x)
	}
	return axis, nil
}

// budgetName names the budget lines on axis x: the runs' time limit
// (timeout_ms, wall clock) on an axis of seconds, else their budget.
func budgetName(x string) string {
	if x == "seconds" || x == "cpu" {
		return "wall-clock limit (s)"
	}
	return "budget"
}

// axisLabel names a budget axis with its unit: unit is the effort unit
// of the effort axis.
func axisLabel(x, unit string) string {
	switch x {
	case "seconds":
		return "wall-clock seconds"
	case "cpu":
		return "CPU seconds"
	case "effort":
		if unit == "nodes" {
			return "effort (search nodes)"
		}
		return "effort (" + cmp.Or(unit, "evaluations") + ")"
	}
	return x
}

// plotFigure draws the picture kind (convergence, ecdf, success, ert) of
// the runs o selects from d: what `sudokulab plot KIND` saves, for any
// command that embeds pictures (fig.WriteSVG(w)). o must have passed
// check(kind).
func plotFigure(ctx context.Context, d *db.DB, kind string, o *plotOptions) (*plots.Figure, error) {
	if kind == plotScoreboard {
		return o.scoreboard(ctx, d)
	}
	if err := o.validate(ctx, d); err != nil {
		return nil, err
	}
	switch kind {
	case plotConvergence:
		return o.convergence(ctx, d)
	case plotECDF:
		return o.ecdf(ctx, d)
	case plotSuccess:
		return o.success(ctx, d)
	case plotERT:
		return o.ert(ctx, d)
	case plotCD:
		return o.cdDiagram(ctx, d)
	case plotProfile:
		return o.profile(ctx, d)
	case plotAggECDF:
		return o.aggECDF(ctx, d)
	}
	return nil, o.check(kind)
}

// selection returns the runs of --config, --experiment, --runs-where (over
// run_results) and --where (over puzzle_catalog). check has checked the
// predicates (one expression each), validate that each names only columns
// of its view, and db reads them on a read-only connection.
func (o *plotOptions) selection() db.RunSelection {
	return db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where, RunsWhere: o.runsWhere}
}

// validate runs --where alone on puzzle_catalog and --runs-where alone on
// run_results, so that a column the view lacks is an error naming the
// flag.
func (o *plotOptions) validate(ctx context.Context, d *db.DB) error {
	field, err := d.CheckSelectionViews(ctx, o.selection())
	if err == nil {
		return nil
	}
	hint := map[string]string{
		"where":      "--where filters the puzzle_catalog view, one row per puzzle and collection; --runs-where filters run_results",
		"runs-where": "--runs-where filters the run_results view, one row per run",
	}[field]
	if sudokulab.ErrorCode(err) == sudokulab.EINVALID {
		return sudokulab.Errorf(sudokulab.EINVALID, "plot --%s: %s (%s)", field, strings.TrimPrefix(err.Error(), "sql: "), hint)
	}
	return fmt.Errorf("plot --%s: %w", field, err)
}

// readErr says what plot was reading when err happened.
func readErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("plot %s: %w", what, err)
}

// configOrder sorts names in the order of --config, else by name.
func (o *plotOptions) configOrder(names []string) {
	slices.SortStableFunc(names, func(a, b string) int {
		ia, ib := slices.Index(o.configs, a), slices.Index(o.configs, b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
}

// noRuns is the error for a selection without runs.
func (o *plotOptions) noRuns(what string) error {
	var sel []string
	if len(o.configs) > 0 {
		sel = append(sel, "--config "+strings.Join(o.configs, ","))
	}
	for _, f := range []struct{ flag, v string }{{"experiment", o.experiment}, {"where", o.where}, {"runs-where", o.runsWhere}} {
		if f.v != "" {
			sel = append(sel, fmt.Sprintf("--%s %q", f.flag, f.v))
		}
	}
	if len(sel) == 0 {
		sel = append(sel, "the database")
	}
	return sudokulab.Errorf(sudokulab.ENOTFOUND, "plot: no %s for %s", what, strings.Join(sel, " "))
}

// budgets returns the distinct budgets of the selected runs on the axis x.
func (o *plotOptions) budgets(ctx context.Context, d *db.DB, x string) ([]float64, error) {
	b, err := d.RunBudgets(ctx, o.selection(), x)
	return b, readErr("budgets", err)
}

// panelNames returns the panel title of each selected puzzle: its id, a
// label it has (in a collection --where matches), and its givens.
func (o *plotOptions) panelNames(ctx context.Context, d *db.DB) (map[int64]string, error) {
	puzzles, err := d.SelectedPuzzles(ctx, o.selection())
	if err != nil {
		return nil, readErr("puzzles", err)
	}
	out := map[int64]string{}
	for _, p := range puzzles {
		name := fmt.Sprintf("#%d", p.ID)
		if p.Label != "" {
			name += " " + p.Label
		}
		out[p.ID] = fmt.Sprintf("%s (%d givens)", name, p.Givens)
	}
	return out, nil
}

// perPanel decides between one panel per puzzle and one for all.
func perPanel(mode string, puzzles int) bool {
	switch mode {
	case "puzzle":
		return true
	case "none":
		return false
	}
	return puzzles >= 2 && puzzles <= 16
}

// trajectories reads the selected runs' trajectories on the axis x, in
// configuration order, each run's points in order, with what each run
// spent in all.
func (o *plotOptions) trajectories(ctx context.Context, d *db.DB, what, x string) ([]plots.Trajectory, map[int64]string, error) {
	read, err := d.Trajectories(ctx, o.selection(), x)
	if err != nil {
		return nil, nil, readErr(what, err)
	}
	if len(read) == 0 {
		return nil, nil, o.noRuns("runs with trajectory points")
	}
	names, err := o.panelNames(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	runs := make([]plots.Trajectory, len(read))
	for i, r := range read {
		runs[i] = plots.Trajectory{Config: r.Config, Panel: names[r.PuzzleID], Used: r.Spent, X: r.X, Best: r.Best}
	}
	var configs []string
	for _, r := range runs {
		if !slices.Contains(configs, r.Config) {
			configs = append(configs, r.Config)
		}
	}
	o.configOrder(configs)
	slices.SortStableFunc(runs, func(a, b plots.Trajectory) int {
		return slices.Index(configs, a.Config) - slices.Index(configs, b.Config)
	})
	return runs, names, nil
}

func (o *plotOptions) convergence(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	x, err := o.budgetAxis(ctx, d, o.convX, true)
	if err != nil {
		return nil, err
	}
	runs, names, err := o.trajectories(ctx, d, "convergence", x)
	if err != nil {
		return nil, err
	}
	budgets, err := o.budgets(ctx, d, x)
	if err != nil {
		return nil, err
	}
	o.budgetsDrawn = budgets
	q := o.quantiles
	if len(q) != 2 {
		q = []float64{0.25, 0.75}
	}
	po := o.plotOpts()
	po.LogY = o.convLogY
	return plots.Convergence(plots.ConvergenceData{
		Runs: runs, XLabel: axisLabel(x, ""), Budgets: budgets, BudgetName: budgetName(x), QuantLo: q[0], QuantHi: q[1],
		PerPanel: perPanel(o.convPanels, len(names)),
	}, po)
}

func (o *plotOptions) ert(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	x, err := o.budgetAxis(ctx, d, o.ertX, true)
	if err != nil {
		return nil, err
	}
	runs, names, err := o.trajectories(ctx, d, "ert", x)
	if err != nil {
		return nil, err
	}
	po := o.plotOpts()
	po.LogY = o.ertLogY
	return plots.ERTPlot(plots.ERTData{Runs: runs, XLabel: axisLabel(x, ""), PerPanel: perPanel(o.ertPanel, len(names))}, po)
}

func (o *plotOptions) ecdf(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	x, err := o.budgetAxis(ctx, d, o.ecdfX, false)
	if err != nil {
		return nil, err
	}
	times, err := d.RunTimes(ctx, o.selection(), x)
	if err != nil {
		return nil, readErr("ecdf", err)
	}
	if len(times) == 0 {
		return nil, o.noRuns("runs")
	}
	col := db.SpentColumn(x)
	byName := map[string]*plots.RunTimes{}
	var names, units []string
	used, missing := 0.0, 0
	for _, t := range times {
		x := t.Spent
		if math.IsNaN(x) {
			missing++
			continue
		}
		name := t.Config
		rt, ok := byName[name]
		if !ok {
			rt = &plots.RunTimes{Config: name}
			byName[name] = rt
			names = append(names, name)
		}
		rt.Runs++
		used = max(used, x)
		if t.Solved {
			rt.Hits = append(rt.Hits, x)
		}
		if u := t.EffortUnit; !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	if missing > 0 && o.warn != nil {
		fmt.Fprintf(o.warn, "plot ecdf: %d runs left out: no %s recorded (runs older than the column)\n", missing, col)
	}
	if len(names) == 0 {
		return nil, o.noRuns("runs with " + col)
	}
	o.configOrder(names)
	rts := make([]plots.RunTimes, len(names))
	for i, n := range names {
		rts[i] = *byName[n]
	}
	budgets, err := o.budgets(ctx, d, x)
	if err != nil {
		return nil, err
	}
	o.budgetsDrawn = budgets
	return plots.ECDF(plots.ECDFData{Series: rts, XLabel: axisLabel(x, units[0]), Budgets: budgets, BudgetName: budgetName(x), Used: used}, o.plotOpts())
}

func (o *plotOptions) success(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	sel := o.selection()
	totals, err := d.SuccessTotals(ctx, sel)
	if err != nil {
		return nil, readErr("success", err)
	}
	if len(totals) == 0 {
		return nil, o.noRuns("runs")
	}
	by := o.by
	var counts []db.SuccessCount
	groupBy := ""
	if by == "label" {
		if counts, err = d.SuccessByLabel(ctx, sel, o.rater); err != nil {
			return nil, readErr("success", err)
		}
		groupBy = o.rater + " label"
		labelled := slices.ContainsFunc(counts, func(c db.SuccessCount) bool { return c.Group != "(no label)" })
		if !labelled {
			by = "collection"
		}
	}
	switch by {
	case "collection":
		counts, err = d.SuccessByCollection(ctx, sel)
		groupBy = "collection"
	case "all":
		counts = nil
		for _, c := range totals {
			c.Group = "all runs"
			counts = append(counts, c)
		}
		groupBy = "configuration"
	}
	if err != nil {
		return nil, readErr("success", err)
	}
	if len(counts) == 0 {
		return nil, o.noRuns("runs")
	}
	var names []string
	for _, c := range totals {
		names = append(names, c.Config)
	}
	o.configOrder(names)
	return plots.Success(successBars(names, groupBy, totals, counts), o.plotOpts())
}

// successGroups returns the groups of counts in the order drawn: labels
// by their level, then by their mean rating, then by name; "(no label)"
// and "(none)" last.
func successGroups(counts []db.SuccessCount) []string {
	type group struct {
		name          string
		level, value  float64
		runs          float64
		hasL, hasV, z bool
	}
	var groups []group
	for _, c := range counts {
		i := slices.IndexFunc(groups, func(g group) bool { return g.name == c.Group })
		if i < 0 {
			groups = append(groups, group{name: c.Group, z: strings.HasPrefix(c.Group, "(")})
			i = len(groups) - 1
		}
		g := &groups[i]
		if !math.IsNaN(c.Level) {
			g.level, g.hasL = c.Level, true
		}
		if !math.IsNaN(c.Value) {
			n := float64(c.Runs)
			g.value = (g.value*g.runs + c.Value*n) / (g.runs + n)
			g.runs += n
			g.hasV = true
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		switch {
		case a.z != b.z:
			return map[bool]int{true: 1, false: -1}[a.z]
		case a.hasL && b.hasL && a.level != b.level:
			return cmpFloat(a.level, b.level)
		case a.hasL != b.hasL:
			return map[bool]int{true: -1, false: 1}[a.hasL]
		case a.hasV && b.hasV && a.value != b.value:
			return cmpFloat(a.value, b.value)
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.name
	}
	return out
}

// successBars lays the counts out as bars: one row per configuration of
// names, one column per group.
func successBars(names []string, groupBy string, totals, counts []db.SuccessCount) plots.Bars {
	bars := plots.Bars{Configs: names, GroupBy: groupBy, Groups: successGroups(counts)}
	bars.Solved = make([][]int, len(names))
	bars.Runs = make([][]int, len(names))
	bars.TotalSolved = make([]int, len(names))
	bars.TotalRuns = make([]int, len(names))
	for i := range names {
		bars.Solved[i] = make([]int, len(bars.Groups))
		bars.Runs[i] = make([]int, len(bars.Groups))
	}
	for _, c := range totals {
		i := slices.Index(names, c.Config)
		bars.TotalRuns[i], bars.TotalSolved[i] = c.Runs, c.Solved
	}
	for _, c := range counts {
		i := slices.Index(names, c.Config)
		j := slices.Index(bars.Groups, c.Group)
		bars.Runs[i][j], bars.Solved[i][j] = c.Runs, c.Solved
	}
	return bars
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// toInt reads an integer cell of a db.Table; NULL is 0.
func toInt(v any) int64 {
	f := db.Number(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(math.Round(f))
}
