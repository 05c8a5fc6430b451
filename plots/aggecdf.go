package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"sudokulab"
)

// AggECDFData are the runs an aggregated ECDF draws: each run's
// trajectory (its best cost against the budget), Panel naming its puzzle.
type AggECDFData struct {
	Runs []Trajectory
	// XLabel names the budget axis with its unit.
	XLabel string
	// Targets are the fractions of a puzzle's starting cost that make its
	// cost targets; nil means DefaultTargetFractions. Cost 0 (solved) is
	// always a target.
	Targets []float64
}

// DefaultTargetFractions are the cost targets of an aggregated ECDF, as
// fractions of each puzzle's starting cost (the median first best cost
// of its runs): half of it, a quarter, ... down to one violation, and 0.
var DefaultTargetFractions = []float64{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625}

// AggECDF is one configuration's aggregated ECDF: the budgets at which
// its (run, target) pairs were reached, over all pairs.
type AggECDF struct {
	Config string
	Hits   []float64
	Pairs  int
	// AUC is the area under the ECDF over the budget axis (SymLog scaled,
	// from 0 to the largest budget used), as a fraction of the axis: 1
	// for a configuration that reaches every target at budget 0.
	AUC float64
}

// targets returns a puzzle's cost targets: 0, and its starting cost c0
// times each fraction, rounded down, from 1 up, without repeats.
func targets(c0 float64, fractions []float64) []float64 {
	out := []float64{0}
	for _, f := range fractions {
		t := math.Floor(c0 * f)
		if t >= 1 && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// Aggregate computes each configuration's aggregated ECDF over every
// (run, target) pair of its puzzles, as COCO's cocopp aggregates runtime
// distributions over functions and targets, and the area under it up to
// the largest budget any run used, on the SymLog axis m.
func (d AggECDFData) Aggregate(m SymLog) ([]AggECDF, float64) {
	fractions := d.Targets
	if fractions == nil {
		fractions = DefaultTargetFractions
	}
	starts := map[string][]float64{}
	end := 0.0
	for _, r := range d.Runs {
		if len(r.Best) > 0 {
			starts[r.Panel] = append(starts[r.Panel], r.Best[0])
		}
		end = math.Max(end, r.used())
	}
	tg := map[string][]float64{}
	for panel, s := range starts {
		slices.Sort(s)
		tg[panel] = targets(Quantile(s, 0.5), fractions)
	}
	var out []AggECDF
	index := map[string]int{}
	for _, r := range d.Runs {
		i, ok := index[r.Config]
		if !ok {
			i = len(out)
			index[r.Config] = i
			out = append(out, AggECDF{Config: r.Config})
		}
		for _, t := range tg[r.Panel] {
			out[i].Pairs++
			for q, b := range r.Best {
				if b <= t {
					out[i].Hits = append(out[i].Hits, r.X[q])
					break
				}
			}
		}
	}
	for i := range out {
		out[i].AUC = aggAUC(out[i], end, m)
	}
	return out, end
}

// aggAUC is the area under a's ECDF from 0 to end on the axis m, over the
// axis length.
func aggAUC(a AggECDF, end float64, m SymLog) float64 {
	if a.Pairs == 0 {
		return math.NaN()
	}
	top := m.F(end)
	if top <= 0 {
		return float64(len(a.Hits)) / float64(a.Pairs)
	}
	var area float64
	for _, h := range a.Hits {
		area += top - m.F(math.Min(h, end))
	}
	return area / top / float64(a.Pairs)
}

// AggregatedECDF draws, per configuration, the fraction of its (run,
// target) pairs reached within each budget, over every puzzle and a range
// of cost targets per puzzle (DefaultTargetFractions of its starting
// cost, and 0), as COCO's cocopp draws its runtime ECDFs; the legend
// gives the area under each curve (the fraction of the SymLog budget axis
// under it: higher is better), by which the curves are listed and, when
// there are more than o.Top, chosen.
func AggregatedECDF(d AggECDFData, o Options) (*Figure, error) {
	if len(d.Runs) == 0 {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: aggregated ecdf: no runs")
	}
	var xs []float64
	for _, r := range d.Runs {
		xs = append(xs, r.X...)
		xs = append(xs, r.used())
	}
	mx := fitAxis(true, xs)
	if !mx.log {
		mx = axisMap{log: true, s: SymLog{C: 1}}
	}
	aggs, end := d.Aggregate(mx.s)
	slices.SortStableFunc(aggs, func(a, b AggECDF) int { return -cmpRank(a.AUC, b.AUC) })
	var scores []score
	for _, a := range aggs {
		// selectTop ranks by solved/runs: the area in millionths.
		scores = append(scores, score{name: a.Config, solved: int(a.AUC * 1e6), runs: 1e6})
	}
	keep, topNote, err := selectTop(scores, o)
	if err != nil {
		return nil, err
	}
	if topNote != "" {
		topNote = fmt.Sprintf("the %d of %d configurations with the largest area", len(keep), len(aggs))
	}
	p := newPanel("", d.XLabel, "fraction of (run, target) pairs reached", false)
	p.Add(plotter.NewGrid())
	var legend []legendEntry
	i := 0
	for _, a := range aggs {
		if !slices.Contains(keep, a.Config) {
			continue
		}
		rt := RunTimes{Config: a.Config, Hits: a.Hits, Runs: a.Pairs}
		c := seriesColor(i)
		i++
		line, err := stepLine(xy(rt.stepPoints(end), mx, axisMap{}), c)
		if err != nil {
			return nil, err
		}
		p.Add(line)
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (area %s)", a.Config, FormatNumber(roundTo(a.AUC, 3))),
			thumb: lineThumb(draw.LineStyle{Color: c, Width: vg.Points(1.5)}, nil),
		})
	}
	mx.set(&p.X, xs)
	p.Y.Min, p.Y.Max = -0.03, 1.03
	p.Y.Tick.Marker = fractionTicks
	note := "targets per puzzle: 0 and 1/2, 1/4, ... of its median starting cost"
	if d.Targets != nil {
		note = "targets per puzzle: 0 and fractions of its median starting cost"
	}
	return newFigure(ownLine(o), "Aggregated runtime ECDF over puzzles and cost targets", joinLines(o.Note, joinNotes(topNote, note)), []*plot.Plot{p}, legend, 0), nil
}
