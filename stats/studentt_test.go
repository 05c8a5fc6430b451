package stats_test

import (
	"math"
	"testing"

	"sudokulab/stats"
)

// TestTQuantileR checks TQuantile against R's qt.
func TestTQuantileR(t *testing.T) {
	for _, c := range []struct{ p, df, want float64 }{
		{0.975, 1, 12.70620473617469},
		{0.975, 4, 2.77644510519779},
		{0.975, 10, 2.22813885198627},
		{0.975, 28, 2.04840714179524},
		{0.975, 100, 1.98397151852355},
		{0.995, 12, 3.0545395893929},
		{0.025, 10, -2.22813885198627},
		{0.5, 7, 0},
	} {
		if got := stats.TQuantile(c.p, c.df); !near(got, c.want, 1e-9, true) && !(c.want == 0 && got == 0) {
			t.Errorf("TQuantile(%v, %v) = %.15g, want %.15g (R)", c.p, c.df, got, c.want)
		}
	}
	for _, c := range []struct{ p, df float64 }{{0, 3}, {1, 3}, {0.9, 0}, {math.NaN(), 3}} {
		if got := stats.TQuantile(c.p, c.df); !math.IsNaN(got) {
			t.Errorf("TQuantile(%v, %v) = %v, want NaN", c.p, c.df, got)
		}
	}
}
