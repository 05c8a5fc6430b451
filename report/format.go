package report

import (
	"html/template"
	"math"
	"strconv"
	"strings"
	"time"

	"sudokulab/stats"
)

var nan = math.NaN()

// funcs are the template's functions: how numbers are written.
var funcs = template.FuncMap{
	"num":     Num,
	"pct":     pct,
	"rateCI":  rateCI,
	"est":     func(iv stats.Interval) string { return Num(iv.Estimate) },
	"ci":      ci,
	"pval":    pval,
	"sig":     func(p float64) bool { return p < 0.05 },
	"percent": func(level float64) string { return Num(100*level) + " %" },
	"stamp":   func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
	"anchor":  anchor,
	"ratio":   func(r Rate) string { return strconv.Itoa(r.Solved) + "/" + strconv.Itoa(r.Runs) },
	"inc":     func(i int) int { return i + 1 },
	"dur":     Duration,
	"durCI":   func(iv stats.Interval) string { return interval(iv, Duration) },
	"amount":  amount,
	"amountCI": func(unit string, iv stats.Interval) string {
		return interval(iv, func(x float64) string { return amount(unit, x) })
	},
	"nonempty": func(s string) bool { return strings.TrimSpace(s) != "" },
}

// Num writes x briefly for a table: three significant digits below 1000
// (0.0123, 4.56, 789), whole numbers with thin-space thousands up to ten
// million (12 345), powers of ten beyond (1.23e7); "∞" for +Inf and "–"
// for NaN (not computed).
func Num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	case x == 0:
		return "0"
	}
	a := math.Abs(x)
	switch {
	case a >= 1e7 || a < 1e-3:
		s := strconv.FormatFloat(x, 'e', 2, 64)
		mant, exp, _ := strings.Cut(s, "e")
		mant = strings.TrimSuffix(strings.TrimRight(mant, "0"), ".")
		e, _ := strconv.Atoi(exp)
		return mant + "e" + strconv.Itoa(e)
	case a >= 1000:
		return thousands(int64(math.Round(x)))
	}
	s := strconv.FormatFloat(x, 'g', 3, 64)
	if strings.ContainsAny(s, "e") {
		// 'g' switches to exponents for 100 <= x < 1000 rounded up to 1000.
		return thousands(int64(math.Round(x)))
	}
	return s
}

// thousands writes n with a thin space between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u2009")
		}
		b.WriteRune(c)
	}
	if neg {
		return "−" + b.String()
	}
	return b.String()
}

// pct writes a rate as a percentage: 75 %, 66.7 %, – for none.
func pct(r Rate) string {
	v := r.Value()
	if math.IsNaN(v) {
		return "–"
	}
	return percentOf(v) + " %"
}

func percentOf(v float64) string {
	return strconv.FormatFloat(math.Round(1000*v)/10, 'f', -1, 64)
}

// rateCI writes a rate's interval in percent: [41.2, 93.1].
func rateCI(r Rate) string {
	if r.Runs == 0 {
		return ""
	}
	return "[" + percentOf(r.Low) + ", " + percentOf(r.High) + "]"
}

// ci writes an interval's bounds: [1 200, 3 400]; empty when not
// computed.
func ci(iv stats.Interval) string { return interval(iv, Num) }

func interval(iv stats.Interval, f func(float64) string) string {
	if math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
		return ""
	}
	return "[" + f(iv.Low) + ", " + f(iv.High) + "]"
}

// Duration writes a time in seconds in a unit that suits it: 53.8 µs,
// 1.22 ms, 4.5 s, 12.5 min, 3.2 h; "∞" for +Inf and "–" for NaN.
func Duration(seconds float64) string {
	a := math.Abs(seconds)
	switch {
	case math.IsNaN(seconds) || math.IsInf(seconds, 0):
		return Num(seconds)
	case a == 0:
		return "0 s"
	case a < 1e-3:
		return Num(seconds*1e6) + " µs"
	case a < 1:
		return Num(seconds*1e3) + " ms"
	case a < 120:
		return Num(seconds) + " s"
	case a < 2*3600:
		return Num(seconds/60) + " min"
	}
	return Num(seconds/3600) + " h"
}

// amount writes x in unit: a Duration for seconds, else a number.
func amount(unit string, x float64) string {
	if strings.HasSuffix(unit, "seconds") {
		return Duration(x)
	}
	return Num(x)
}

// pval writes a p-value: 0.0123, < 0.0001, – when not computed.
func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-4:
		return "< 0.0001"
	case p >= 0.9995:
		return "1"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}

// anchor turns a name into a fragment identifier: letters, digits, '-',
// '_' and '.' kept, anything else '-'.
func anchor(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
