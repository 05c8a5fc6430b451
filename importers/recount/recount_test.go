package recount_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/recount"
)

const (
	// unique has one solution; many is it without its first row's givens
	// (more than one); none breaks no rule but has no solution (r1c1 sees
	// 1-4 in its row, 5-8 in its column and 9 in its box).
	unique = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	many   = ".........4.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	none   = "...1234.." + ".9......." + "........." + "5........" + "6........" + "7........" + "8........" + "........." + "........."
)

// setup stores the puzzles without a count, as an import whose budget ran
// out leaves them, and returns them as db.UncountedPuzzles lists them.
func setup(t *testing.T, grids ...string) (*db.DB, []sudokulab.Puzzle) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for _, g := range grids {
		if _, _, err := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: sudokulab.MustParse(g)}); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := db.UncountedPuzzles(ctx, d, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(grids) {
		t.Fatalf("%d puzzles without a count, want %d", len(ps), len(grids))
	}
	return d, ps
}

// TestRun counts three puzzles, stores their counts (and the unique
// one's solution), and leaves nothing for a second count.
func TestRun(t *testing.T) {
	d, ps := setup(t, unique, many, none)
	ctx := context.Background()
	var transactions []int
	sum, err := recount.Run(ctx, d, ps, recount.Options{Workers: 2, Batch: 2,
		Progress: func(written int, _ recount.Summary) { transactions = append(transactions, written) }})
	if err != nil {
		t.Fatal(err)
	}
	want := recount.Summary{Todo: 3, Counted: 3, ByCount: [3]int{1, 1, 1}, Timeout: recount.DefaultTimeout}
	if sum != want || len(transactions) != 2 || transactions[0]+transactions[1] != 3 {
		t.Errorf("summary %+v in transactions of %v; want %+v in two", sum, transactions, want)
	}
	for i, wantCount := range []int{1, 2, 0} {
		p, err := db.GetPuzzle(ctx, d, ps[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		if p.SolutionCount == nil || *p.SolutionCount != wantCount || p.CountStatus != sudokulab.CountCounted || (len(p.Solution.Cells) > 0) != (wantCount == 1) {
			t.Errorf("puzzle %d: count %d, status %q, solution %q; want %d counted", p.ID, *p.SolutionCount, p.CountStatus, p.Solution.String(), wantCount)
		}
	}
	if left, err := db.UncountedPuzzles(ctx, d, ""); err != nil || len(left) != 0 {
		t.Errorf("left to count: %v, %v", left, err)
	}
}

// TestRunInterrupted ends the context after the first transaction: the
// count it wrote stays, Run returns the end's cause, and the puzzles not
// stored are left for the same count again.
func TestRunInterrupted(t *testing.T) {
	d, ps := setup(t, unique, many, none)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := recount.Run(ctx, d, ps, recount.Options{Workers: 1, Batch: 1,
		Progress: func(int, recount.Summary) { cancel() }})
	if !errors.Is(err, context.Canceled) || sum.Counted != 1 {
		t.Fatalf("interrupted: %v, %+v; want context.Canceled after one count", err, sum)
	}
	left, err := db.UncountedPuzzles(context.Background(), d, "")
	if err != nil || len(left) != 2 {
		t.Errorf("left to count: %d puzzles, %v; want 2", len(left), err)
	}
}

// TestRunTimeout says in the Summary the budget each count had: the
// default for 0, else the one given, negative for none.
func TestRunTimeout(t *testing.T) {
	d, _ := setup(t)
	for _, tt := range []struct{ given, want time.Duration }{{0, recount.DefaultTimeout}, {time.Second, time.Second}, {-1, -1}} {
		sum, err := recount.Run(context.Background(), d, nil, recount.Options{Timeout: tt.given})
		if err != nil || sum.Timeout != tt.want {
			t.Errorf("Timeout %v: summary %+v, %v; want Timeout %v", tt.given, sum, err, tt.want)
		}
	}
}
