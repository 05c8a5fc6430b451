package figures_test

import (
	"bytes"
	"context"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// exampleDB opens a copy of the repository's lab.db.example read-only.
func exampleDB(t *testing.T) *db.DB {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "lab.db.example"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := db.OpenOptions(context.Background(), path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// configs are three configurations of lab.db.example: a tree search
// counting nodes and two local searches counting evaluations.
var configs = []string{"franco-tabu-table2", "exact", "lewis-sa-2007"}

func spec(x string, configs ...string) figures.Spec {
	return figures.Spec{
		Selection: db.RunSelection{Configs: configs},
		Options:   plots.Options{Top: plots.MaxSeries, Strict: len(configs) > 0, Resamples: 100, Level: 0.95},
		X:         x, Panels: "auto", By: "label", Rater: "human",
	}
}

// TestGolden compares the SVG of each picture of lab.db.example with its
// golden file (go test ./figures/ -update rewrites them), and what each
// says of its axis.
func TestGolden(t *testing.T) {
	d := exampleDB(t)
	ctx := context.Background()
	tests := []struct {
		name     string
		draw     func(context.Context, *db.DB, figures.Spec) (figures.Drawn, error)
		spec     figures.Spec
		axis     string
		note     string
		warn     string
		budgets  bool
		contains []string
	}{
		{"ecdf-mixed", figures.ECDF, spec("evaluations", configs...), "cpu",
			"on CPU seconds: ", "drawn on CPU seconds instead of evaluations", true, []string{"exact (", "CPU seconds"}},
		{"ecdf-effort", figures.ECDF, spec("evaluations", "exact"), "effort", "", "", false, []string{"effort (search nodes)"}},
		{"convergence", figures.Convergence, spec("generations", configs[0], configs[2]), "generations", "", "", true, []string{"generations"}},
		{"ert", figures.ERT, spec("evaluations", configs[0], configs[2]), "evaluations", "", "", false, []string{"evaluations"}},
		{"success", figures.Success, spec("", configs...), "", "", "", false, []string{"lewis-sa-2007"}},
		{"cd", figures.CD, spec("", configs...), "", "in cpu seconds: ", "", false, []string{"Critical difference diagram", "exact"}},
		{"profile", figures.Profile, spec("", configs[0], configs[2]), "", "", "", false, []string{"lewis-sa-2007"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warn bytes.Buffer
			tt.spec.Warn = &warn
			drawn, err := tt.draw(ctx, d, tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if drawn.Axis != tt.axis || !strings.HasPrefix(drawn.AxisNote, tt.note) || (tt.note == "") != (drawn.AxisNote == "") {
				t.Errorf("axis %q, note %q; want %q, a note starting %q", drawn.Axis, drawn.AxisNote, tt.axis, tt.note)
			}
			if !strings.Contains(warn.String(), tt.warn) || (tt.warn == "") != (warn.Len() == 0) {
				t.Errorf("warned %q, want %q", warn.String(), tt.warn)
			}
			if (len(drawn.Budgets) > 0) != tt.budgets {
				t.Errorf("budgets %v, want some: %v", drawn.Budgets, tt.budgets)
			}
			var buf bytes.Buffer
			if err := drawn.Figure.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.contains {
				if !strings.Contains(buf.String(), s) {
					t.Errorf("the SVG does not say %q", s)
				}
			}
			path := filepath.Join("testdata", tt.name+".golden.svg")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./figures/ -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				got := filepath.Join(t.TempDir(), tt.name+".svg")
				os.WriteFile(got, buf.Bytes(), 0o644)
				t.Errorf("%s differs from %s (wrote %s; go test ./figures/ -update if the change is meant)", tt.name, path, got)
			}
		})
	}
}

// TestErrors checks the refusals: an axis asked on which the efforts do
// not compare, a selection without runs, a column a view lacks.
func TestErrors(t *testing.T) {
	d := exampleDB(t)
	ctx := context.Background()
	asked := spec("evaluations", configs...)
	asked.AxisAsked = true
	none := spec("evaluations")
	none.Selection.Experiment = "no-such-experiment"
	tests := []struct {
		name string
		draw func(context.Context, *db.DB, figures.Spec) (figures.Drawn, error)
		spec figures.Spec
		code string
		want string
	}{
		{"axis asked", figures.ECDF, asked, sudokulab.EINVALID, "plot --x evaluations: "},
		{"axis asked on trajectories", figures.Convergence, asked, sudokulab.EINVALID, "use --x seconds"},
		{"no runs", figures.Success, none, sudokulab.ENOTFOUND, `plot: no runs for --experiment "no-such-experiment"`},
		{"no trajectories", figures.ERT, none, sudokulab.ENOTFOUND, "plot: no runs with trajectory points for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.Warn = io.Discard
			_, err := tt.draw(ctx, d, tt.spec)
			if err == nil || sudokulab.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v (code %q), want %s saying %q", err, sudokulab.ErrorCode(err), tt.code, tt.want)
			}
		})
	}
	err := figures.Check(ctx, d, db.RunSelection{Where: "no_such_column = 1"})
	if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.HasPrefix(err.Error(), "plot --where: ") || !strings.Contains(err.Error(), "puzzle_catalog") {
		t.Errorf("Check of a missing column: %v", err)
	}
	if err := figures.Check(ctx, d, db.RunSelection{Where: "givens > 20", RunsWhere: "solved"}); err != nil {
		t.Errorf("Check of good predicates: %v", err)
	}
}

// TestSuccessGroups checks the order of the success groups: by level, then
// by mean rating weighted by runs, else by name, the "(...)" groups last.
func TestSuccessGroups(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		counts []db.SuccessCount
		want   []string
	}{
		{"levels", []db.SuccessCount{
			{Group: "hard", Level: 3, Value: nan, Runs: 1}, {Group: "(no label)", Level: nan, Value: nan, Runs: 1},
			{Group: "easy", Level: 1, Value: nan, Runs: 1}, {Group: "medium", Level: 2, Value: nan, Runs: 1},
		}, []string{"easy", "medium", "hard", "(no label)"}},
		{"values weighted by runs", []db.SuccessCount{
			{Group: "a", Level: nan, Value: 9, Runs: 1}, {Group: "a", Level: nan, Value: 1, Runs: 9},
			{Group: "b", Level: nan, Value: 5, Runs: 1},
		}, []string{"a", "b"}},
		{"levels before names", []db.SuccessCount{
			{Group: "z", Level: nan, Value: nan}, {Group: "y", Level: nan, Value: nan},
			{Group: "x", Level: 7, Value: nan}, {Group: "(none)", Level: nan, Value: nan}, {Group: "w", Level: nan, Value: nan},
		}, []string{"x", "w", "y", "z", "(none)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := figures.SuccessGroups(tt.counts); !slices.Equal(got, tt.want) {
				t.Errorf("groups %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAxisLabel(t *testing.T) {
	tests := []struct{ x, unit, want string }{
		{"seconds", "", "wall-clock seconds"},
		{"cpu", "nodes", "CPU seconds"},
		{"effort", "nodes", "effort (search nodes)"},
		{"effort", "", "effort (evaluations)"},
		{"effort", "evaluations", "effort (evaluations)"},
		{"generations", "", "generations"},
	}
	for _, tt := range tests {
		if got := figures.AxisLabel(tt.x, tt.unit); got != tt.want {
			t.Errorf("AxisLabel(%q, %q) = %q, want %q", tt.x, tt.unit, got, tt.want)
		}
	}
}

// TestScoreboard checks that the scoreboard binds its query, with and
// without the optional values: lab.db.example has no runs at the papers'
// budgets, which is said.
func TestScoreboard(t *testing.T) {
	d := exampleDB(t)
	ctx := context.Background()
	opts := plots.Options{Top: plots.MaxSeries}
	tests := []struct {
		spec figures.ScoreboardSpec
		code string
		want string
	}{
		{figures.ScoreboardSpec{Readings: "readings"}, sudokulab.ENOTFOUND, "none of the 87 scoreboard cells has runs"},
		{figures.ScoreboardSpec{Readings: "all", Paper: "nb-coin", Experiment: "example-samples"}, sudokulab.ENOTFOUND, "scoreboard cells has runs"},
	}
	for _, tt := range tests {
		_, err := figures.Scoreboard(ctx, d, tt.spec, opts)
		if err == nil || sudokulab.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v (code %q), want %s saying %q", tt.spec, err, sudokulab.ErrorCode(err), tt.code, tt.want)
		}
	}
}
