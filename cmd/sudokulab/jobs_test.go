package main

import (
	"path/filepath"
	"testing"
)

// TestJobsBelowOne checks that every command with --jobs refuses a value
// below 1 with the same usage error, before it touches the database; tune,
// whose --jobs 0 leaves every run to worker processes, refuses one below 0.
func TestJobsBelowOne(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	tests := []struct {
		name string
		args []string
		want string // stderr; empty: the usual refusal of --jobs 0
	}{
		{"check", []string{"check", "--jobs", "0", "puzzles.txt"}, ""},
		{"count", []string{"--db", dbPath, "count", "--jobs", "0"}, ""},
		{"import", []string{"--db", dbPath, "import", "--jobs", "0", "puzzles.txt"}, ""},
		{"run", []string{"--db", dbPath, "run", "--jobs", "0"}, ""},
		{"tune", []string{"--db", dbPath, "tune", "--solver", "lewis-sa", "--train", "givens > 20", "--budget", "10", "--jobs", "-1"},
			"sudokulab: --jobs -1: want 0 (sudokulab worker processes do every run) or more\n"},
		{"worker", []string{"--db", dbPath, "worker", "--jobs", "0"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			want := tt.want
			if want == "" {
				want = "sudokulab: --jobs 0: want at least 1\n"
			}
			if code != exitInvalid || errOut != want {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitInvalid, want)
			}
		})
	}
}
