package main

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/report"
	"sudokulab/runner"
)

type reportOptions struct {
	*options
	experiment string
	out        string
	resamples  int
	level      float64
	seed       uint64
	noPlots    bool
}

func newReportCmd(opts *options) *cobra.Command {
	o := &reportOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "report --experiment NAME -o FILE.html",
		Short: "Write an experiment's report as one self-contained HTML page: tables with intervals, comparisons, pictures, provenance",
		Long: `report writes the report of one experiment as a single HTML page that opens
offline (style and pictures inline, no script, no link to anything outside):

  - the experiment: its description, configurations, puzzles, runs, dates;
  - per configuration, best first: success rate with its Wilson interval,
    expected running time (ERT) in the solver's effort and in seconds with
    percentile bootstrap intervals (resampled within each puzzle), medians
    of the solved runs; then the same per puzzle (per collection when the
    experiment has more than 30 puzzles);
  - the pairwise comparisons of compare (Fisher, log-rank, Mann-Whitney,
    ERT; Holm-adjusted per puzzle): every pair of up to 5 configurations,
    else each configuration against the best, as the page says;
  - the pictures of plot (success bars, runtime ECDF, convergence, ERT
    against the target) inline as SVG, the 12 best configurations each;
  - each configuration with every parameter, its default, range and the
    section of the paper that defines it, the paper, and what the solver
    counts as an evaluation;
  - provenance: the database and its schema version, the sudokulab
    versions and hosts that made the runs, first and last run.

Runs that were canceled or failed are counted, not analysed. The bootstrap
is deterministic for --seed. The database is only read.
docs/analysis.md describes every table.`,
		Example: `  sudokulab report --experiment example-samples -o report.html
  sudokulab --db postgres://lab@db/lab report --experiment ga-table1 -o ga-table1.html --resamples 2000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.experiment, "experiment", "", "the experiment to report on (required; sudokulab experiments list)")
	f.StringVarP(&o.out, "output", "o", "", "write the page to `FILE`.html (required)")
	f.IntVar(&o.resamples, "resamples", report.DefaultResamples, "bootstrap resamples of each ERT interval")
	f.Float64Var(&o.level, "level", report.DefaultLevel, "confidence level of every interval")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the bootstraps")
	f.BoolVar(&o.noPlots, "no-plots", false, "leave the pictures out")
	return cmd
}

func runReport(ctx context.Context, cmd *cobra.Command, o *reportOptions) error {
	switch {
	case o.experiment == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "report needs --experiment NAME (sudokulab experiments list)")
	case o.out == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "report needs -o FILE.html")
	case o.resamples < 1 || o.resamples > 1_000_000:
		return sudokulab.Errorf(sudokulab.EINVALID, "--resamples %d: want 1 to 1000000", o.resamples)
	case !(o.level > 0 && o.level < 1) || math.IsNaN(o.level):
		return sudokulab.Errorf(sudokulab.EINVALID, "--level %v: want a number between 0 and 1, such as 0.95", o.level)
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	rep, err := report.Build(ctx, d, report.Options{
		Experiment: o.experiment, Solvers: o.registry.All(),
		Resamples: o.resamples, Level: o.level, Seed: o.seed,
		Generator: "sudokulab " + runner.CodeVersion(),
	})
	if err != nil {
		return err
	}
	if !o.noPlots {
		rep.Figures = reportFigures(ctx, d, o, rep)
		if rep.Ranking != nil && rep.Ranking.Err == "" {
			rep.Ranking.Figures = rankingFigures(ctx, d, o)
		}
	}
	var page bytes.Buffer
	if err := report.Render(&page, rep); err != nil {
		return err
	}
	if err := writeFileAtomic(o.out, page.Bytes()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %d configurations, %d puzzles, %d runs, %d comparisons, %d pictures\n",
		o.out, rep.Summary.Configs, rep.Summary.Puzzles, rep.Summary.Runs, len(rep.Comparisons.Pairs), len(rep.Figures))
	return nil
}

// reportFigure is one picture of the report: the plot kind, the flags
// that differ from plot's defaults, and its caption, written after the
// picture is drawn so that it says what the picture shows (its axis, its
// budget line).
type reportFigure struct {
	kind, title string
	set         func(p *plotOptions)
	caption     func(p *plotOptions) string
}

// reportFigures draws the pictures of the experiment's runs with plot's
// own code (plotFigure), whose axes are chosen as plot chooses them
// without --x: in the solvers' effort when they count it in one unit,
// else in time, as compare decides. A picture that cannot be drawn (no
// trajectory points, say) says why on the page instead.
func reportFigures(ctx context.Context, d *db.DB, o *reportOptions, rep *report.Report) []report.Figure {
	top := fmt.Sprintf("With more than %d configurations, the %d best by success rate are drawn, as the picture says.", plots.MaxSeries, plots.MaxSeries)
	figs := []reportFigure{
		{plotSuccess, "Success rates", nil, func(p *plotOptions) string {
			return "Success rate of each configuration per difficulty label of the human rater (or per collection when the puzzles have no human rating), with " +
				report.Num(100*o.level) + " % Wilson intervals and solved/runs above each bar. " + top
		}},
		{plotECDF, "Runtime distribution (ECDF)", func(p *plotOptions) { p.ecdfX = "effort" }, func(p *plotOptions) string {
			return "Fraction of each configuration's runs solved within each budget of " + figures.AxisLabel(p.axis, rep.Unit) + axisWhy(p) +
				", with a bootstrap confidence band" + budgetCaption(p) + ". " + top
		}},
		{plotConvergence, "Convergence", nil, func(p *plotOptions) string {
			return "Median best cost against " + figures.AxisLabel(p.axis, "") + ", with the band between the quartiles, from the stored trajectory points; one panel per puzzle for 2 to 16 puzzles" +
				budgetCaption(p) + ". " + top
		}},
		{plotERT, "ERT against the target cost", nil, func(p *plotOptions) string {
			return "Expected running time in " + figures.AxisLabel(p.axis, "") + axisWhy(p) +
				" to reach each target cost (as IOHanalyzer draws it), from the stored trajectory points. " + top
		}},
	}
	var out []report.Figure
	for _, f := range figs {
		p := &plotOptions{
			options: o.options, experiment: o.experiment, top: plots.MaxSeries,
			convX: "generations", convPanels: "auto", quantiles: []float64{0.25, 0.75},
			ecdfX: "evaluations", resamples: 1000, level: o.level,
			rater: "human", by: "label",
			ertX: "evaluations", ertLogY: true, ertPanel: "auto",
		}
		if f.set != nil {
			f.set(p)
		}
		out = append(out, f.draw(ctx, d, p))
	}
	return out
}

// draw draws the picture with the plot options p, or says why it could
// not.
func (f reportFigure) draw(ctx context.Context, d *db.DB, p *plotOptions) report.Figure {
	fig := report.Figure{ID: "figure-" + f.kind, Title: f.title}
	if svg, err := reportSVG(ctx, d, f.kind, p); err != nil {
		fig.Err = err.Error()
	} else {
		fig.SVG = svg
		fig.Caption = f.caption(p)
	}
	return fig
}

// axisWhy says why a picture's axis is time, when the efforts do not
// compare.
func axisWhy(p *plotOptions) string {
	if p.axisNote == "" {
		return ""
	}
	_, why, _ := strings.Cut(p.axisNote, ": ")
	return " (" + why + ")"
}

// budgetCaption describes the dashed budget line(s) a picture has: all
// the budgets when there are at most three, else the largest (as plots
// draws them); nothing when the runs had no limit on its axis.
func budgetCaption(p *plotOptions) string {
	bs := slices.Clone(p.budgetsDrawn)
	if len(bs) == 0 {
		return ""
	}
	slices.Sort(bs)
	bs = slices.Compact(bs)
	unit := figures.AxisLabel(p.axis, "")
	switch p.axis {
	case "seconds", "cpu":
		unit = "s of wall-clock time (the runs' time limit)"
	case "effort":
		unit = "evaluations"
	}
	if len(bs) > 3 {
		return fmt.Sprintf("; the dashed line marks the largest of the runs' %d budgets, %s %s", len(bs), plots.FormatNumber(bs[len(bs)-1]), unit)
	}
	vs := make([]string, len(bs))
	for i, b := range bs {
		vs[i] = plots.FormatNumber(b)
	}
	what := "line marks the runs' budget"
	if len(bs) > 1 {
		what = "lines mark the runs' budgets"
	}
	return fmt.Sprintf("; the dashed %s, %s %s", what, strings.Join(vs, ", "), unit)
}

// reportSVG draws one picture as an inline SVG element.
func reportSVG(ctx context.Context, d *db.DB, kind string, p *plotOptions) (template.HTML, error) {
	if err := p.check(kind); err != nil {
		return "", err
	}
	fig, err := plotFigure(ctx, d, kind, p)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := fig.WriteSVG(&b); err != nil {
		return "", err
	}
	return report.InlineSVG(b.Bytes())
}

// writeFileAtomic writes data to path through a temporary file in the
// same folder, so that the file appears complete or not at all.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
