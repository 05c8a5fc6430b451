//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fifo makes a named pipe in dir that yields content once, as a process
// substitution (<(...)) does, and returns its path.
func fifo(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(content)
		f.Close()
	}()
	return path
}

// TestFilesFromPipes reads puzzles from pipes, which cannot seek: check and
// rate detect the format from what they read first, import keeps the
// input in a temporary file; what they print and store is what the same
// content in a file gives.
func TestFilesFromPipes(t *testing.T) {
	dir := t.TempDir()
	content := escargot + "\n" + strings.ReplaceAll(escargot, "1", "0") + "\n"
	file := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dir, "none.db")
	want := mustRun(t, "--db", none, "-O", "csv", "check", file)
	got := mustRun(t, "--db", none, "-O", "csv", "check", fifo(t, dir, "check.pipe", content))
	if strings.ReplaceAll(got, "check.pipe", "plain.txt") != want {
		t.Errorf("check of a pipe:\n%s\nof the file:\n%s", got, want)
	}
	if _, errOut, code := run(t, "--db", none, "check", fifo(t, dir, "empty.txt", "")); code != 2 || !strings.Contains(errOut, "empty.txt: no puzzle read: the file is empty") {
		t.Errorf("check of an empty pipe: exit %d: %s", code, errOut)
	}

	lab := initDB(t, filepath.Join(dir, "lab.db"))
	mustRun(t, "--db", lab, "import", "--collection", "piped", fifo(t, dir, "import.pipe", content))
	mustRun(t, "--db", lab, "import", "--collection", "filed", file)
	out := mustRun(t, "--db", lab, "-O", "csv", "sql", `SELECT c.name, count(*), sum(p.solution_count), i.file_sha256 = (SELECT file_sha256 FROM imports WHERE file_name LIKE '%plain.txt')
		FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
		JOIN imports i ON i.id = cp.import_id GROUP BY c.name ORDER BY c.name`)
	if !strings.Contains(out, "filed,2,3,1") || !strings.Contains(out, "piped,2,3,1") {
		t.Errorf("imports of a pipe and of the file:\n%s", out)
	}
}

// TestImportPipeLimit imports /dev/zero, which never ends: import stops at
// --pipe-limit with exit 2 and a message naming the limit, and leaves no
// temporary file behind.
func TestImportPipeLimit(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	lab := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	_, errOut, code := run(t, "--db", lab, "import", "--pipe-limit", "2", "/dev/zero")
	if code != exitInvalid || !strings.Contains(errOut, "import /dev/zero: more than 2 MiB read from a pipe or device") {
		t.Errorf("import /dev/zero: exit %d: %s", code, errOut)
	}
	if ents, err := os.ReadDir(tmp); err != nil || len(ents) > 0 {
		t.Errorf("left in TMPDIR: %v (%v)", ents, err)
	}
}
