package plots

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"sudokulab"
)

// SymLog is a logarithmic axis that also draws 0: a value x is placed at
// F(x) = sign(x) log10(1 + |x|/C) on a linear axis, so that 0 lies C's
// decade to the left of (or below) C, 10C is almost a decade further,
// and so on. C is the smallest positive value of interest, a power of
// ten: 1 for generations. It is the axis of budgets (a run solved at
// generation 0 is drawn at 0), of costs with LogY (a median cost of 0 is
// drawn above the axis line), and of ERT. (The data are transformed
// rather than the axis scaled, so that gonum/plot lays out the axis
// labels as on a linear axis.)
type SymLog struct{ C float64 }

// F returns the axis position of x.
func (s SymLog) F(x float64) float64 {
	if x < 0 {
		return -math.Log10(1 - x/s.C)
	}
	return math.Log10(1 + x/s.C)
}

// Inv returns the value at axis position y: Inv(F(x)) = x.
func (s SymLog) Inv(y float64) float64 {
	if y < 0 {
		return -s.C * (math.Pow(10, -y) - 1)
	}
	return s.C * (math.Pow(10, y) - 1)
}

// Ticks implements plot.Ticker for an axis of positions F(x) from min to
// max: 0, and C, 10C, 100C ... labelled (every other decade when there
// are many), with unlabelled minor ticks at 2 to 9 times each decade when
// there are few.
func (s SymLog) Ticks(min, max float64) []plot.Tick {
	lo, hi := s.Inv(min), s.Inv(max)
	var ticks []plot.Tick
	if lo <= 0 && hi >= 0 {
		ticks = append(ticks, plot.Tick{Value: 0, Label: "0"})
	}
	decades := 0
	for v := s.C; v <= hi; v *= 10 {
		decades++
	}
	step := 1
	if decades > 7 {
		step = 2
	}
	k := 0
	for v := s.C; v <= hi*(1+1e-9); v *= 10 {
		// C is labelled unless it would crowd the 0 beside it: when the
		// axis spans more than 5 decades.
		if v >= lo {
			label := ""
			if k%step == 0 && (k > 0 || s.F(hi) <= 5 || lo > 0) {
				label = FormatNumber(v)
			}
			ticks = append(ticks, plot.Tick{Value: s.F(v), Label: label})
		}
		if decades <= 5 {
			for m := 2.0; m <= 9; m++ {
				if mv := v * m; mv <= hi && mv >= lo {
					label := ""
					if decades <= 1 && (m == 2 || m == 5) {
						label = FormatNumber(mv)
					}
					ticks = append(ticks, plot.Tick{Value: s.F(mv), Label: label})
				}
			}
		}
		k++
	}
	return oneNotation(ticks, s.Inv)
}

// FormatNumber writes a value briefly: 0.001, 20, 1000, 1e+05 as 1e5.
func FormatNumber(v float64) string {
	v = round10(v)
	if needsExponent(v) {
		return exponentNumber(v)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// round10 rounds v to 10 significant digits, so that 0.1*3 is 0.3.
func round10(v float64) float64 {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 10, 64), 64)
	return v
}

// needsExponent reports whether v is too large or too small to write
// briefly without an exponent.
func needsExponent(v float64) bool {
	return v != 0 && (math.Abs(v) >= 1e5 || math.Abs(v) < 1e-3)
}

// exponentNumber writes v with an exponent: 1e5, 2.5e-4, 1e0.
func exponentNumber(v float64) string {
	s := strconv.FormatFloat(round10(v), 'e', -1, 64)
	s = strings.Replace(s, "e+0", "e", 1)
	s = strings.Replace(s, "e+", "e", 1)
	s = strings.Replace(s, "e-0", "e-", 1)
	return s
}

// oneNotation writes the labels of an axis in one notation: as FormatNumber
// does when every labelled value reads well without an exponent, else
// every one but 0 with an exponent (1e3 1e4 1e5, not 1000 10000 1e5).
// value gives the value at a tick's position.
func oneNotation(ticks []plot.Tick, value func(float64) float64) []plot.Tick {
	exp := false
	for _, t := range ticks {
		exp = exp || (t.Label != "" && needsExponent(round10(value(t.Value))))
	}
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		switch v := round10(value(t.Value)); {
		case v == 0:
			ticks[i].Label = "0"
		case exp:
			ticks[i].Label = exponentNumber(v)
		default:
			ticks[i].Label = FormatNumber(v)
		}
	}
	return ticks
}

// pow10Below returns the largest power of ten at or below x (x > 0).
func pow10Below(x float64) float64 {
	return math.Pow(10, math.Floor(math.Log10(x)+1e-9))
}

// extent returns the smallest positive and the largest value of xs.
func extent(xs ...[]float64) (minPos, hi float64) {
	minPos, hi = math.Inf(1), math.Inf(-1)
	for _, s := range xs {
		for _, x := range s {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				continue
			}
			if x > 0 {
				minPos = min(minPos, x)
			}
			hi = max(hi, x)
		}
	}
	return minPos, hi
}

// spansDecades reports whether the positive values of xs span two decades
// or more, where a log axis reads better.
func spansDecades(xs ...[]float64) bool {
	lo, hi := extent(xs...)
	return hi > 0 && !math.IsInf(lo, 1) && hi/lo >= 100
}

// axisMap places values on an axis: as they are (linear), or at their
// SymLog position.
type axisMap struct {
	log bool
	s   SymLog
}

// fitAxis returns the axis for the values of xs: SymLog when log (with C
// the power of ten at or below their smallest positive value), else linear.
func fitAxis(log bool, xs ...[]float64) axisMap {
	minPos, _ := extent(xs...)
	if !log || math.IsInf(minPos, 1) {
		return axisMap{}
	}
	return axisMap{log: true, s: SymLog{C: pow10Below(minPos)}}
}

// at returns the axis position of v.
func (m axisMap) at(v float64) float64 {
	if m.log {
		return m.s.F(v)
	}
	return v
}

// xy returns pts placed on the axes mx and my.
func xy(pts plotter.XYs, mx, my axisMap) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i] = plotter.XY{X: mx.at(p.X), Y: my.at(p.Y)}
	}
	return out
}

// set fits a to the values of xs, from a little below 0 to a little above
// the largest value, so that points at 0 are drawn off the axis line.
func (m axisMap) set(a *plot.Axis, xs ...[]float64) {
	_, hi := extent(xs...)
	if math.IsInf(hi, -1) || hi <= 0 {
		hi = 1
	}
	top := m.at(hi)
	a.Min, a.Max = -0.03*top, top*1.04
	if m.log {
		a.Tick.Marker = m.s
	} else {
		a.Tick.Marker = linearTicks{}
	}
}

// logTicks are gonum's ticks of a log-scaled axis (plot.LogScale),
// labelled in one notation (gonum's mix 10000 and 1e+06).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	return oneNotation(plot.LogTicks{Prec: -1}.Ticks(min, max), func(v float64) float64 { return v })
}

// linearTicks label about five round values (steps of 1, 2 or 5 times
// a power of ten) briefly (20, not 20.00), with a minor tick between.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: FormatNumber(min)}}
	}
	raw := (max - min) / 5
	p := pow10Below(raw)
	step := p
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * p
	}
	var ticks []plot.Tick
	for k := math.Ceil(min/step*2 - 1e-9); k*step/2 <= max+1e-9*step; k++ {
		v := k * step / 2
		if math.Abs(v) < 1e-9*step {
			v = 0
		}
		label := ""
		if int64(k)%2 == 0 {
			label = FormatNumber(v)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return oneNotation(ticks, func(v float64) float64 { return v })
}

// ParseLength reads a picture size with its unit: 16cm, 160mm, 6in,
// 6.5in, 450pt (a number alone is points). It returns an EINVALID error
// naming the text for anything else, a length of 0 or less, or one above
// 5 m.
func ParseLength(s string) (vg.Length, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	units := []struct {
		suffix string
		unit   vg.Length
	}{{"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"in", vg.Inch}, {"pt", vg.Points(1)}, {"", vg.Points(1)}}
	for _, u := range units {
		if !strings.HasSuffix(t, u.suffix) {
			continue
		}
		num := strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || strings.ContainsAny(num, "xp_") {
			break
		}
		l := vg.Length(v) * u.unit
		if !(l > 0) || l > 500*vg.Centimeter {
			return 0, sudokulab.Errorf(sudokulab.EINVALID, "size %q: want a length above 0 and at most 5 m", s)
		}
		return l, nil
	}
	return 0, sudokulab.Errorf(sudokulab.EINVALID, "size %q: want a number with a unit: 16cm, 160mm, 6in or 450pt", s)
}
