package plots_test

import (
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"sudokulab/plots"
)

// TestTicksOneNotation holds every axis to one notation for its labels:
// all plain, or all but 0 with an exponent, never 10000 beside 1e5.
func TestTicksOneNotation(t *testing.T) {
	symlog := func(c, hi float64) func() []plot.Tick {
		s := plots.SymLog{C: c}
		return func() []plot.Tick { return s.Ticks(s.F(0), s.F(hi)) }
	}
	tests := []struct {
		name  string
		ticks func() []plot.Tick
		want  string // the labels, space-separated
	}{
		{"symlog evaluations to 1e6", symlog(1, 1e6), "0 1e1 1e2 1e3 1e4 1e5 1e6"},
		{"symlog evaluations to 2e5", symlog(1, 2e5), "0 1e1 1e2 1e3 1e4 1e5"},
		{"symlog seconds", symlog(1e-5, 20), "0 1e-4 1e-3 1e-2 1e-1 1e0 1e1"},
		{"symlog plain", symlog(1, 2000), "0 1 10 100 1000"},
		{"linear large", func() []plot.Tick { return plots.LinearTicks.Ticks(0, 1e6) }, "0 2e5 4e5 6e5 8e5 1e6"},
		{"linear plain", func() []plot.Tick { return plots.LinearTicks.Ticks(0, 50) }, "0 10 20 30 40 50"},
		{"log scale", func() []plot.Tick { return plots.LogTicks.Ticks(10, 1e6) }, "1e1 1e2 1e3 1e4 1e5 1e6"},
	}
	plain := regexp.MustCompile(`^-?[0-9.]+$`)
	exp := regexp.MustCompile(`^-?[0-9.]+e-?[0-9]+$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var labels []string
			for _, tk := range tt.ticks() {
				if tk.Label != "" {
					labels = append(labels, tk.Label)
				}
			}
			got := strings.Join(labels, " ")
			if got != tt.want {
				t.Errorf("labels %q, want %q", got, tt.want)
			}
			nPlain, nExp := 0, 0
			for _, l := range labels {
				switch {
				case l == "0":
				case plain.MatchString(l):
					nPlain++
				case exp.MatchString(l):
					nExp++
				default:
					t.Errorf("label %q in neither notation", l)
				}
			}
			if nPlain > 0 && nExp > 0 {
				t.Errorf("labels %q mix notations", got)
			}
		})
	}
}
