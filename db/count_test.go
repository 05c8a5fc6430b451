package db_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// TestCountStatus follows one puzzle's count through AddPuzzle, the
// ImportWriter and SetCount: an undetermined count is replaced by a later
// undetermined attempt's time and by a determined count, never the other
// way round.
func TestCountStatus(t *testing.T) {
	const grid = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	g := sudokulab.MustParse(grid)
	one, two := 1, 2
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		cid, err := db.EnsureCollection(ctx, d, "c", "")
		if err != nil {
			t.Fatal(err)
		}
		add := func(p *sudokulab.Puzzle) error {
			_, _, err := db.AddPuzzle(ctx, d, p)
			return err
		}
		write := func(p *sudokulab.Puzzle) error {
			return d.WithTx(ctx, func(tx *sqlx.Tx) error {
				w := db.NewImportWriter(tx)
				defer w.Close()
				return w.Write(ctx, []db.ImportRow{{Puzzle: p, Membership: sudokulab.Membership{CollectionID: cid}}})
			})
		}
		set := func(p *sudokulab.Puzzle) error {
			p.ID = 1
			return db.SetCount(ctx, d, p)
		}
		steps := []struct {
			name    string
			store   func(*sudokulab.Puzzle) error
			puzzle  sudokulab.Puzzle
			invalid bool
			// the row afterwards
			count   *int
			status  string
			seconds float64
		}{
			{name: "undetermined", store: add, puzzle: sudokulab.Puzzle{CountStatus: sudokulab.CountUndetermined, CountSeconds: 0.05},
				status: sudokulab.CountUndetermined, seconds: 0.05},
			{name: "undetermined again, longer", store: write, puzzle: sudokulab.Puzzle{CountStatus: sudokulab.CountUndetermined, CountSeconds: 0.5},
				status: sudokulab.CountUndetermined, seconds: 0.5},
			{name: "count status without a count", store: add, puzzle: sudokulab.Puzzle{CountStatus: sudokulab.CountCounted}, invalid: true,
				status: sudokulab.CountUndetermined, seconds: 0.5},
			{name: "undetermined with a count", store: write, puzzle: sudokulab.Puzzle{SolutionCount: &two, CountStatus: sudokulab.CountUndetermined}, invalid: true,
				status: sudokulab.CountUndetermined, seconds: 0.5},
			{name: "unknown status", store: set, puzzle: sudokulab.Puzzle{SolutionCount: &two, CountStatus: "maybe"}, invalid: true,
				status: sudokulab.CountUndetermined, seconds: 0.5},
			{name: "counted at last", store: set, puzzle: sudokulab.Puzzle{SolutionCount: &one, CountSeconds: 2},
				count: &one, status: sudokulab.CountCounted, seconds: 2},
			{name: "a later undetermined attempt changes nothing", store: write, puzzle: sudokulab.Puzzle{CountStatus: sudokulab.CountUndetermined, CountSeconds: 0.01},
				count: &one, status: sudokulab.CountCounted, seconds: 2},
			{name: "nor does a later count", store: add, puzzle: sudokulab.Puzzle{SolutionCount: &two, CountSeconds: 3},
				count: &one, status: sudokulab.CountCounted, seconds: 2},
		}
		for _, s := range steps {
			p := s.puzzle
			p.Givens = g
			err := s.store(&p)
			if s.invalid != (sudokulab.ErrorCode(err) == sudokulab.EINVALID) || (!s.invalid && err != nil) {
				t.Fatalf("%s: error %v, want invalid %v", s.name, err, s.invalid)
			}
			got, err := db.GetPuzzle(ctx, d, 1)
			if err != nil {
				t.Fatal(err)
			}
			if (got.SolutionCount == nil) != (s.count == nil) || (s.count != nil && *got.SolutionCount != *s.count) ||
				got.CountStatus != s.status || got.CountSeconds != s.seconds {
				t.Errorf("%s: stored count %v, status %q, seconds %v; want %v, %q, %v", s.name,
					got.SolutionCount, got.CountStatus, got.CountSeconds, s.count, s.status, s.seconds)
			}
		}
		if n := countOf(t, d, "SELECT COUNT(*) FROM puzzle_catalog WHERE count_status = 'counted' AND solution_count = 1"); n != 1 {
			t.Errorf("puzzle_catalog: %d rows counted, want 1", n)
		}
	})
}
