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

// ProfileData are the costs a performance profile compares.
type ProfileData struct {
	// Configs name the configurations; Costs[j][p] is configuration j's
	// cost on puzzle p (lower is better: an ERT, a PAR-k), +Inf where it
	// never solved. Every configuration has a cost on every puzzle.
	Configs []string
	Costs   [][]float64
	// Measure names the cost with its unit ("ERT in evaluations").
	Measure string
	// Shift is added to every cost before the ratios are taken: 1 for
	// counts of evaluations or nodes, which can be 0 (a puzzle solved by
	// the prefilter), 0 for seconds.
	Shift float64
}

// Profile returns configuration j's performance profile at the ratios
// taus: for each tau, the fraction of puzzles on which its shifted cost
// is within tau times the best configuration's (Dolan and Moré,
// "Benchmarking optimization software with performance profiles", Math.
// Programming 91, 2002). A puzzle on which no configuration has a finite
// cost counts for none.
func (d ProfileData) Profile(j int, taus []float64) []float64 {
	out := make([]float64, len(taus))
	ratios := d.ratios(j)
	for i, t := range taus {
		n := 0
		for _, r := range ratios {
			if r <= t {
				n++
			}
		}
		out[i] = float64(n) / float64(len(ratios))
	}
	return out
}

// ratios returns configuration j's performance ratios, one per puzzle.
func (d ProfileData) ratios(j int) []float64 {
	out := make([]float64, len(d.Costs[j]))
	for p := range out {
		best := math.Inf(1)
		for _, cs := range d.Costs {
			best = math.Min(best, cs[p]+d.Shift)
		}
		c := d.Costs[j][p] + d.Shift
		switch {
		case math.IsInf(c, 1) || math.IsInf(best, 1):
			out[p] = math.Inf(1)
		case c == best:
			out[p] = 1
		case best <= 0:
			out[p] = math.Inf(1)
		default:
			out[p] = c / best
		}
	}
	return out
}

// PerformanceProfile draws the configurations' performance profiles: for
// each ratio tau (on a log2 axis from 1), the fraction of puzzles on which
// a configuration's cost is within tau times the best's. Its height at
// tau = 1 is the share of puzzles it is best on, its height at the right
// the share it solves at all. At most o.Top (MaxSeries) are drawn: with
// more, those with the greatest area under their profile.
func PerformanceProfile(d ProfileData, o Options) (*Figure, error) {
	if len(d.Configs) == 0 || len(d.Costs) != len(d.Configs) || len(d.Costs[0]) == 0 {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "plots: profile: no costs")
	}
	all := make([][]float64, len(d.Configs))
	for j := range d.Configs {
		all[j] = d.ratios(j)
	}
	// The end of the axis: the largest finite ratio of the configurations
	// drawn.
	axisEnd := func(drawn func(j int) bool) float64 {
		maxTau := 2.0
		for j := range all {
			for _, r := range all[j] {
				if drawn(j) && !math.IsInf(r, 1) {
					maxTau = math.Max(maxTau, r)
				}
			}
		}
		return math.Ceil(math.Log2(maxTau)*1.05*10) / 10
	}
	end := axisEnd(func(int) bool { return true })
	// The area under each profile on the log2 axis, for choosing the best
	// when there are too many to draw (selectTop ranks by solved/runs, so
	// the area goes in as a fraction, in millionths) and ordering the
	// legend.
	area := make([]float64, len(d.Configs))
	var scores []score
	for j, name := range d.Configs {
		for _, r := range all[j] {
			if !math.IsInf(r, 1) {
				area[j] += (end - math.Log2(r)) / end / float64(len(all[j]))
			}
		}
		scores = append(scores, score{name: name, solved: int(area[j] * 1e6), runs: 1e6})
	}
	keep, topNote, err := selectTop(scores, o)
	if err != nil {
		return nil, err
	}
	end = axisEnd(func(j int) bool { return slices.Contains(keep, d.Configs[j]) })
	order := make([]int, len(d.Configs))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return -cmpRank(area[a], area[b]) })
	if topNote != "" {
		topNote = fmt.Sprintf("the %d of %d configurations with the largest area under the profile", len(keep), len(d.Configs))
	}
	p := newPanel("", "performance ratio τ: "+d.Measure+" over the best's on the puzzle (log2 axis)", "fraction of puzzles within τ of the best", false)
	p.Add(plotter.NewGrid())
	var legend []legendEntry
	i := 0
	for _, j := range order {
		name := d.Configs[j]
		if !slices.Contains(keep, name) {
			continue
		}
		rs := slices.Clone(all[j])
		slices.Sort(rs)
		pts := plotter.XYs{{X: 0, Y: 0}}
		for q, r := range rs {
			if math.IsInf(r, 1) {
				break
			}
			if q+1 < len(rs) && rs[q+1] == r {
				continue
			}
			pts = append(pts, plotter.XY{X: math.Log2(r), Y: float64(q+1) / float64(len(rs))})
		}
		pts = append(pts, plotter.XY{X: end, Y: pts[len(pts)-1].Y})
		c := seriesColor(i)
		i++
		line, err := stepLine(pts, c)
		if err != nil {
			return nil, err
		}
		p.Add(line)
		at1 := d.Profile(j, []float64{1})[0]
		legend = append(legend, legendEntry{
			text:  fmt.Sprintf("%s (best on %s %%)", name, FormatNumber(roundTo(100*at1, 1))),
			thumb: lineThumb(draw.LineStyle{Color: c, Width: vg.Points(1.5)}, nil),
		})
	}
	p.X.Min, p.X.Max = 0, end
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Min, p.Y.Max = -0.03, 1.03
	p.Y.Tick.Marker = fractionTicks
	note := fmt.Sprintf("%d puzzles", len(d.Costs[0]))
	if d.Shift != 0 {
		note += fmt.Sprintf("; ratios of cost + %s, so that a puzzle solved at 0 counts", FormatNumber(d.Shift))
	}
	return newFigure(ownLine(o), "Performance profile (Dolan-Moré): "+d.Measure, joinLines(o.Note, joinNotes(topNote, note)), []*plot.Plot{p}, legend, 0), nil
}

// log2Ticks label an axis of log2(tau) with tau = 1, 2, 4, ... (every
// other power when there are many).
type log2Ticks struct{}

// Ticks implements plot.Ticker.
func (log2Ticks) Ticks(min, max float64) []plot.Tick {
	step := 1
	for (max-min)/float64(step) > 10 {
		step *= 2
	}
	var ticks []plot.Tick
	for e := 0; float64(e) <= max; e++ {
		label := ""
		if e%step == 0 {
			label = FormatNumber(math.Pow(2, float64(e)))
		}
		ticks = append(ticks, plot.Tick{Value: float64(e), Label: label})
	}
	return ticks
}
