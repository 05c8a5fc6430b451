package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/plots"
)

type plotOptions struct {
	*options
	configs   []string
	where     string
	out       string
	convAxis  string
	ecdfAxis  string
	quantiles []float64
	rater     string
}

func newPlotCmd(opts *options) *cobra.Command {
	o := &plotOptions{options: opts}
	cmd := groupCmd("plot", "Draw convergence curves, runtime ECDFs or success rates as SVG or PNG",
		o.sub("convergence", "Median best cost against generations or evaluations, with a quantile band",
			`convergence draws, for each configuration, the median over its runs of the
best cost reached within each budget (generations, or evaluations with
--axis evaluations), read from the stored trajectory points, with the band
between two quantiles (--quantiles, 0.25,0.75 by default) shaded. The
budget axis is logarithmic when it spans two decades or more.`,
			`  sudokulab plot convergence --config sato-inoue-mut-cross-ls --config reseda-table1-both-a0.7 -o conv.png
  sudokulab plot convergence --where "experiment = 'ga-table1'" --axis evaluations -o conv.svg`,
			o.convergence),
		o.sub("ecdf", "Runtime ECDF: fraction of runs solved within each budget, per configuration",
			`ecdf draws, for each configuration, the fraction of its runs solved within
each budget of evaluations (or generations with --axis generations): the
empirical distribution function of the running time, as IOHprofiler and
COCO draw it. A curve that stays below 1 has failed runs.`,
			`  sudokulab plot ecdf --where "experiment = 'cuckoo-table1'" -o ecdf.png`,
			o.ecdf),
		o.sub("success", "Success rate per difficulty label as grouped bars, one bar per configuration",
			`success draws the success rate of each configuration on the puzzles of each
difficulty label of one rater (--rater, human by default), labels ordered by
their mean rating. Without ratings by that rater for the runs chosen it
groups by the puzzles' collections instead.`,
			`  sudokulab plot success --rater backtrack --where "experiment = 'ga-table1'" -o success.png
  sudokulab plot success --config exact --config soto-cuckoo -o success.svg`,
			o.success),
	)
	cmd.PersistentFlags().StringArrayVar(&o.configs, "config", nil, "plot this configuration (repeatable; default: every configuration with runs)")
	cmd.PersistentFlags().StringVar(&o.where, "where", "", "only the runs matching this SQL predicate over the run_results view (docs/schema.md)")
	cmd.PersistentFlags().StringVarP(&o.out, "output", "o", "", "write the picture to `FILE`.svg or FILE.png (required)")
	return cmd
}

// sub returns one plot subcommand running draw.
func (o *plotOptions) sub(name, short, long, example string, draw func(context.Context, *db.DB) (*plot.Plot, error)) *cobra.Command {
	c := &cobra.Command{
		Use:     name + " -o FILE.svg|FILE.png",
		Short:   short,
		Long:    long,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlot(cmd.Context(), cmd, o, draw)
		},
	}
	switch name {
	case "convergence":
		c.Flags().StringVar(&o.convAxis, "axis", "generations", "budget axis: generations or evaluations")
		c.Flags().Float64SliceVar(&o.quantiles, "quantiles", []float64{0.25, 0.75}, "the two quantiles that bound the band")
	case "ecdf":
		c.Flags().StringVar(&o.ecdfAxis, "axis", "evaluations", "budget axis: evaluations or generations")
	case "success":
		c.Flags().StringVar(&o.rater, "rater", "human", "the rater whose labels group the puzzles")
	}
	return c
}

func runPlot(ctx context.Context, cmd *cobra.Command, o *plotOptions, draw func(context.Context, *db.DB) (*plot.Plot, error)) error {
	switch {
	case o.out == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "%s needs -o FILE.svg or -o FILE.png", cmd.CommandPath())
	case !strings.HasSuffix(strings.ToLower(o.out), ".svg") && !strings.HasSuffix(strings.ToLower(o.out), ".png"):
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: want a .svg or .png file", o.out)
	}
	for _, axis := range []string{o.convAxis, o.ecdfAxis} {
		if axis != "" && axis != "generations" && axis != "evaluations" {
			return sudokulab.Errorf(sudokulab.EINVALID, "--axis %q: want generations or evaluations", axis)
		}
	}
	if len(o.quantiles) != 0 && (len(o.quantiles) != 2 || o.quantiles[0] < 0 || o.quantiles[1] > 1 || o.quantiles[0] >= o.quantiles[1]) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--quantiles %v: want two increasing numbers between 0 and 1", o.quantiles)
	}
	if err := db.CheckPredicate(o.where); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	p, err := draw(ctx, d)
	if err != nil {
		return err
	}
	if err := plots.Save(p, o.out); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", o.out)
	return nil
}

// selected returns a SQL condition on r.id choosing the runs of --config
// and --where, and its arguments. runPlot has checked --where (a single
// expression), and the draw functions run the condition through ReadQuery,
// on a read-only connection.
func (o *plotOptions) selected() (string, []any) {
	cond := "r.id IN (SELECT id FROM run_results WHERE 1 = 1"
	var args []any
	if len(o.configs) > 0 {
		cond += " AND config IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(o.configs)), ", ") + ")"
		for _, c := range o.configs {
			args = append(args, c)
		}
	}
	if strings.TrimSpace(o.where) != "" {
		cond += " AND (" + o.where + "\n)"
	}
	return cond + ")", args
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
	return sudokulab.Errorf(sudokulab.ENOTFOUND, "plot: no %s for --config %v --where %q", what, o.configs, o.where)
}

func (o *plotOptions) convergence(ctx context.Context, d *db.DB) (*plot.Plot, error) {
	cond, args := o.selected()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.id, CASE WHEN ? = 'evaluations' THEN t.evaluations ELSE t.generation END, t.best_cost
		FROM run_results r JOIN trajectory_points t ON t.run_id = r.id
		WHERE `+cond+`
		ORDER BY r.id, t.seq`, append([]any{o.convAxis}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("plot convergence: %w", err)
	}
	if len(t.Rows) == 0 {
		return nil, o.noRuns("runs with trajectory points")
	}
	var runs []plots.Trajectory
	lastID := int64(-1)
	for _, row := range t.Rows {
		id := toInt(row[1])
		if id != lastID {
			runs = append(runs, plots.Trajectory{Config: fmt.Sprint(row[0])})
			lastID = id
		}
		r := &runs[len(runs)-1]
		x, best := toFloat(row[2]), toFloat(row[3])
		if n := len(r.X); n > 0 && x < r.X[n-1] {
			continue // out of order: keep the trajectory increasing
		}
		r.X = append(r.X, x)
		r.Best = append(r.Best, best)
	}
	var names []string
	for _, r := range runs {
		if !slices.Contains(names, r.Config) {
			names = append(names, r.Config)
		}
	}
	o.configOrder(names)
	slices.SortStableFunc(runs, func(a, b plots.Trajectory) int {
		return slices.Index(names, a.Config) - slices.Index(names, b.Config)
	})
	q := o.quantiles
	if len(q) == 0 {
		q = []float64{0.25, 0.75}
	}
	return plots.Convergence(plots.Bands(runs, q[0], q[1]), o.convAxis)
}

func (o *plotOptions) ecdf(ctx context.Context, d *db.DB) (*plot.Plot, error) {
	cond, args := o.selected()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.solved, CASE WHEN ? = 'generations' THEN r.generations ELSE r.evaluations END
		FROM run_results r
		WHERE `+cond+`
		ORDER BY r.config, r.id`, append([]any{o.ecdfAxis}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("plot ecdf: %w", err)
	}
	if len(t.Rows) == 0 {
		return nil, o.noRuns("runs")
	}
	byName := map[string]*plots.RunTimes{}
	var names []string
	for _, row := range t.Rows {
		name := fmt.Sprint(row[0])
		rt, ok := byName[name]
		if !ok {
			rt = &plots.RunTimes{Config: name}
			byName[name] = rt
			names = append(names, name)
		}
		rt.Runs++
		if toInt(row[1]) == 1 {
			rt.Hits = append(rt.Hits, toFloat(row[2]))
		}
	}
	o.configOrder(names)
	rts := make([]plots.RunTimes, len(names))
	for i, n := range names {
		rts[i] = *byName[n]
	}
	return plots.ECDF(rts, o.ecdfAxis)
}

func (o *plotOptions) success(ctx context.Context, d *db.DB) (*plot.Plot, error) {
	cond, args := o.selected()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, rt.label, AVG(rt.value), COUNT(*), SUM(r.solved)
		FROM run_results r
		JOIN ratings rt ON rt.puzzle_id = r.puzzle_id AND rt.rater = ? AND rt.label IS NOT NULL
		WHERE `+cond+`
		GROUP BY r.config, rt.label`, append([]any{o.rater}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("plot success: %w", err)
	}
	groupBy := o.rater + " label"
	if len(t.Rows) == 0 {
		groupBy = "collection"
		t, err = d.ReadQuery(ctx, `
			SELECT r.config, COALESCE(pc.collection, '(none)'), NULL, COUNT(*), SUM(r.solved)
			FROM run_results r
			JOIN puzzle_catalog pc ON pc.id = r.puzzle_id
			WHERE `+cond+`
			GROUP BY r.config, pc.collection`, args...)
		if err != nil {
			return nil, fmt.Errorf("plot success: %w", err)
		}
	}
	if len(t.Rows) == 0 {
		return nil, o.noRuns("runs")
	}
	// Order the groups by their mean rating, then by name.
	type group struct {
		name       string
		value, n   float64
		hasRatings bool
	}
	var groups []group
	var names []string
	for _, row := range t.Rows {
		name, label := fmt.Sprint(row[0]), fmt.Sprint(row[1])
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		i := slices.IndexFunc(groups, func(g group) bool { return g.name == label })
		if i < 0 {
			groups = append(groups, group{name: label})
			i = len(groups) - 1
		}
		if row[2] != nil {
			runs := toFloat(row[3])
			groups[i].value += toFloat(row[2]) * runs
			groups[i].n += runs
			groups[i].hasRatings = true
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		if a.hasRatings && b.hasRatings && a.value/a.n != b.value/b.n {
			if a.value/a.n < b.value/b.n {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	o.configOrder(names)
	bars := plots.Bars{Configs: names, GroupBy: groupBy, Rates: make([][]float64, len(names))}
	for _, g := range groups {
		bars.Groups = append(bars.Groups, g.name)
	}
	for i := range bars.Rates {
		bars.Rates[i] = make([]float64, len(groups))
		for j := range groups {
			bars.Rates[i][j] = math.NaN()
		}
	}
	for _, row := range t.Rows {
		i := slices.Index(names, fmt.Sprint(row[0]))
		j := slices.Index(bars.Groups, fmt.Sprint(row[1]))
		bars.Rates[i][j] = toFloat(row[4]) / toFloat(row[3])
	}
	return plots.Success(bars)
}

// toFloat reads a number the database returned.
func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return math.NaN()
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}
