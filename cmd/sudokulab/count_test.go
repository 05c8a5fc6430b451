package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab/internal/cputime"
	"sudokulab/internal/gridgen"
)

func TestCountUndetermined(t *testing.T) {
	hard, medium := gridgen.SlowCount(), gridgen.MediumCount()
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	file := filepath.Join(t.TempDir(), "large.txt")
	if err := os.WriteFile(file, []byte(hard.String()+"\n"+medium.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start, _ := cputime.Process()
	out, errOut, code := run(t, "--db", dbPath, "import", "--format", "line", "--count-timeout", "50ms", file)
	if code != 0 || !strings.Contains(out, "2 of the 2 puzzles counted left their count undetermined") {
		t.Fatalf("import: exit %d, %q %q", code, out, errOut)
	}
	// In CPU time, which a loaded machine does not stretch; a count that
	// ignored its budget would take hours.
	if end, _ := cputime.Process(); end-start > 10*time.Second {
		t.Errorf("import took %v of CPU", end-start)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "puzzles", "list")
	if want := "id,size,givens,solutions,grid\n1,25,282,undetermined," + hard.String() + "\n2,25,288,undetermined," + medium.String() + "\n"; out != want {
		t.Errorf("list = %q, want %q", out, want)
	}
	out, _, _ = run(t, "--db", dbPath, "puzzles", "show", "2")
	if !strings.Contains(out, "solutions: undetermined") {
		t.Errorf("show: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "query", "collection-summary")
	if !strings.HasPrefix(out, "collection,puzzles,min_givens,mean_givens,max_givens,with_solution,unique_solution,undetermined,") ||
		!strings.Contains(out, "\nlarge,2,282,285,288,") || !strings.Contains(out, ",0,2,") {
		t.Errorf("collection-summary: %q", out)
	}

	steps := []struct {
		name string
		args []string
		want string // in the output
		// the count_status of each puzzle afterwards
		status []string
	}{
		// A budget far above the medium puzzle's 1 s, so that a slow
		// machine (or -race) still counts it; the hard one is left out of
		// this step, which would otherwise last the whole budget.
		{"count with a bigger budget", []string{"count", "--timeout", "2m", "--jobs", "2", "--where", "id = 2"},
			"counted 1 of 1 puzzles (0 unique, 1 with two or more solutions, 0 with none); 0 still undetermined within 2m0s each",
			[]string{"undetermined", "counted"}},
		{"again: the counted one is skipped", []string{"count", "--timeout", "100ms", "--collection", "large"},
			"counted 0 of 1 puzzles (0 unique, 0 with two or more solutions, 0 with none); 1 still undetermined within 100ms each",
			[]string{"undetermined", "counted"}},
		{"nothing left in the selection", []string{"count", "--where", "id = 2"},
			"counted 0 of 0 puzzles", []string{"undetermined", "counted"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"--db", dbPath}, s.args...)...)
			if code != 0 || !strings.Contains(out, s.want) {
				t.Fatalf("exit %d, %q %q; want %q", code, out, errOut, s.want)
			}
			out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql",
				"SELECT count_status, solution_count IS NULL, count_seconds > 0 FROM puzzles ORDER BY id")
			want := "count_status,solution_count IS NULL,count_seconds > 0\n"
			for _, st := range s.status {
				null := "0"
				if st == "undetermined" {
					null = "1"
				}
				want += st + "," + null + ",1\n"
			}
			if out != want {
				t.Errorf("stored:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

// TestRunOnUndeterminedCount runs a solver on a puzzle whose count is
// undetermined: the run works, and its record (run_results) says that the
// puzzle's count is undetermined.
func TestRunOnUndeterminedCount(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "puzzles", "add", "--collection", "large", "--count-timeout", "50ms", gridgen.SlowCount().String())
	out, errOut, code := run(t, "--db", dbPath, "run", "--collection", "large", "--solver", "exact", "--timeout", "200ms")
	if code != 0 {
		t.Fatalf("run: exit %d: %s %s", code, out, errOut)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT status, solution_count, count_status FROM run_results")
	if out != "status,solution_count,count_status\ntimeout,,undetermined\n" {
		t.Errorf("run_results: %q, want one timed-out run on a puzzle whose count is undetermined", out)
	}
}

func TestCountTimeoutFlags(t *testing.T) {
	hard := gridgen.SlowCount().String()
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"solve", []string{"solve", "--count-timeout", "50ms", hard}, "solutions: undetermined: counting stopped after 50ms"},
		{"puzzles add", []string{"puzzles", "add", "--count-timeout", "50ms", hard}, "added puzzle 1 (282 givens, solutions: undetermined"},
		{"puzzles add 9x9", []string{"puzzles", "add", "--count-timeout", "50ms", escargot}, "added puzzle 2 (23 givens, solutions: 1 (unique))"},
		{"solve json", []string{"-O", "json", "solve", "--count-timeout", "50ms", hard}, `"count_status": "undetermined"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, %q %q; want %q", code, out, errOut, tt.want)
			}
		})
	}
}
