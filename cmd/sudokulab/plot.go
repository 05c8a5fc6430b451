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
	cmd := groupCmd("plot", "Draw convergence, runtime ECDF, success or ERT pictures as SVG, PNG or PDF",
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
	default:
		err = sudokulab.Errorf(sudokulab.EINVALID, "plot %q: want convergence, ecdf, success, ert or scoreboard", kind)
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
	if len(o.configs) > plots.MaxSeries {
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
	cond, args := o.selected()
	units, allCPU, err := d.RunUnits(ctx, cond, args...)
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
	}
	return nil, o.check(kind)
}

// selected returns a SQL condition on the run_results row r choosing the
// runs of --config, --experiment, --runs-where (over run_results) and
// --where (over puzzle_catalog), and its arguments. check has checked the
// predicates (one expression each), validate that each names only columns
// of its view (in a subquery a column puzzle_catalog lacks would silently
// be the outer run's), and the queries run through ReadQuery, on a
// read-only connection.
func (o *plotOptions) selected() (string, []any) {
	cond := "1 = 1"
	var args []any
	if len(o.configs) > 0 {
		cond += " AND r.config IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(o.configs)), ", ") + ")"
		for _, c := range o.configs {
			args = append(args, c)
		}
	}
	if o.experiment != "" {
		cond += " AND r.id IN (SELECT er.run_id FROM experiment_runs er JOIN experiments e ON e.id = er.experiment_id WHERE e.name = ?)"
		args = append(args, o.experiment)
	}
	if strings.TrimSpace(o.runsWhere) != "" {
		cond += " AND r.id IN (SELECT rr.id FROM run_results rr WHERE (" + o.runsWhere + "\n))"
	}
	if strings.TrimSpace(o.where) != "" {
		cond += " AND r.puzzle_id IN (SELECT pc.id FROM puzzle_catalog pc WHERE (" + o.where + "\n))"
	}
	return cond, args
}

// validate runs --where alone on puzzle_catalog and --runs-where alone on
// run_results, so that a column the view lacks is an error naming the
// flag.
func (o *plotOptions) validate(ctx context.Context, d *db.DB) error {
	for _, v := range []struct{ flag, pred, view, hint string }{
		{"--where", o.where, "puzzle_catalog", "--where filters the puzzle_catalog view, one row per puzzle and collection; --runs-where filters run_results"},
		{"--runs-where", o.runsWhere, "run_results", "--runs-where filters the run_results view, one row per run"},
	} {
		if strings.TrimSpace(v.pred) == "" {
			continue
		}
		if _, err := d.ReadQuery(ctx, "SELECT 1 FROM "+v.view+" WHERE ("+v.pred+"\n) LIMIT 1"); err != nil {
			if sudokulab.ErrorCode(err) == sudokulab.EINVALID {
				return sudokulab.Errorf(sudokulab.EINVALID, "plot %s: %s (%s)", v.flag, strings.TrimPrefix(err.Error(), "sql: "), v.hint)
			}
			return fmt.Errorf("plot %s: %w", v.flag, err)
		}
	}
	return nil
}

// query runs a query of the selected runs.
func (o *plotOptions) query(ctx context.Context, d *db.DB, what, q string, args ...any) (db.Table, error) {
	t, err := d.ReadQuery(ctx, q, args...)
	if err != nil {
		return t, fmt.Errorf("plot %s: %w", what, err)
	}
	return t, nil
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
	col := map[string]string{
		"generations": "r.max_generations",
		"evaluations": "r.max_evaluations",
		"effort":      "CASE WHEN r.effort_unit = 'evaluations' THEN r.max_evaluations END",
		"seconds":     "r.timeout_ms / 1000.0",
		"cpu":         "r.timeout_ms / 1000.0",
	}[x]
	cond, args := o.selected()
	t, err := o.query(ctx, d, "budgets", "SELECT DISTINCT "+col+" FROM run_results r WHERE "+cond, args...)
	if err != nil {
		return nil, err
	}
	var out []float64
	for _, row := range t.Rows {
		if v := db.Number(row[0]); v > 0 {
			out = append(out, v)
		}
	}
	return out, nil
}

// panelNames returns the panel title of each selected puzzle: its id, a
// label it has (in a collection --where matches), and its givens.
func (o *plotOptions) panelNames(ctx context.Context, d *db.DB) (map[int64]string, error) {
	cond, args := o.selected()
	labelWhere := ""
	if strings.TrimSpace(o.where) != "" {
		labelWhere = " AND (" + o.where + "\n)"
	}
	t, err := o.query(ctx, d, "puzzles", `
		SELECT DISTINCT r.puzzle_id, r.givens,
		       (SELECT MIN(pc.label) FROM puzzle_catalog pc WHERE pc.id = r.puzzle_id AND pc.label <> ''`+labelWhere+`)
		FROM run_results r WHERE `+cond, args...)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, row := range t.Rows {
		name := fmt.Sprintf("#%d", toInt(row[0]))
		if row[2] != nil && fmt.Sprint(row[2]) != "" {
			name += " " + fmt.Sprint(row[2])
		}
		out[toInt(row[0])] = fmt.Sprintf("%s (%d givens)", name, toInt(row[1]))
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
	col := map[string][2]string{
		"generations": {"t.generation", "r.generations"},
		"evaluations": {"t.evaluations", "r.evaluations"},
		"seconds":     {"t.elapsed_seconds", "r.wall_seconds"},
	}[x]
	cond, args := o.selected()
	t, err := o.query(ctx, d, what, `
		SELECT r.config, r.id, r.puzzle_id, `+col[0]+`, t.best_cost, `+col[1]+`
		FROM run_results r JOIN trajectory_points t ON t.run_id = r.id
		WHERE `+cond+`
		ORDER BY r.puzzle_id, r.id, t.seq`, args...)
	if err != nil {
		return nil, nil, err
	}
	if len(t.Rows) == 0 {
		return nil, nil, o.noRuns("runs with trajectory points")
	}
	names, err := o.panelNames(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	var runs []plots.Trajectory
	lastID := int64(-1)
	for _, row := range t.Rows {
		id := toInt(row[1])
		if id != lastID {
			runs = append(runs, plots.Trajectory{Config: fmt.Sprint(row[0]), Panel: names[toInt(row[2])], Used: db.Number(row[5])})
			lastID = id
		}
		r := &runs[len(runs)-1]
		x, best := db.Number(row[3]), db.Number(row[4])
		if math.IsNaN(x) || math.IsNaN(best) {
			continue
		}
		if n := len(r.X); n > 0 && x < r.X[n-1] {
			continue // out of order: keep the trajectory increasing
		}
		r.X = append(r.X, x)
		r.Best = append(r.Best, best)
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
	col := map[string]string{
		"generations": "r.generations",
		"evaluations": "r.evaluations",
		"effort":      "r.effort",
		"seconds":     "r.wall_seconds",
		"cpu":         "r.cpu_seconds",
	}[x]
	cond, args := o.selected()
	t, err := o.query(ctx, d, "ecdf", `
		SELECT r.config, r.solved, `+col+`, r.effort_unit
		FROM run_results r
		WHERE `+cond+`
		ORDER BY r.config, r.id`, args...)
	if err != nil {
		return nil, err
	}
	if len(t.Rows) == 0 {
		return nil, o.noRuns("runs")
	}
	byName := map[string]*plots.RunTimes{}
	var names, units []string
	used, missing := 0.0, 0
	for _, row := range t.Rows {
		x := db.Number(row[2])
		if row[2] == nil || math.IsNaN(x) {
			missing++
			continue
		}
		name := fmt.Sprint(row[0])
		rt, ok := byName[name]
		if !ok {
			rt = &plots.RunTimes{Config: name}
			byName[name] = rt
			names = append(names, name)
		}
		rt.Runs++
		used = max(used, x)
		if toInt(row[1]) == 1 {
			rt.Hits = append(rt.Hits, x)
		}
		if u := fmt.Sprint(row[3]); !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	if missing > 0 && o.warn != nil {
		fmt.Fprintf(o.warn, "plot ecdf: %d runs left out: no %s recorded (runs older than the column)\n", missing, strings.TrimPrefix(col, "r."))
	}
	if len(names) == 0 {
		return nil, o.noRuns("runs with " + strings.TrimPrefix(col, "r."))
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
	cond, args := o.selected()
	totals, err := o.query(ctx, d, "success", `
		SELECT r.config, COUNT(*), SUM(r.solved) FROM run_results r WHERE `+cond+` GROUP BY r.config`, args...)
	if err != nil {
		return nil, err
	}
	if len(totals.Rows) == 0 {
		return nil, o.noRuns("runs")
	}
	by := o.by
	var t db.Table
	groupBy := ""
	if by == "label" {
		// One rating per puzzle and rater: each run is in one group.
		t, err = o.query(ctx, d, "success", `
			SELECT r.config, COALESCE(rt.label, '(no label)'), MIN(lv.level), AVG(rt.value), COUNT(*), SUM(r.solved)
			FROM run_results r
			LEFT JOIN ratings rt ON rt.puzzle_id = r.puzzle_id AND rt.rater = ?
			LEFT JOIN rating_levels lv ON lv.rater = rt.rater AND lv.label = rt.label
			WHERE `+cond+`
			GROUP BY r.config, rt.label`, append([]any{o.rater}, args...)...)
		if err != nil {
			return nil, err
		}
		groupBy = o.rater + " label"
		labelled := slices.ContainsFunc(t.Rows, func(row []any) bool { return fmt.Sprint(row[1]) != "(no label)" })
		if !labelled {
			by = "collection"
		}
	}
	switch by {
	case "collection":
		// A run counts once per collection its puzzle is in (of those
		// --where keeps).
		labelWhere := ""
		if strings.TrimSpace(o.where) != "" {
			// The rows of the view --where matches: its names resolve in
			// w, the innermost.
			labelWhere = ` AND EXISTS (SELECT 1 FROM puzzle_catalog w WHERE w.id = pc.id
				AND COALESCE(w.collection_id, -1) = COALESCE(pc.collection_id, -1) AND (` + o.where + "\n))"
		}
		t, err = o.query(ctx, d, "success", `
			SELECT r.config, COALESCE(pc.collection, '(none)'), NULL, NULL,
			       COUNT(DISTINCT r.id), COUNT(DISTINCT CASE WHEN r.solved = 1 THEN r.id END)
			FROM run_results r
			JOIN puzzle_catalog pc ON pc.id = r.puzzle_id`+labelWhere+`
			WHERE `+cond+`
			GROUP BY r.config, pc.collection`, args...)
		groupBy = "collection"
	case "all":
		t = db.Table{Rows: nil}
		for _, row := range totals.Rows {
			t.Rows = append(t.Rows, []any{row[0], "all runs", nil, nil, row[1], row[2]})
		}
		groupBy = "configuration"
	}
	if err != nil {
		return nil, err
	}
	if len(t.Rows) == 0 {
		return nil, o.noRuns("runs")
	}
	type group struct {
		name          string
		level, value  float64
		runs          float64
		hasL, hasV, z bool
	}
	var groups []group
	for _, row := range t.Rows {
		label := fmt.Sprint(row[1])
		i := slices.IndexFunc(groups, func(g group) bool { return g.name == label })
		if i < 0 {
			groups = append(groups, group{name: label, z: strings.HasPrefix(label, "(")})
			i = len(groups) - 1
		}
		g := &groups[i]
		if row[2] != nil {
			g.level, g.hasL = db.Number(row[2]), true
		}
		if row[3] != nil {
			n := db.Number(row[4])
			g.value = (g.value*g.runs + db.Number(row[3])*n) / (g.runs + n)
			g.runs += n
			g.hasV = true
		}
	}
	// Labels by their level, then by their mean rating, then by name;
	// "(no label)" and "(none)" last.
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
	var names []string
	for _, row := range totals.Rows {
		names = append(names, fmt.Sprint(row[0]))
	}
	o.configOrder(names)
	bars := plots.Bars{Configs: names, GroupBy: groupBy}
	for _, g := range groups {
		bars.Groups = append(bars.Groups, g.name)
	}
	bars.Solved = make([][]int, len(names))
	bars.Runs = make([][]int, len(names))
	bars.TotalSolved = make([]int, len(names))
	bars.TotalRuns = make([]int, len(names))
	for i := range names {
		bars.Solved[i] = make([]int, len(groups))
		bars.Runs[i] = make([]int, len(groups))
	}
	for _, row := range totals.Rows {
		i := slices.Index(names, fmt.Sprint(row[0]))
		bars.TotalRuns[i], bars.TotalSolved[i] = int(toInt(row[1])), int(toInt(row[2]))
	}
	for _, row := range t.Rows {
		i := slices.Index(names, fmt.Sprint(row[0]))
		j := slices.Index(bars.Groups, fmt.Sprint(row[1]))
		bars.Runs[i][j], bars.Solved[i][j] = int(toInt(row[4])), int(toInt(row[5]))
	}
	return plots.Success(bars, o.plotOpts())
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

func toInt(v any) int64 {
	f := db.Number(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(math.Round(f))
}
