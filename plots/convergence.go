package plots

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ConvergenceData are the runs a convergence picture summarises.
type ConvergenceData struct {
	// Runs are the trajectories, in the order the configurations are
	// listed in the legend.
	Runs []Trajectory
	// XLabel names the budget axis: "generations", "evaluations" or
	// "seconds".
	XLabel string
	// Budgets are the runs' limits on the budget axis, marked on it.
	Budgets []float64
	// BudgetName names them on their lines ("budget 300"); "" means
	// "budget". Limits of time are "time limit", in seconds.
	BudgetName string
	// QuantLo and QuantHi bound the shaded band (0.25 and 0.75 when both
	// are 0).
	QuantLo, QuantHi float64
	// PerPanel draws one panel per Trajectory.Panel (per puzzle) instead
	// of pooling every run in one.
	PerPanel bool
}

// Convergence draws, per configuration, the median over its runs of the
// best cost reached within each budget, with the band between two
// quantiles shaded: one panel per puzzle with PerPanel. A median of 0
// (solved) is drawn above the x axis; with o.LogY the cost axis is a
// symmetric log scale.
func Convergence(d ConvergenceData, o Options) (*Figure, error) {
	runs := slices.DeleteFunc(slices.Clone(d.Runs), func(r Trajectory) bool { return len(r.X) == 0 })
	if len(runs) == 0 {
		return nil, fmt.Errorf("plots: convergence: no runs with trajectory points")
	}
	qlo, qhi := d.QuantLo, d.QuantHi
	if qlo == 0 && qhi == 0 {
		qlo, qhi = 0.25, 0.75
	}
	scores := trajectoryScores(runs)
	keep, topNote, err := selectTop(scores, o)
	if err != nil {
		return nil, err
	}
	runs = keepConfigs(runs, keep)
	panels := panelsOf(runs, d.PerPanel)
	if err := checkPanels(len(panels)); err != nil {
		return nil, err
	}
	var xs [][]float64
	for _, r := range runs {
		xs = append(xs, r.X)
	}
	xs = append(xs, d.Budgets)
	mx := fitAxis(spansDecades(xs...), xs...)
	small := len(panels) > 1
	var ps []*plot.Plot
	for _, panel := range panels {
		var prs []Trajectory
		for _, r := range runs {
			if r.Panel == panel || !d.PerPanel {
				prs = append(prs, r)
			}
		}
		p := newPanel(panel, d.XLabel, "best cost", small)
		p.Add(plotter.NewGrid())
		bands := Bands(prs, qlo, qhi)
		ys := [][]float64{{1}}
		for _, b := range bands {
			ys = append(ys, b.Hi, b.Lo)
		}
		my := fitAxis(o.LogY, ys...)
		for _, b := range bands {
			if err := addBand(p, b, slices.Index(keep, b.Config), mx, my); err != nil {
				return nil, err
			}
		}
		p.Add(budgetLines(d.Budgets, d.BudgetName, mx)...)
		mx.set(&p.X, xs...)
		my.set(&p.Y, ys...)
		ps = append(ps, p)
	}
	var legend []legendEntry
	for i, name := range keep {
		c := seriesColor(i)
		n := scores[slices.IndexFunc(scores, func(s score) bool { return s.name == name })]
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (%d/%d solved)", name, n.solved, n.runs),
			thumb: lineThumb(draw.LineStyle{Color: c, Width: vg.Points(1.5)}, translucent(c, 50)),
		})
	}
	title := fmt.Sprintf("Convergence: median best cost, %s-%s quantile band", FormatNumber(qlo), FormatNumber(qhi))
	return newFigure(o, title, joinNotes(topNote, pooledNote(runs, d.PerPanel)), ps, legend, 0), nil
}

// addBand draws one configuration's median line and its shaded band.
func addBand(p *plot.Plot, b Band, i int, mx, my axisMap) error {
	if len(b.X) == 0 {
		return nil
	}
	c := seriesColor(i)
	// The band as a step polygon, like the median.
	var band plotter.XYs
	for j := range b.X {
		if j > 0 {
			band = append(band, plotter.XY{X: b.X[j], Y: b.Hi[j-1]})
		}
		band = append(band, plotter.XY{X: b.X[j], Y: b.Hi[j]})
	}
	for j := len(b.X) - 1; j >= 0; j-- {
		band = append(band, plotter.XY{X: b.X[j], Y: b.Lo[j]})
		if j > 0 {
			band = append(band, plotter.XY{X: b.X[j], Y: b.Lo[j-1]})
		}
	}
	if len(b.X) == 1 {
		// One budget: a thin band of the line's width.
		band = append(band, plotter.XY{X: b.X[0], Y: b.Lo[0]})
	}
	poly, err := plotter.NewPolygon(xy(band, mx, my))
	if err != nil {
		return err
	}
	poly.Color = translucent(c, 50)
	poly.LineStyle.Width = 0
	med := make(plotter.XYs, len(b.X))
	for j := range b.X {
		med[j] = plotter.XY{X: b.X[j], Y: b.Median[j]}
	}
	med = xy(med, mx, my)
	line, err := plotter.NewLine(med)
	if err != nil {
		return err
	}
	line.Color = c
	line.Width = vg.Points(1.5)
	line.StepStyle = plotter.PostStep
	p.Add(poly, line)
	{
		// Mark where the median ends: a configuration solved at once is
		// a single point.
		s, err := plotter.NewScatter(med[len(med)-1:])
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	return nil
}
