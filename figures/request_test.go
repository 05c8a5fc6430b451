package figures_test

import (
	"context"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
)

// TestRequestCheck refuses what plot's flags may not say, naming the
// flag, and passes what they may.
func TestRequestCheck(t *testing.T) {
	ok := func(kind string) figures.Request {
		return figures.Request{Kind: kind, Top: 12, X: "evaluations", Panels: "auto", Quantiles: []float64{0.25, 0.75},
			By: "label", Readings: "readings", Measure: "ert", Time: "evaluations", ParK: 10, Alpha: 0.05}
	}
	tests := []struct {
		name string
		r    func() figures.Request
		want string // "" for no error
	}{
		{"ecdf", func() figures.Request { return ok(figures.KindECDF) }, ""},
		{"cd", func() figures.Request { return ok(figures.KindCD) }, ""},
		{"unknown kind", func() figures.Request { return ok("pie") }, `plot "pie": want`},
		{"axis", func() figures.Request { r := ok(figures.KindERT); r.X = "effort"; return r }, `--x "effort": want evaluations, generations, seconds`},
		{"quantiles", func() figures.Request { r := ok(figures.KindConvergence); r.Quantiles = []float64{0.8, 0.2}; return r }, "--quantiles"},
		{"level", func() figures.Request { r := ok(figures.KindSuccess); r.Level = 1.5; return r }, "--level 1.5"},
		{"top", func() figures.Request { r := ok(figures.KindECDF); r.Top = 13; return r }, "--top 13: want 1 to 12"},
		{"width", func() figures.Request { r := ok(figures.KindECDF); r.Width = "wide"; return r }, "--width"},
		{"profile of success", func() figures.Request { r := ok(figures.KindProfile); r.Measure = "success"; return r }, "use --measure ert or par"},
		{"scoreboard with --where", func() figures.Request {
			r := ok(figures.KindScoreboard)
			r.Selection = db.RunSelection{Where: "givens < 30"}
			return r
		}, "plot scoreboard takes no --config"},
		{"too many configs", func() figures.Request {
			r := ok(figures.KindECDF)
			r.Selection.Configs = strings.Fields("a b c d e f g h i j k l m")
			return r
		}, "13 configurations named with --config"},
		{"many configs in a cd", func() figures.Request {
			r := ok(figures.KindCD)
			r.Selection.Configs = strings.Fields("a b c d e f g h i j k l m")
			return r
		}, ""},
	}
	for _, tt := range tests {
		err := tt.r().Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an EINVALID error with %q", tt.name, err, tt.want)
		}
	}
}

// TestRequestDraw draws a picture of lab.db.example through a Request,
// as plot does.
func TestRequestDraw(t *testing.T) {
	d := exampleDB(t)
	r := figures.Request{Kind: figures.KindSuccess, Top: 3, By: "all", Level: 0.95}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	fig, err := r.Draw(context.Background(), d)
	if err != nil || fig == nil {
		t.Fatalf("Draw = %v, %v", fig, err)
	}
}
