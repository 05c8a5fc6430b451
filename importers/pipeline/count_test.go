package pipeline_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/cputime"
	"sudokulab/internal/gridgen"
)

// writeLines writes grids to a line-format file, one per line.
func writeLines(t *testing.T, name string, grids ...sudokulab.Grid) string {
	t.Helper()
	var b strings.Builder
	for _, g := range grids {
		b.WriteString(g.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// stored is a puzzle's count as stored.
type stored struct {
	count    sql.NullInt64
	status   sql.NullString
	seconds  sql.NullFloat64
	solution sql.NullString
}

func storedCount(t *testing.T, d interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, g sudokulab.Grid) stored {
	t.Helper()
	var s stored
	err := d.QueryRowContext(context.Background(), `SELECT solution_count, count_status, count_seconds, solution
		FROM puzzles WHERE grid = ?`, g.String()).Scan(&s.count, &s.status, &s.seconds, &s.solution)
	if err != nil {
		t.Fatalf("puzzle %s: %v", g, err)
	}
	return s
}

func TestImportCountTimeout(t *testing.T) {
	hard, medium := gridgen.SlowCount(), gridgen.MediumCount()
	sparse, _ := gridgen.Shuffled(5, 0.05, 4) // 25x25, nearly empty: two solutions in milliseconds
	classic, _ := gridgen.Shuffled(3, 0.45, 1)
	cases := []struct {
		name          string
		grid          sudokulab.Grid
		timeout       time.Duration
		requireUnique bool
		status        string // "" when rejected
		count         int    // when counted
		undetermined  int    // Result.Undetermined
	}{
		{name: "25x25 slow, 50ms", grid: hard, timeout: 50 * time.Millisecond, status: sudokulab.CountUndetermined, undetermined: 1},
		{name: "25x25 medium, 50ms", grid: medium, timeout: 50 * time.Millisecond, status: sudokulab.CountUndetermined, undetermined: 1},
		{name: "25x25 slow, 50ms, require unique", grid: hard, timeout: 50 * time.Millisecond, requireUnique: true},
		{name: "25x25 nearly empty, default budget", grid: sparse, status: sudokulab.CountCounted, count: 2},
		{name: "9x9, default budget", grid: classic, status: sudokulab.CountCounted, count: 2},
		{name: "9x9 unique, no limit", grid: sudokulab.MustParse(easy), timeout: -1, status: sudokulab.CountCounted, count: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := openTemp(t)
			path := writeLines(t, "grids.txt", tc.grid)
			start, _ := cputime.Process()
			res, err := pipeline.ImportFile(context.Background(), d, path, pipeline.Options{Format: "line",
				CountTimeout: tc.timeout, RequireUnique: tc.requireUnique, SkipInvalid: tc.requireUnique})
			if tc.status == "" {
				// The one puzzle rejected, nothing is imported: an error,
				// and nothing stored, not even the import.
				if err == nil || !strings.Contains(err.Error(), "count undetermined within the budget") {
					t.Fatalf("error %v, want the undetermined count", err)
				}
				if n := count(t, d, "SELECT COUNT(*) FROM puzzles") + count(t, d, "SELECT COUNT(*) FROM imports"); n != 0 {
					t.Errorf("%d puzzles and imports stored, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Counted in CPU time, which a loaded machine does not stretch,
			// with room for the race detector: a count that ignored its
			// budget would take hours.
			if end, _ := cputime.Process(); end-start > 10*time.Second {
				t.Errorf("import took %v of CPU", end-start)
			}
			if res.Undetermined != tc.undetermined {
				t.Errorf("Result.Undetermined %d, want %d", res.Undetermined, tc.undetermined)
			}
			s := storedCount(t, d, tc.grid)
			if s.status.String != tc.status || !s.seconds.Valid || s.seconds.Float64 <= 0 {
				t.Fatalf("stored %+v, want status %s and the seconds", s, tc.status)
			}
			switch tc.status {
			case sudokulab.CountUndetermined:
				if s.count.Valid {
					t.Errorf("solution_count %d, want NULL", s.count.Int64)
				}
				if s.solution.Valid { // kept if found: then it must be right
					sol, err := sudokulab.ParseShape(s.solution.String, tc.grid.Shape)
					if err != nil || sudokulab.CheckSolution(tc.grid, sol) != nil {
						t.Errorf("solution %s: %v", s.solution.String, err)
					}
				}
			default:
				if !s.count.Valid || int(s.count.Int64) != tc.count {
					t.Errorf("solution_count %v, want %d", s.count, tc.count)
				}
			}
			// The catalog says so too.
			var status sql.NullString
			if err := d.QueryRowContext(context.Background(), "SELECT count_status FROM puzzle_catalog").Scan(&status); err != nil || status.String != tc.status {
				t.Errorf("puzzle_catalog count_status %v (%v), want %s", status, err, tc.status)
			}
		})
	}
}

// TestImportFillsUndeterminedCount imports a puzzle whose count the budget
// cuts short, then the same puzzle with time enough: the stored row gets
// its count.
func TestImportFillsUndeterminedCount(t *testing.T) {
	d := openTemp(t)
	medium := gridgen.MediumCount()
	first := importFile(t, d, writeLines(t, "a.txt", medium), pipeline.Options{Format: "line", CountTimeout: 50 * time.Millisecond})
	if first.Undetermined != 1 {
		t.Fatalf("first import: %d undetermined, want 1", first.Undetermined)
	}
	if s := storedCount(t, d, medium); s.status.String != sudokulab.CountUndetermined || s.count.Valid {
		t.Fatalf("after the first import %+v", s)
	}
	second := importFile(t, d, writeLines(t, "b.txt", medium), pipeline.Options{Format: "line", Collection: "again", CountTimeout: -1})
	if second.Undetermined != 0 || second.Import.PuzzlesDuplicate != 1 {
		t.Fatalf("second import %+v", second)
	}
	if s := storedCount(t, d, medium); s.status.String != sudokulab.CountCounted || s.count.Int64 != 2 {
		t.Fatalf("after the second import %+v, want counted 2", s)
	}
}
