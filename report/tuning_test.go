package report_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/report"
	"sudokulab/runner"
	"sudokulab/solvers"
	"sudokulab/stats"
	"sudokulab/tuning"
)

// tuned makes a lab of the 9x9 puzzles of the papers and tunes lewis-sa
// on it as sudokulab tune does: alpha and propagate, on the first eight
// puzzles, 90 runs of at most 20,000 evaluations, the effort objective
// (so that the race is the same every time), the best elite and the
// first candidate then run twice on the other puzzles.
func tuned(t *testing.T) (*db.DB, tuning.Report) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for _, pp := range paperdata.All() {
		if pp.Puzzle.Geometry().N != 9 {
			continue
		}
		p := sudokulab.Puzzle{Givens: pp.Puzzle, Solution: pp.Solution}
		if _, _, err := db.AddPuzzle(ctx, d, &p); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := tuning.Run(ctx, d, solvers.Default(), tuning.Spec{
		Name: "tr", Solver: "lewis-sa", Train: "id <= 8", Test: "id > 8", Budget: 90, Seed: 2,
		Ranges:    map[string]string{"alpha": "0.9..0.9999", "propagate": "none|singles|hidden"},
		Objective: tuning.Effort, RunBudget: sudokulab.Budget{MaxEvaluations: 20_000}, TestSeeds: 2,
	}, tuning.Options{Runner: runner.Options{Jobs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return d, rep
}

// TestTuningSection reports on the experiment of a real small tuning:
// the page opens with the tuning, its race, its elites' values beside
// the first candidate's and the test-set comparison, each as the tuning
// recorded it.
func TestTuningSection(t *testing.T) {
	d, tr := tuned(t)
	r := build(t, d, report.Options{Experiment: "tr", Resamples: 50})
	if len(r.Tunings) != 1 {
		t.Fatalf("%d tunings, want 1", len(r.Tunings))
	}
	tu := r.Tunings[0]
	if tu.Name != "tr" || tu.Solver != "lewis-sa" || tu.State != "done" || tu.Budget != 90 || tu.RunBudget != "at most "+report.Num(20_000)+" evaluations" {
		t.Errorf("tuning %+v", tu)
	}
	if tu.Runs != tr.Result.Runs || tu.Candidates != len(tr.Result.Candidates) {
		t.Errorf("%d runs and %d candidates, the tuning did %d and raced %d", tu.Runs, tu.Candidates, tr.Result.Runs, len(tr.Result.Candidates))
	}
	if len(tu.Iterations) != tr.Result.Iterations {
		t.Errorf("%d iterations, the tuning ran %d", len(tu.Iterations), tr.Result.Iterations)
	}
	runs, eliminated := 0, 0
	for _, it := range tu.Iterations {
		runs += it.Runs
		eliminated += it.Eliminated
		if it.Survivors+it.Eliminated != it.Candidates {
			t.Errorf("iteration %+v: survivors and eliminated are not its candidates", it)
		}
	}
	entries := 0
	for _, e := range tu.Race.Entries {
		if !e.Alive {
			entries++
		}
	}
	if runs != tu.Runs || eliminated != tu.Eliminated || entries != eliminated {
		t.Errorf("iterations sum to %d runs and %d eliminated, the race has %d crosses; want %d and %d", runs, eliminated, entries, tu.Runs, tu.Eliminated)
	}
	if want := []report.TunedParam{{Name: "alpha", Range: "0.9..0.9999"}, {Name: "propagate", Range: "none|singles|hidden"}}; len(tu.Params) != 2 || tu.Params[0] != want[0] || tu.Params[1] != want[1] {
		t.Errorf("tuned parameters %+v, want %+v", tu.Params, want)
	}
	if len(tu.Elites) != len(tr.Elites) || tu.First.Config != tr.Default {
		t.Fatalf("elites %+v, first %+v; the tuning has %v and %s", tu.Elites, tu.First, tr.Elites, tr.Default)
	}
	for k, e := range tu.Elites {
		if e.Config != tr.Elites[k] || e.Rank != k+1 || e.Values[0] != tr.Settings[k]["alpha"] || e.Values[1] != tr.Settings[k]["propagate"] {
			t.Errorf("elite %d: %+v, the tuning has %s with %v", k+1, e, tr.Elites[k], tr.Settings[k])
		}
		for i, v := range e.Values {
			if e.Changed[i] != (v != tu.First.Values[i]) {
				t.Errorf("elite %d: %s = %s marked changed %v against the first candidate's %s", k+1, tu.Params[i].Name, v, e.Changed[i], tu.First.Values[i])
			}
		}
	}
	if tr.Test == nil || tu.Test == nil {
		t.Fatalf("test comparison %+v (note %q), the tuning's %+v", tu.Test, tu.TestNote, tr.Test)
	}
	if got, want := tu.Test.Overall, tr.Test.Overall; got.A.Solved != want.A.Solved || got.B.Solved != want.B.Solved || got.A.Runs != want.A.Runs ||
		got.B.Runs != want.B.Runs || got.Fisher.TwoSided != want.Fisher.TwoSided || tu.TestExperiment != "tr-test" {
		t.Errorf("test set: %+v in %s, the tuning compared %+v", got, tu.TestExperiment, want)
	}

	figs := report.DrawFigures(context.Background(), d, r, "tr", 0.95)
	r.Figures = figs
	if tu := r.Tunings[0]; tu.Figure == nil || tu.Figure.Err != "" || !strings.Contains(string(tu.Figure.SVG), "<svg") {
		t.Errorf("race picture %+v", tu.Figure)
	}
	var b bytes.Buffer
	if err := report.Render(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<li><a href="#tuning-tr">Tuning tr</a></li>`, `<section id="tuning-tr" class="tuning">`, `<figure id="figure-race-tr">`,
		`<table class="data tuning-elites">`, `<table class="data tuning-test">`, `<a href="#config-tr-elite-1">tr-elite-1</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(section(t, page), "<tr><td class=\"n\">"); n != len(tu.Elites) {
		t.Errorf("%d elite rows, want %d", n, len(tu.Elites))
	}
}

// section cuts the tuning's section out of a page.
func section(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `<section id="tuning-`)
	j := strings.Index(page[max(i, 0):], "</section>")
	if i < 0 || j < 0 {
		t.Fatalf("no tuning section in the page")
	}
	return page[i : i+j+len("</section>")]
}

// TestTuningSectionGolden renders the tuning section of a real small
// tuning against testdata/tuning.golden.html (go test -update rewrites
// it). What changes from one tuning to the next is fixed first: the
// dates, and the test runs' CPU times; the race, the elites, their
// values and the success counts on the test set are the tuning's own.
func TestTuningSectionGolden(t *testing.T) {
	d, _ := tuned(t)
	r := build(t, d, report.Options{Experiment: "tr", Resamples: 50})
	tu := &r.Tunings[0]
	tu.Started, tu.Finished = "2025-01-01T00:00:00.000Z", "2025-01-01T00:01:00.000Z"
	o := &tu.Test.Overall
	o.A.MedianSolved, o.B.MedianSolved = 0.0125, 0.0025
	o.A.ERT, o.B.ERT = stats.Interval{Estimate: 0.5, Low: 0.25, High: 1}, stats.Interval{Estimate: 0.05, Low: 0.025, High: 0.1}
	o.LogRank.P, o.MannWhitney.P = 0.001, 0.25
	var b bytes.Buffer
	if err := report.Render(&b, r); err != nil {
		t.Fatal(err)
	}
	got := section(t, b.String())
	path := filepath.Join("testdata", "tuning.golden.html")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the tuning section differs from %s (go test -update rewrites it): got\n%s", path, got)
	}
}

// TestNoTuningSection: the report of an experiment no tuning raced in
// has no tuning section, and no entry for one in its contents.
func TestNoTuningSection(t *testing.T) {
	r := build(t, fixture(t), report.Options{Experiment: "e1"})
	var b bytes.Buffer
	if err := report.Render(&b, r); err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(b.String(), "tuning-"); len(r.Tunings) != 0 || i >= 0 {
		t.Errorf("%d tunings; the page links or holds a tuning's section at byte %d", len(r.Tunings), i)
	}
}

// TestTuningSectionRacing reports on a tuning that has recorded nothing
// of its race yet (killed at its start): the section says it is still
// racing, draws no race and shows no elites.
func TestTuningSectionRacing(t *testing.T) {
	d := fixture(t)
	tu := db.Tuning{Name: "early", ExperimentID: 1, Solver: "franco-tabu", TrainWhere: "id = 1", TestWhere: "id = 2",
		Space: `{"param":{"tabu-tenure":"1..50"},"preset":"","set":null}`, Objective: "effort", BudgetRuns: 50, Seed: 1,
		Budget: db.Budget{MaxEvaluations: 100}}
	if _, err := db.EnsureTuning(context.Background(), d, &tu); err != nil {
		t.Fatal(err)
	}
	r := build(t, d, report.Options{Experiment: "e1"})
	if len(r.Tunings) != 1 || r.Tunings[0].State != "racing" || len(r.Tunings[0].Elites) != 0 || r.Tunings[0].Test != nil {
		t.Fatalf("tunings %+v, want one still racing, without elites or test", r.Tunings)
	}
	report.DrawFigures(context.Background(), d, r, "e1", 0.95)
	var b bytes.Buffer
	if err := report.Render(&b, r); err != nil {
		t.Fatal(err)
	}
	s := section(t, b.String())
	for _, want := range []string{"The tuning is still racing", "not drawn: plots: race: no race step", "No elites yet"} {
		if !strings.Contains(s, want) {
			t.Errorf("the section lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "tuning-elites") {
		t.Errorf("the section shows elites of a tuning that has none:\n%s", s)
	}
}
