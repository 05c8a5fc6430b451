package compare_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/stats"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// A run to store: its configuration, puzzle, whether it solved and its
// evaluations, wall and CPU seconds.
type storedRun struct {
	config  string
	puzzle  int64
	solved  bool
	evals   int64
	wall    float64
	cpu     any // float64 or nil
	status  string
	inExp   bool
	comment string
}

// fixture is a lab whose runs reproduce published examples, so that the
// whole pipeline (SQL, censoring, tests) can be checked against their
// numbers:
//
//   - puzzle 1: config a's runs are the "Maintained" group of the aml
//     data (Miller 1981; R's survival::aml), config b's the
//     "Nonmaintained" group, time = evaluations, censored = unsolved.
//     survdiff gives p = 0.0653.
//   - puzzle 2: every run solves, with the times of Hollander & Wolfe's
//     permeability example (times x 100 as evaluations): wilcox.test(x, y)
//     two-sided exact p = 0.2544122544123, W = 35.
//   - puzzle 3: only config a ran on it.
//
// A canceled run and an error are stored too and must be left out.
func fixture() []storedRun {
	var runs []storedRun
	add := func(config string, puzzle int64, times []string) {
		for _, s := range times {
			solved := !strings.HasSuffix(s, "+")
			var n int64
			fmt.Sscan(strings.TrimSuffix(s, "+"), &n)
			status := "solved"
			if !solved {
				status = "unsolved"
			}
			runs = append(runs, storedRun{config: config, puzzle: puzzle, solved: solved, evals: n,
				wall: float64(n) / 1000, cpu: float64(n) / 2000, status: status, inExp: true})
		}
	}
	add("a", 1, strings.Fields("9 13 13+ 18 23 28+ 31 34 45+ 48 161+"))
	add("b", 1, strings.Fields("5 5 8 8 12 16+ 23 27 30 33 43 45"))
	add("a", 2, strings.Fields("80 83 189 104 145 138 191 164 73 146"))
	add("b", 2, strings.Fields("115 88 90 74 121"))
	add("a", 3, strings.Fields("7 9+"))
	runs = append(runs,
		storedRun{config: "a", puzzle: 1, evals: 3, status: "canceled", inExp: true},
		storedRun{config: "b", puzzle: 2, evals: 3, status: "error", inExp: true},
		// Outside the experiment, with no CPU time.
		storedRun{config: "b", puzzle: 3, solved: true, evals: 4, wall: 0.004, status: "solved"},
	)
	return runs
}

// openFixture stores the fixture in a new database at target.
func openFixture(t *testing.T, target string) *db.DB {
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
	grids := []string{"1...4.....1.....", "12..34..........", "..1..2..3..4...."}
	for i, g := range grids {
		exec(`INSERT INTO puzzles (id, grid, size, box_rows, box_cols, givens) VALUES (?, ?, 4, 2, 2, ?)`,
			i+1, g, 16-strings.Count(g, "."))
	}
	exec(`INSERT INTO collections (id, name) VALUES (1, 'two')`)
	exec(`INSERT INTO collection_puzzles (collection_id, puzzle_id, position) VALUES (1, 2, 1)`)
	for id, c := range []struct{ name, solver string }{{"a", "tabu"}, {"b", "cuckoo"}, {"x", "exact"}} {
		exec(`INSERT INTO configs (id, name, solver, params, params_hash) VALUES (?, ?, ?, '{}', ?)`, id+1, c.name, c.solver, c.name)
	}
	exec(`INSERT INTO experiments (id, name) VALUES (1, 'e1')`)
	configID := map[string]int{"a": 1, "b": 2, "x": 3}
	for i, r := range fixture() {
		exec(`INSERT INTO runs (id, puzzle_id, config_id, seed, status, evaluations, wall_seconds, cpu_seconds,
			started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z')`,
			i+1, r.puzzle, configID[r.config], i, r.status, r.evals, r.wall, r.cpu)
		if r.inExp {
			exec(`INSERT INTO experiment_runs (experiment_id, run_id) VALUES (1, ?)`, i+1)
		}
	}
	// One run of the exact solver, whose effort is in nodes.
	exec(`INSERT INTO runs (id, puzzle_id, config_id, seed, status, evaluations, nodes, wall_seconds,
		started_at, finished_at) VALUES (999, 1, 3, 1, 'solved', 0, 12, 0.01, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z')`)
	return d
}

func TestComputeBackends(t *testing.T) {
	backends := []struct {
		name   string
		target func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "lab.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			d := openFixture(t, b.target(t))
			checkCompute(t, d)
		})
	}
}

func checkCompute(t *testing.T, d *db.DB) {
	ctx := context.Background()
	res, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b", Experiment: "e1", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unit != "evaluations" || len(res.Puzzles) != 3 || res.SharedPuzzles != 2 {
		t.Fatalf("unit %q, %d puzzles (%d shared); want evaluations, 3 (2)", res.Unit, len(res.Puzzles), res.SharedPuzzles)
	}
	p1, p2, p3 := res.Puzzles[0], res.Puzzles[1], res.Puzzles[2]
	// aml: survdiff "Chisq= 3.4 on 1 degrees of freedom, p= 0.0653",
	// Observed 7 and 11, Expected 10.69 and 7.31.
	if p1.Puzzle != 1 || p1.A.Runs != 11 || p1.A.Solved != 7 || p1.B.Runs != 12 || p1.B.Solved != 11 {
		t.Errorf("puzzle 1 counts: %+v %+v", p1.A, p1.B)
	}
	if math.Abs(p1.LogRank.P-0.0653) > 0.00005 || math.Abs(p1.LogRank.Expected[0]-10.69) > 0.005 {
		t.Errorf("puzzle 1 log-rank %+v, want p = 0.0653, E_a = 10.69", p1.LogRank)
	}
	if want := stats.FisherExact(7, 4, 11, 1).TwoSided; p1.Fisher.TwoSided != want {
		t.Errorf("puzzle 1 Fisher p %v, want %v", p1.Fisher.TwoSided, want)
	}
	// Permeability: W = 35, exact two-sided p = 0.2544122544123.
	if p2.MannWhitney.U != 35 || !p2.MannWhitney.Exact || math.Abs(p2.MannWhitney.P-0.2544122544123) > 1e-12 {
		t.Errorf("puzzle 2 Mann-Whitney %+v, want U = 35, p = 0.2544122544123", p2.MannWhitney)
	}
	if p2.A.Solved != 10 || p2.B.Runs != 5 || p2.Fisher.TwoSided != 1 || p2.A.MedianSolved != 141.5 {
		t.Errorf("puzzle 2: %+v", p2)
	}
	// ERT of b on puzzle 1: all its effort over its 11 successes.
	if want := (5 + 5 + 8 + 8 + 12 + 16 + 23 + 27 + 30 + 33 + 43 + 45) / 11.0; math.Abs(p1.B.ERT.Estimate-want) > 1e-9 {
		t.Errorf("puzzle 1 ERT b %v, want %v", p1.B.ERT.Estimate, want)
	}
	if !(p1.B.ERT.Low <= p1.B.ERT.Estimate && p1.B.ERT.Estimate <= p1.B.ERT.High) {
		t.Errorf("puzzle 1 ERT b interval %+v", p1.B.ERT)
	}
	// Puzzle 3: b's only run is outside e1, so no test, and no Holm.
	if p3.B.Runs != 0 || !math.IsNaN(p3.Fisher.TwoSided) || !math.IsNaN(p3.FisherHolm) || !math.IsNaN(p3.LogRank.P) {
		t.Errorf("puzzle 3: %+v", p3)
	}
	// Holm over the two puzzles with a p-value.
	for _, c := range []struct {
		name      string
		raw, holm [2]float64
	}{
		{"fisher", [2]float64{p1.Fisher.TwoSided, p2.Fisher.TwoSided}, [2]float64{p1.FisherHolm, p2.FisherHolm}},
		{"logrank", [2]float64{p1.LogRank.P, p2.LogRank.P}, [2]float64{p1.LogRankHolm, p2.LogRankHolm}},
		{"mw", [2]float64{p1.MannWhitney.P, p2.MannWhitney.P}, [2]float64{p1.MannWhitneyHolm, p2.MannWhitneyHolm}},
	} {
		want := stats.Holm(c.raw[:])
		if c.holm[0] != want[0] || c.holm[1] != want[1] {
			t.Errorf("%s Holm %v, want %v", c.name, c.holm, want)
		}
	}
	// Overall: puzzles 1 and 2, the log-rank test stratified by puzzle.
	o := res.Overall
	if o.A.Runs != 21 || o.B.Runs != 17 || o.A.Solved != 17 || o.B.Solved != 16 {
		t.Errorf("overall counts %+v %+v", o.A, o.B)
	}
	if want := stats.FisherExact(17, 4, 16, 1).TwoSided; o.Fisher.TwoSided != want {
		t.Errorf("overall Fisher %v, want %v", o.Fisher.TwoSided, want)
	}
	if !math.IsNaN(o.FisherHolm) {
		t.Errorf("overall row has a Holm p-value %v", o.FisherHolm)
	}
	if want := p1.LogRank.Variance + p2.LogRank.Variance; math.Abs(o.LogRank.Variance-want) > 1e-9 {
		t.Errorf("overall log-rank variance %v, want the strata's sum %v", o.LogRank.Variance, want)
	}

	// The same comparison again gives the same numbers: the bootstrap is
	// seeded.
	again, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b", Experiment: "e1", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again.Table()) != fmt.Sprint(res.Table()) {
		t.Error("the same seed gave another table")
	}

	// --where over puzzle_catalog: only puzzle 2 is in collection two.
	w, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b", Where: "collection = 'two'"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Puzzles) != 1 || w.Puzzles[0].Puzzle != 2 {
		t.Errorf("--where collection = 'two': %d puzzles", len(w.Puzzles))
	}
	// Without --experiment, b's run on puzzle 3 counts.
	all, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if all.SharedPuzzles != 3 || all.Puzzles[2].B.Runs != 1 {
		t.Errorf("all runs: %d shared, puzzle 3 b %+v", all.SharedPuzzles, all.Puzzles[2].B)
	}
	// CPU time: b's run on puzzle 3 has none, so it counts but has no time.
	cpu, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b", Time: compare.CPU})
	if err != nil {
		t.Fatal(err)
	}
	if cpu.Unit != "cpu seconds" || cpu.Puzzles[2].B.Runs != 1 || !math.IsNaN(cpu.Puzzles[2].B.ERT.Estimate) {
		t.Errorf("cpu: unit %q, puzzle 3 b %+v", cpu.Unit, cpu.Puzzles[2].B)
	}
	if math.Abs(cpu.Puzzles[0].LogRank.P-0.0653) > 0.00005 {
		t.Errorf("cpu seconds (evaluations / 2000) changed the log-rank p: %v", cpu.Puzzles[0].LogRank.P)
	}
	sec, err := compare.Compute(ctx, d, compare.Options{A: "a", B: "b", Time: compare.Seconds})
	if err != nil {
		t.Fatal(err)
	}
	if sec.Unit != "seconds" || math.Abs(sec.Puzzles[1].A.MedianSolved-0.1415) > 1e-12 {
		t.Errorf("seconds: unit %q, median %v", sec.Unit, sec.Puzzles[1].A.MedianSolved)
	}

	errs := []struct {
		name string
		o    compare.Options
		code string
		want string
	}{
		{"unknown config", compare.Options{A: "a", B: "nope"}, sudokulab.ENOTFOUND, `no configuration called "nope"`},
		{"unknown experiment", compare.Options{A: "a", B: "b", Experiment: "nope"}, sudokulab.ENOTFOUND, `no experiment called "nope"`},
		{"same config", compare.Options{A: "a", B: "a"}, sudokulab.EINVALID, "twice"},
		{"units", compare.Options{A: "a", B: "x"}, sudokulab.EINVALID, "a counts its effort in evaluations and x in nodes"},
		{"bad where", compare.Options{A: "a", B: "b", Where: "givens <"}, sudokulab.EINVALID, "sql:"},
		{"two statements", compare.Options{A: "a", B: "b", Where: "1 = 1; DELETE FROM runs"}, sudokulab.EINVALID, ";"},
		{"writing where", compare.Options{A: "a", B: "b", Where: "id IN (SELECT 1 FROM (DELETE FROM runs RETURNING 1))"}, sudokulab.EINVALID, ""},
	}
	for _, e := range errs {
		_, err := compare.Compute(ctx, d, e.o)
		if sudokulab.ErrorCode(err) != e.code || !strings.Contains(fmt.Sprint(err), e.want) {
			t.Errorf("%s: error %v (%s), want %s containing %q", e.name, err, sudokulab.ErrorCode(err), e.code, e.want)
		}
	}
	var n int
	if err := d.GetContext(ctx, &n, "SELECT count(*) FROM runs"); err != nil || n != len(fixture())+1 {
		t.Errorf("runs after the comparisons: %d (%v), want %d", n, err, len(fixture())+1)
	}
}

func TestAnalyzeTable(t *testing.T) {
	runs := []compare.Run{
		{Puzzle: 5, Solved: false, Time: 100},
		{Puzzle: 5, Solved: false, Time: 100},
		{B: true, Puzzle: 5, Solved: true, Time: 10},
		{B: true, Puzzle: 5, Solved: true, Time: 20},
	}
	res := compare.Analyze(runs, "evaluations", compare.Options{A: "p", B: "q", Resamples: 50})
	tab := res.Table()
	if strings.Join(tab.Columns, ",") != strings.Join(compare.Columns, ",") || len(tab.Rows) != 2 {
		t.Fatalf("table %v", tab)
	}
	row := map[string]any{}
	for i, c := range tab.Columns {
		row[c] = tab.Rows[0][i]
	}
	// a never solved: infinite ERT and interval; b's ERT is 15.
	// Fisher: 0/2 against 2/2, two-sided p = 1/3 (R: fisher.test(matrix(c(0,
	// 2, 2, 0), 2)) gives 0.3333).
	want := map[string]any{
		"puzzle": int64(5), "runs_a": int64(2), "solved_a": int64(0), "solved_b": int64(2),
		"ert_a": "inf", "ert_a_low": "inf", "ert_a_high": "inf", "ert_b": 15.0,
		"median_a": nil, "median_b": 15.0, "fisher_p": 0.3333, "mw_u": nil, "mw_p": nil,
	}
	for c, w := range want {
		if row[c] != w {
			t.Errorf("%s = %#v, want %#v", c, row[c], w)
		}
	}
	if tab.Rows[1][0] != "all" {
		t.Errorf("last row %v, want the overall row", tab.Rows[1])
	}
}

// TestEffortUnit is the decision every command that puts efforts side by
// side makes: one unit, or the first two configurations that differ.
func TestEffortUnit(t *testing.T) {
	tests := []struct {
		name  string
		units []compare.ConfigUnit
		unit  string
		mixed string
	}{
		{"none", nil, "evaluations", ""},
		{"evaluations", []compare.ConfigUnit{{Config: "acs", Unit: "evaluations"}, {Config: "tabu", Unit: "evaluations"}}, "evaluations", ""},
		{"nodes", []compare.ConfigUnit{{Config: "exact", Unit: "nodes"}, {Config: "rs", Unit: ""}}, "nodes", ""},
		{"mixed", []compare.ConfigUnit{{Config: "acs", Unit: "evaluations"}, {Config: "tabu", Unit: "evaluations"}, {Config: "rs", Unit: "nodes"}},
			"", "acs counts evaluations and rs nodes, which do not compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unit, mixed := compare.EffortUnit(tt.units)
			if unit != tt.unit || (mixed == nil) != (tt.mixed == "") || (mixed != nil && mixed.String() != tt.mixed) {
				t.Errorf("EffortUnit = %q, %v; want %q, %q", unit, mixed, tt.unit, tt.mixed)
			}
			if mixed != nil {
				err := mixed.Err("--time cpu", "--time seconds")
				if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.HasSuffix(err.Error(), "which do not compare: use --time cpu or --time seconds") {
					t.Errorf("Err = %v", err)
				}
			}
		})
	}
}
