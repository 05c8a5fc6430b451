// Package plots draws the laboratory's standard pictures with
// gonum.org/v1/plot: convergence curves (the median best cost against
// generations or evaluations, with a quantile band, one line per
// configuration), runtime ECDF curves per configuration, and success
// rates per difficulty label as grouped bars. It knows nothing of the
// database: `sudokulab plot` reads the runs and hands them over as plain
// values. A budget axis that spans two decades or more is drawn on a
// logarithmic scale.
package plots

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Width and Height are the size of a saved picture.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// Trajectory is one run's best cost over its budget axis (generations or
// evaluations), points in increasing X; Best never increases.
type Trajectory struct {
	Config string
	X      []float64
	Best   []float64
}

// Band is the convergence of one configuration: at each X, the median
// best cost over its runs and the Lo and Hi quantiles.
type Band struct {
	Config           string
	X                []float64
	Median, Lo, Hi   []float64
	Runs             int
	QuantLo, QuantHi float64
}

// Bands summarises trajectories per configuration, in order of first
// appearance: at budgets spaced evenly on a log scale (10 per decade, from
// 1 to the largest X), the median and the qlo and qhi quantiles over runs
// of the best cost reached within the budget. A run that stopped earlier
// keeps its last best cost; a run without a point at or before a budget
// does not count there.
func Bands(runs []Trajectory, qlo, qhi float64) []Band {
	var order []string
	byConfig := map[string][]Trajectory{}
	maxX := 1.0
	for _, r := range runs {
		if len(r.X) == 0 {
			continue
		}
		if _, ok := byConfig[r.Config]; !ok {
			order = append(order, r.Config)
		}
		byConfig[r.Config] = append(byConfig[r.Config], r)
		maxX = max(maxX, r.X[len(r.X)-1])
	}
	grid := LogGrid(1, maxX, 10)
	var out []Band
	for _, name := range order {
		b := Band{Config: name, Runs: len(byConfig[name]), QuantLo: qlo, QuantHi: qhi}
		vals := make([]float64, 0, b.Runs)
		for _, x := range grid {
			vals = vals[:0]
			for _, r := range byConfig[name] {
				// The last point at or before x.
				i := sort.SearchFloat64s(r.X, math.Nextafter(x, math.Inf(1)))
				if i > 0 {
					vals = append(vals, r.Best[i-1])
				}
			}
			if len(vals) == 0 {
				continue
			}
			slices.Sort(vals)
			b.X = append(b.X, x)
			b.Median = append(b.Median, Quantile(vals, 0.5))
			b.Lo = append(b.Lo, Quantile(vals, qlo))
			b.Hi = append(b.Hi, Quantile(vals, qhi))
		}
		out = append(out, b)
	}
	return out
}

// LogGrid returns perDecade points per decade from lo to hi, log-spaced
// and rounded to integers, without repeats; hi is always the last.
func LogGrid(lo, hi float64, perDecade int) []float64 {
	lo = max(lo, 1)
	var out []float64
	for k := 0; ; k++ {
		x := math.Round(lo * math.Pow(10, float64(k)/float64(perDecade)))
		if x >= hi {
			break
		}
		if len(out) == 0 || x > out[len(out)-1] {
			out = append(out, x)
		}
	}
	return append(out, hi)
}

// Quantile returns the q quantile of sorted (linear interpolation between
// order statistics, R's type 7); NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// spansDecades reports whether the positive values of xs span two decades
// or more, where a log axis reads better.
func spansDecades(xs ...[]float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, s := range xs {
		for _, x := range s {
			if x > 0 {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	return hi > 0 && hi/lo >= 100
}

func logX(p *plot.Plot) {
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
}

func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	return p
}

// headroom raises the top of the y axis above top, the largest value
// drawn, so that a legend of rows entries at the top does not hide data.
func headroom(p *plot.Plot, top float64, rows int) {
	p.Y.Max = top / (1 - min(0.6, 0.07*float64(rows)))
}

// fractionTicks label a y axis of fractions from 0 to 1 only, whatever
// headroom lies above.
var fractionTicks = plot.ConstantTicks([]plot.Tick{
	{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"},
	{Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"},
})

// translucent returns c with alpha a (0-255).
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// Convergence draws one median line per band with its quantile band
// shaded, against xLabel ("generations" or "evaluations").
func Convergence(bands []Band, xLabel string) (*plot.Plot, error) {
	if len(bands) == 0 {
		return nil, fmt.Errorf("plots: convergence: no runs with trajectory points")
	}
	p := newPlot(fmt.Sprintf("Convergence: median best cost, %g-%g quantile band", bands[0].QuantLo, bands[0].QuantHi), xLabel, "best cost")
	var xs [][]float64
	for _, b := range bands {
		xs = append(xs, b.X)
	}
	if spansDecades(xs...) {
		logX(p)
	}
	p.Y.Min = 0
	for i, b := range bands {
		if len(b.X) == 0 {
			continue
		}
		c := plotutil.Color(i)
		band := make(plotter.XYs, 0, 2*len(b.X))
		for j := range b.X {
			band = append(band, plotter.XY{X: b.X[j], Y: b.Hi[j]})
		}
		for j := len(b.X) - 1; j >= 0; j-- {
			band = append(band, plotter.XY{X: b.X[j], Y: b.Lo[j]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, err
		}
		poly.Color = translucent(c, 50)
		poly.LineStyle.Width = 0
		med := make(plotter.XYs, len(b.X))
		for j := range b.X {
			med[j] = plotter.XY{X: b.X[j], Y: b.Median[j]}
		}
		line, err := plotter.NewLine(med)
		if err != nil {
			return nil, err
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		line.StepStyle = plotter.PostStep
		p.Add(poly, line)
		p.Legend.Add(fmt.Sprintf("%s (%d runs)", b.Config, b.Runs), line)
	}
	top := 0.0
	for _, b := range bands {
		for _, v := range b.Hi {
			top = max(top, v)
		}
	}
	headroom(p, max(top, 1), len(bands))
	return p, nil
}

// RunTimes are the runtimes of one configuration's runs to the target
// (solved): Hits holds the budget at which each successful run got
// there, Runs counts every run, successful or not.
type RunTimes struct {
	Config string
	Hits   []float64
	Runs   int
}

// ECDF draws, per configuration, the fraction of its runs that reached
// the target within each budget: the empirical distribution function of
// the running time, which stays below 1 when some runs failed.
func ECDF(rts []RunTimes, xLabel string) (*plot.Plot, error) {
	if len(rts) == 0 {
		return nil, fmt.Errorf("plots: ecdf: no runs")
	}
	p := newPlot("Runtime ECDF: fraction of runs solved within the budget", xLabel, "fraction of runs solved")
	var xs [][]float64
	hi := 1.0
	for _, r := range rts {
		xs = append(xs, r.Hits)
		for _, h := range r.Hits {
			hi = max(hi, h)
		}
	}
	log := spansDecades(xs...)
	if log {
		logX(p)
	}
	p.Y.Min = 0
	headroom(p, 1, len(rts))
	p.Y.Tick.Marker = fractionTicks
	for i, r := range rts {
		hits := slices.Clone(r.Hits)
		slices.Sort(hits)
		first := 0.0
		if log {
			first = 1
		}
		pts := plotter.XYs{{X: first, Y: 0}}
		for k, h := range hits {
			if log {
				h = max(h, 1)
			}
			pts = append(pts, plotter.XY{X: h, Y: float64(k+1) / float64(r.Runs)})
		}
		last := pts[len(pts)-1]
		pts = append(pts, plotter.XY{X: hi, Y: last.Y})
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.5)
		line.Dashes = plotutil.Dashes(i)
		line.StepStyle = plotter.PostStep
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("%s (%d of %d solved)", r.Config, len(r.Hits), r.Runs), line)
	}
	p.Legend.Left = true
	return p, nil
}

// Bars are success rates by group (a difficulty label or a collection)
// and configuration: Rates[i][j] is configuration i's rate (0 to 1) on
// group j, NaN where it has no runs.
type Bars struct {
	Groups  []string
	Configs []string
	Rates   [][]float64
	// GroupBy names what the groups are, for the axis label.
	GroupBy string
}

// Success draws the success rates as grouped bars: one group per label,
// one bar per configuration.
func Success(b Bars) (*plot.Plot, error) {
	if len(b.Groups) == 0 || len(b.Configs) == 0 {
		return nil, fmt.Errorf("plots: success: no runs")
	}
	p := newPlot("Success rate per "+b.GroupBy, b.GroupBy, "success rate")
	p.Y.Min = 0
	headroom(p, 1, len(b.Configs))
	p.Y.Tick.Marker = fractionTicks
	n := len(b.Configs)
	w := vg.Points(min(20, 300/float64(n*len(b.Groups))))
	for i, name := range b.Configs {
		vals := make(plotter.Values, len(b.Groups))
		for j := range b.Groups {
			v := b.Rates[i][j]
			if math.IsNaN(v) {
				v = 0
			}
			vals[j] = v
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(float64(i)-float64(n-1)/2)
		p.Add(bars)
		p.Legend.Add(name, bars)
	}
	p.NominalX(b.Groups...)
	return p, nil
}

// Save writes p to path as SVG or PNG, chosen by the extension.
func Save(p *plot.Plot, path string) error {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".svg", ".png":
	default:
		return fmt.Errorf("plots: %s: want a .svg or .png file", path)
	}
	return p.Save(Width, Height, path)
}
