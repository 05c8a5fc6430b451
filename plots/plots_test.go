package plots_test

import (
	"bytes"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

func TestLogGrid(t *testing.T) {
	if got, want := plots.LogGrid(1, 100, 2), []float64{1, 3, 10, 32, 100}; !reflect.DeepEqual(got, want) {
		t.Errorf("LogGrid(1, 100, 2) = %v, want %v", got, want)
	}
	if got, want := plots.LogGrid(1, 5, 10), []float64{1, 2, 3, 4, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("LogGrid(1, 5, 10) = %v, want %v", got, want)
	}
	if got, want := plots.LogGrid(0, 1, 10), []float64{1}; !reflect.DeepEqual(got, want) {
		t.Errorf("LogGrid(0, 1, 10) = %v, want %v", got, want)
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
	// Budgets 1, 2, 3, 4, 5 (10 per decade up to 5, rounded).
	if want := []float64{1, 2, 3, 4, 5}; !reflect.DeepEqual(b.X, want) {
		t.Fatalf("X = %v, want %v", b.X, want)
	}
	// At 1: runs 1 and 2 (10, 6); at 2: all three (4, 6, 9); at 4: 4, 2, 9;
	// at 5: 0, 2, 9.
	wantMedian := []float64{8, 6, 6, 4, 2}
	wantLo := []float64{6, 4, 4, 2, 0}
	wantHi := []float64{10, 9, 9, 9, 9}
	if !reflect.DeepEqual(b.Median, wantMedian) || !reflect.DeepEqual(b.Lo, wantLo) || !reflect.DeepEqual(b.Hi, wantHi) {
		t.Errorf("median %v lo %v hi %v, want %v %v %v", b.Median, b.Lo, b.Hi, wantMedian, wantLo, wantHi)
	}
	if b.Runs != 3 || got[1].Runs != 1 {
		t.Errorf("runs %d and %d, want 3 and 1", b.Runs, got[1].Runs)
	}
}

// TestSave draws each picture in both formats and checks that the files
// are non-trivial: a large enough SVG with the legend's text, and a PNG
// that decodes to the plot's size with many colours.
func TestSave(t *testing.T) {
	var runs []plots.Trajectory
	for i := range 10 {
		x := []float64{0, 1, 10, 100, 1000, 5000}
		best := []float64{50, 40 - float64(i), 20, 10 - float64(i%3), 2, 0}
		runs = append(runs, plots.Trajectory{Config: "ga", X: x, Best: best},
			plots.Trajectory{Config: "tabu", X: x[:4], Best: []float64{45, 30, 25 + float64(i), 20}})
	}
	conv, err := plots.Convergence(plots.Bands(runs, 0.25, 0.75), "evaluations")
	if err != nil {
		t.Fatal(err)
	}
	ecdf, err := plots.ECDF([]plots.RunTimes{
		{Config: "ga", Hits: []float64{120, 800, 4000, 30000}, Runs: 5},
		{Config: "tabu", Hits: nil, Runs: 5},
	}, "evaluations")
	if err != nil {
		t.Fatal(err)
	}
	bars, err := plots.Success(plots.Bars{
		Groups: []string{"easy", "hard"}, Configs: []string{"ga", "tabu"}, GroupBy: "label",
		Rates: [][]float64{{1, 0.4}, {0.8, math.NaN()}},
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		save func(path string) error
	}{
		{"convergence", func(path string) error { return plots.Save(conv, path) }},
		{"ecdf", func(path string) error { return plots.Save(ecdf, path) }},
		{"success", func(path string) error { return plots.Save(bars, path) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := filepath.Join(dir, tc.name+".svg")
			if err := tc.save(svg); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(svg)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) < 2000 || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), "tabu") {
				t.Errorf("%s: %d bytes, not a plot with its legend", svg, len(b))
			}
			png := filepath.Join(dir, tc.name+".png")
			if err := tc.save(png); err != nil {
				t.Fatal(err)
			}
			b, err = os.ReadFile(png)
			if err != nil {
				t.Fatal(err)
			}
			img, format, err := image.Decode(bytes.NewReader(b))
			if err != nil || format != "png" {
				t.Fatalf("%s: %v (format %q)", png, err, format)
			}
			if r := img.Bounds(); r.Dx() < 400 || r.Dy() < 250 {
				t.Errorf("%s: %v, too small", png, r)
			}
			colours := map[[4]uint32]bool{}
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 3 {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 3 {
					r, g, b, a := img.At(x, y).RGBA()
					colours[[4]uint32{r, g, b, a}] = true
				}
			}
			if len(colours) < 10 {
				t.Errorf("%s: %d colours, want a drawing", png, len(colours))
			}
		})
	}
	if err := plots.Save(conv, filepath.Join(dir, "x.pdf")); err == nil || !strings.Contains(err.Error(), "want a .svg or .png") {
		t.Errorf("saving a .pdf: %v", err)
	}
}

func TestEmpty(t *testing.T) {
	if _, err := plots.Convergence(nil, "generations"); err == nil {
		t.Error("Convergence of nothing: no error")
	}
	if _, err := plots.ECDF(nil, "evaluations"); err == nil {
		t.Error("ECDF of nothing: no error")
	}
	if _, err := plots.Success(plots.Bars{}); err == nil {
		t.Error("Success of nothing: no error")
	}
}
