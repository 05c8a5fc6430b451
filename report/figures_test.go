package report_test

import (
	"context"
	"strings"
	"testing"

	"sudokulab/figures"
	"sudokulab/report"
)

// TestDrawFigures draws the report's pictures of the fixture: the
// success bars and the ECDF with their captions, and the trajectory
// pictures with the reason they cannot be drawn (no trajectory points).
func TestDrawFigures(t *testing.T) {
	d := fixture(t)
	ctx := context.Background()
	rep := build(t, d, report.Options{Experiment: "e1"})
	check := func(t *testing.T, figs []report.Figure, want []struct{ id, caption, err string }) {
		t.Helper()
		if len(figs) != len(want) {
			t.Fatalf("%d figures, want %d", len(figs), len(want))
		}
		for i, w := range want {
			f := figs[i]
			if f.ID != w.id {
				t.Errorf("figure %d is %s, want %s", i, f.ID, w.id)
			}
			if w.err != "" {
				if !strings.Contains(f.Err, w.err) || f.SVG != "" || f.Caption != "" {
					t.Errorf("%s: err %q, SVG of %d bytes, caption %q; want only an error saying %q", f.ID, f.Err, len(f.SVG), f.Caption, w.err)
				}
				continue
			}
			if f.Err != "" || !strings.HasPrefix(string(f.SVG), "<svg") || !strings.Contains(f.Caption, w.caption) {
				t.Errorf("%s: err %q, SVG of %d bytes, caption %q; want a picture captioned %q", f.ID, f.Err, len(f.SVG), f.Caption, w.caption)
			}
		}
	}
	check(t, report.DrawFigures(ctx, d, rep, "e1", 0.9), []struct{ id, caption, err string }{
		{"figure-success", "with 90 % Wilson intervals", ""},
		{"figure-ecdf", "within each budget of effort (evaluations), with a bootstrap confidence band. With more than 12", ""},
		{"figure-convergence", "", `plot: no runs with trajectory points for --experiment "e1"`},
		{"figure-ert", "", `plot: no runs with trajectory points for --experiment "e1"`},
	})
	check(t, report.DrawRankingFigures(ctx, d, "e1"), []struct{ id, caption, err string }{
		{"figure-cd", "Mean rank of each configuration over the puzzles every one ran on, by expected running time (1 is the best)", ""},
		{"figure-aggecdf", "", "plot: no runs with trajectory points"},
	})
}

func TestBudgetCaption(t *testing.T) {
	tests := []struct {
		axis    string
		budgets []float64
		want    string
	}{
		{"evaluations", nil, ""},
		{"evaluations", []float64{1000, 1000}, "; the dashed line marks the runs' budget, 1000 evaluations"},
		{"effort", []float64{500, 100}, "; the dashed lines mark the runs' budgets, 100, 500 evaluations"},
		{"seconds", []float64{2}, "; the dashed line marks the runs' budget, 2 s of wall-clock time (the runs' time limit)"},
		{"generations", []float64{4, 3, 2, 1}, "; the dashed line marks the largest of the runs' 4 budgets, 4 generations"},
	}
	for _, tt := range tests {
		if got := report.BudgetCaption(figures.Drawn{Axis: tt.axis, Budgets: tt.budgets}); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.axis, tt.budgets, got, tt.want)
		}
	}
}
