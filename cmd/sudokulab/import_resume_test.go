package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/paperdata"
	"sudokulab/symmetry"
)

// writeVariants writes a line file of n random transformations of the
// escargot, with labels, and returns its path.
func writeVariants(t *testing.T, dir string, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 9))
	g := sudokulab.MustParse(escargot)
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s label=v%d\n", symmetry.Random(rng).Apply(g), i+1)
	}
	path := filepath.Join(dir, fmt.Sprintf("variants%d.txt", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cancelProgress cancels an import once it has stored some puzzles.
type cancelProgress struct {
	cancel func()
	after  int
}

func (c *cancelProgress) Start(string, int64) {}
func (c *cancelProgress) Finish()             {}
func (c *cancelProgress) Update(_ int64, puzzles int) {
	if puzzles >= c.after {
		c.cancel()
	}
}

// interruptedImport makes a lab whose import of 2,000 puzzles into
// collection many was interrupted after 800, and returns the lab and the
// file.
func interruptedImport(t *testing.T) (dbPath, file string) {
	t.Helper()
	dir := t.TempDir()
	dbPath = initDB(t, filepath.Join(dir, "lab.db"))
	file = writeVariants(t, dir, 2000)
	ctx, cancel := context.WithCancel(context.Background())
	d, err := db.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = pipeline.ImportFile(ctx, d, file, pipeline.Options{Collection: "many", Progress: &cancelProgress{cancel: cancel, after: 800}})
	d.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted import: %v", err)
	}
	return dbPath, file
}

// TestImportCommandResume: an interrupted import is invisible to the
// commands, a conflict while another process holds it, and resumed by the
// same command once it is free.
func TestImportCommandResume(t *testing.T) {
	dbPath, file := interruptedImport(t)

	mustRun(t, "--db", dbPath, "sql", "--write", "UPDATE imports SET worker = 'elsewhere:7', lease_until = '2999-01-01T00:00:00.000Z'")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-O", "csv", "collections", "list"}, "name,puzzles,created_at,description,frozen\n"},
		{[]string{"-O", "csv", "sql", "SELECT count(*) AS n FROM puzzle_catalog"}, "n\n0\n"},
		{[]string{"-O", "csv", "puzzles", "list"}, "id,size,givens,solutions,grid\n"},
	} {
		if out := mustRun(t, append([]string{"--db", dbPath}, tt.args...)...); out != tt.want {
			t.Errorf("%v while loading:\n%s\nwant:\n%s", tt.args, out, tt.want)
		}
	}
	_, errOut, code := run(t, "--db", dbPath, "import", "--collection", "many", file)
	if code != exitConflict || !strings.Contains(errOut, "elsewhere:7 is importing this file into collection many") {
		t.Errorf("import beside a live holder: exit %d, %q; want exit %d naming elsewhere:7", code, errOut, exitConflict)
	}

	mustRun(t, "--db", dbPath, "sql", "--write", "UPDATE imports SET lease_until = '2000-01-01T00:00:00.000Z'")
	out := mustRun(t, "--db", dbPath, "import", "--collection", "many", file)
	if !strings.Contains(out, "2000 read: 2000 new, 0 duplicate, 0 rejected; collection many (import 1)") ||
		!strings.Contains(out, "resumed an interrupted import after the ") {
		t.Errorf("resumed import:\n%s", out)
	}
	if out := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) AS n, min(position) AS lo, max(position) AS hi FROM puzzle_catalog WHERE collection = 'many'"); out != "n,lo,hi\n2000,1,2000\n" {
		t.Errorf("collection after the resume:\n%s", out)
	}
}

// TestImportTakesOverDeadHolder: an interrupted import held by a process
// of this host that no longer exists (killed with kill -9) is taken over
// at once, its lease notwithstanding; one held by a live process of this
// host is not.
func TestImportTakesOverDeadHolder(t *testing.T) {
	dbPath, file := interruptedImport(t)
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	// A process that has ended and been waited for: its PID is free (a
	// new process could take it in between, which would make this test
	// fail, not pass).
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	hold := func(pid int) {
		mustRun(t, "--db", dbPath, "sql", "--write",
			fmt.Sprintf("UPDATE imports SET worker = '%s:%d', lease_until = '2999-01-01T00:00:00.000Z'", host, pid))
	}

	hold(os.Getpid())
	if _, errOut, code := run(t, "--db", dbPath, "import", "--collection", "many", file); code != exitConflict ||
		!strings.Contains(errOut, fmt.Sprintf("%s:%d is importing this file", host, os.Getpid())) {
		t.Errorf("import beside a live holder of this host: exit %d, %q; want exit %d naming it", code, errOut, exitConflict)
	}
	hold(gone.ProcessState.Pid())
	out := mustRun(t, "--db", dbPath, "import", "--collection", "many", file)
	if !strings.Contains(out, "2000 read: 2000 new, 0 duplicate, 0 rejected; collection many (import 1)") ||
		!strings.Contains(out, "resumed an interrupted import after the ") {
		t.Errorf("import after its holder died:\n%s", out)
	}
}

// TestImportManyFiles imports several files at once (--jobs 2): every
// file is stored, each in its own import, and the results are printed in
// the order the files were given.
func TestImportManyFiles(t *testing.T) {
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	var files []string
	for i, p := range paperdata.All()[:6] {
		f := filepath.Join(dir, fmt.Sprintf("p%d.txt", i))
		if err := os.WriteFile(f, []byte(p.Puzzle.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, errOut, code := run(t, append([]string{"--db", dbPath, "import", "--jobs", "2", "--collection", "many"}, files...)...)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines of output, want one per file:\n%s", len(lines), out)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, files[i]+": ") {
			t.Errorf("line %d is %q, want the result of %s", i+1, l, files[i])
		}
	}
	got, _, _ := run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'many'")
	if got != "COUNT(*)\n6\n" {
		t.Errorf("collection many: %q, want 6 puzzles", got)
	}
}
