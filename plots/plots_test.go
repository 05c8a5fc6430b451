package plots_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"sudokulab"
	"sudokulab/plots"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixture returns a tiny set of runs: two configurations on two puzzles,
// one solved at generation 0 (a prefilter), one never solved.
func fixture() []plots.Trajectory {
	var runs []plots.Trajectory
	for seed := range 3 {
		s := float64(seed)
		runs = append(runs,
			plots.Trajectory{Config: "ga", Panel: "#1 easy", X: []float64{0, 1, 10, 100 + 50*s}, Best: []float64{40, 30 - s, 8, 0}},
			plots.Trajectory{Config: "ga", Panel: "#2 hard", X: []float64{0, 5, 300}, Best: []float64{50, 20 + s, 4}, Used: 300},
			plots.Trajectory{Config: "tabu-ac3", Panel: "#1 easy", X: []float64{0}, Best: []float64{0}},
			plots.Trajectory{Config: "tabu-ac3", Panel: "#2 hard", X: []float64{0, 2, 20 + 10*s}, Best: []float64{12, 6, 0}},
		)
	}
	return runs
}

func ecdfFixture() plots.ECDFData {
	return plots.ECDFData{
		Series: []plots.RunTimes{
			{Config: "ga", Hits: []float64{120, 800, 4000, 30000}, Runs: 6},
			{Config: "tabu-ac3", Hits: []float64{0, 0, 3, 40, 90}, Runs: 5},
			{Config: "cuckoo", Runs: 4},
		},
		XLabel: "evaluations", Budgets: []float64{50000}, Used: 50000,
	}
}

func barsFixture() plots.Bars {
	return plots.Bars{
		Groups: []string{"easy", "medium", "hard", "extreme"}, Configs: []string{"ga", "tabu"}, GroupBy: "human label",
		Solved: [][]int{{20, 7, 0, 0}, {18, 0, 0, 0}}, Runs: [][]int{{20, 20, 20, 0}, {20, 20, 0, 0}},
	}
}

// figures draws every kind of picture from the fixtures.
func figures(t *testing.T) map[string]*plots.Figure {
	t.Helper()
	small := plots.Options{Resamples: 200}
	out := map[string]*plots.Figure{}
	add := func(name string, f *plots.Figure, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = f
	}
	f, err := plots.Convergence(plots.ConvergenceData{Runs: fixture(), XLabel: "generations", Budgets: []float64{300}, PerPanel: true}, small)
	add("convergence-panels", f, err)
	logY := small
	logY.LogY = true
	logY.Title = "Pooled, log cost"
	f, err = plots.Convergence(plots.ConvergenceData{Runs: fixture(), XLabel: "generations", Budgets: []float64{300}}, logY)
	add("convergence-pooled", f, err)
	f, err = plots.ECDF(ecdfFixture(), small)
	add("ecdf", f, err)
	f, err = plots.Success(barsFixture(), small)
	add("success", f, err)
	ert := small
	ert.LogY = true
	f, err = plots.ERTPlot(plots.ERTData{Runs: fixture(), XLabel: "generations", PerPanel: true}, ert)
	add("ert", f, err)
	f, err = plots.CDDiagram(demsarCD(), small)
	add("cd", f, err)
	f, err = plots.PerformanceProfile(profileFixture(), small)
	add("profile", f, err)
	f, err = plots.AggregatedECDF(plots.AggECDFData{Runs: fixture(), XLabel: "generations"}, small)
	add("aggecdf", f, err)
	return out
}

// demsarCD is the example of Demšar (2006), section 3.2.2 and Figure 1(a):
// four C4.5 variants over 14 data sets, mean ranks of its Table 6, CD 1.25
// at alpha 0.05.
func demsarCD() plots.CDData {
	return plots.CDData{
		Configs:   []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"},
		MeanRanks: []float64{3.143, 2.000, 2.893, 1.964},
		CD:        1.25, Alpha: 0.05, Puzzles: 14, Measure: "AUC",
	}
}

// profileFixture: three configurations on four puzzles; "never" solves
// only the first.
func profileFixture() plots.ProfileData {
	inf := math.Inf(1)
	return plots.ProfileData{
		Configs: []string{"fast", "steady", "never"},
		Costs:   [][]float64{{10, 100, 0, 50}, {20, 100, 3, 25}, {40, inf, inf, inf}},
		Measure: "ERT in evaluations", Shift: 1,
	}
}

// TestGolden compares the SVG of every kind of picture with its golden
// file (go test ./plots/ -update rewrites them): the drawing is
// deterministic, bootstrap bands included.
func TestGolden(t *testing.T) {
	for name, f := range figures(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".golden.svg")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./plots/ -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				got := filepath.Join(t.TempDir(), name+".svg")
				os.WriteFile(got, buf.Bytes(), 0o644)
				t.Errorf("%s differs from %s (wrote %s; go test ./plots/ -update if the change is meant)", name, path, got)
			}
		})
	}
}

// TestContent checks what each picture says: counts, notes, budget marks.
func TestContent(t *testing.T) {
	fs := figures(t)
	tests := []struct {
		name string
		want []string
	}{
		{"convergence-panels", []string{"#1 easy", "#2 hard", "ga (3/6 solved)", "tabu-ac3 (6/6 solved)", "budget 300", "0.25-0.75 quantile band"}},
		{"convergence-pooled", []string{"Pooled, log cost", "runs on 2 puzzles pooled"}},
		{"ecdf", []string{"ga (4/6 solved)", "cuckoo (0/4 solved)", "95 % bootstrap band (200 resamples)", "budget 50000"}},
		{"success", []string{"0/20", "7/20", "20/20", "95 % Wilson interval", "tabu (18/40 solved)"}},
		{"ert", []string{"ERT (generations)", "target cost"}},
		{"cd", []string{"C4.5+m+cf (1.96)", "C4.5 (3.14)", "CD = 1.25", "4 configurations, 14 puzzles", "mean rank by AUC"}},
		{"profile", []string{"fast (best on 75 %)", "steady (best on 50 %)", "never (best on 0 %)", "ratios of cost + 1", "ERT in evaluations over the best"}},
		{"aggecdf", []string{"tabu-ac3 (area", "ga (area", "fraction of (run, target) pairs reached", "generations"}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := fs[tt.name].WriteSVG(&buf); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: no %q", tt.name, w)
			}
		}
	}
	// Limits of time are named so on their lines.
	d := ecdfFixture()
	d.XLabel, d.BudgetName = "CPU seconds", "wall-clock limit (s)"
	f, err := plots.ECDF(d, plots.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	var timed bytes.Buffer
	if err := f.WriteSVG(&timed); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(timed.String(), "wall-clock limit (s) 50000") || strings.Contains(timed.String(), "budget 50000") {
		t.Error("ecdf: the time limit is not named so on its line")
	}
	// A group where no configuration drawn has runs is left out.
	var buf bytes.Buffer
	fs["success"].WriteSVG(&buf)
	if n := strings.Count(buf.String(), ">0/20<"); n != 2 {
		t.Errorf("success: %d bars of 0/20, want 2 (tabu has no runs on hard)", n)
	}
	if strings.Contains(buf.String(), "extreme") {
		t.Error("success: the group extreme, without runs, is drawn")
	}
}

// TestFormats renders a picture in each format: an SVG, a PNG that
// decodes at the picture's size, a PDF; and refuses other formats.
func TestFormats(t *testing.T) {
	f := figures(t)["ecdf"]
	for _, format := range plots.Formats {
		var buf bytes.Buffer
		if err := f.Write(&buf, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		b := buf.Bytes()
		switch format {
		case "svg":
			if !bytes.Contains(b, []byte("<svg")) {
				t.Error("svg: no <svg")
			}
		case "png":
			img, _, err := image.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			w, h := f.Size()
			if got, want := img.Bounds().Dx(), int(w.Dots(plots.PNGDPI)+0.5); got != want {
				t.Errorf("png: %d pixels wide, want %d (h %v)", got, want, h)
			}
		case "pdf":
			if !bytes.HasPrefix(b, []byte("%PDF-")) {
				t.Errorf("pdf starts %q", b[:8])
			}
		}
	}
	if err := f.Write(&bytes.Buffer{}, "gif"); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("gif: %v, want EINVALID", err)
	}
	dir := t.TempDir()
	if err := f.Save(filepath.Join(dir, "x.jpg")); err == nil || !strings.Contains(err.Error(), "want a .svg, .png or .pdf") {
		t.Errorf("saving a .jpg: %v", err)
	}
	if err := f.Save(filepath.Join(dir, "x.PDF")); err != nil {
		t.Errorf("saving a .PDF: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "x.PDF" {
		t.Errorf("left behind %v, want only x.PDF", entries)
	}
}

// TestSizes checks the picture's size: the one asked for, or sized to
// fit; a legend too wide for the right side goes below.
func TestSizes(t *testing.T) {
	d := plots.ECDFData{XLabel: "evaluations"}
	for i := range 12 {
		d.Series = append(d.Series, plots.RunTimes{Config: fmt.Sprintf("a-rather-long-configuration-name-%02d", i), Hits: []float64{float64(10 * (i + 1))}, Runs: 2})
	}
	f, err := plots.ECDF(d, plots.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.Size(); w < 14*vg.Centimeter || h < 9*vg.Centimeter {
		t.Errorf("default size %v x %v, smaller than the plot", w, h)
	}
	f, err = plots.ECDF(d, plots.Options{Width: 10 * vg.Centimeter, Height: 5 * vg.Inch, Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.Size(); w != 10*vg.Centimeter || h != 5*vg.Inch {
		t.Errorf("size %v x %v, want 10 cm x 5 in", w, h)
	}
}

// TestTop checks the choice of configurations when there are more than
// can be told apart: the best by success, said on the picture, or a
// refusal with Strict.
func TestTop(t *testing.T) {
	var d plots.ECDFData
	for i := range 15 {
		// Configuration i solves i of 14 runs.
		rt := plots.RunTimes{Config: fmt.Sprintf("c%02d", i), Runs: 14}
		for k := range i {
			rt.Hits = append(rt.Hits, float64(k+1))
		}
		d.Series = append(d.Series, rt)
	}
	d.XLabel = "evaluations"
	f, err := plots.ECDF(d, plots.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	f.WriteSVG(&buf)
	svg := buf.String()
	if !strings.Contains(svg, "top 12 of 15 configurations (by success)") {
		t.Error("no note of the top 12")
	}
	for i := range 15 {
		name := fmt.Sprintf(">c%02d (", i)
		if got, want := strings.Contains(svg, name), i >= 3; got != want {
			t.Errorf("c%02d drawn: %v, want %v", i, got, want)
		}
	}
	f, err = plots.ECDF(d, plots.Options{Resamples: -1, Top: 3})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	f.WriteSVG(&buf)
	if !strings.Contains(buf.String(), "top 3 of 15") || strings.Contains(buf.String(), ">c11 (") {
		t.Error("Top 3: not the three best")
	}
	if _, err := plots.ECDF(d, plots.Options{Strict: true}); sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), "15 configurations") {
		t.Errorf("Strict: %v, want an EINVALID refusal", err)
	}
	if _, err := plots.ECDF(d, plots.Options{Top: 13}); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("Top 13: %v, want EINVALID", err)
	}
}

func TestEmpty(t *testing.T) {
	if _, err := plots.Convergence(plots.ConvergenceData{}, plots.Options{}); err == nil {
		t.Error("Convergence of nothing: no error")
	}
	if _, err := plots.ECDF(plots.ECDFData{}, plots.Options{}); err == nil {
		t.Error("ECDF of nothing: no error")
	}
	if _, err := plots.Success(plots.Bars{}, plots.Options{}); err == nil {
		t.Error("Success of nothing: no error")
	}
	if _, err := plots.ERTPlot(plots.ERTData{}, plots.Options{}); err == nil {
		t.Error("ERT of nothing: no error")
	}
	var many []plots.Trajectory
	for i := range 40 {
		many = append(many, plots.Trajectory{Config: "a", Panel: fmt.Sprint(i), X: []float64{0}, Best: []float64{1}})
	}
	if _, err := plots.Convergence(plots.ConvergenceData{Runs: many, PerPanel: true}, plots.Options{}); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("40 panels: %v, want EINVALID", err)
	}
}

func TestParseLength(t *testing.T) {
	tests := []struct {
		in   string
		want vg.Length
		ok   bool
	}{
		{"16cm", 16 * vg.Centimeter, true},
		{" 160mm ", 160 * vg.Millimeter, true},
		{"6in", 6 * vg.Inch, true},
		{"6.5IN", 6.5 * vg.Inch, true},
		{"450pt", 450, true},
		{"450", 450, true},
		{"0cm", 0, false},
		{"-3cm", 0, false},
		{"6 in", 6 * vg.Inch, true},
		{"cm", 0, false},
		{"", 0, false},
		{"6ft", 0, false},
		{"0x10cm", 0, false},
		{"inf", 0, false},
		{"NaNcm", 0, false},
		{"600cm", 0, false},
	}
	for _, tt := range tests {
		got, err := plots.ParseLength(tt.in)
		if (err == nil) != tt.ok || (tt.ok && (got-tt.want > 1e-9 || tt.want-got > 1e-9)) {
			t.Errorf("ParseLength(%q) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.in))) {
			t.Errorf("ParseLength(%q): error %v does not name the text", tt.in, err)
		}
	}
}

// FuzzParseLength checks that any text gives a length within bounds or an
// EINVALID error.
func FuzzParseLength(f *testing.F) {
	for _, s := range []string{"16cm", "160mm", "6in", "450pt", "450", "-1cm", "1e3mm", "inf", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := plots.ParseLength(s)
		if err != nil {
			if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("%q: %v is not EINVALID", s, err)
			}
			return
		}
		if !(l > 0) || l > 500*vg.Centimeter {
			t.Fatalf("%q: length %v out of bounds", s, l)
		}
	})
}
