package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokulab"
)

// ScoreCell is one published cell of a paper beside ours: a row of the
// query reproduction-scoreboard. A rate or an effort that is missing
// (the paper gives none, or we have no run) is NaN.
type ScoreCell struct {
	// Paper, Puzzle and Variant name the cell.
	Paper, Puzzle, Variant string
	// Status is "matched", "beaten", "short", "not run" or "quoted" (an
	// algorithm a paper quotes that the lab does not implement).
	Status string
	// PaperRate is the paper's success rate; OurRate ours, with the 95%
	// Wilson interval [OurLow, OurHigh].
	PaperRate, OurRate, OurLow, OurHigh float64
	// PaperEffort and OurEffort are the mean effort in EffortUnit
	// (generations, rounds, iterations or seconds).
	PaperEffort, OurEffort float64
	EffortUnit             string
}

// statusColors are the colours of the statuses, in legend order.
var statusColors = []struct {
	status string
	color  color.Color
}{
	{"beaten", rgb(0x1f77b4)},
	{"matched", rgb(0x2ca02c)},
	{"short", rgb(0xd62728)},
}

// paperShapes are the glyphs of the papers, in legend order.
var paperShapes = []struct {
	paper string
	shape draw.GlyphDrawer
}{
	{"reseda", draw.RingGlyph{}},
	{"sato-inoue", draw.SquareGlyph{}},
	{"nb-coin", draw.TriangleGlyph{}},
	{"soto-cuckoo", draw.PlusGlyph{}},
	{"franco", draw.CrossGlyph{}},
}

// Scoreboard draws the cells as "ours against the paper's, one point per
// cell": the success rates (ours with its 95% Wilson interval) on the
// left, the efforts in generations, rounds or iterations on log axes on
// the right, each with the diagonal where ours equals the paper's (and,
// for effort, dashed lines at twice and half, the scoreboard's
// tolerance). The colour is the cell's status, the glyph its paper. Cells
// not run or quoted, and efforts in seconds (the papers' machines are not ours),
// are counted in the note but not drawn.
func Scoreboard(cells []ScoreCell, o Options) (*Figure, error) {
	if len(cells) == 0 {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "plots: no scoreboard cells to draw")
	}
	count := map[string]int{}
	var rates, efforts []ScoreCell
	seconds := 0
	for _, c := range cells {
		count[c.Status]++
		if c.Status == "not run" || c.Status == "quoted" {
			continue
		}
		if isRate(c.PaperRate) && isRate(c.OurRate) {
			c.OurLow, c.OurHigh = clampRate(c.OurLow, c.OurRate, 0), clampRate(c.OurHigh, c.OurRate, 1)
			rates = append(rates, c)
		}
		if isEffort(c.PaperEffort) && isEffort(c.OurEffort) {
			if c.EffortUnit == "seconds" {
				seconds++
				continue
			}
			efforts = append(efforts, c)
		}
	}
	if len(rates) == 0 && len(efforts) == 0 {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "plots: none of the %d scoreboard cells has runs to draw", len(cells))
	}
	var notes []string
	for _, s := range []string{"matched", "beaten", "short", "not run", "quoted"} {
		if s != "quoted" || count[s] > 0 {
			notes = append(notes, fmt.Sprintf("%s %d", s, count[s]))
		}
	}
	note := fmt.Sprintf("%d published cells: %s", len(cells), strings.Join(notes, ", "))
	if seconds > 0 {
		note += fmt.Sprintf("; %d efforts in seconds not drawn", seconds)
	}

	left := newPanel("Success rate (ours with its 95% Wilson interval)", "paper", "ours", false)
	left.X.Min, left.X.Max, left.Y.Min, left.Y.Max = 0, 1, 0, 1
	if err := addDiagonal(left, 0, 1, 1, nil); err != nil {
		return nil, err
	}
	var bars plotter.XYs
	var errs plotter.YErrors
	for _, c := range rates {
		bars = append(bars, plotter.XY{X: c.PaperRate, Y: c.OurRate})
		errs = append(errs, struct{ Low, High float64 }{c.OurRate - c.OurLow, c.OurHigh - c.OurRate})
	}
	if len(bars) > 0 {
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{bars, errs})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = color.Gray{Y: 160}
		eb.LineStyle.Width = vg.Points(0.6)
		eb.CapWidth = vg.Points(3)
		left.Add(eb)
		if err := addCells(left, rates, func(c ScoreCell) (float64, float64) { return c.PaperRate, c.OurRate }); err != nil {
			return nil, err
		}
	}

	right := newPanel("Effort (generations, rounds, iterations)", "paper", "ours", false)
	if len(efforts) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range efforts {
			lo = min(lo, c.PaperEffort, c.OurEffort)
			hi = max(hi, c.PaperEffort, c.OurEffort)
		}
		lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
		if hi <= lo {
			hi = lo * 10
		}
		right.X.Scale, right.Y.Scale = plot.LogScale{}, plot.LogScale{}
		right.X.Tick.Marker, right.Y.Tick.Marker = logTicks{}, logTicks{}
		right.X.Min, right.X.Max, right.Y.Min, right.Y.Max = lo, hi, lo, hi
		if err := addDiagonal(right, lo, hi, 1, nil); err != nil {
			return nil, err
		}
		dashes := []vg.Length{vg.Points(3), vg.Points(2)}
		for _, f := range []float64{2, 0.5} {
			if err := addDiagonal(right, lo, hi, f, dashes); err != nil {
				return nil, err
			}
		}
		if err := addCells(right, efforts, func(c ScoreCell) (float64, float64) { return c.PaperEffort, c.OurEffort }); err != nil {
			return nil, err
		}
	} else {
		right.X.Min, right.X.Max, right.Y.Min, right.Y.Max = 1, 10, 1, 10
		right.X.Scale, right.Y.Scale = plot.LogScale{}, plot.LogScale{}
		right.X.Tick.Marker, right.Y.Tick.Marker = logTicks{}, logTicks{}
	}

	var legend []legendEntry
	for _, s := range statusColors {
		legend = append(legend, legendEntry{text: s.status, thumb: boxThumb(s.color)})
	}
	for _, p := range paperShapes {
		legend = append(legend, legendEntry{text: p.paper, thumb: glyphThumb(p.shape, color.Gray{Y: 60})})
	}
	f := newFigure(o, "Reproduction scoreboard: ours against the papers'", note, []*plot.Plot{left, right}, legend, 0)
	if o.Width == 0 && o.Height == 0 {
		// Two square panels side by side.
		f.cols, f.panelW, f.panelH = 2, scorePanel, scorePanel
		f.size(0, 0)
	}
	return f, nil
}

// isRate reports whether x is a success rate, in [0, 1].
func isRate(x float64) bool { return x >= 0 && x <= 1 }

// isEffort reports whether x is an effort that a log axis can show.
func isEffort(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// clampRate returns the interval bound b kept between the rate r and the
// end of the scale (0 or 1), or r when b is missing.
func clampRate(b, r, end float64) float64 {
	if math.IsNaN(b) {
		return r
	}
	return min(max(b, min(r, end)), max(r, end))
}

// scorePanel is the side of each of the scoreboard's square panels.
const scorePanel = 9 * vg.Centimeter

// addDiagonal draws y = f*x from lo to hi: solid when dashes is nil.
func addDiagonal(p *plot.Plot, lo, hi, f float64, dashes []vg.Length) error {
	var pts plotter.XYs
	for i := range 65 {
		x := lo + (hi-lo)*float64(i)/64
		if _, ok := p.X.Scale.(plot.LogScale); ok {
			x = lo * math.Pow(hi/lo, float64(i)/64)
		}
		if y := f * x; y >= lo && y <= hi {
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
	}
	if len(pts) < 2 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.LineStyle = draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(0.7), Dashes: dashes}
	p.Add(l)
	return nil
}

// addCells draws one glyph per cell at xy(cell), coloured by status and
// shaped by paper.
func addCells(p *plot.Plot, cells []ScoreCell, xy func(ScoreCell) (float64, float64)) error {
	pts := make(plotter.XYs, len(cells))
	for i, c := range cells {
		pts[i].X, pts[i].Y = xy(c)
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		return draw.GlyphStyle{Color: statusColor(cells[i].Status), Radius: vg.Points(3.5), Shape: paperShape(cells[i].Paper)}
	}
	p.Add(s)
	return nil
}

func statusColor(status string) color.Color {
	for _, s := range statusColors {
		if s.status == status {
			return s.color
		}
	}
	return color.Gray{Y: 128}
}

func paperShape(paper string) draw.GlyphDrawer {
	for _, p := range paperShapes {
		if p.paper == paper {
			return p.shape
		}
	}
	return draw.RingGlyph{}
}

// glyphThumb draws a legend thumbnail: one glyph.
func glyphThumb(shape draw.GlyphDrawer, c color.Color) func(*draw.Canvas) {
	return func(cv *draw.Canvas) {
		cv.DrawGlyph(draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: shape}, cv.Center())
	}
}

// scoreColumns are the columns of reproduction-scoreboard that
// ScoreCellsFromTable reads.
var scoreColumns = []string{"paper", "puzzle", "variant", "status", "paper_rate", "our_rate", "our_rate_low", "our_rate_high", "paper_effort", "our_effort", "effort_unit"}

// ScoreCellsFromTable converts the result of the query
// reproduction-scoreboard (its column names and rows, as a database
// returns them: numbers as int64, float64, or text) into cells. A column
// it needs that is missing is an EINVALID error.
func ScoreCellsFromTable(columns []string, rows [][]any) ([]ScoreCell, error) {
	at := map[string]int{}
	for _, name := range scoreColumns {
		i := slices.Index(columns, name)
		if i < 0 {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: the scoreboard has no column %s (columns: %s)", name, strings.Join(columns, ", "))
		}
		at[name] = i
	}
	cells := make([]ScoreCell, 0, len(rows))
	for k, row := range rows {
		if len(row) != len(columns) {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: scoreboard row %d has %d values for %d columns", k+1, len(row), len(columns))
		}
		var c ScoreCell
		var err error
		num := func(name string) float64 {
			if err != nil {
				return 0
			}
			var f float64
			f, err = number(row[at[name]])
			if err != nil {
				err = sudokulab.Errorf(sudokulab.EINVALID, "plots: scoreboard row %d, column %s: %v", k+1, name, err)
			}
			return f
		}
		c.Paper, c.Puzzle, c.Variant = cellText(row[at["paper"]]), cellText(row[at["puzzle"]]), cellText(row[at["variant"]])
		c.Status, c.EffortUnit = cellText(row[at["status"]]), cellText(row[at["effort_unit"]])
		c.PaperRate, c.OurRate, c.OurLow, c.OurHigh = num("paper_rate"), num("our_rate"), num("our_rate_low"), num("our_rate_high")
		c.PaperEffort, c.OurEffort = num("paper_effort"), num("our_effort")
		if err != nil {
			return nil, err
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// number reads a database value as a float64: NaN for NULL.
func number(v any) (float64, error) {
	switch v := v.(type) {
	case nil:
		return math.NaN(), nil
	case int64:
		return float64(v), nil
	case int32:
		return float64(v), nil
	case int:
		return float64(v), nil
	case float64:
		return v, nil
	case float32:
		return float64(v), nil
	case []byte:
		return number(string(v))
	case string:
		if v == "" {
			return math.NaN(), nil
		}
		return strconv.ParseFloat(v, 64)
	}
	return 0, fmt.Errorf("%v (%T) is not a number", v, v)
}

// cellText reads a database value as a string: "" for NULL.
func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(v)
	case string:
		return v
	}
	return fmt.Sprint(v)
}
