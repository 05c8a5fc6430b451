package main

import (
	"encoding/base64"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/pgtest"
)

// TestLongLabelsOnBothBackends gives a label longer than
// sudokulab.MaxLabelBytes, text no compression shortens (PostgreSQL's
// index on label takes at most about 2,700 bytes of an entry), to import
// and to collections add, and one holding a NUL (which PostgreSQL's text
// cannot hold) to import, on SQLite and PostgreSQL: each engine refuses it
// the same way, naming the file and line or the puzzle, and stores
// nothing of the failed command.
func TestLongLabelsOnBothBackends(t *testing.T) {
	const (
		g1 = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
		g2 = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
	)
	raw := make([]byte, 2250)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range raw {
		raw[i] = byte(rng.Uint32())
	}
	long := base64.StdEncoding.EncodeToString(raw) // 3,000 bytes
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"long.csv": "puzzle,label\n" + g1 + ",short\n" + g2 + "," + long + "\n",
		"nul.csv": "puzzle,label\n" + g1 + ",short\n" + g2 + ",a\x00b\n"})
	file := filepath.Join(dir, "long.csv")
	for _, b := range []struct {
		name   string
		target func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "lab.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			target := initDB(t, b.target(t))
			_, errOut, code := run(t, "--db", target, "import", file)
			if want := "long.csv:3: label is 3000 bytes long, more than " + strconv.Itoa(sudokulab.MaxLabelBytes); code != exitInvalid || !strings.Contains(errOut, want) {
				t.Errorf("import: exit %d, %q; want exit %d naming %q", code, errOut, exitInvalid, want)
			}
			if got := mustRun(t, "--db", target, "-O", "csv", "sql", "SELECT (SELECT COUNT(*) FROM puzzles) + (SELECT COUNT(*) FROM imports) AS n"); got != "n\n0\n" {
				t.Errorf("after the failed import:\n%s", got)
			}
			// PostgreSQL's text holds no NUL: refused on both engines.
			_, errOut, code = run(t, "--db", target, "import", filepath.Join(dir, "nul.csv"))
			if want := `nul.csv:3: label "a\x00b" holds a NUL character`; code != exitInvalid || !strings.Contains(errOut, want) {
				t.Errorf("import: exit %d, %q; want exit %d naming %q", code, errOut, exitInvalid, want)
			}
			if got := mustRun(t, "--db", target, "-O", "csv", "sql", "SELECT (SELECT COUNT(*) FROM puzzles) + (SELECT COUNT(*) FROM imports) AS n"); got != "n\n0\n" {
				t.Errorf("after the failed import:\n%s", got)
			}
			mustRun(t, "--db", target, "import", "--skip-invalid", file)
			_, errOut, code = run(t, "--db", target, "collections", "add", "again", "--where", "1 = 1", "--label", "label || '"+long+"'")
			if want := "label is 3005 bytes long, more than " + strconv.Itoa(sudokulab.MaxLabelBytes); code != exitInvalid || !strings.Contains(errOut, want) {
				t.Errorf("collections add: exit %d, %q; want exit %d naming %q", code, errOut, exitInvalid, want)
			}
			if got := mustRun(t, "--db", target, "-O", "csv", "sql", "SELECT COUNT(*) AS n FROM collections WHERE name = 'again'"); got != "n\n0\n" {
				t.Errorf("after the failed collections add:\n%s", got)
			}
		})
	}
}
