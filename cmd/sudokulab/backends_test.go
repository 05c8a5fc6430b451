package main

// Every command on both backends: the same session of commands, each of
// which must succeed, on a SQLite file and on a PostgreSQL database.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/internal/paperdata"
	"sudokulab/internal/pgtest"
	"sudokulab/queries"
)

// TestEveryCommandOnBothBackends runs a session that uses every command
// (import, puzzles, collections, configs, run, worker, experiments,
// runs, rate, count, dedupe, export, query, plot, sql, merge, migrate) on
// SQLite and on PostgreSQL: each must exit 0, and what it reports must
// agree between the two.
func TestEveryCommandOnBothBackends(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command twice")
	}
	dir := t.TempDir()
	puzzles := filepath.Join(dir, "paper.txt")
	var b strings.Builder
	for _, name := range []string{"reseda-easy", "sato-no1", "ai-escargot"} {
		b.WriteString(mustPaper(t, name) + "\n")
	}
	if err := os.WriteFile(puzzles, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	example := exampleDB(t)
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	session := func(t *testing.T, target string) map[string]string {
		out := map[string]string{}
		step := func(name string, args ...string) {
			t.Helper()
			stdout, errOut, code := run(t, append([]string{"--db", target, "-O", "csv"}, args...)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s %s", name, code, stdout, errOut)
			}
			out[name] = stdout
		}
		step("init", "init")
		step("migrate status", "migrate", "status")
		// An import that reads no puzzle fails and leaves nothing behind.
		if _, errOut, code := run(t, "--db", target, "import", empty); code != exitInvalid || !strings.Contains(errOut, "no puzzle imported: the file is empty") {
			t.Fatalf("import of an empty file: exit %d: %s", code, errOut)
		}
		step("nothing left", "sql", "SELECT (SELECT COUNT(*) FROM imports) + (SELECT COUNT(*) FROM collections) AS n")
		if out["nothing left"] != "n\n0\n" {
			t.Fatalf("the failed import left %q", out["nothing left"])
		}
		step("import", "import", puzzles, "--format", "line", "--collection", "paper")
		step("puzzles list", "puzzles", "list", "--collection", "paper")
		step("puzzles show", "puzzles", "show", "1")
		step("collections add", "collections", "add", "small", "--where", "givens > 20")
		step("collections list", "collections", "list")
		step("collections show", "collections", "show", "paper")
		step("configs add", "configs", "add", "tabu-200", "--solver", "franco-tabu", "--set", "tabu-list-size=10")
		step("configs show", "configs", "show", "tabu-200")
		step("run", "run", "--collection", "paper", "--solver", "exact", "--config", "tabu-200", "--runs", "2",
			"--max-generations", "200", "--experiment", "e1")
		step("run enqueue-only", "run", "--collection", "paper", "--solver", "exact", "--runs", "3", "--experiment", "e2", "--enqueue-only")
		step("worker", "worker", "--experiment", "e2")
		step("experiments list", "experiments", "list")
		step("experiments show", "experiments", "show", "e1")
		step("runs list", "runs", "list", "--experiment", "e1", "--where", "collection = 'paper'")
		step("runs show", "runs", "show", "1")
		step("rate", "rate", "--rater", "all", "--collection", "paper")
		step("count", "count", "--collection", "paper")
		step("dedupe", "dedupe", "--report")
		step("export", "export", "--collection", "paper", "--format", "csv")
		for _, q := range qs {
			step("query "+q.Name, "query", q.Name)
		}
		step("plot convergence", "plot", "convergence", "--config", "tabu-200", "-o", filepath.Join(t.TempDir(), "c.svg"))
		step("plot ecdf", "plot", "ecdf", "-o", filepath.Join(t.TempDir(), "e.svg"))
		step("sql", "sql", "SELECT COUNT(*) AS n FROM run_results")
		step("sql write", "sql", "--write", "UPDATE experiments SET description = 'checked' WHERE name = 'e1'")
		step("merge", "merge", example)
		step("solvers", "solvers")
		return out
	}
	var sqlite, postgres map[string]string
	t.Run("sqlite", func(t *testing.T) { sqlite = session(t, filepath.Join(t.TempDir(), "lab.db")) })
	t.Run("postgres", func(t *testing.T) { postgres = session(t, pgtest.DSN(t)) })
	if sqlite == nil || postgres == nil {
		return
	}
	// Outputs that hold no times, ids of imports or engine-specific
	// number formats must agree.
	for _, name := range []string{"puzzles list", "sql", "export"} {
		if sqlite[name] != postgres[name] {
			t.Errorf("%s differs:\nSQLite:\n%s\nPostgreSQL:\n%s", name, sqlite[name], postgres[name])
		}
	}
}

// mustPaper returns the grid of a paper puzzle in text form.
func mustPaper(t *testing.T, name string) string {
	t.Helper()
	p, ok := paperdata.Get(name)
	if !ok {
		t.Fatalf("no paper puzzle %s", name)
	}
	return p.Puzzle.String()
}
