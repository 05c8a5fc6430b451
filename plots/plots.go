// Package plots draws the laboratory's standard pictures with
// gonum.org/v1/plot, for papers: convergence curves (the median best cost
// against generations, evaluations or seconds, with a quantile band, one
// panel per puzzle), runtime ECDFs with bootstrap confidence bands,
// success rates with Wilson intervals and their counts written on the
// bars, and expected running time (ERT) against the target cost as
// IOHanalyzer draws it.
//
// Every picture is a Figure: a title, a note saying what was left out,
// one plot or a grid of panels, and one legend outside the data (to the
// right, or below in columns when it is too wide). At most MaxSeries
// configurations are drawn, the ones told apart by colour; with more,
// the best by success rate are kept and the note says so. Budget axes
// spanning two decades or more are drawn on a symmetric log scale
// (SymLog), on which a run solved at 0 stays visible; the budget of the
// runs (their generation, evaluation or time limit) is marked by a dashed
// vertical line. Figure.Write renders SVG, PNG or PDF to any io.Writer.
//
// The package knows nothing of the database: `sudokulab plot` reads the
// runs and hands them over as plain values.
package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokulab"
)

// score is a configuration's success over all its runs, for choosing the
// best when there are too many to draw.
type score struct {
	name         string
	solved, runs int
	// cost is the mean budget of the solved runs: of two equally
	// successful configurations the faster is better.
	cost float64
}

// selectTop returns the names to draw, in their given order: all of them
// when there are at most o.Top, else the o.Top best by success rate (then
// by runs solved, then in order), with a note saying so. With o.Strict,
// too many is an EINVALID error.
func selectTop(scores []score, o Options) (keep []string, note string, err error) {
	top, err := o.top()
	if err != nil {
		return nil, "", err
	}
	for _, s := range scores {
		keep = append(keep, s.name)
	}
	if len(scores) <= top {
		return keep, "", nil
	}
	if o.Strict {
		return nil, "", sudokulab.Errorf(sudokulab.EINVALID,
			"%d configurations: no more than %d can be told apart in one picture; choose at most %d", len(scores), top, top)
	}
	ranked := slices.Clone(scores)
	slices.SortStableFunc(ranked, func(a, b score) int {
		ra, rb := rate(a.solved, a.runs), rate(b.solved, b.runs)
		switch {
		case ra != rb && ra > rb:
			return -1
		case ra != rb:
			return 1
		}
		if a.solved != b.solved {
			return b.solved - a.solved
		}
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	chosen := map[string]bool{}
	for _, s := range ranked[:top] {
		chosen[s.name] = true
	}
	keep = slices.DeleteFunc(keep, func(n string) bool { return !chosen[n] })
	return keep, fmt.Sprintf("top %d of %d configurations (by success)", top, len(scores)), nil
}

func rate(k, n int) float64 {
	if n == 0 {
		return -1
	}
	return float64(k) / float64(n)
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(s string) bool { return s == "" }), "; ")
}

// newPanel returns a plot with the axis labels; small panels of
// a grid get smaller type, and the panel title.
func newPanel(title, xLabel, yLabel string, small bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel

	size := map[bool][3]vg.Length{false: {11, 10, 9}, true: {8, 8, 7}}[small]
	p.Title.TextStyle.Font = sansFont(size[0])
	p.X.Label.TextStyle.Font = sansFont(size[1])
	p.Y.Label.TextStyle.Font = sansFont(size[1])
	p.X.Tick.Label.Font = sansFont(size[2])
	p.Y.Tick.Label.Font = sansFont(size[2])
	p.Title.Padding = 2
	p.X.Padding, p.Y.Padding = 0, 0
	return p
}

// vline marks a budget: a dashed vertical line across the data with its
// label at the top.
type vline struct {
	x     float64
	label string
}

var budgetStyle = draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}

// Plot implements plot.Plotter.
func (v vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.x)
	if !c.ContainsX(x) {
		return
	}
	c.StrokeLine2(budgetStyle, x, c.Min.Y, x, c.Max.Y)
	if v.label == "" {
		return
	}
	st := textStyle(6.5)
	st.Color = color.Gray{Y: 60}
	st.Rotation = math.Pi / 2
	st.XAlign, st.YAlign = draw.XRight, draw.YBottom
	c.FillText(st, vg.Point{X: x - 1.5, Y: c.Max.Y - 2}, v.label)
}

// DataRange implements plot.DataRanger: the line's x, no y.
func (v vline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.x, v.x, math.Inf(1), math.Inf(-1)
}

// budgetLines returns the marks of the distinct positive budgets: all of
// them when there are at most three, else the largest, each labelled with
// name (or "budget") and its value.
func budgetLines(budgets []float64, name string, mx axisMap) []plot.Plotter {
	if name == "" {
		name = "budget"
	}
	bs := slices.DeleteFunc(slices.Clone(budgets), func(b float64) bool { return !(b > 0) || math.IsInf(b, 0) })
	slices.Sort(bs)
	bs = slices.Compact(bs)
	if len(bs) > 3 {
		bs = bs[len(bs)-1:]
	}
	var out []plot.Plotter
	for _, b := range bs {
		out = append(out, vline{x: mx.at(b), label: name + " " + FormatNumber(b)})
	}
	return out
}

// panelsOf returns the distinct panels of runs in order of first
// appearance, or one unnamed panel when perPanel is false.
func panelsOf(runs []Trajectory, perPanel bool) []string {
	if !perPanel {
		return []string{""}
	}
	var out []string
	for _, r := range runs {
		if !slices.Contains(out, r.Panel) {
			out = append(out, r.Panel)
		}
	}
	return out
}

// trajectoryScores returns each configuration's runs and runs solved (the
// last best cost 0), in order of first appearance.
func trajectoryScores(runs []Trajectory) []score {
	var out []score
	for _, r := range runs {
		i := slices.IndexFunc(out, func(s score) bool { return s.name == r.Config })
		if i < 0 {
			out = append(out, score{name: r.Config})
			i = len(out) - 1
		}
		out[i].runs++
		if r.solved() {
			out[i].cost += r.X[len(r.X)-1]
			out[i].solved++
		}
	}
	for i := range out {
		if out[i].solved > 0 {
			out[i].cost /= float64(out[i].solved)
		}
	}
	return out
}

// keepConfigs returns the runs of the configurations in keep.
func keepConfigs(runs []Trajectory, keep []string) []Trajectory {
	return slices.DeleteFunc(slices.Clone(runs), func(r Trajectory) bool { return !slices.Contains(keep, r.Config) })
}

// checkPanels refuses more panels than a page holds.
func checkPanels(n int) error {
	if n > maxPanels {
		return sudokulab.Errorf(sudokulab.EINVALID, "%d puzzles: at most %d panels fit a picture; choose fewer puzzles, or pool them in one panel", n, maxPanels)
	}
	return nil
}

// pooledNote says that the runs of several puzzles share one panel.
func pooledNote(runs []Trajectory, perPanel bool) string {
	if perPanel {
		return ""
	}
	var ps []string
	for _, r := range runs {
		if r.Panel != "" && !slices.Contains(ps, r.Panel) {
			ps = append(ps, r.Panel)
		}
	}
	if len(ps) > 1 {
		return fmt.Sprintf("runs on %d puzzles pooled", len(ps))
	}
	return ""
}
