package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ERTData are the runs an ERT picture summarises.
type ERTData struct {
	// Runs are the trajectories, with Used the budget each run spent in
	// all, in legend order of their configurations.
	Runs []Trajectory
	// XLabel names the budget the ERT counts: "evaluations",
	// "generations" or "seconds".
	XLabel string
	// PerPanel draws one panel per Trajectory.Panel (per puzzle).
	PerPanel bool
}

// ERTPlot draws the expected running time (ERT, see ERT) against the
// target cost, one line per configuration, as IOHanalyzer's "expected
// runtime" plot does for a minimised objective: a lower target is harder,
// and a configuration's line stops at the lowest target some run reached.
// With o.LogY (as IOHanalyzer draws it) the ERT axis is a symmetric log
// scale; the target axis is one when the costs span two decades.
func ERTPlot(d ERTData, o Options) (*Figure, error) {
	runs := slices.DeleteFunc(slices.Clone(d.Runs), func(r Trajectory) bool { return len(r.X) == 0 })
	if len(runs) == 0 {
		return nil, fmt.Errorf("plots: ert: no runs with trajectory points")
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
	small := len(panels) > 1
	all := Targets(runs)
	mx := fitAxis(spansDecades(all), all)
	var ps []*plot.Plot
	for _, panel := range panels {
		var prs []Trajectory
		for _, r := range runs {
			if r.Panel == panel || !d.PerPanel {
				prs = append(prs, r)
			}
		}
		p := newPanel(panel, "target cost (best cost at most)", "ERT ("+d.XLabel+")", small)
		p.Add(plotter.NewGrid())
		curves := ERT(prs, Targets(prs))
		var ys [][]float64
		for _, curve := range curves {
			ys = append(ys, slices.DeleteFunc(slices.Clone(curve.ERT), func(v float64) bool { return math.IsInf(v, 0) }))
		}
		my := fitAxis(o.LogY, ys...)
		for _, curve := range curves {
			i := slices.Index(keep, curve.Config)
			var pts plotter.XYs
			for j, t := range curve.Targets {
				if !math.IsInf(curve.ERT[j], 0) {
					pts = append(pts, plotter.XY{X: t, Y: curve.ERT[j]})
				}
			}
			if len(pts) == 0 {
				continue
			}
			c := seriesColor(i)
			pts = xy(pts, mx, my)
			line, err := plotter.NewLine(pts)
			if err != nil {
				return nil, err
			}
			// At most 15 markers a line, the last included.
			var marks plotter.XYs
			step := (len(pts) + 14) / 15
			for j := len(pts) - 1; j >= 0; j -= step {
				marks = append(marks, pts[j])
			}
			s, err := plotter.NewScatter(marks)
			if err != nil {
				return nil, err
			}
			line.Color = c
			line.Width = vg.Points(1.2)
			s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
			p.Add(line, s)
		}
		mx.set(&p.X, all)
		my.set(&p.Y, ys...)
		ps = append(ps, p)
	}
	var legend []legendEntry
	for i, name := range keep {
		c := seriesColor(i)
		n := scores[slices.IndexFunc(scores, func(s score) bool { return s.name == name })]
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (%d/%d solved)", name, n.solved, n.runs),
			thumb: lineThumb(draw.LineStyle{Color: c, Width: vg.Points(1.2)}, nil),
		})
	}
	note := joinNotes(topNote, pooledNote(runs, d.PerPanel), "ERT: "+d.XLabel+" of all runs until the target (or in all) / runs that reached it")
	return newFigure(o, "Expected running time against target cost", note, ps, legend, 0), nil
}
