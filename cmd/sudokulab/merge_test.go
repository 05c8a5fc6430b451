package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestMain stops the PostgreSQL server pgtest starts for the tests that
// ask for one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// mergePlan is the plan the merge tests run: two configurations of fast
// deterministic solvers (the exact solver, tabu search bounded by
// evaluations) on the papers' puzzles with two seeds, 44 runs.
var mergePlan = []string{"run", "--collection", "paper-puzzles", "--config", "exact", "--config", "franco-tabu-table2",
	"--max-evaluations", "20000", "--runs", "2", "--experiment", "merge", "--jobs", "2"}

// copyLab copies the database file from (closed, so checkpointed) to a
// new file named name with init --from, as a job array's task would.
func copyLab(t *testing.T, from, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if _, errOut, code := run(t, "--db", path, "init", "--from", from); code != 0 {
		t.Fatalf("copy %s: exit %d: %s", from, code, errOut)
	}
	return path
}

// labRuns describes every run of the database by its identity in ids-free
// terms, with its outcome and trajectory, leaving out times, hosts, code
// versions and ids; and counts the rows of every table.
func labRuns(t *testing.T, target string) (runs map[string]string, counts string) {
	t.Helper()
	ctx := context.Background()
	d, err := db.OpenOptions(ctx, target, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	runs = map[string]string{}
	keys := map[int64]string{}
	rows, err := d.QueryxContext(ctx, `
		SELECT r.id, p.box_rows, p.box_cols, p.grid, c.name, r.seed, r.max_evaluations, r.max_generations, r.timeout_ms,
			r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.error
		FROM runs r JOIN puzzles p ON p.id = r.puzzle_id JOIN configs c ON c.id = r.config_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		v, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		keys[v[0].(int64)] = fmt.Sprintf("%v", v[1:9])
		runs[keys[v[0].(int64)]] = fmt.Sprintf("%v", v[9:])
	}
	rows.Close()
	rows, err = d.QueryxContext(ctx, `SELECT run_id, seq, generation, evaluations, best_cost, current_cost, restarts, convergence
		FROM trajectory_points ORDER BY run_id, seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		runs[keys[v[0].(int64)]] += fmt.Sprintf(" %v", v[1:])
	}
	var parts []string
	for _, table := range []string{"collections", "imports", "puzzles", "collection_puzzles", "configs", "experiments",
		"ratings", "runs", "trajectory_points", "experiment_runs", "work"} {
		var n int
		if err := d.GetContext(ctx, &n, `SELECT COUNT(*) FROM `+table); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fmt.Sprintf("%s=%d", table, n))
	}
	return runs, strings.Join(parts, " ")
}

// TestMergeShards is the cluster recipe: the plan run once in one file,
// and as three shards (run --shard K/3) in three copies of the same lab,
// merged into a fresh copy, give the same runs and trajectories. Merging
// again changes nothing.
func TestMergeShards(t *testing.T) {
	base := exampleDB(t)
	single := copyLab(t, base, "single.db")
	if _, errOut, code := run(t, append([]string{"--db", single}, mergePlan...)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	var shards []string
	// 44 runs in three slices: 15, 15 and 14, each wholly recorded by its
	// shard's run before it exits 0.
	for k, want := range []int{15, 15, 14} {
		s := copyLab(t, base, fmt.Sprintf("shard-%d.db", k+1))
		args := append([]string{"--db", s}, mergePlan...)
		if _, errOut, code := run(t, append(args, "--shard", fmt.Sprintf("%d/3", k+1))...); code != 0 {
			t.Fatalf("run --shard %d/3: exit %d: %s", k+1, code, errOut)
		}
		if got, _ := labRuns(t, s); len(got) != want {
			t.Errorf("run --shard %d/3 recorded %d runs, want %d", k+1, len(got), want)
		}
		shards = append(shards, s)
	}
	merged := copyLab(t, base, "merged.db")
	out, errOut, code := run(t, append([]string{"--db", merged, "-O", "csv", "merge"}, shards...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	for _, s := range shards {
		if !strings.Contains(out, s+",runs,1") || strings.Contains(errOut, "conflict:") {
			t.Errorf("merge report lacks the runs of %s, or has conflicts:\n%s\n%s", s, out, errOut)
		}
	}
	want, _ := labRuns(t, single)
	got, counts := labRuns(t, merged)
	if len(want) != 44 || len(got) != len(want) {
		t.Fatalf("%d runs merged, %d in the single run, want 44", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("run %s:\n got %s\nwant %s", k, got[k], w)
		}
	}
	out, _, _ = run(t, "--db", merged, "-O", "csv", "sql", "SELECT state, count(*) AS n FROM work GROUP BY state")
	if out != "state,n\ndone,44\n" {
		t.Errorf("merged work queue: %q", out)
	}

	// Merging the shards again adds nothing.
	out, errOut, code = run(t, append([]string{"--db", merged, "-O", "csv", "merge"}, shards...)...)
	if code != 0 {
		t.Fatalf("second merge: exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Split(line, ",")
		if f[2] != "0" || f[4] != "0" || f[5] != "0" {
			t.Errorf("second merge changed something: %s", line)
		}
	}
	if _, again := labRuns(t, merged); again != counts {
		t.Errorf("row counts after merging again %s, before %s", again, counts)
	}
}

// TestMergeConflictsReported records one run and one rating differently in
// a copy: both conflicts are listed on stderr with a count, the
// destination keeps its values, and the exit status is 0 unless
// --fail-on-conflict.
func TestMergeConflictsReported(t *testing.T) {
	base := exampleDB(t)
	if _, errOut, code := run(t, "--db", base, "run", "--puzzle", "1", "--puzzle", "2", "--config", "exact", "--experiment", "e"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	dst := copyLab(t, base, "dst.db")
	src := copyLab(t, base, "src.db")
	for path, value := range map[string]string{dst: "30", src: "31"} {
		if _, errOut, code := run(t, "--db", path, "sql", "--write",
			"INSERT INTO ratings (puzzle_id, rater, rater_version, value) VALUES (2, 'givens', '1', "+value+")"); code != 0 {
			t.Fatalf("rate: exit %d: %s", code, errOut)
		}
	}
	if _, errOut, code := run(t, "--db", src, "sql", "--write", "UPDATE runs SET evaluations = 999 WHERE puzzle_id = 1"); code != 0 {
		t.Fatalf("change run: exit %d: %s", code, errOut)
	}
	tests := []struct {
		name string
		flag []string
		code int
	}{
		{"conflicts are no failure", nil, exitOK},
		{"--fail-on-conflict", []string{"--fail-on-conflict"}, exitConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"--db", dst, "-O", "json", "merge", src}, tt.flag...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			for _, want := range []string{
				"conflict: runs: run ",
				" (configuration exact, puzzle 1, seed 1, no budget): evaluations ",
				" here, 999 in the source",
				"conflict: ratings: rating of puzzle 2 by givens: value 30 here, 31 in the source",
				"2 conflicts: " + dst + " kept its own values",
			} {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if !strings.Contains(out, `"kind": "runs", "added": 0, "already": 1, "updated": 0, "conflicts": 1`) {
				t.Errorf("report: %s", out)
			}
		})
	}
	out, _, _ := run(t, "--db", dst, "-O", "csv", "sql", "SELECT (SELECT evaluations FROM runs WHERE puzzle_id = 1) <> 999 AS kept_run, (SELECT value FROM ratings WHERE puzzle_id = 2) AS rating")
	if out != "kept_run,rating\n1,30\n" {
		t.Errorf("the destination changed: %q", out)
	}
}

// TestMergeOlderSettings merges a lab whose configuration was stored by
// older code, before a parameter with a default was added: the same
// settings, so its runs merge under the destination's configuration, while
// a real difference of settings stays a conflict.
func TestMergeOlderSettings(t *testing.T) {
	base := exampleDB(t)
	src := copyLab(t, base, "src.db")
	if _, errOut, code := run(t, "--db", src, "run", "--puzzle", "1", "--config", "franco-tabu-table2", "--config", "franco-tabu-table2-ac3",
		"--max-evaluations", "2000", "--experiment", "old"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	// As older code stored them, each with the hash of what it stored:
	// without the aspiration parameter (at its default, false) for one;
	// with aspiration for the other.
	for name, with := range map[string]string{"franco-tabu-table2": "", "franco-tabu-table2-ac3": `"aspiration":true,`} {
		out, errOut, code := run(t, "--db", src, "-O", "csv", "sql", "SELECT solver, params FROM configs WHERE name = '"+name+"'")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 2 {
			t.Fatalf("read %s: exit %d: %s%s", name, code, out, errOut)
		}
		solver, params, _ := strings.Cut(lines[1], ",")
		params = strings.ReplaceAll(strings.Trim(params, `"`), `""`, `"`)
		older := strings.Replace(params, `"aspiration":false,`, with, 1)
		if older == params {
			t.Fatalf("%s has no aspiration parameter: %s", name, params)
		}
		q := fmt.Sprintf(`UPDATE configs SET params = '%s', params_hash = '%s' WHERE name = '%s'`,
			older, sudokulab.ConfigParamsHash(solver, older), name)
		if out, errOut, code := run(t, "--db", src, "sql", "--write", q); code != 0 {
			t.Fatalf("%s: exit %d: %s%s", q, code, out, errOut)
		}
	}
	dst := initDB(t, filepath.Join(t.TempDir(), "dst.db"))
	_, errOut, code := run(t, "--db", dst, "merge", src)
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "configuration franco-tabu-table2:") || !strings.Contains(errOut, "configuration franco-tabu-table2-ac3:") {
		t.Errorf("want a conflict for franco-tabu-table2-ac3 only:\n%s", errOut)
	}
	out, _, _ := run(t, "--db", dst, "-O", "csv", "sql", "SELECT config, count(*) AS runs FROM run_results WHERE experiment = 'old' GROUP BY config")
	if out != "config,runs\nfranco-tabu-table2,1\n" {
		t.Errorf("merged runs:\n%s", out)
	}
}

// TestMergeIntoPostgres merges shard files into a PostgreSQL database
// created with init: it holds what a SQLite destination holds.
func TestMergeIntoPostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	base := exampleDB(t)
	var shards []string
	for k := 1; k <= 2; k++ {
		s := copyLab(t, base, fmt.Sprintf("shard-%d.db", k))
		args := append([]string{"--db", s}, mergePlan...)
		if _, errOut, code := run(t, append(args, "--shard", fmt.Sprintf("%d/2", k))...); code != 0 {
			t.Fatalf("run --shard %d/2: exit %d: %s", k, code, errOut)
		}
		shards = append(shards, s)
	}
	ref := copyLab(t, base, "ref.db")
	if _, errOut, code := run(t, append([]string{"--db", ref, "merge"}, shards...)...); code != 0 {
		t.Fatalf("merge into SQLite: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "--db", dsn, "init"); code != 0 {
		t.Fatalf("init PostgreSQL: exit %d: %s", code, errOut)
	}
	sources := append([]string{base}, shards...)
	if _, errOut, code := run(t, append([]string{"--db", dsn, "merge"}, sources...)...); code != 0 || strings.Contains(errOut, "conflict:") {
		t.Fatalf("merge into PostgreSQL: exit %d: %s", code, errOut)
	}
	wantRuns, wantCounts := labRuns(t, ref)
	gotRuns, gotCounts := labRuns(t, dsn)
	if gotCounts != wantCounts {
		t.Errorf("PostgreSQL holds %s\nSQLite holds %s", gotCounts, wantCounts)
	}
	if len(gotRuns) != 44 {
		t.Errorf("%d runs in PostgreSQL, want 44", len(gotRuns))
	}
	for k, w := range wantRuns {
		if gotRuns[k] != w {
			t.Errorf("run %s:\n got %s\nwant %s", k, gotRuns[k], w)
		}
	}
}

// TestMergeErrors checks the command's refusals.
func TestMergeErrors(t *testing.T) {
	base := exampleDB(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"--db", base, "merge"}, exitInvalid, "requires at least 1 arg"},
		{"itself", []string{"--db", base, "merge", base}, exitInvalid, "is the destination (--db " + base + ") itself"},
		{"itself by another name", []string{"--db", base, "merge", filepath.Join(filepath.Dir(base), ".", filepath.Base(base))}, exitInvalid, "itself"},
		{"missing source", []string{"--db", base, "merge", filepath.Join(dir, "none.db")}, exitNotFound, "none.db does not exist"},
		{"missing destination", []string{"--db", filepath.Join(dir, "dst.db"), "merge", base}, exitNotFound, "dst.db does not exist"},
		{"bad batch", []string{"--db", base, "merge", "--batch", "0", base}, exitInvalid, "--batch 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// TestMergeInvalidSource merges a lab holding a puzzle whose stored
// solution is its givens: refused with exit 2, the row and the reason,
// and nothing merged; with --skip-invalid merged without it, the row
// listed and counted.
func TestMergeInvalidSource(t *testing.T) {
	src := copyLab(t, exampleDB(t), "src.db")
	if out, errOut, code := run(t, "--db", src, "sql", "--write", "UPDATE puzzles SET solution = grid WHERE id = 1"); code != 0 {
		t.Fatalf("spoil: exit %d: %s%s", code, out, errOut)
	}
	dst := initDB(t, filepath.Join(t.TempDir(), "dst.db"))
	_, before := labRuns(t, dst)
	_, errOut, code := run(t, "--db", dst, "merge", src)
	if code != exitInvalid {
		t.Fatalf("merge: exit %d, want %d: %s", code, exitInvalid, errOut)
	}
	for _, want := range []string{"1 row of the source fails the checks, so nothing was merged: puzzles 1: wrong solution: ",
		"(--skip-invalid merges the other rows)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if _, after := labRuns(t, dst); after != before {
		t.Errorf("the refused merge wrote: %s, before %s", after, before)
	}
	out, errOut, code := run(t, "--db", dst, "-O", "json", "merge", "--skip-invalid", src)
	if code != exitOK {
		t.Fatalf("merge --skip-invalid: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "invalid, left out: puzzles 1: wrong solution: ") {
		t.Errorf("stderr lacks the invalid row:\n%s", errOut)
	}
	if !strings.Contains(out, `"kind": "puzzles", "added": `) || !strings.Contains(out, `"skipped": 0, "invalid": 1`) {
		t.Errorf("report: %s", out)
	}
	if _, after := labRuns(t, dst); after == before {
		t.Errorf("nothing merged with --skip-invalid: %s", after)
	}
}

// TestMergeStopsAtFailingSource merges three sources of which the second
// is refused by the checks: the first stays merged, nothing of the second
// or third is, and standard error says so; merging the first and third
// then adds the third only.
func TestMergeStopsAtFailingSource(t *testing.T) {
	dir := t.TempDir()
	var srcs []string
	for i, name := range []string{"reseda-easy", "sato-no1", "ai-escargot"} {
		writeFiles(t, dir, map[string]string{name + ".txt": mustPaper(t, name) + "\n"})
		src := initDB(t, filepath.Join(dir, fmt.Sprintf("src-%d.db", i+1)))
		mustRun(t, "--db", src, "import", filepath.Join(dir, name+".txt"))
		srcs = append(srcs, src)
	}
	mustRun(t, "--db", srcs[1], "sql", "--write", "UPDATE puzzles SET solution = grid")
	dst := initDB(t, filepath.Join(dir, "dst.db"))
	collections := func() string {
		return mustRun(t, "--db", dst, "-O", "csv", "sql", "SELECT name FROM collections ORDER BY name")
	}
	_, errOut, code := run(t, append([]string{"--db", dst, "merge"}, srcs...)...)
	want := "merge stopped at source 2 of 3, " + srcs[1] + ": the 1 before it stay merged, the 1 after it were not merged"
	if code != exitInvalid || !strings.Contains(errOut, want) {
		t.Errorf("merge: exit %d, want %d saying %q:\n%s", code, exitInvalid, want, errOut)
	}
	if got := collections(); got != "name\nreseda-easy\n" {
		t.Errorf("collections after the failed merge:\n%s", got)
	}
	out := mustRun(t, "--db", dst, "-O", "csv", "merge", srcs[0], srcs[2])
	if got := collections(); got != "name\nai-escargot\nreseda-easy\n" || !strings.Contains(out, srcs[0]+",puzzles,0,1,") || !strings.Contains(out, srcs[2]+",puzzles,1,0,") {
		t.Errorf("merging the sources left: collections\n%s\nreport:\n%s", got, out)
	}
}
