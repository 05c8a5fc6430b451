package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"sudokulab/db"
	"sudokulab/migrations"
)

// copyExample copies lab.db.example (a rollback-journal file) to dir and
// returns the copy's path.
func copyExample(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("../../lab.db.example")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "lab.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// walExample returns a database in WAL mode holding lab.db.example, made
// by init and closed (no -wal or -shm beside it).
func walExample(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Fatalf("init left %s%s behind", path, suffix)
		}
	}
	return path
}

// readOnlyCommands lists every command that only reads, with arguments
// that make each one do its work on a copy of lab.db.example; out is a
// writable folder for the files plot and export write.
func readOnlyCommands(dbPath, out string) [][]string {
	cmds := [][]string{
		{"sql", "SELECT count(*) FROM puzzles"},
		{"sql", "PRAGMA table_info(puzzles)"},
		{"sql", "PRAGMA journal_mode"},
		{"query", "collection-summary"},
		{"query", "success-by-collection", "--param", "experiment=example-samples"},
		{"plot", "convergence", "-o", filepath.Join(out, "convergence.svg")},
		{"plot", "ecdf", "-o", filepath.Join(out, "ecdf.svg")},
		{"plot", "success", "--runs-where", "experiment = 'example-samples'", "-o", filepath.Join(out, "success.png")},
		{"collections", "list"},
		{"collections", "show", "paper-puzzles"},
		{"puzzles", "list", "--where", "givens < 30"},
		{"puzzles", "show", "1"},
		{"export", "--collection", "paper-puzzles", "--format", "csv", "-o", filepath.Join(out, "paper.csv")},
		{"export", "--where", "givens < 30", "--format", "line", "-o", filepath.Join(out, "few.txt")},
		{"experiments", "list"},
		{"experiments", "show", "example-samples"},
		{"runs", "list", "--runs-where", "solved = 1"},
		{"runs", "show", "1"},
		{"configs", "list"},
		{"configs", "show", "exact"},
		{"migrate", "status"},
		{"solvers"},
		{"formats"},
		{"query", "list"},
		{"compare", "--config", "franco-tabu-table2", "--config", "franco-tabu-table2-ac3"},
		{"export-runs", "--format", "csv", "-o", filepath.Join(out, "runs.csv")},
		{"export-runs", "--format", "iohprofiler", "-o", filepath.Join(out, "ioh")},
		{"report", "--experiment", "example-samples", "--no-plots", "-o", filepath.Join(out, "report.html")},
	}
	for i, c := range cmds {
		cmds[i] = append([]string{"--db", dbPath}, c...)
	}
	return cmds
}

// runReadOnlyCommands runs every read-only command on dbPath and fails
// the test for each that does not exit 0.
func runReadOnlyCommands(t *testing.T, dbPath, out string) {
	t.Helper()
	for _, args := range readOnlyCommands(dbPath, out) {
		if stdout, errOut, code := run(t, args...); code != 0 {
			t.Errorf("sudokulab %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, errOut)
		}
	}
}

func TestMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	out := t.TempDir()
	commands := readOnlyCommands(missing, out)
	for _, c := range [][]string{
		{"sql", "--write", "DELETE FROM puzzles"},
		{"migrate", "up"},
		{"puzzles", "add", "1...4.....1....."},
		{"collections", "add", "x", "--where", "1"},
		{"collections", "rm", "x"},
		{"configs", "add", "x", "--solver", "exact"},
		{"dedupe", "--report"},
	} {
		commands = append(commands, append([]string{"--db", missing}, c...))
	}
	for _, args := range commands {
		t.Run(strings.Join(args[2:min(4, len(args))], " "), func(t *testing.T) {
			_, errOut, code := run(t, args...)
			switch args[2] {
			case "solvers", "formats":
				if code != 0 {
					t.Errorf("exit %d: %s", code, errOut)
				}
				return
			case "query":
				if args[3] == "list" {
					return
				}
			}
			if code != exitNotFound || !strings.Contains(errOut, missing+" does not exist") || !strings.Contains(errOut, "init") {
				t.Errorf("exit %d, stderr %q; want exit %d naming %s and init", code, errOut, exitNotFound, missing)
			}
		})
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("commands on a missing database left %v behind (%v)", entries, err)
	}
}

// olderDatabase returns a new database at path migrated to one version
// below the newest.
func olderDatabase(t *testing.T, path string) (version int64) {
	t.Helper()
	ctx := context.Background()
	sqlDB, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, sqlDB, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	src := p.ListSources()
	if len(src) < 2 {
		t.Skip("only one migration")
	}
	version = src[len(src)-2].Version
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	return version
}

func TestStaleSchema(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.db")
	version := olderDatabase(t, path)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, args := range readOnlyCommands(path, out) {
		switch args[2] {
		case "migrate", "solvers", "formats":
			continue
		case "query":
			if args[3] == "list" {
				continue
			}
		}
		_, errOut, code := run(t, args...)
		if code != exitConflict || !strings.Contains(errOut, "migrate up") {
			t.Errorf("sudokulab %s: exit %d, stderr %q; want exit %d and migrate up", strings.Join(args[2:], " "), code, errOut, exitConflict)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Errorf("read-only commands changed the older database (%v)", err)
	}
	// migrate status reads it, migrate up brings it up to date (and adds
	// the presets), and then the read-only commands work.
	stdout, errOut, code := run(t, "--db", path, "migrate", "status")
	if code != 0 || !strings.Contains(stdout, "is at version ") {
		t.Errorf("migrate status: exit %d %q %q", code, stdout, errOut)
	}
	if stdout, errOut, code := run(t, "--db", path, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up (from %d): exit %d %q %q", version, code, stdout, errOut)
	}
	stdout, errOut, code = run(t, "--db", path, "-O", "csv", "configs", "show", "exact")
	if code != 0 || !strings.Contains(stdout, "parameter,value") {
		t.Errorf("configs show exact after migrate up: exit %d %q %q", code, stdout, errOut)
	}
	if _, errOut, code := run(t, "--db", path, "runs", "list"); code != 0 {
		t.Errorf("runs list after migrate up: exit %d %q", code, errOut)
	}
}

func TestSQLReadOnly(t *testing.T) {
	example := copyExample(t, t.TempDir())
	wal := walExample(t, t.TempDir())
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name, db, sql string
		code          int
		want          []string
	}{
		{"journal mode of a WAL file", wal, "PRAGMA journal_mode=DELETE", exitInvalid,
			[]string{"not authorized", "the pragmas allowed: application_id, ", "table_info", "add --write to allow it"}},
		{"journal mode of a rollback file", example, "PRAGMA journal_mode=WAL", exitInvalid, []string{"add --write to allow it"}},
		{"a setting", example, "PRAGMA user_version = 7", exitInvalid, []string{"not authorized"}},
		{"query_only off", wal, "PRAGMA query_only = 0", exitInvalid, []string{"not authorized"}},
		{"attach", wal, "ATTACH 'other.db' AS o", exitInvalid, []string{"not authorized"}},
		{"vacuum into", example, "VACUUM INTO 'copy.db'", exitInvalid, []string{"add --write to allow it"}},
		{"delete", wal, "DELETE FROM puzzles", exitInvalid,
			[]string{"sql: attempt to write a readonly database: the statement changes the database; add --write to allow it"}},
		{"create", example, "CREATE TABLE t (x)", exitInvalid, []string{"add --write"}},
		{"table_info", wal, "PRAGMA table_info(puzzles)", 0, []string{"grid"}},
		{"journal mode read", wal, "PRAGMA journal_mode", 0, []string{"wal"}},
		{"pragma function", example, "SELECT name FROM pragma_table_info('puzzles') WHERE cid = 1", 0, []string{"grid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := read(tt.db)
			stdout, errOut, code := run(t, "--db", tt.db, "sql", tt.sql)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %q %q", code, tt.code, stdout, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout+errOut, w) {
					t.Errorf("output lacks %q: %q %q", w, stdout, errOut)
				}
			}
			if !bytes.Equal(before, read(tt.db)) {
				t.Errorf("%s changed the file", tt.sql)
			}
		})
	}
	for _, name := range []string{"other.db", "copy.db"} {
		if _, err := os.Stat(name); err == nil {
			os.Remove(name)
			t.Errorf("read-only sql created %s", name)
		}
	}
	// --help lists the pragmas allowed.
	stdout, _, _ := run(t, "sql", "--help")
	for _, p := range db.ReadOnlyPragmas() {
		if !strings.Contains(stdout, p) {
			t.Errorf("sql --help does not list the pragma %s", p)
		}
	}
	// With --write the statement runs.
	if _, errOut, code := run(t, "--db", example, "sql", "--write", "DELETE FROM ratings"); code != 0 {
		t.Errorf("sql --write: exit %d %s", code, errOut)
	}
}

// TestWherePredicates checks that every --where refuses stacked
// statements and predicates that leave their parentheses before anything
// runs, and that the database is unchanged.
func TestWherePredicates(t *testing.T) {
	path := copyExample(t, t.TempDir())
	counts, _, _ := run(t, "--db", path, "-O", "csv", "sql", "SELECT (SELECT count(*) FROM runs) || ',' || (SELECT count(*) FROM puzzles) AS n")
	counts = strings.Trim(strings.TrimPrefix(counts, "n\n"), "\"\n") // a CSV field with a comma is quoted
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "x.svg")
	stacked := "1=1; DELETE FROM runs"
	for _, args := range [][]string{
		{"plot", "ecdf", "--where", stacked, "-o", out},
		{"plot", "convergence", "--where", stacked, "-o", out},
		{"plot", "success", "--where", "1=1 /* ; */; DELETE FROM runs", "-o", out},
		{"runs", "list", "--where", stacked},
		{"runs", "list", "--runs-where", stacked},
		{"puzzles", "list", "--where", "1=1; DELETE FROM puzzles"},
		{"export", "--where", "1=1; DELETE FROM puzzles"},
		{"collections", "add", "x", "--where", "1=1; DELETE FROM puzzles"},
	} {
		_, errOut, code := run(t, append([]string{"--db", path}, args...)...)
		if code != exitInvalid || !strings.Contains(errOut, "must be one expression, without ';'") {
			t.Errorf("%s: exit %d %q; want exit %d and the predicate refused", strings.Join(args, " "), code, errOut, exitInvalid)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the refused predicates changed the file (%v)", err)
	}
	// A predicate that closes the parenthesis it is pasted into would
	// leave the rest of the statement (or, in run's paging, loop forever).
	// Some of these commands open the file for writing: the counts below
	// show that they wrote nothing.
	escape := "0) OR (1=1"
	for _, args := range [][]string{
		{"run", "--where", escape, "--config", "exact"},
		{"count", "--where", escape},
		{"rate", "--rater", "givens", "--where", escape},
		{"compare", "--config", "exact", "--config", "franco-tabu-table2", "--where", escape},
		{"export-runs", "--format", "csv", "-o", "-", "--where", escape},
		{"export-runs", "--format", "csv", "-o", "-", "--runs-where", escape},
		{"plot", "ecdf", "--where", escape, "-o", out},
		{"plot", "ecdf", "--runs-where", escape, "-o", out},
		{"runs", "list", "--where", escape},
		{"runs", "list", "--runs-where", escape},
		{"puzzles", "list", "--where", escape},
		{"export", "--where", escape},
		{"collections", "add", "x", "--where", escape},
	} {
		_, errOut, code := run(t, append([]string{"--db", path}, args...)...)
		if code != exitInvalid || !strings.Contains(errOut, "closes a parenthesis the predicate did not open") {
			t.Errorf("%s: exit %d %q; want exit %d and the predicate refused", strings.Join(args, " "), code, errOut, exitInvalid)
		}
	}
	stdout, errOut, code := run(t, "--db", path, "-O", "csv", "sql", "SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM puzzles) AS puzzles, (SELECT count(*) FROM collections WHERE name = 'x') AS x")
	if code != 0 || stdout != "runs,puzzles,x\n"+counts+",0\n" {
		t.Errorf("after the refused predicates: %q %q", stdout, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused plot wrote %s", out)
	}
	// A predicate quoting a ';' is one expression.
	if _, errOut, code := run(t, "--db", path, "plot", "ecdf", "--runs-where", "config <> ';'", "-o", out); code != 0 {
		t.Errorf("plot with a quoted ';': exit %d %s", code, errOut)
	}
}

// TestReadersStoreNoPresets checks that read-only commands leave a
// database without the presets as it is, and say how to get them.
func TestReadersStoreNoPresets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bare.db")
	d, err := db.Open(context.Background(), path) // no presets
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	stdout, errOut, code := run(t, "--db", path, "-O", "csv", "configs", "list")
	if code != 0 || strings.Count(stdout, "\n") != 1 {
		t.Errorf("configs list: exit %d %q %q; want the header only", code, stdout, errOut)
	}
	_, errOut, code = run(t, "--db", path, "configs", "show", "exact")
	if code != exitNotFound || !strings.Contains(errOut, "exact is a preset this database does not hold yet: sudokulab --db "+path+" migrate up") {
		t.Errorf("configs show exact: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "--db", path, "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "--db", path, "configs", "show", "exact"); code != 0 {
		t.Errorf("configs show exact after migrate up: exit %d %q", code, errOut)
	}
}
