package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RaceEntry is one candidate in one step of an iterated race (a row of
// the table tuning_steps).
type RaceEntry struct {
	Iteration, Step, Candidate int
	// Alive is false at the step whose test eliminated the candidate.
	Alive bool
}

// RaceData is an iterated race to draw.
type RaceData struct {
	Entries []RaceEntry
	// Elites are the final elites' candidate numbers, best first.
	Elites []int
}

// eliminatedColor marks eliminations.
var eliminatedColor = rgb(0xd62728)

// Race draws an iterated race (sudokulab tune): the race steps one after
// another along x, iteration after iteration, and the candidates along
// y; a candidate's line runs over the steps it raced, ends in a red cross
// where a test eliminated it, and is drawn in colour for a final elite.
func Race(d RaceData, o Options) (*Figure, error) {
	if len(d.Entries) == 0 {
		return nil, fmt.Errorf("plots: race: no race step")
	}
	entries := slices.Clone(d.Entries)
	slices.SortFunc(entries, func(a, b RaceEntry) int {
		return cmp.Or(cmp.Compare(a.Iteration, b.Iteration), cmp.Compare(a.Step, b.Step), cmp.Compare(a.Candidate, b.Candidate))
	})
	// x numbers the (iteration, step) pairs in order, from 1; each
	// iteration spans from half a step before its first to half a step
	// after its last.
	x := map[[2]int]float64{}
	var bounds []plot.Plotter
	var spans iterationSpans
	for _, e := range entries {
		k := [2]int{e.Iteration, e.Step}
		if _, ok := x[k]; !ok {
			x[k] = float64(len(x) + 1)
			if e.Step == 1 || len(spans) == 0 || spans[len(spans)-1].n != e.Iteration {
				bounds = append(bounds, vline{x: x[k] - 0.5})
				spans = append(spans, iterationSpan{n: e.Iteration, from: x[k] - 0.5})
			}
			spans[len(spans)-1].to = x[k] + 0.5
		}
	}
	p := newPanel("", "race step (instances, iteration after iteration)", "candidate", false)
	p.Add(plotter.NewGrid())
	p.Add(bounds...)
	p.Add(spans)
	// One line per candidate and iteration.
	type run struct{ candidate, iteration int }
	lines := map[run]plotter.XYs{}
	var order []run
	var crosses plotter.XYs
	for _, e := range entries {
		r := run{e.Candidate, e.Iteration}
		if _, ok := lines[r]; !ok {
			order = append(order, r)
		}
		pt := plotter.XY{X: x[[2]int{e.Iteration, e.Step}], Y: float64(e.Candidate)}
		lines[r] = append(lines[r], pt)
		if !e.Alive {
			crosses = append(crosses, pt)
		}
	}
	eliteStyle := draw.LineStyle{Color: seriesColor(0), Width: vg.Points(1.6)}
	otherStyle := draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(0.8)}
	for _, r := range order {
		pts := lines[r]
		if len(pts) == 1 {
			// A candidate that raced one step shows as a short stroke.
			pts = append(pts, plotter.XY{X: pts[0].X + 0.3, Y: pts[0].Y})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.LineStyle = otherStyle
		if slices.Contains(d.Elites, r.candidate) {
			l.LineStyle = eliteStyle
		}
		p.Add(l)
	}
	var legend []legendEntry
	legend = append(legend, legendEntry{text: "final elite", thumb: lineThumb(eliteStyle, nil)}, legendEntry{text: "other candidate", thumb: lineThumb(otherStyle, nil)})
	if len(crosses) > 0 {
		s, err := plotter.NewScatter(crosses)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: eliminatedColor, Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}}
		p.Add(s)
		legend = append(legend, legendEntry{text: "eliminated", thumb: func(c *draw.Canvas) {
			c.DrawGlyph(s.GlyphStyle, c.Center())
		}})
	}
	p.Y.Min = 0
	p.X.Tick.Marker, p.Y.Tick.Marker = integerTicks{}, integerTicks{}
	note := fmt.Sprintf("%d candidates, %d steps, %d eliminations", len(candidatesOf(entries)), len(x), len(crosses))
	return newFigure(o, "Iterated race", note, []*plot.Plot{p}, legend, 0), nil
}

// iterationSpan is the x range of one iteration of a race.
type iterationSpan struct {
	n        int
	from, to float64
}

// iterationSpans name the iterations of a race in a band above its data,
// each centred over its steps, level: "iteration N" where that fits,
// else N alone, else nothing. (Labels turned upright along the
// boundaries, as vline writes them, crossed the candidates' lines at the
// top of the plot and ran into each other where iterations are short.)
type iterationSpans []iterationSpan

// iterationStyle is the style of the iterations' names.
var iterationStyle = func() draw.TextStyle {
	st := textStyle(7)
	st.Color = color.Gray{Y: 60}
	st.XAlign, st.YAlign = draw.XCenter, draw.YBottom
	return st
}()

// iterationGap is the room between the data and the names.
const iterationGap = vg.Length(3)

// Plot implements plot.Plotter: the names above c, in the room GlyphBoxes
// asked for.
func (s iterationSpans) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, sp := range s {
		x0, x1 := max(trX(sp.from), c.Min.X), min(trX(sp.to), c.Max.X)
		for _, label := range []string{fmt.Sprintf("iteration %d", sp.n), strconv.Itoa(sp.n)} {
			if iterationStyle.Width(label)+2 <= x1-x0 {
				c.FillText(iterationStyle, vg.Point{X: (x0 + x1) / 2, Y: c.Max.Y + iterationGap}, label)
				break
			}
		}
	}
}

// DataRange implements plot.DataRanger: the steps with half a step on
// either side, no y.
func (s iterationSpans) DataRange() (xmin, xmax, ymin, ymax float64) {
	return s[0].from, s[len(s)-1].to, math.Inf(1), math.Inf(-1)
}

// GlyphBoxes implements plot.GlyphBoxer: a box at the top of the data as
// high as the names, so that the plot keeps its data below them.
func (s iterationSpans) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	h := iterationStyle.Height("0") + iterationGap
	return []plot.GlyphBox{{X: 0.5, Y: 1, Rectangle: vg.Rectangle{Max: vg.Point{Y: h}}}}
}

// integerTicks label whole numbers only, every 1, 2 or 5 times a power
// of ten, about six of them: steps and candidates are counted.
type integerTicks struct{}

// Ticks implements plot.Ticker.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for (hi-lo)/step > 8 {
		switch m := step / math.Pow(10, math.Floor(math.Log10(step))); m {
		case 1:
			step *= 2
		case 2:
			step *= 2.5
		default:
			step *= 2
		}
	}
	var out []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return out
}

func candidatesOf(entries []RaceEntry) map[int]bool {
	c := map[int]bool{}
	for _, e := range entries {
		c[e.Candidate] = true
	}
	return c
}
