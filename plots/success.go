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

// Bars are success counts by group (a difficulty label, a collection, or
// one group of all runs) and configuration: Solved[i][j] of Runs[i][j]
// runs of configuration i on group j were solved (Runs 0: none there).
// TotalSolved and TotalRuns count each configuration's distinct runs over
// all groups, which choose the best when there are too many to draw (a
// run in two groups, such as two collections, counts once there).
type Bars struct {
	Groups                 []string
	Configs                []string
	Solved, Runs           [][]int
	TotalSolved, TotalRuns []int
	// GroupBy names what the groups are, for the axis label.
	GroupBy string
}

// Success draws the success rates as grouped bars, one group per label
// (or collection), one bar per configuration, each with its Wilson
// interval at o.Level and its count written above it ("3/20"). A rate of
// 0 is drawn as a flat mark on the axis, so it shows, with its count.
func Success(b Bars, o Options) (*Figure, error) {
	if len(b.Groups) == 0 || len(b.Configs) == 0 {
		return nil, fmt.Errorf("plots: success: no runs")
	}
	var scores []score
	for i, name := range b.Configs {
		s := score{name: name}
		if i < len(b.TotalRuns) {
			s.solved, s.runs = b.TotalSolved[i], b.TotalRuns[i]
		} else {
			for j := range b.Groups {
				s.solved += b.Solved[i][j]
				s.runs += b.Runs[i][j]
			}
		}
		scores = append(scores, s)
	}
	keep, topNote, err := selectTop(scores, o)
	if err != nil {
		return nil, err
	}
	// The groups where a configuration drawn has runs.
	var groups []int
	for j := range b.Groups {
		for _, name := range keep {
			if b.Runs[slices.Index(b.Configs, name)][j] > 0 {
				groups = append(groups, j)
				break
			}
		}
	}
	pick := func(row []int) []int {
		out := make([]int, len(groups))
		for k, j := range groups {
			out[k] = row[j]
		}
		return out
	}
	var names []string
	for _, j := range groups {
		names = append(names, b.Groups[j])
	}
	bp := &barPlot{groups: len(groups), configs: len(keep), level: o.level()}
	var legend []legendEntry
	for k, name := range keep {
		i := slices.Index(b.Configs, name)
		bp.solved = append(bp.solved, pick(b.Solved[i]))
		bp.runs = append(bp.runs, pick(b.Runs[i]))
		s := scores[i]
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (%d/%d solved)", name, s.solved, s.runs),
			thumb: boxThumb(seriesColor(k)),
		})
	}
	level := FormatNumber(100 * o.level())
	p := newPanel("", b.GroupBy, "success rate ("+level+" % Wilson interval)", false)
	p.Add(&plotter.Grid{Horizontal: draw.LineStyle{Color: color.Gray{Y: 200}, Width: vg.Points(0.5)}})
	p.Add(bp)
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = -0.02, 1.2
	p.Y.Tick.Marker = fractionTicks
	// Bars of about 0.45 cm, groups 0.5 cm apart.
	w := max(plotWidth, vg.Length(len(names))*(vg.Length(len(keep))*0.45*vg.Centimeter+0.5*vg.Centimeter)+2*vg.Centimeter)
	if o.Width > 0 {
		w = o.Width
	}
	var labels vg.Length
	for _, g := range names {
		labels = max(labels, p.X.Tick.Label.Width(g))
	}
	if vg.Length(len(names))*labels > 0.8*w {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	}
	return newFigure(o, "Success rate per "+b.GroupBy, topNote, []*plot.Plot{p}, legend, w), nil
}

// barPlot draws grouped bars with intervals and counts.
type barPlot struct {
	groups, configs int
	solved, runs    [][]int
	level           float64
}

// DataRange implements plot.DataRanger.
func (b *barPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(b.groups) - 0.5, 0, 1
}

// Plot implements plot.Plotter.
func (b *barPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	slot := 0.8 / float64(b.configs)
	whisker := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(0.8)}
	label := textStyle(6.5)
	label.Rotation = math.Pi / 2
	label.XAlign, label.YAlign = draw.XLeft, draw.YCenter
	zero := trY(0)
	for i := range b.configs {
		col := seriesColor(i)
		for j := range b.groups {
			n, k := b.runs[i][j], b.solved[i][j]
			if n == 0 {
				continue
			}
			centre := float64(j) + (float64(i)-float64(b.configs-1)/2)*slot
			x0, x1 := trX(centre-slot*0.45), trX(centre+slot*0.45)
			xm := (x0 + x1) / 2
			top := trY(float64(k) / float64(n))
			// A bar of 0 is a flat mark 1.5 pt high on the axis.
			top = max(top, zero+1.5)
			c.FillPolygon(col, []vg.Point{{X: x0, Y: zero}, {X: x1, Y: zero}, {X: x1, Y: top}, {X: x0, Y: top}})
			lo, hi := Wilson(k, n, b.level)
			ylo, yhi := trY(lo), trY(hi)
			cap := min((x1-x0)/3, 3)
			c.StrokeLine2(whisker, xm, ylo, xm, yhi)
			c.StrokeLine2(whisker, xm-cap, ylo, xm+cap, ylo)
			c.StrokeLine2(whisker, xm-cap, yhi, xm+cap, yhi)
			c.FillText(label, vg.Point{X: xm, Y: yhi + 2}, fmt.Sprintf("%d/%d", k, n))
		}
	}
}
