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

// CDData is what a critical-difference diagram draws: the configurations'
// mean ranks over the puzzles and Nemenyi's critical difference.
type CDData struct {
	// Configs and MeanRanks are the configurations and their mean ranks
	// (1 is best), in any order.
	Configs   []string
	MeanRanks []float64
	// CD is the critical difference at Alpha: two configurations whose
	// mean ranks differ by CD or less are not told apart.
	CD, Alpha float64
	// Puzzles is the number of puzzles ranked, and Measure what they were
	// ranked by, with its unit ("ERT in evaluations").
	Puzzles int
	Measure string
}

// cdRow is the height of one label row of the diagram, in points.
const cdRow = 11

// CDDiagram draws the critical-difference diagram of Demšar (JMLR 2006,
// section 3.2.2): an axis of mean ranks, 1 (best) on the left; each
// configuration hangs from its mean rank by a line to its name, the
// better half on the left and the worse on the right; the critical
// difference is drawn above the axis, and thick bars under it join the
// groups of configurations whose mean ranks lie within CD of each other
// (not significantly different by Nemenyi's test). Every configuration is
// drawn, however many: the picture grows in height with them.
func CDDiagram(d CDData, o Options) (*Figure, error) {
	k := len(d.Configs)
	if k < 2 || len(d.MeanRanks) != k {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: cd: %d configurations with %d mean ranks: want two or more", k, len(d.MeanRanks))
	}
	for i, r := range d.MeanRanks {
		if math.IsNaN(r) {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: cd: %s has no mean rank", d.Configs[i])
		}
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpRank(d.MeanRanks[a], d.MeanRanks[b]) })
	dg := &cdDiagram{cd: d.CD}
	for _, i := range order {
		dg.names = append(dg.names, d.Configs[i])
		dg.ranks = append(dg.ranks, d.MeanRanks[i])
	}
	dg.cliques = packCliques(cliques(dg.ranks, d.CD))
	p := plot.New()
	p.HideAxes()
	p.Add(dg)
	title := "Critical difference diagram: mean rank"
	if d.Measure != "" {
		title += " by " + d.Measure
	}
	note := fmt.Sprintf("%d configurations, %d puzzles; bars join those within Nemenyi's CD (alpha %s)",
		k, d.Puzzles, FormatNumber(d.Alpha))
	f := newFigure(ownLine(o), title, joinLines(o.Note, note), []*plot.Plot{p}, nil, 0)
	f.panelW = cdWidth(dg.names)
	f.panelH = dg.height()
	f.size(o.Width, o.Height)
	return f, nil
}

func cmpRank(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func roundTo(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// cdWidth is the width of the diagram: room for the longest label on
// each side and an axis of at least 8 cm between them.
func cdWidth(names []string) vg.Length {
	var w vg.Length
	for _, n := range names {
		w = max(w, cdLabelStyle.Width(n+" (00.00)"))
	}
	return max(plotWidth, 2*(w+24)+8*vg.Centimeter)
}

var cdLabelStyle = textStyle(8.5)

// cliques returns the maximal runs i..j of configurations (sorted by mean
// rank) whose mean ranks lie within cd of each other, of two or more.
func cliques(ranks []float64, cd float64) [][2]int {
	var out [][2]int
	last := -1
	for i := range ranks {
		j := i
		for j+1 < len(ranks) && ranks[j+1]-ranks[i] <= cd {
			j++
		}
		if j > i && j > last {
			out = append(out, [2]int{i, j})
			last = j
		}
	}
	return out
}

// packCliques puts the cliques on lines under the axis, each on the first
// line where it overlaps no other, and returns them by line.
func packCliques(cs [][2]int) [][][2]int {
	var lines [][][2]int
	for _, c := range cs {
		placed := false
		for l := range lines {
			if lines[l][len(lines[l])-1][1] < c[0] {
				lines[l] = append(lines[l], c)
				placed = true
				break
			}
		}
		if !placed {
			lines = append(lines, [][2]int{c})
		}
	}
	return lines
}

// cdDiagram draws the diagram in its canvas, ignoring the plot's axes.
type cdDiagram struct {
	names   []string
	ranks   []float64
	cd      float64
	cliques [][][2]int
}

// Layout, from the top: the CD mark, the axis with its labels, the
// clique lines, then one row per label on the longer side.
const (
	cdTop      = 30 // points above the axis line: CD mark and tick labels
	cdCliqueDY = 5  // points between clique lines
)

func (dg *cdDiagram) half() int { return (len(dg.names) + 1) / 2 }

func (dg *cdDiagram) height() vg.Length {
	return cdTop + vg.Length(len(dg.cliques)+1)*cdCliqueDY + vg.Length(dg.half()+1)*cdRow + 6
}

// Plot implements plot.Plotter.
func (dg *cdDiagram) Plot(c draw.Canvas, _ *plot.Plot) {
	k := len(dg.names)
	var labelW vg.Length
	for i, n := range dg.names {
		labelW = max(labelW, cdLabelStyle.Width(dg.label(i, n)))
	}
	left, right := c.Min.X+labelW+16, c.Max.X-labelW-16
	x := func(rank float64) vg.Length {
		return left + (right-left)*vg.Length((rank-1)/float64(k-1))
	}
	axisY := c.Max.Y - cdTop
	black := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	c.StrokeLine2(black, left, axisY, right, axisY)
	// Ticks at every rank, labelled 1 and every step-th rank, the step 1,
	// 2, 5, 10, 20, ... that keeps the labels apart.
	tick := textStyle(8)
	tick.XAlign, tick.YAlign = draw.XCenter, draw.YBottom
	perRank := (right - left) / vg.Length(k-1)
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		step = s
		if perRank*vg.Length(s) >= tick.Width(fmt.Sprint(k))+8 {
			break
		}
	}
	for r := 1; r <= k; r++ {
		h := vg.Length(2)
		if r == 1 || r%step == 0 {
			h = 4
			c.FillText(tick, vg.Point{X: x(float64(r)), Y: axisY + 5}, fmt.Sprint(r))
		}
		if perRank >= 3 || h == 4 {
			c.StrokeLine2(black, x(float64(r)), axisY, x(float64(r)), axisY+h)
		}
	}
	// The critical difference, above the axis at its left end.
	if dg.cd > 0 && !math.IsInf(dg.cd, 0) {
		cdY := axisY + 22
		end := x(math.Min(1+dg.cd, float64(k)))
		c.StrokeLine2(black, left, cdY, end, cdY)
		c.StrokeLine2(black, left, cdY-2, left, cdY+2)
		c.StrokeLine2(black, end, cdY-2, end, cdY+2)
		st := textStyle(8)
		st.XAlign, st.YAlign = draw.XLeft, draw.YCenter
		c.FillText(st, vg.Point{X: end + 4, Y: cdY}, "CD = "+FormatNumber(roundTo(dg.cd, 3)))
	}
	// Clique bars under the axis.
	bar := draw.LineStyle{Color: color.Black, Width: vg.Points(2.5)}
	for l, line := range dg.cliques {
		y := axisY - vg.Length(l+1)*cdCliqueDY
		for _, cl := range line {
			c.StrokeLine2(bar, x(dg.ranks[cl[0]])-2, y, x(dg.ranks[cl[1]])+2, y)
		}
	}
	// Labels: the better half on the left, best at the top; the worse
	// half on the right, worst at the top, so that no lines cross.
	top := axisY - vg.Length(len(dg.cliques)+1)*cdCliqueDY - cdRow
	thin := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(0.6)}
	h := dg.half()
	for i := range k {
		var row int
		var st = cdLabelStyle
		st.YAlign = draw.YCenter
		var endX vg.Length
		if i < h {
			row = i
			st.XAlign = draw.XRight
			endX = left - 10
		} else {
			row = k - 1 - i
			st.XAlign = draw.XLeft
			endX = right + 10
		}
		y := top - vg.Length(row)*cdRow
		px := x(dg.ranks[i])
		c.StrokeLine2(thin, px, axisY, px, y)
		c.StrokeLine2(thin, px, y, endX, y)
		gap := vg.Length(3)
		if i >= h {
			gap = -3
		}
		c.FillText(st, vg.Point{X: endX - gap, Y: y}, dg.label(i, dg.names[i]))
	}
}

func (dg *cdDiagram) label(i int, name string) string {
	return fmt.Sprintf("%s (%s)", name, FormatNumber(roundTo(dg.ranks[i], 2)))
}

// ownLine returns o without its note, which the picture puts on a line of
// its own (joinLines) rather than in one long line with its own note.
func ownLine(o Options) Options {
	o.Note = ""
	return o
}

// joinLines joins the non-empty notes one per line.
func joinLines(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(s string) bool { return s == "" }), "\n")
}
