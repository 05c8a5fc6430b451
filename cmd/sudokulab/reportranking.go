package main

import (
	"context"

	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/ranking"
	"sudokulab/report"
)

// rankingFigures draws the pictures of the report's ranking, the
// critical-difference diagram and the aggregated runtime ECDF, with
// plot's own code and defaults (efforts in different units drawn on
// time, as the caption says).
func rankingFigures(ctx context.Context, d *db.DB, o *reportOptions) []report.Figure {
	figs := []reportFigure{
		{plotCD, "Critical-difference diagram", nil, func(p *plotOptions) string {
			return "Mean rank of each configuration over the puzzles every one ran on, by expected running time" + axisWhy(p) +
				" (1 is the best), with Nemenyi's critical difference at 0.05: configurations joined by a bar do not differ significantly (Demšar 2006)."
		}},
		{plotAggECDF, "Aggregated runtime ECDF", nil, func(p *plotOptions) string {
			return "Fraction of each configuration's (run, target) pairs reached within each budget of " + figures.AxisLabel(p.axis, "") + axisWhy(p) +
				", over every puzzle and the cost targets 0 and 1/2, 1/4, ... of each puzzle's median starting cost, as COCO's cocopp aggregates runtimes; the legend gives the area under each curve (higher is better) and orders the configurations by it. With more than 12, the 12 with the largest area are drawn."
		}},
	}
	var out []report.Figure
	for _, f := range figs {
		p := &plotOptions{
			options: o.options, experiment: o.experiment, top: plots.MaxSeries,
			rank: rankPlotFlags{measure: string(ranking.ERT), time: "evaluations", parK: ranking.DefaultParK, alpha: ranking.DefaultAlpha, aggX: "evaluations"},
		}
		out = append(out, f.draw(ctx, d, p))
	}
	return out
}
