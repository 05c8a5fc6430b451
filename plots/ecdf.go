package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ECDFData are the runtimes an ECDF picture draws.
type ECDFData struct {
	// Series are the configurations' runtimes, in legend order.
	Series []RunTimes
	// XLabel names the budget axis.
	XLabel string
	// Budgets are the runs' limits on the budget axis, marked on it.
	Budgets []float64
	// BudgetName names them on their lines ("budget 300"); "" means
	// "budget". Limits of time are "time limit", in seconds.
	BudgetName string
	// Used is the largest budget a run spent, solved or not: the curves
	// go on to it (or to the largest budget).
	Used float64
}

// fractionTicks label an axis of fractions from 0 to 1.
var fractionTicks = plot.ConstantTicks([]plot.Tick{
	{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"},
	{Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"},
})

// ECDF draws, per configuration, the fraction of its runs that reached
// the target (solved) within each budget: the empirical distribution
// function of the running time, as IOHprofiler and COCO draw it, which
// stays below 1 when some runs failed. A percentile bootstrap band at
// o.Level is shaded around each curve (o.Resamples resamples). Runs solved
// at budget 0 (by a prefilter, or at the start) are drawn at 0, which a
// symmetric log axis keeps.
func ECDF(d ECDFData, o Options) (*Figure, error) {
	if len(d.Series) == 0 {
		return nil, fmt.Errorf("plots: ecdf: no runs")
	}
	var scores []score
	for _, r := range d.Series {
		s := score{name: r.Config, solved: len(r.Hits), runs: r.Runs}
		for _, h := range r.Hits {
			s.cost += h / float64(len(r.Hits))
		}
		scores = append(scores, s)
	}
	keep, topNote, err := selectTop(scores, o)
	if err != nil {
		return nil, err
	}
	series := slices.DeleteFunc(slices.Clone(d.Series), func(r RunTimes) bool { return !slices.Contains(keep, r.Config) })
	resamples := o.Resamples
	if resamples == 0 {
		resamples = 1000
	}
	level := o.level()
	p := newPanel("", d.XLabel, "fraction of runs solved", false)
	p.Add(plotter.NewGrid())
	xs := [][]float64{d.Budgets, {d.Used}}
	end := max(d.Used, 0)
	for _, r := range series {
		xs = append(xs, r.Hits)
		for _, h := range r.Hits {
			end = max(end, h)
		}
	}
	for _, b := range d.Budgets {
		end = max(end, b)
	}
	mx := fitAxis(spansDecades(xs...), xs...)
	var legend []legendEntry
	for i, r := range series {
		c := seriesColor(i)
		steps, _ := r.Steps()
		pts := r.stepPoints(end)
		var bandColor = translucent(c, 45)
		if resamples > 0 && len(steps) > 0 {
			at := bandBudgets(steps)
			lo, hi := ECDFBand(r, at, resamples, level, seedOf(r.Config))
			poly, err := stepBand(at, lo, hi, end, mx)
			if err != nil {
				return nil, err
			}
			poly.Color = bandColor
			poly.LineStyle.Width = 0
			p.Add(poly)
		} else {
			bandColor = nil
		}
		line, err := stepLine(xy(pts, mx, axisMap{}), c)
		if err != nil {
			return nil, err
		}
		p.Add(line)
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (%d/%d solved)", r.Config, len(r.Hits), r.Runs),
			thumb: lineThumb(draw.LineStyle{Color: c, Width: vg.Points(1.5)}, bandColor),
		})
	}
	p.Add(budgetLines(d.Budgets, d.BudgetName, mx)...)
	mx.set(&p.X, xs...)
	p.Y.Min, p.Y.Max = -0.03, 1.03
	p.Y.Tick.Marker = fractionTicks
	bandNote := ""
	if resamples > 0 {
		bandNote = fmt.Sprintf("shaded: %s %% bootstrap band (%d resamples)", FormatNumber(100*level), resamples)
	}
	return newFigure(o, "Runtime ECDF: fraction of runs solved within the budget", joinNotes(topNote, bandNote), []*plot.Plot{p}, legend, 0), nil
}

// stepBand returns the band between the step functions lo and hi (steps
// at xs, held to end) as a polygon.
func stepBand(xs, lo, hi []float64, end float64, mx axisMap) (*plotter.Polygon, error) {
	var pts plotter.XYs
	for j := range xs {
		if j > 0 {
			pts = append(pts, plotter.XY{X: xs[j], Y: hi[j-1]})
		}
		pts = append(pts, plotter.XY{X: xs[j], Y: hi[j]})
	}
	last := len(xs) - 1
	pts = append(pts, plotter.XY{X: math.Max(end, xs[last]), Y: hi[last]}, plotter.XY{X: math.Max(end, xs[last]), Y: lo[last]})
	for j := last; j >= 0; j-- {
		pts = append(pts, plotter.XY{X: xs[j], Y: lo[j]})
		if j > 0 {
			pts = append(pts, plotter.XY{X: xs[j], Y: lo[j-1]})
		}
	}
	return plotter.NewPolygon(xy(pts, mx, axisMap{}))
}

// stepPoints returns the corners of r's ECDF as a step line from budget 0
// (at 0 unless runs hit there) to end, where it holds its last height.
func (r RunTimes) stepPoints(end float64) plotter.XYs {
	steps, fs := r.Steps()
	pts := plotter.XYs{}
	if len(steps) == 0 || steps[0] > 0 {
		pts = append(pts, plotter.XY{X: 0, Y: 0})
	}
	for j := range steps {
		pts = append(pts, plotter.XY{X: steps[j], Y: fs[j]})
	}
	return append(pts, plotter.XY{X: end, Y: pts[len(pts)-1].Y})
}

// stepLine returns the line of a series drawn as steps (each value held
// until the next), in colour c.
func stepLine(pts plotter.XYs, c color.Color) (*plotter.Line, error) {
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = c
	line.Width = vg.Points(1.5)
	line.StepStyle = plotter.PostStep
	return line, nil
}
