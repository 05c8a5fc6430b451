package plots_test

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"sudokulab/plots"
)

func TestQuantile(t *testing.T) {
	tests := []struct {
		vals []float64
		q    float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4, 5}, 0.25, 2},
		{[]float64{1, 2, 3, 4, 5}, 0.1, 1.4},
		{[]float64{7}, 0.75, 7},
		{[]float64{1, 9}, 1, 9},
		{[]float64{1, 9}, 0, 1},
	}
	for _, tt := range tests {
		if got := plots.Quantile(tt.vals, tt.q); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%v, %g) = %g, want %g", tt.vals, tt.q, got, tt.want)
		}
	}
	if got := plots.Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("Quantile(nil) = %g, want NaN", got)
	}
}

// TestWilson checks the Wilson score interval against the worked examples
// of Newcombe, "Two-sided confidence intervals for the single proportion:
// comparison of seven methods", Statistics in Medicine 17 (1998) 857-872,
// Table II, method 3 (score interval without continuity correction), to
// the four decimals printed there.
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{29, 29, 0.8830, 1},
	}
	for _, tt := range tests {
		lo, hi := plots.Wilson(tt.k, tt.n, 0.95)
		if math.Abs(lo-tt.lo) > 5e-5 || math.Abs(hi-tt.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %.4f-%.4f, want %.4f-%.4f", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
	if lo, hi := plots.Wilson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = %g-%g, want 0-1", lo, hi)
	}
	// A wider level gives a wider interval.
	lo90, hi90 := plots.Wilson(5, 20, 0.90)
	lo99, hi99 := plots.Wilson(5, 20, 0.99)
	if !(lo99 < lo90 && hi99 > hi90) {
		t.Errorf("99 %% interval %g-%g not wider than 90 %% %g-%g", lo99, hi99, lo90, hi90)
	}
}

func TestSteps(t *testing.T) {
	xs, fs := plots.RunTimes{Hits: []float64{5, 0, 5, 2}, Runs: 8}.Steps()
	if want := []float64{0, 2, 5}; !reflect.DeepEqual(xs, want) {
		t.Errorf("xs = %v, want %v", xs, want)
	}
	if want := []float64{0.125, 0.25, 0.5}; !reflect.DeepEqual(fs, want) {
		t.Errorf("fs = %v, want %v", fs, want)
	}
}

// TestECDFBand checks the bootstrap band: the same on every call for a
// seed, around the ECDF, and at the budget where half of 20 runs are
// solved, close to the binomial quantiles: the resampled fraction is
// Binomial(20, 0.5)/20, whose 2.5 % and 97.5 % quantiles are 6/20 and
// 14/20.
func TestECDFBand(t *testing.T) {
	r := plots.RunTimes{Config: "a", Runs: 20}
	for i := range 10 {
		r.Hits = append(r.Hits, float64(10*(i+1)))
	}
	xs, fs := r.Steps()
	lo, hi := plots.ECDFBand(r, xs, 2000, 0.95, 7)
	lo2, hi2 := plots.ECDFBand(r, xs, 2000, 0.95, 7)
	if !reflect.DeepEqual(lo, lo2) || !reflect.DeepEqual(hi, hi2) {
		t.Fatal("the band changed between two calls with one seed")
	}
	for j := range xs {
		if !(lo[j] <= fs[j] && fs[j] <= hi[j]) {
			t.Errorf("at %g: ECDF %g outside the band %g-%g", xs[j], fs[j], lo[j], hi[j])
		}
		if j > 0 && (lo[j] < lo[j-1] || hi[j] < hi[j-1]) {
			t.Errorf("at %g: band %g-%g falls", xs[j], lo[j], hi[j])
		}
	}
	last := len(xs) - 1
	if math.Abs(lo[last]-0.3) > 0.051 || math.Abs(hi[last]-0.7) > 0.051 {
		t.Errorf("band at 10 of 20 solved = %g-%g, want about 0.3-0.7", lo[last], hi[last])
	}
	// Every run solved: the band is 1 at the end, whatever the draw.
	all := plots.RunTimes{Hits: []float64{1, 2, 3}, Runs: 3}
	lo, hi = plots.ECDFBand(all, []float64{3}, 100, 0.95, 1)
	if lo[0] != 1 || hi[0] != 1 {
		t.Errorf("all solved: band %g-%g, want 1-1", lo[0], hi[0])
	}
	// No resamples: no band.
	lo, hi = plots.ECDFBand(all, []float64{3}, 0, 0.95, 1)
	if lo[0] != 0 || hi[0] != 0 {
		t.Errorf("no resamples: band %g-%g, want zeros", lo[0], hi[0])
	}
}

func TestBands(t *testing.T) {
	runs := []plots.Trajectory{
		{Config: "b", X: []float64{0, 2, 5}, Best: []float64{10, 4, 0}},
		{Config: "a", X: []float64{1, 3}, Best: []float64{8, 6}},
		{Config: "b", X: []float64{0, 1, 4}, Best: []float64{12, 6, 2}},
		{Config: "b", X: []float64{2}, Best: []float64{9}},
	}
	got := plots.Bands(runs, 0, 1)
	if len(got) != 2 || got[0].Config != "b" || got[1].Config != "a" {
		t.Fatalf("bands %+v, want b then a", got)
	}
	b := got[0]
	// The budgets where a run of b has a point.
	if want := []float64{0, 1, 2, 4, 5}; !reflect.DeepEqual(b.X, want) {
		t.Fatalf("X = %v, want %v", b.X, want)
	}
	// At 0: runs 1 and 2 (10, 12); at 1: 10, 6; at 2: all three (4, 6,
	// 9); at 4: 4, 2, 9; at 5: 0, 2, 9.
	wantMedian := []float64{11, 8, 6, 4, 2}
	wantLo := []float64{10, 6, 4, 2, 0}
	wantHi := []float64{12, 10, 9, 9, 9}
	if !reflect.DeepEqual(b.Median, wantMedian) || !reflect.DeepEqual(b.Lo, wantLo) || !reflect.DeepEqual(b.Hi, wantHi) {
		t.Errorf("median %v lo %v hi %v, want %v %v %v", b.Median, b.Lo, b.Hi, wantMedian, wantLo, wantHi)
	}
	if b.Runs != 3 || got[1].Runs != 1 {
		t.Errorf("runs %d and %d, want 3 and 1", b.Runs, got[1].Runs)
	}
}

// TestERT checks the expected running time on three runs worked by hand:
// run 1 reaches cost 5 at 10 and 0 at 40; run 2 reaches 5 at 20 and stops
// at 100 unsolved; run 3 starts at cost 3 and reaches 0 at 30.
func TestERT(t *testing.T) {
	runs := []plots.Trajectory{
		{Config: "a", X: []float64{0, 10, 40}, Best: []float64{9, 5, 0}},
		{Config: "a", X: []float64{0, 20, 60}, Best: []float64{8, 5, 2}, Used: 100},
		{Config: "a", X: []float64{0, 30}, Best: []float64{3, 0}},
		{Config: "b", X: []float64{0, 50}, Best: []float64{9, 9}},
	}
	targets := plots.Targets(runs)
	if want := []float64{0, 2, 3, 5, 8, 9}; !reflect.DeepEqual(targets, want) {
		t.Fatalf("Targets = %v, want %v", targets, want)
	}
	got := plots.ERT(runs, []float64{0, 2, 5, 9})
	if len(got) != 2 || got[0].Config != "a" || got[0].Runs != 3 {
		t.Fatalf("ERT = %+v", got)
	}
	// Target 0: 40 + 100 + 30 over 2 hits; 2: 40 + 60 + 30 over 3; 5:
	// 10 + 20 + 0 over 3; 9: all at 0.
	want := []float64{85, 130.0 / 3, 10, 0}
	if !reflect.DeepEqual(got[0].ERT, want) {
		t.Errorf("ERT of a = %v, want %v", got[0].ERT, want)
	}
	if b := got[1].ERT; !math.IsInf(b[0], 1) || !math.IsInf(b[2], 1) || b[3] != 0 {
		t.Errorf("ERT of b = %v, want +Inf, +Inf, +Inf, 0", b)
	}
}

func TestSymLog(t *testing.T) {
	s := plots.SymLog{C: 1}
	tests := []struct{ x, want float64 }{
		{0, 0},
		{9, 1},
		{99, 2},
		{-9, -1},
	}
	for _, tt := range tests {
		if got := s.F(tt.x); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("F(%g) = %g, want %g", tt.x, got, tt.want)
		}
		if got := s.Inv(s.F(tt.x)); math.Abs(got-tt.x) > 1e-9 {
			t.Errorf("Inv(F(%g)) = %g", tt.x, got)
		}
	}
	// Monotone through 0.
	prev := math.Inf(-1)
	for _, x := range []float64{-100, -1, -0.5, 0, 0.5, 1, 100} {
		if v := s.F(x); v <= prev {
			t.Errorf("F(%g) = %g, not above %g", x, v, prev)
		} else {
			prev = v
		}
	}
	s = plots.SymLog{C: 10}
	var labels []string
	for _, tk := range s.Ticks(s.F(-1), s.F(5000)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
			if got := s.Inv(tk.Value); tk.Label != plots.FormatNumber(got) {
				t.Errorf("tick %q at the position of %g", tk.Label, got)
			}
		}
	}
	if want := []string{"0", "10", "100", "1000"}; !slices.Equal(labels, want) {
		t.Errorf("tick labels %v, want %v", labels, want)
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1: "1", 300: "300", 0.95: "0.95", 1e5: "1e5", 2.5e6: "2.5e6", 1e-4: "1e-4", 95: "95"} {
		if got := plots.FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%g) = %q, want %q", v, got, want)
		}
	}
}
