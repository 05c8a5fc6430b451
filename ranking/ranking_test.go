package ranking_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/ranking"
	"sudokulab/stats"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// ladder builds runs of configurations whose times on each of n puzzles
// are base[j] * (puzzle+1) evaluations, all solved, one run each: the
// order of the configurations is the same on every puzzle.
func ladder(configs []string, base []float64, n int) []ranking.Run {
	var runs []ranking.Run
	for p := range n {
		for j, c := range configs {
			runs = append(runs, ranking.Run{Config: c, Puzzle: int64(p + 1), Solved: true, Time: base[j] * float64(p+1)})
		}
	}
	return runs
}

func TestAnalyzeLadder(t *testing.T) {
	configs := []string{"slow", "fast", "middle"}
	res := ranking.Analyze(ladder(configs, []float64{30, 10, 20}, 12), configs, "evaluations", ranking.Options{})
	if res.Puzzles != 12 || res.Incomplete != 0 {
		t.Fatalf("puzzles %d incomplete %d", res.Puzzles, res.Incomplete)
	}
	want := []struct {
		config   string
		rank     float64
		verdict  string
		ert      float64
		runs     int
		solvedOK bool
	}{
		{"fast", 1, "best", 10 * 78 / 12.0, 12, true},
		{"middle", 2, "worse than fast", 20 * 78 / 12.0, 12, true},
		{"slow", 3, "worse than fast", 30 * 78 / 12.0, 12, true},
	}
	for i, w := range want {
		e := res.Ranking[i]
		if e.Config != w.config || e.MeanRank != w.rank || e.Verdict != w.verdict || math.Abs(e.Score-w.ert) > 1e-9 || e.Runs != 12 || e.Solved != 12 {
			t.Errorf("place %d: %+v, want %+v", i+1, e, w)
		}
	}
	// Against the best, Holm over its 2 comparisons: 2 * 2/4096 each.
	if !math.IsNaN(res.Ranking[0].VersusBest) || math.Abs(res.Ranking[1].VersusBest-4/4096.0) > 1e-15 || res.Ranking[2].VersusBest != res.Ranking[1].VersusBest {
		t.Errorf("p against the best: %v %v %v", res.Ranking[0].VersusBest, res.Ranking[1].VersusBest, res.Ranking[2].VersusBest)
	}
	// Friedman on a perfect ladder of 3 over 12 blocks: chi2 = 12 N / (k (k+1))
	// * sum (R_j - (k+1)/2)^2 = 12*12/12 * 2 = 24.
	if math.Abs(res.Friedman.Statistic-24) > 1e-9 || res.Friedman.P > 1e-5 {
		t.Errorf("Friedman %+v, want chi2 24", res.Friedman)
	}
	if want := stats.NemenyiCD(3, 12, 0.05); res.CD != want {
		t.Errorf("CD %v, want %v", res.CD, want)
	}
	// Pairs: best first, in ranking order; the signed-rank test of 12
	// pairs all one way: V = 0, exact p = 2/2^12.
	if len(res.Pairs) != 3 || res.Pairs[0].A != "fast" || res.Pairs[0].B != "middle" || res.Pairs[2].A != "middle" {
		t.Fatalf("pairs %+v", res.Pairs)
	}
	for _, p := range res.Pairs {
		if p.Wilcoxon.V != 0 || !p.Wilcoxon.Exact || math.Abs(p.Wilcoxon.P-2/4096.0) > 1e-15 {
			t.Errorf("pair %s-%s Wilcoxon %+v, want V 0, p 2/4096", p.A, p.B, p.Wilcoxon)
		}
		if math.Abs(p.WilcoxonHolm-3*2/4096.0) > 1e-15 {
			t.Errorf("pair %s-%s Holm %v, want 3 * 2/4096", p.A, p.B, p.WilcoxonHolm)
		}
		if want := stats.NemenyiP(p.RankDiff, 3, 12); p.NemenyiP != want || p.RankDiff <= 0 {
			t.Errorf("pair %s-%s Nemenyi p %v diff %v", p.A, p.B, p.NemenyiP, p.RankDiff)
		}
	}
}

func TestAnalyzeTiedWhenFriedmanDoesNotReject(t *testing.T) {
	// Two puzzles only: no test can say anything at 0.05.
	configs := []string{"a", "b", "c"}
	res := ranking.Analyze(ladder(configs, []float64{1, 2, 3}, 2), configs, "evaluations", ranking.Options{})
	if res.Friedman.P < 0.05 {
		t.Fatalf("Friedman p %v", res.Friedman.P)
	}
	for _, e := range res.Ranking[1:] {
		if e.Verdict != "tied with best" {
			t.Errorf("%s: %q, want tied with best", e.Config, e.Verdict)
		}
	}
}

func TestAnalyzeSuccessAndERTInfinite(t *testing.T) {
	// Configuration "never" solves nothing, "half" one run in two,
	// "always" every run, on 3 puzzles with 2 runs each; "gap" has no run
	// on puzzle 3, which is left out.
	var runs []ranking.Run
	for p := int64(1); p <= 3; p++ {
		for s := range 2 {
			runs = append(runs,
				ranking.Run{Config: "never", Puzzle: p, Solved: false, Time: 100},
				ranking.Run{Config: "half", Puzzle: p, Solved: s == 0, Time: 50},
				ranking.Run{Config: "always", Puzzle: p, Solved: true, Time: 70})
			if p < 3 {
				runs = append(runs, ranking.Run{Config: "gap", Puzzle: p, Solved: false, Time: 100})
			}
		}
	}
	configs := []string{"never", "half", "always", "gap"}
	res := ranking.Analyze(runs, configs, "", ranking.Options{Measure: ranking.Success})
	if res.Puzzles != 2 || res.Incomplete != 1 {
		t.Fatalf("puzzles %d incomplete %d, want 2 and 1", res.Puzzles, res.Incomplete)
	}
	got := map[string]ranking.Entry{}
	for _, e := range res.Ranking {
		got[e.Config] = e
	}
	// Per puzzle: always 1, half 2, never and gap tied at 3.5.
	for c, w := range map[string]float64{"always": 1, "half": 2, "never": 3.5, "gap": 3.5} {
		if got[c].MeanRank != w {
			t.Errorf("%s mean rank %v, want %v", c, got[c].MeanRank, w)
		}
	}
	if got["half"].Score != 0.5 || got["always"].Score != 1 || got["never"].Score != 0 {
		t.Errorf("success rates %+v", got)
	}
	if res.Label() != "success_rate" {
		t.Errorf("label %q", res.Label())
	}
	// By ERT: never and gap are +Inf on both puzzles, a tie, so their
	// pair has no difference to test.
	res = ranking.Analyze(runs, configs, "evaluations", ranking.Options{})
	for _, p := range res.Pairs {
		if (p.A == "never" || p.A == "gap") && (p.B == "never" || p.B == "gap") {
			if p.Wilcoxon.N != 0 || !math.IsNaN(p.Wilcoxon.P) {
				t.Errorf("never-gap pair %+v, want no pairs with a difference", p.Wilcoxon)
			}
		}
	}
	if e := res.Ranking[0]; e.Config != "always" || e.Score != 70 {
		t.Errorf("ERT best %+v, want always at 70", e)
	}
	if !math.IsInf(res.Ranking[3].Score, 1) {
		t.Errorf("ERT of a configuration that never solves: %v, want +Inf", res.Ranking[3].Score)
	}
	tab := res.Table()
	if tab.Columns[3] != "ert_evaluations" || tab.Rows[3][3] != "inf" {
		t.Errorf("table %v %v", tab.Columns, tab.Rows[3])
	}
}

func TestAnalyzePAR(t *testing.T) {
	// Puzzle 1: a solves in 2 s and fails once with a 5 s budget; b solves
	// in 1 s and fails once with no budget (cutoff: the most CPU seconds
	// spent on the puzzle, a's failed run's 4 s).
	runs := []ranking.Run{
		{Config: "a", Puzzle: 1, Solved: true, Time: 2},
		{Config: "a", Puzzle: 1, Solved: false, Time: 4, Cutoff: 5},
		{Config: "b", Puzzle: 1, Solved: true, Time: 1},
		{Config: "b", Puzzle: 1, Solved: false, Time: 3},
	}
	res := ranking.Analyze(runs, []string{"a", "b"}, "cpu seconds", ranking.Options{Measure: ranking.PAR, ParK: 10})
	byConfig := map[string]float64{}
	for _, e := range res.Ranking {
		byConfig[e.Config] = e.Score
	}
	if byConfig["a"] != (2+50)/2.0 || byConfig["b"] != (1+40)/2.0 {
		t.Errorf("PAR10 %v, want a 26, b 20.5", byConfig)
	}
	if res.Label() != "par10_cpu_seconds" || res.Ranking[0].Config != "b" {
		t.Errorf("label %q, best %s", res.Label(), res.Ranking[0].Config)
	}
}

// openLab stores runs of four configurations on five puzzles: tabu and
// cuckoo count evaluations, exact counts nodes.
func openLab(t *testing.T, target string) *db.DB {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.ExecContext(ctx, d.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= 5; i++ {
		g := strings.Repeat(".", 16)
		g = g[:i] + "1" + g[i+1:]
		exec(`INSERT INTO puzzles (id, grid, size, box_rows, box_cols, givens) VALUES (?, ?, 4, 2, 2, 1)`, i, g)
	}
	configs := []struct{ name, solver string }{{"t1", "tabu"}, {"t2", "tabu"}, {"c", "cuckoo"}, {"x", "exact"}}
	for id, c := range configs {
		exec(`INSERT INTO configs (id, name, solver, params, params_hash) VALUES (?, ?, ?, '{}', ?)`, id+1, c.name, c.solver, c.name)
	}
	exec(`INSERT INTO experiments (id, name) VALUES (1, 'e1')`)
	id := 0
	for p := 1; p <= 5; p++ {
		for j := range configs {
			for seed := 1; seed <= 2; seed++ {
				id++
				evals := (j + 1) * 100 * p
				var nodes any // only the exact solver counts nodes
				if configs[j].solver == "exact" {
					nodes = evals / 10
				}
				exec(`INSERT INTO runs (id, puzzle_id, config_id, seed, status, evaluations, nodes, wall_seconds, cpu_seconds,
					started_at, finished_at) VALUES (?, ?, ?, ?, 'solved', ?, ?, ?, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z')`,
					id, p, j+1, seed, evals, nodes, float64(evals)/1000, float64(evals)/2000)
				exec(`INSERT INTO experiment_runs (experiment_id, run_id) VALUES (1, ?)`, id)
			}
		}
	}
	return d
}

func TestComputeBackends(t *testing.T) {
	for _, b := range []struct {
		name   string
		target func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "lab.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			d := openLab(t, b.target(t))
			// Every configuration of the experiment, by name; the exact
			// solver's nodes do not compare with evaluations.
			_, err := ranking.Compute(ctx, d, db.RunSelection{Experiment: "e1"}, ranking.Options{Time: compare.Evaluations})
			var e *sudokulab.Error
			if !errors.As(err, &e) || e.Code != sudokulab.EINVALID || !strings.Contains(err.Error(), "--time cpu") {
				t.Fatalf("mixed units: %v, want EINVALID naming --time cpu", err)
			}
			// Without a time asked for, the scores go to CPU seconds.
			res, err := ranking.Compute(ctx, d, db.RunSelection{Experiment: "e1"}, ranking.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Note, "in cpu seconds: ") || !strings.Contains(res.Note, "nodes") {
				t.Errorf("note %q", res.Note)
			}
			if res.Unit != "cpu seconds" || res.Puzzles != 5 || strings.Join(res.Configs, ",") != "c,t1,t2,x" {
				t.Fatalf("unit %q puzzles %d configs %v", res.Unit, res.Puzzles, res.Configs)
			}
			if r := res.Ranking; r[0].Config != "t1" || r[0].Score != 0.15 || r[3].Config != "x" {
				t.Errorf("ranking %+v", r)
			}
			// The evaluation counters alone compare in evaluations.
			res, err = ranking.Compute(ctx, d, db.RunSelection{Experiment: "e1", Configs: []string{"t2", "t1", "c"}}, ranking.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Unit != "evaluations" || res.Ranking[0].Config != "t1" || res.Ranking[0].Runs != 10 {
				t.Errorf("evaluations: unit %q ranking %+v", res.Unit, res.Ranking)
			}
			for _, c := range []struct {
				sel  db.RunSelection
				code string
			}{
				{db.RunSelection{Configs: []string{"t1"}}, sudokulab.EINVALID},
				{db.RunSelection{Configs: []string{"t1", "t1"}}, sudokulab.EINVALID},
				{db.RunSelection{Configs: []string{"t1", "nope"}}, sudokulab.ENOTFOUND},
				{db.RunSelection{Experiment: "nope"}, sudokulab.ENOTFOUND},
				{db.RunSelection{Configs: []string{"t1", "t2"}, Where: "id = 99"}, sudokulab.ENOTFOUND},
			} {
				_, err := ranking.Compute(ctx, d, c.sel, ranking.Options{})
				if !errors.As(err, &e) || e.Code != c.code {
					t.Errorf("%+v: %v, want %s", c.sel, err, c.code)
				}
			}
		})
	}
}
