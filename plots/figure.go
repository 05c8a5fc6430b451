package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"sudokulab"
)

// MaxSeries is the most configurations one picture draws: about as many
// line and bar colours as a reader tells apart (Palette).
const MaxSeries = 12

// PNGDPI is the resolution of PNG pictures, in dots per inch.
const PNGDPI = 150

// Default sizes: a single plot's area, one panel of a grid, and the width
// of the whole picture when the legend goes below it.
const (
	plotWidth   = 14 * vg.Centimeter
	plotHeight  = 9 * vg.Centimeter
	panelWidth  = 6 * vg.Centimeter
	panelHeight = 4.5 * vg.Centimeter
	maxPanels   = 36
)

// Options are the settings every picture shares; the zero value draws
// the defaults.
type Options struct {
	// Width and Height are the size of the whole picture, legend and
	// title included. Zero sizes it to its content: a 14 x 9 cm plot
	// (6 x 4.5 cm per panel of a grid) with the legend to its right.
	Width, Height vg.Length
	// Title replaces the picture's own title when not empty.
	Title string
	// LogY draws the y axis of convergence (best cost) and ERT plots on
	// a symmetric log scale, on which 0 stays visible. ERT plots are
	// read with it on, as IOHanalyzer draws them.
	LogY bool
	// Top is the number of configurations drawn when there are more:
	// the Top best by success rate, said on the picture. Zero means
	// MaxSeries; more than MaxSeries is an error.
	Top int
	// Strict refuses more configurations than Top instead of keeping
	// the best: for a selection the user named one by one.
	Strict bool
	// Resamples is the number of bootstrap resamples of an ECDF's
	// confidence band: 0 means 1000, negative draws no band.
	Resamples int
	// Level is the confidence level of bands and intervals; 0 means 0.95.
	Level float64
	// Note is a remark the caller adds to the picture's own note, such as
	// why its axis is not the one asked for.
	Note string
}

func (o Options) level() float64 {
	if o.Level <= 0 || o.Level >= 1 {
		return 0.95
	}
	return o.Level
}

func (o Options) top() (int, error) {
	switch {
	case o.Top < 0 || o.Top > MaxSeries:
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "top %d: want 1 to %d configurations, as many as can be told apart", o.Top, MaxSeries)
	case o.Top == 0:
		return MaxSeries, nil
	}
	return o.Top, nil
}

// Palette holds the colours of the series, in order: the ten of
// Tableau 10 (matplotlib's default cycle), then black and navy.
var Palette = []color.Color{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728), rgb(0x9467bd),
	rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f), rgb(0xbcbd22), rgb(0x17becf),
	rgb(0x000000), rgb(0x000080),
}

func rgb(v uint32) color.Color {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// seriesColor is the colour of series i.
func seriesColor(i int) color.Color { return Palette[i%len(Palette)] }

// translucent returns c with alpha a (0-255).
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// Figure is a finished picture: a title, an optional note under it, one
// plot or a grid of panels sharing one legend, which is drawn outside
// the data (to the right, or below when it is too wide). Write renders it.
type Figure struct {
	title, note string
	panels      []*plot.Plot
	cols        int
	legend      []legendEntry
	// natural size of one panel when the picture is sized to content.
	panelW, panelH vg.Length
	width, height  vg.Length
}

type legendEntry struct {
	text  string
	thumb func(c *draw.Canvas)
}

// sans is the typeface of every text: Liberation Sans, shipped with
// gonum/plot (its default is the serif).
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func sansFont(size vg.Length) font.Font {
	return font.From(sans, size)
}

func textStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    sansFont(size),
		Handler: plot.DefaultTextHandler,
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
	}
}

var (
	titleStyle  = textStyle(12)
	noteStyle   = textStyle(9)
	legendStyle = textStyle(9)
)

// newFigure lays out panels (one, or a grid) under title and note, with
// the legend entries, at the size of o.
// A panelW above 0 widens a single plot (for many bars).
func newFigure(o Options, title, note string, panels []*plot.Plot, legend []legendEntry, panelW vg.Length) *Figure {
	if o.Title != "" {
		title = o.Title
	}
	f := &Figure{title: title, note: joinNotes(o.Note, note), panels: panels, legend: legend, panelW: plotWidth, panelH: plotHeight, cols: 1}
	if n := len(panels); n > 1 {
		f.cols = int(math.Ceil(math.Sqrt(float64(n))))
		f.cols = min(f.cols, 4)
		f.panelW, f.panelH = panelWidth, panelHeight
	}
	if panelW > 0 {
		f.panelW = panelW
	}
	f.size(o.Width, o.Height)
	return f
}

func (f *Figure) rows() int { return (len(f.panels) + f.cols - 1) / f.cols }

// headerHeight is the height of the title and note.
func (f *Figure) headerHeight() vg.Length {
	var h vg.Length
	if f.title != "" {
		h += titleStyle.Height(f.title) + 4
	}
	if f.note != "" {
		h += noteStyle.Height(f.note) + 2
	}
	if h > 0 {
		h += 4
	}
	return h
}

const legendGap = 8 // points between the plots and the legend, and around it

// legendEntrySize is the size of one legend entry: thumbnail, space, text.
func (f *Figure) legendEntrySize() (w, h vg.Length) {
	var tw vg.Length
	for _, e := range f.legend {
		tw = max(tw, legendStyle.Width(e.text))
	}
	return 22 + 5 + tw + 10, legendStyle.Height("Ag") * 1.35
}

// legendLayout says where the legend goes in a picture of width w and
// height h (h 0: free): to the right (one column) or below (cols
// columns), and the room it takes.
func (f *Figure) legendLayout(w, h vg.Length) (right bool, cols int, lw, lh vg.Length) {
	n := len(f.legend)
	if n == 0 {
		return true, 1, 0, 0
	}
	ew, eh := f.legendEntrySize()
	fits := ew <= 0.4*w
	if h > 0 {
		fits = fits && vg.Length(n)*eh <= h-f.headerHeight()-2*legendGap
	}
	if fits {
		return true, 1, ew + legendGap, vg.Length(n) * eh
	}
	cols = max(1, int((w-2*legendGap)/ew))
	rows := (n + cols - 1) / cols
	return false, cols, w, vg.Length(rows)*eh + legendGap
}

// size fixes the picture's size: the given one, or sized to content.
func (f *Figure) size(w, h vg.Length) {
	plotsW := vg.Length(f.cols) * f.panelW
	plotsH := vg.Length(f.rows()) * f.panelH
	if w == 0 {
		ew, _ := f.legendEntrySize()
		w = plotsW
		if len(f.legend) > 0 && ew <= 0.4*(plotsW+ew+legendGap) {
			w += ew + legendGap
		}
		// A header wider than the plots widens the picture.
		w = max(w, titleStyle.Width(f.title)+2*legendGap, noteStyle.Width(f.note)+2*legendGap)
	}
	if h == 0 {
		right, _, _, lh := f.legendLayout(w, 0)
		h = f.headerHeight() + plotsH
		if !right {
			h += lh
		}
		if right {
			h = max(h, f.headerHeight()+lh+2*legendGap)
		}
	}
	f.width, f.height = w, h
}

// Size returns the size the picture is drawn at.
func (f *Figure) Size() (w, h vg.Length) { return f.width, f.height }

// Draw draws the picture on c.
func (f *Figure) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	w := c.Max.X - c.Min.X
	top := c.Max.Y - 4
	if f.title != "" {
		st := titleStyle
		st.XAlign, st.YAlign = draw.XCenter, draw.YTop
		c.FillText(st, vg.Point{X: c.Min.X + w/2, Y: top}, f.title)
		top -= titleStyle.Height(f.title) + 4
	}
	if f.note != "" {
		st := noteStyle
		st.XAlign, st.YAlign = draw.XCenter, draw.YTop
		st.Color = color.Gray{Y: 60}
		c.FillText(st, vg.Point{X: c.Min.X + w/2, Y: top}, f.note)
	}
	area := draw.Crop(c, 0, 0, 0, -f.headerHeight())
	right, cols, lw, lh := f.legendLayout(w, c.Max.Y-c.Min.Y)
	var legendArea draw.Canvas
	if right {
		legendArea = draw.Crop(area, area.Max.X-area.Min.X-lw, 0, 0, 0)
		area = draw.Crop(area, 0, -lw, 0, 0)
		// Centre the legend vertically beside the plots.
		free := legendArea.Max.Y - legendArea.Min.Y - lh
		legendArea = draw.Crop(legendArea, legendGap/2, 0, free/2, -free/2)
	} else {
		legendArea = draw.Crop(area, legendGap, -legendGap, 0, -(area.Max.Y - area.Min.Y - lh))
		area = draw.Crop(area, 0, 0, lh, 0)
	}
	f.drawLegend(legendArea, cols)
	rows := f.rows()
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, f.cols)
		for k := range f.cols {
			if i := r*f.cols + k; i < len(f.panels) {
				grid[r][k] = f.panels[i]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: f.cols, PadX: 4, PadY: 4, PadTop: 2, PadLeft: 2, PadRight: 6, PadBottom: 2}
	if len(f.panels) == 1 {
		f.panels[0].Draw(draw.Crop(area, 2, -6, 2, 0))
		return
	}
	canvases := plot.Align(grid, tiles, area)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][k])
			}
		}
	}
}

// drawLegend draws the entries in cols columns from the top left of c.
func (f *Figure) drawLegend(c draw.Canvas, cols int) {
	ew, eh := f.legendEntrySize()
	rows := (len(f.legend) + cols - 1) / cols
	for i, e := range f.legend {
		col, row := i/rows, i%rows
		x := c.Min.X + vg.Length(col)*ew
		y := c.Max.Y - vg.Length(row+1)*eh
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y + eh*0.15},
			Max: vg.Point{X: x + 22, Y: y + eh*0.85},
		}}
		e.thumb(&thumb)
		st := legendStyle
		st.YAlign = draw.YCenter
		c.FillText(st, vg.Point{X: x + 27, Y: y + eh/2}, e.text)
	}
}

// lineThumb draws a legend thumbnail: a short line, over a shaded band
// when band is not nil.
func lineThumb(ls draw.LineStyle, band color.Color) func(c *draw.Canvas) {
	return func(c *draw.Canvas) {
		if band != nil {
			c.FillPolygon(band, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
		}
		y := c.Center().Y
		c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
	}
}

// boxThumb draws a filled square legend thumbnail.
func boxThumb(fill color.Color) func(c *draw.Canvas) {
	return func(c *draw.Canvas) {
		s := c.Max.Y - c.Min.Y
		x := c.Min.X + (c.Max.X-c.Min.X-s)/2
		c.FillPolygon(fill, []vg.Point{{X: x, Y: c.Min.Y}, {X: x + s, Y: c.Min.Y}, {X: x + s, Y: c.Max.Y}, {X: x, Y: c.Max.Y}})
	}
}

// Formats are the picture formats Write takes.
var Formats = []string{"svg", "png", "pdf"}

// Write renders the picture to w as format: "svg", "png" (at PNGDPI) or
// "pdf".
func (f *Figure) Write(w io.Writer, format string) error {
	var c vg.CanvasWriterTo
	switch strings.ToLower(format) {
	case "svg":
		c = vgsvg.New(f.width, f.height)
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.width, f.height), vgimg.UseDPI(PNGDPI))}
	case "pdf":
		c = vgpdf.New(f.width, f.height)
	default:
		return sudokulab.Errorf(sudokulab.EINVALID, "plots: format %q: want svg, png or pdf", format)
	}
	f.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// WriteSVG renders the picture to w as SVG, for embedding in a page.
func (f *Figure) WriteSVG(w io.Writer) error { return f.Write(w, "svg") }

// FormatOf returns the picture format a file name asks for by its
// extension, or an EINVALID error naming it.
func FormatOf(path string) (string, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	for _, f := range Formats {
		if ext == f {
			return f, nil
		}
	}
	return "", sudokulab.Errorf(sudokulab.EINVALID, "%s: want a .svg, .png or .pdf file", path)
}

// Save writes the picture to path in the format its extension names.
// The file appears complete or not at all: a failed Save leaves nothing.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, format); err != nil {
		return fmt.Errorf("plots: %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("plots: %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("plots: %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("plots: %s: %w", path, err)
	}
	return nil
}
