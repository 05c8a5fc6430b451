package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHintsQuoteCommandLines: a message that tells the user a command
// line to type (create the missing database, migrate an old one, start a
// worker) writes a path or name holding a quote or a space so that sh
// reads it back as it is, and typing the line does what it says.
func TestHintsQuoteCommandLines(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh to read the hints back: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "o'brien's labs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "new lab.db")
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lab := initDB(t, filepath.Join(dir, "lab.db"))
	puzzles := filepath.Join(dir, "p.txt")
	if err := os.WriteFile(puzzles, []byte("..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", lab, "import", "--collection", "one", puzzles)
	for _, c := range []struct {
		args []string
		hint *regexp.Regexp // the command line, up to the end of the message
		path string         // the --db the line must name
	}{
		{[]string{"--db", missing, "puzzles", "list"}, regexp.MustCompile(`create it with (sudokulab --db .* init) \(`), missing},
		{[]string{"--db", empty, "puzzles", "list"}, regexp.MustCompile(`create one with (sudokulab --db .* init)\n`), empty},
		{[]string{"--db", lab, "run", "--collection", "one", "--solver", "exact", "--runs", "1", "--experiment", "bob's queue", "--enqueue-only"},
			regexp.MustCompile(`start (sudokulab worker --experiment .*)\n`), ""},
	} {
		_, errOut, _ := run(t, c.args...)
		m := c.hint.FindStringSubmatch(errOut)
		if m == nil {
			t.Errorf("%q: stderr %q, want a command line matching %s", c.args, errOut, c.hint)
			continue
		}
		// sh prints the words of the line, one per line.
		out, err := exec.Command(sh, "-c", `printf '%s\n' `+strings.TrimPrefix(m[1], "sudokulab ")).Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", m[1], err)
		}
		words := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if c.path != "" && (len(words) < 2 || words[0] != "--db" || words[1] != c.path) {
			t.Errorf("%q: sh reads %q from %q, want --db %q", c.args, words, m[1], c.path)
		}
		if c.path == "" && (len(words) != 3 || words[2] != "bob's queue") {
			t.Errorf("%q: sh reads %q from %q, want worker --experiment %q", c.args, words, m[1], "bob's queue")
		}
	}
}
