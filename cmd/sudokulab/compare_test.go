package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokulab/internal/pgtest"
)

// compareFixtureDB returns a new database holding two configurations,
// alpha and beta, whose runs on puzzle 1 are the two groups of the aml
// survival data (Miller 1981; R's survival::aml: survdiff p = 0.0653) and
// on puzzle 2 the permeability data of Hollander & Wolfe (1973), the
// example of R's ?wilcox.test (W = 35, exact two-sided p = 0.2544), times
// as evaluations, "+" marking a run that did not solve.
func compareFixtureDB(t *testing.T) string {
	t.Helper()
	return fillCompareFixture(t, initDB(t, filepath.Join(t.TempDir(), "lab.db")))
}

// fillCompareFixture stores compareFixtureDB's data in the database at
// path and returns path.
func fillCompareFixture(t *testing.T, path string) string {
	t.Helper()
	sql := func(q string) {
		t.Helper()
		if _, errOut, code := run(t, "--db", path, "sql", "--write", q); code != 0 {
			t.Fatalf("%s: exit %d: %s", q, code, errOut)
		}
	}
	sql(`INSERT INTO puzzles (id, grid, size, box_rows, box_cols, givens) VALUES
		(1, '1...4.....1.....', 4, 2, 2, 3), (2, '12..34..........', 4, 2, 2, 4)`)
	sql(`INSERT INTO collections (id, name) VALUES (1, 'second')`)
	sql(`INSERT INTO collection_puzzles (collection_id, puzzle_id, position) VALUES (1, 2, 1)`)
	sql(`INSERT INTO configs (name, solver, params, params_hash) VALUES
		('alpha', 'tabu', '{}', 'alpha'), ('beta', 'cuckoo', '{}', 'beta')`)
	var values []string
	seed := 0
	add := func(config string, puzzle int, times string) {
		for _, f := range strings.Fields(times) {
			status := "solved"
			if strings.HasSuffix(f, "+") {
				status = "unsolved"
			}
			n, _ := strconv.Atoi(strings.TrimSuffix(f, "+"))
			seed++
			values = append(values, fmt.Sprintf("(%d, (SELECT id FROM configs WHERE name = '%s'), %d, '%s', %d, %g, %g, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z')",
				puzzle, config, seed, status, n, float64(n)/1000, float64(n)/2000))
		}
	}
	add("alpha", 1, "9 13 13+ 18 23 28+ 31 34 45+ 48 161+")
	add("beta", 1, "5 5 8 8 12 16+ 23 27 30 33 43 45")
	add("alpha", 2, "80 83 189 104 145 138 191 164 73 146")
	add("beta", 2, "115 88 90 74 121")
	sql(`INSERT INTO runs (puzzle_id, config_id, seed, status, evaluations, wall_seconds, cpu_seconds, started_at, finished_at) VALUES ` +
		strings.Join(values, ",\n"))
	return path
}

func TestCompareGolden(t *testing.T) {
	path := compareFixtureDB(t)
	for _, tt := range []struct{ format, golden string }{
		{"table", "compare-fixture.txt"},
		{"csv", "compare-fixture.csv"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			out, errOut, code := run(t, "--db", path, "-O", tt.format, "compare", "--config", "alpha", "--config", "beta")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.golden, out)
		})
	}
	// The published values, read back from the CSV.
	out, _, _ := run(t, "--db", path, "-O", "csv", "compare", "--config", "alpha", "--config", "beta")
	rows := readCSV(t, out)
	if got := rows[0]["logrank_p"]; got != "0.06534" {
		t.Errorf("puzzle 1 logrank_p = %s, want 0.06534 (survdiff on aml: p= 0.0653)", got)
	}
	if got := rows[1]["mw_p"]; got != "0.2544" || rows[1]["mw_u"] != "35" {
		t.Errorf("puzzle 2 mw_u %s, mw_p %s; want 35 and 0.2544 (wilcox.test)", rows[1]["mw_u"], got)
	}
	// --where chooses puzzles through puzzle_catalog; JSON keeps numbers
	// as numbers.
	out, errOut, code := run(t, "--db", path, "-O", "json", "compare", "--config", "beta", "--config", "alpha",
		"--where", "collection = 'second'", "--time", "cpu")
	if code != 0 {
		t.Fatalf("compare --where: exit %d: %s", code, errOut)
	}
	var js []map[string]any
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(js) != 2 || js[0]["puzzle"] != 2.0 || js[1]["puzzle"] != "all" || js[0]["runs_a"] != 5.0 || js[0]["mw_u"] != 15.0 {
		t.Errorf("--where collection = 'second' (a = beta): %s", out)
	}
}

// TestComparePostgres gives on PostgreSQL the very CSV it gives on SQLite.
func TestComparePostgres(t *testing.T) {
	target := fillCompareFixture(t, initDB(t, pgtest.DSN(t)))
	out, errOut, code := run(t, "--db", target, "-O", "csv", "compare", "--config", "alpha", "--config", "beta")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "compare-fixture.csv", out)
	out, errOut, code = run(t, "--db", target, "-O", "csv", "compare", "--config", "alpha", "--config", "beta",
		"--where", "collection = 'second'", "--time", "seconds")
	if code != 0 || !strings.Contains(out, "\n2,10,10,5,5,1,1,0.1415,0.09,") {
		t.Errorf("--where on PostgreSQL: exit %d: %s%s", code, out, errOut)
	}
}

func readCSV(t *testing.T, out string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("csv %q: %v", out, err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, c := range recs[0] {
			m[c] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

// TestCompareExample compares configurations of lab.db.example: the
// counts must be those the runs table holds, and the file is not changed.
func TestCompareExample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	before := fileHash(t, path)
	for _, pair := range [][2]string{
		{"franco-tabu-table2", "franco-tabu-table2-ac3"},
		{"reseda-table1-perm-a0.7", "reseda-table1-both-a0.7"},
	} {
		for _, tm := range []string{"evaluations", "seconds", "cpu"} {
			out, errOut, code := run(t, "--db", path, "-O", "csv", "compare", "--config", pair[0], "--config", pair[1], "--time", tm)
			if code != 0 {
				t.Fatalf("compare %v --time %s: exit %d: %s", pair, tm, code, errOut)
			}
			rows := readCSV(t, out)
			want, _, _ := run(t, "--db", path, "-O", "csv", "sql", fmt.Sprintf(`
				SELECT puzzle_id,
				       SUM(CASE WHEN config = '%[1]s' THEN 1 ELSE 0 END), SUM(CASE WHEN config = '%[1]s' THEN solved ELSE 0 END),
				       SUM(CASE WHEN config = '%[2]s' THEN 1 ELSE 0 END), SUM(CASE WHEN config = '%[2]s' THEN solved ELSE 0 END)
				FROM run_results WHERE config IN ('%[1]s', '%[2]s') AND status IN ('solved', 'unsolved', 'timeout')
				GROUP BY puzzle_id ORDER BY puzzle_id`, pair[0], pair[1]))
			wantRows := strings.Split(strings.TrimSpace(want), "\n")[1:]
			if len(rows) != len(wantRows)+1 || rows[len(rows)-1]["puzzle"] != "all" {
				t.Fatalf("%v: %d rows, want %d puzzles and all:\n%s", pair, len(rows), len(wantRows), out)
			}
			for i, w := range wantRows {
				r := rows[i]
				if got := strings.Join([]string{r["puzzle"], r["runs_a"], r["solved_a"], r["runs_b"], r["solved_b"]}, ","); got != w {
					t.Errorf("%v row %d: %s, want %s", pair, i, got, w)
				}
				for _, c := range []string{"fisher_p", "fisher_p_holm"} {
					if p, err := strconv.ParseFloat(r[c], 64); err != nil || p < 0 || p > 1 {
						t.Errorf("%v row %d: %s = %q", pair, i, c, r[c])
					}
				}
			}
		}
	}
	if fileHash(t, path) != before {
		t.Error("compare changed the database file")
	}
}

// TestCompareFreshExperiment runs two configurations on the puzzles of
// one collection and compares them.
func TestCompareFreshExperiment(t *testing.T) {
	path := exampleDB(t)
	a, b := "reseda-table1-both-a0.7", "reseda-table1-perm-a0.7"
	if _, errOut, code := run(t, "--db", path, "run", "--collection", "reseda-2012", "--config", a, "--config", b,
		"--runs", "3", "--max-generations", "200", "--experiment", "fresh"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	// The exact solver on the same puzzles, in another experiment.
	if _, errOut, code := run(t, "--db", path, "run", "--collection", "reseda-2012", "--config", "exact",
		"--runs", "2", "--experiment", "other"); code != 0 {
		t.Fatalf("run exact: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, "--db", path, "compare", "--config", a, "--config", b, "--experiment", "fresh", "--seed", "9")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "a = "+a+", b = "+b+"; times in evaluations; 4 puzzles, 4 with runs of both;") ||
		!strings.HasPrefix(lines[1], "puzzle  runs_a  solved_a") || len(lines) != 7 || !strings.HasPrefix(lines[6], "all     12      ") {
		t.Errorf("compare output:\n%s", out)
	}
	again, _, _ := run(t, "--db", path, "compare", "--config", a, "--config", b, "--experiment", "fresh", "--seed", "9")
	if again != out {
		t.Errorf("the same seed gave another output:\n%s\n%s", out, again)
	}
	// exact counts search nodes, the others evaluations: only time
	// compares them.
	_, errOut, code = run(t, "--db", path, "compare", "--config", "exact", "--config", a)
	if code != exitInvalid || !strings.Contains(errOut, "exact counts its effort in nodes and "+a+" in evaluations") {
		t.Errorf("exact vs %s in evaluations: exit %d: %s", a, code, errOut)
	}
	out, errOut, code = run(t, "--db", path, "-O", "csv", "compare", "--config", "exact", "--config", a, "--time", "cpu")
	if code != 0 {
		t.Fatalf("exact vs %s --time cpu: exit %d: %s", a, code, errOut)
	}
	rows := readCSV(t, out)
	all := rows[len(rows)-1]
	if all["puzzle"] != "all" || all["runs_a"] != "8" || all["solved_a"] != "8" || all["runs_b"] != "12" || all["ert_a"] == "" {
		t.Errorf("exact vs %s --time cpu, overall row %v", a, all)
	}
}

func TestCompareErrors(t *testing.T) {
	path := compareFixtureDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"one config", []string{"--config", "alpha"}, exitInvalid, "compare needs --config twice"},
		{"three configs, one without runs", []string{"--config", "alpha", "--config", "beta", "--config", "exact"}, exitNotFound, "no finished runs of exact"},
		{"no config", []string{}, exitInvalid, "compare needs --config twice or more, or an --experiment"},
		{"bad measure", []string{"--config", "alpha", "--config", "beta", "--measure", "speed"}, exitInvalid, `--measure "speed"`},
		{"bad alpha", []string{"--config", "alpha", "--config", "beta", "--alpha", "5"}, exitInvalid, "--alpha 5"},
		{"bad par-k", []string{"--config", "alpha", "--config", "beta", "--measure", "par", "--par-k", "0.5"}, exitInvalid, "--par-k 0.5"},
		{"same config", []string{"--config", "alpha", "--config", "alpha"}, exitInvalid, "--config alpha twice"},
		{"unknown config", []string{"--config", "alpha", "--config", "nope"}, exitNotFound, `no configuration called "nope"`},
		{"unknown experiment", []string{"--config", "alpha", "--config", "beta", "--experiment", "nope"}, exitNotFound, `no experiment called "nope"`},
		{"no runs", []string{"--config", "alpha", "--config", "exact"}, exitNotFound, "no runs of exact on the puzzles chosen"},
		{"no puzzle", []string{"--config", "alpha", "--config", "beta", "--where", "givens > 80"}, exitNotFound, "no runs of alpha"},
		{"bad time", []string{"--config", "alpha", "--config", "beta", "--time", "hours"}, exitInvalid, `--time "hours"`},
		{"bad where", []string{"--config", "alpha", "--config", "beta", "--where", "givens <"}, exitInvalid, "sql:"},
		{"two statements", []string{"--config", "alpha", "--config", "beta", "--where", "1 = 1; DELETE FROM runs"}, exitInvalid, ";"},
		{"bad level", []string{"--config", "alpha", "--config", "beta", "--level", "95"}, exitInvalid, "--level 95"},
		{"bad resamples", []string{"--config", "alpha", "--config", "beta", "--resamples", "0"}, exitInvalid, "--resamples 0"},
		{"no database", []string{"--db", filepath.Join(t.TempDir(), "none.db"), "--config", "alpha", "--config", "beta"}, exitNotFound, "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--db", path, "compare"}, tt.args...)
			if len(tt.args) > 0 && tt.args[0] == "--db" {
				args = append([]string{"compare"}, tt.args...)
			}
			_, errOut, code := run(t, args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

func fileHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// TestCompareRanking ranks the fixture's two configurations, which a
// ranking flag asks for: the summary, the ranking and the pairs.
func TestCompareRanking(t *testing.T) {
	path := compareFixtureDB(t)
	out, errOut, code := run(t, "--db", path, "compare", "--config", "alpha", "--config", "beta", "--measure", "success")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// alpha solves 7 of 11 and 10 of 10, beta 11 of 12 and 5 of 5.
	for _, want := range []string{
		"2 configurations ranked by success rate on 2 puzzles; Friedman chi2 = ",
		"rank  config  mean_rank  success_rate  puzzles  runs  solved  p_vs_best  verdict",
		"1     beta    1.25       0.941176      2        17    16      NULL       best",
		"2     alpha   1.75       0.809524      2        21    17      1          tied with best",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = run(t, "--db", path, "-O", "csv", "compare", "--config", "alpha", "--config", "beta", "--pairs", "--time", "cpu")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || strings.Join(rows[0], ",") != "config_a,config_b,rank_diff,nemenyi_p,wilcoxon_v,wilcoxon_pairs,wilcoxon_p,wilcoxon_p_holm" ||
		rows[1][0] != "beta" || rows[1][1] != "alpha" || rows[1][5] != "2" {
		t.Errorf("pairs csv:\n%s", out)
	}
}
