package report

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// figure is one picture of the page: how figures draws it (draw and its
// spec, with the defaults of sudokulab plot), its title, and its caption,
// written after the picture is drawn so that it says what the picture
// shows (its axis, its budget line).
type figure struct {
	kind, title string
	draw        func(context.Context, *db.DB, figures.Spec) (figures.Drawn, error)
	spec        figures.Spec
	caption     func(figures.Drawn) string
}

// DrawFigures draws the pictures of the runs of experiment with plot's
// own code (package figures), at the confidence level of the report,
// whose axes are chosen as plot chooses them without --x: in the solvers'
// effort when they count it in one unit (rep.Unit), else in time, as
// compare decides. A picture that cannot be drawn (no trajectory points,
// say) says why on the page instead. It also draws the race of each of
// rep's tunings into its Figure.
func DrawFigures(ctx context.Context, d *db.DB, rep *Report, experiment string, level float64) []Figure {
	drawRaces(rep)
	top := fmt.Sprintf("With more than %d configurations, the %d best by success rate are drawn, as the picture says.", plots.MaxSeries, plots.MaxSeries)
	opts := plots.Options{Top: plots.MaxSeries, Resamples: 1000, Level: level}
	figs := []figure{
		{"success", "Success rates", figures.Success, figures.Spec{Rater: "human", By: "label"}, func(figures.Drawn) string {
			return "Success rate of each configuration per difficulty label of the human rater (or per collection when the puzzles have no human rating), with " +
				Num(100*level) + " % Wilson intervals and solved/runs above each bar. " + top
		}},
		{"ecdf", "Runtime distribution (ECDF)", figures.ECDF, figures.Spec{X: "effort"}, func(f figures.Drawn) string {
			return "Fraction of each configuration's runs solved within each budget of " + figures.AxisLabel(f.Axis, rep.Unit) + axisWhy(f) +
				", with a bootstrap confidence band" + budgetCaption(f) + ". " + top
		}},
		{"convergence", "Convergence", figures.Convergence, figures.Spec{X: "generations", Panels: "auto", Quantiles: []float64{0.25, 0.75}}, func(f figures.Drawn) string {
			return "Median best cost against " + figures.AxisLabel(f.Axis, "") + ", with the band between the quartiles, from the stored trajectory points; one panel per puzzle for 2 to 16 puzzles" +
				budgetCaption(f) + ". " + top
		}},
		{"ert", "ERT against the target cost", figures.ERT, figures.Spec{X: "evaluations", LogY: true, Panels: "auto"}, func(f figures.Drawn) string {
			return "Expected running time in " + figures.AxisLabel(f.Axis, "") + axisWhy(f) +
				" to reach each target cost (as IOHanalyzer draws it), from the stored trajectory points. " + top
		}},
	}
	return drawAll(ctx, d, figs, experiment, opts)
}

// DrawRankingFigures draws the pictures of the ranking of the runs of
// experiment, the critical-difference diagram and the aggregated runtime
// ECDF, with plot's own code and defaults (efforts in different units
// drawn on time, as the caption says).
func DrawRankingFigures(ctx context.Context, d *db.DB, experiment string) []Figure {
	figs := []figure{
		{"cd", "Critical-difference diagram", figures.CD, figures.Spec{Ranking: ranking.Options{Measure: ranking.ERT, ParK: ranking.DefaultParK, Alpha: ranking.DefaultAlpha}}, func(f figures.Drawn) string {
			return "Mean rank of each configuration over the puzzles every one ran on, by expected running time" + axisWhy(f) +
				" (1 is the best), with Nemenyi's critical difference at 0.05: configurations joined by a bar do not differ significantly (Demšar 2006)."
		}},
		{"aggecdf", "Aggregated runtime ECDF", figures.AggECDF, figures.Spec{X: "evaluations"}, func(f figures.Drawn) string {
			return "Fraction of each configuration's (run, target) pairs reached within each budget of " + figures.AxisLabel(f.Axis, "") + axisWhy(f) +
				", over every puzzle and the cost targets 0 and 1/2, 1/4, ... of each puzzle's median starting cost, as COCO's cocopp aggregates runtimes; the legend gives the area under each curve (higher is better) and orders the configurations by it. With more than 12, the 12 with the largest area are drawn."
		}},
	}
	return drawAll(ctx, d, figs, experiment, plots.Options{Top: plots.MaxSeries})
}

// drawAll draws figs of the runs of experiment with the picture options
// opts, each as an inline SVG element or the reason it could not be.
func drawAll(ctx context.Context, d *db.DB, figs []figure, experiment string, opts plots.Options) []Figure {
	var out []Figure
	for _, f := range figs {
		f.spec.Selection, f.spec.Options = db.RunSelection{Experiment: experiment}, opts
		fig := Figure{ID: "figure-" + f.kind, Title: f.title}
		drawn, err := f.draw(ctx, d, f.spec)
		if err == nil {
			fig.SVG, err = svgOf(drawn.Figure)
		}
		if err != nil {
			fig.Err = err.Error()
		} else {
			fig.Caption = f.caption(drawn)
		}
		out = append(out, fig)
	}
	return out
}

// svgOf returns fig as an inline SVG element.
func svgOf(fig *plots.Figure) (template.HTML, error) {
	var b bytes.Buffer
	if err := fig.WriteSVG(&b); err != nil {
		return "", err
	}
	return InlineSVG(b.Bytes())
}

// axisWhy says why a picture's axis is time, when the efforts do not
// compare.
func axisWhy(f figures.Drawn) string {
	if f.AxisNote == "" {
		return ""
	}
	_, why, _ := strings.Cut(f.AxisNote, ": ")
	return " (" + why + ")"
}

// budgetCaption describes the dashed budget line(s) a picture has: all
// the budgets when there are at most three, else the largest (as plots
// draws them); nothing when the runs had no limit on its axis.
func budgetCaption(f figures.Drawn) string {
	bs := slices.Clone(f.Budgets)
	if len(bs) == 0 {
		return ""
	}
	slices.Sort(bs)
	bs = slices.Compact(bs)
	unit := figures.AxisLabel(f.Axis, "")
	switch f.Axis {
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
