package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// run executes the command line with args against a fresh root command and
// returns what it printed and its exit status.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	err := root.ExecuteContext(context.Background())
	code = exitCode(&errb, err)
	return out.String(), errb.String(), code
}

// initDB creates an empty database at path with init (the only command
// that creates one) and returns path.
func initDB(t *testing.T, path string) string {
	t.Helper()
	if _, errOut, code := run(t, "--db", path, "init"); code != 0 {
		t.Fatalf("init %s: exit %d: %s", path, code, errOut)
	}
	return path
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

const escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."

func TestSolveGolden(t *testing.T) {
	tests := []struct{ name, golden string }{
		{escargot, "solve-escargot.txt"},
		{"1...4.....1.....", "solve-4x4-many.txt"},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "solve", tt.name)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		golden(t, tt.golden, out)
	}
}

func TestSolveJSON(t *testing.T) {
	out, _, code := run(t, "-O", "json", "solve", escargot)
	if code != 0 || !strings.Contains(out, `"solutions": 1`) || !strings.Contains(out, `"solution": "162857493`) {
		t.Errorf("exit %d, output %s", code, out)
	}
}

func TestErrors(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"short grid", []string{"solve", escargot[:80]}, exitInvalid, "80 cells: not a square grid"},
		{"conflict", []string{"solve", "11" + escargot[2:]}, exitInvalid, "r1c1 and r1c2 both hold 1 in row 1"},
		{"bad box", []string{"solve", "--box", "3by2", escargot}, exitInvalid, `--box "3by2"`},
		{"unknown flag", []string{"solve", "--bogus"}, exitInvalid, "unknown flag: --bogus"},
		{"unknown command", []string{"bogus"}, exitInvalid, `unknown command "bogus"`},
		{"missing argument", []string{"solve"}, exitInvalid, "takes 1 argument"},
		{"missing subcommand", []string{"puzzles"}, exitInvalid, "missing subcommand"},
		{"bad output format", []string{"-O", "xml", "solve", escargot}, exitInvalid, `--output-format "xml": want table, csv or json`},
		{"bad predicate", []string{"--db", dbPath, "puzzles", "list", "--where", "givens <"}, exitInvalid, "syntax error"},
		{"read-only sql", []string{"--db", dbPath, "sql", "DELETE FROM puzzles"}, exitInvalid, "the statement changes the database; add --write to allow it"},
		{"stacked predicate", []string{"--db", dbPath, "puzzles", "list", "--where", "1=1; DELETE FROM puzzles"}, exitInvalid, "without ';'"},
		{"stacked runs predicate", []string{"--db", dbPath, "runs", "list", "--where", "1=1; DELETE FROM runs"}, exitInvalid, "without ';'"},
		{"no such puzzle", []string{"--db", dbPath, "puzzles", "show", "99"}, exitNotFound, "99"},
		{"status of a missing file", []string{"--db", filepath.Join(t.TempDir(), "none.db"), "migrate", "status"}, exitNotFound, "none.db does not exist"},
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

func TestPuzzlesAddListShow(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	easy := "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	out, errOut, code := run(t, "--db", dbPath, "puzzles", "add", "--collection", "mine", "--label", "first", easy)
	if code != 0 || !strings.Contains(out, "added puzzle 1 (35 givens, solutions: 1 (unique)) in collection mine") {
		t.Fatalf("add: exit %d, %q %q", code, out, errOut)
	}
	out, _, _ = run(t, "--db", dbPath, "puzzles", "add", "--collection", "other", easy)
	if !strings.Contains(out, "puzzle 1 was already stored in collection other") {
		t.Errorf("second add: %q", out)
	}
	// Two solutions: the escargot with its first given removed.
	out, _, _ = run(t, "--db", dbPath, "puzzles", "add", "."+escargot[1:])
	if !strings.Contains(out, "solutions: 2 or more") {
		t.Errorf("add ambiguous: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "puzzles", "list", "--collection", "other")
	if want := "id,size,givens,solutions,grid\n1,9,35,1," + easy + "\n"; out != want {
		t.Errorf("list --collection other = %q, want %q", out, want)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "puzzles", "list", "--where", "solution_count > 1")
	if !strings.HasPrefix(out, "id,size,givens,solutions,grid\n2,9,22,2,") {
		t.Errorf("list --where = %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "puzzles", "show", "1")
	for _, want := range []string{"puzzle 1: 9x9 (3x3 boxes), 35 givens", "| . . 8 | 6 7 . | 4 . 2 |", "mine ", "first", "other", "runs: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("show does not contain %q:\n%s", want, out)
		}
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT collection, label FROM puzzle_catalog WHERE id = 1 ORDER BY collection")
	if out != "collection,label\nmine,first\nother,\n" {
		t.Errorf("sql = %q", out)
	}
	if _, errOut, code := run(t, "--db", dbPath, "sql", "--write", "DELETE FROM collections WHERE name = 'other'"); code != 0 {
		t.Errorf("sql --write: exit %d %s", code, errOut)
	}
}

func TestInitFromExample(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "lab.db")
	out, errOut, code := run(t, "--db", dbPath, "init", "--from", "../../lab.db.example")
	if code != 0 || !strings.Contains(out, "created from ../../lab.db.example: schema version") || !strings.Contains(out, "11 puzzles") {
		t.Fatalf("init: exit %d %q %q", code, out, errOut)
	}
	// Repeating init keeps the database.
	run(t, "--db", dbPath, "puzzles", "add", "--collection", "mine", "1...4.....1.....")
	out, _, code = run(t, "--db", dbPath, "init", "--from", "../../lab.db.example")
	if code != 0 || !strings.Contains(out, "exists (kept") || !strings.Contains(out, "12 puzzles") {
		t.Errorf("second init: exit %d %q", code, out)
	}
	out, _, _ = run(t, "--db", dbPath, "init", "--from", "../../lab.db.example", "--force")
	if !strings.Contains(out, "11 puzzles") {
		t.Errorf("init --force: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT collection, count(*) AS n FROM puzzle_catalog GROUP BY collection ORDER BY collection")
	golden(t, "example-collections.csv", out)
}

// TestExampleIsCurrent checks that the committed lab.db.example is at the
// newest migration, so that a new migration comes with a rebuilt example
// (go run ./cmd/mkexample).
func TestExampleIsCurrent(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../../lab.db.example")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := db.OpenOptions(context.Background(), path, db.Options{NoMigrate: true, MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	v, err := d.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v != d.LatestVersion() {
		t.Errorf("lab.db.example is at schema version %d, the code at %d: rebuild it with go run ./cmd/mkexample", v, d.LatestVersion())
	}
}

func TestSQLFile(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	file := filepath.Join(t.TempDir(), "q.sql")
	if err := os.WriteFile(file, []byte("-- name: two\n-- description: a comment line first, as canned queries have\nSELECT 1 + 1 AS two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "sql", "--file", file)
	if code != 0 || out != "two\n2\n" {
		t.Errorf("sql --file: exit %d, %q %q", code, out, errOut)
	}
	if _, errOut, code := run(t, "--db", dbPath, "sql", "--file", file, "SELECT 1"); code != exitInvalid || !strings.Contains(errOut, "not both") {
		t.Errorf("file and argument: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "--db", dbPath, "sql"); code != exitInvalid || !strings.Contains(errOut, "needs a statement") {
		t.Errorf("no statement: exit %d %q", code, errOut)
	}
}

// TestExitCodeNoSpace turns a full disk, however wrapped (even as bad
// input), into exit 5 with a message that names the path and says how to
// go on.
func TestExitCodeNoSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sudokulab-import-1")
	full := &os.PathError{Op: "write", Path: path, Err: syscall.ENOSPC}
	for _, err := range []error{
		fmt.Errorf("import x: %w", full),
		sudokulab.WrapError(sudokulab.EINVALID, full, "import x"),
	} {
		var errb bytes.Buffer
		if code := exitCode(&errb, err); code != exitNoSpace || !strings.Contains(errb.String(), path) ||
			!strings.Contains(errb.String(), "run the same command again") {
			t.Errorf("%v: exit %d, %q; want exit %d, the path and what to do", err, code, errb.String(), exitNoSpace)
		}
	}
}

// TestSignalsSecondQuits checks the signal handling of main with a fake
// exit: the first SIGINT or SIGTERM cancels the command's context and
// nothing more, so that it stops cleanly; the second quits at once with
// the interrupt's exit code.
func TestSignalsSecondQuits(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			sigs := make(chan os.Signal)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr bytes.Buffer
			codes := make(chan int, 2)
			done := make(chan struct{})
			go func() {
				defer close(done)
				onSignals(sigs, cancel, &stderr, func(code int) { codes <- code })
			}()
			sigs <- sig
			<-ctx.Done() // canceled by the first signal
			// The handler is past cancel and waits for a second signal:
			// the send below is taken only by that wait, so no exit can
			// have come from the first.
			sigs <- sig
			<-done
			close(codes)
			var got []int
			for c := range codes {
				got = append(got, c)
			}
			if len(got) != 1 || got[0] != exitCanceled {
				t.Errorf("exits %v after two signals, want one with %d", got, exitCanceled)
			}
			if !strings.Contains(stderr.String(), "interrupt again to quit at once") ||
				!strings.Contains(stderr.String(), "quitting at once") {
				t.Errorf("stderr says %q, want the clean stop and the quit announced", stderr.String())
			}
		})
	}
}
