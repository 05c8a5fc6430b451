package plots_test

import (
	"math"
	"testing"

	"sudokulab/plots"
)

func TestProfile(t *testing.T) {
	d := profileFixture()
	// Shifted costs: fast 11 101 1 51, steady 21 101 4 26, never 41 inf
	// inf inf. Ratios: fast 1 1 1 51/26; steady 21/11 1 4 1; never 41/11
	// inf inf inf.
	taus := []float64{1, 2, 4, 100}
	for j, want := range [][]float64{{0.75, 1, 1, 1}, {0.5, 0.75, 1, 1}, {0, 0, 0.25, 0.25}} {
		got := d.Profile(j, taus)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s at tau %v: %v, want %v", d.Configs[j], taus[i], got[i], want[i])
			}
		}
	}
}

func TestAggregate(t *testing.T) {
	// One puzzle, two runs of a starting at cost 16 (targets 0, 8, 4, 2,
	// 1), one run of b never better than 5.
	d := plots.AggECDFData{Runs: []plots.Trajectory{
		{Config: "a", Panel: "p", X: []float64{0, 10, 100}, Best: []float64{16, 3, 0}},
		{Config: "a", Panel: "p", X: []float64{0, 1000}, Best: []float64{16, 8}},
		{Config: "b", Panel: "p", X: []float64{0, 50}, Best: []float64{16, 5}, Used: 1000},
	}}
	m := plots.SymLog{C: 1}
	aggs, end := d.Aggregate(m)
	if end != 1000 || len(aggs) != 2 {
		t.Fatalf("end %v, %d configurations", end, len(aggs))
	}
	a, b := aggs[0], aggs[1]
	// a: run 1 reaches 8 and 4 at 10, then 2, 1, 0 at 100; run 2 reaches 8 at 1000.
	if a.Pairs != 10 || len(a.Hits) != 6 || b.Pairs != 5 || len(b.Hits) != 1 || b.Hits[0] != 50 {
		t.Fatalf("a %+v, b %+v", a, b)
	}
	top := m.F(1000)
	want := (2*(top-m.F(10)) + 3*(top-m.F(100)) + 0) / top / 10
	if math.Abs(a.AUC-want) > 1e-12 {
		t.Errorf("a's area %v, want %v", a.AUC, want)
	}
	if want := (top - m.F(50)) / top / 5; math.Abs(b.AUC-want) > 1e-12 {
		t.Errorf("b's area %v, want %v", b.AUC, want)
	}
}

func TestCDDiagramRefuses(t *testing.T) {
	for _, d := range []plots.CDData{
		{Configs: []string{"a"}, MeanRanks: []float64{1}},
		{Configs: []string{"a", "b"}, MeanRanks: []float64{1}},
		{Configs: []string{"a", "b"}, MeanRanks: []float64{1, math.NaN()}},
	} {
		if _, err := plots.CDDiagram(d, plots.Options{}); err == nil {
			t.Errorf("%+v drawn, want an error", d)
		}
	}
}
