package ratepool_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

// fake is a rater for the tests: it rates a puzzle by its number of
// givens, labelled by parity; with block it never finishes before its
// context ends; with failOn it fails on that puzzle.
type fake struct {
	name   string
	block  bool
	failOn int // number of givens
}

func (f fake) Name() string    { return f.name }
func (f fake) Version() string { return "1" }
func (f fake) Options() string { return "{}" }

func (f fake) Rate(ctx context.Context, g sudokulab.Grid) (sudokulab.Rating, error) {
	if f.block {
		<-ctx.Done()
		return sudokulab.Rating{}, fmt.Errorf("%s: %w", f.name, ctx.Err())
	}
	n := g.Givens()
	if n == f.failOn {
		return sudokulab.Rating{}, errors.New("no way")
	}
	v := float64(n)
	return sudokulab.Rating{Rater: f.name, RaterVersion: "1", Options: "{}", Value: &v, Label: []string{"even", "odd"}[n%2]}, nil
}

// setup stores n puzzles with 20, 21, ... givens (the first cells, row
// by row, of the solved grid whose row r is 1..9 shifted by 3r + r/3) and
// returns them as ListPuzzles does.
func setup(t *testing.T, n int) (*db.DB, []sudokulab.Puzzle) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var solution []byte
	for r := range 9 {
		for c := range 9 {
			solution = append(solution, byte('1'+(3*r+r/3+c)%9))
		}
	}
	for k := range n {
		g := []byte(strings.Repeat(".", 81))
		copy(g, solution[:20+k])
		if _, _, err := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: sudokulab.MustParse(string(g))}); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := db.ListPuzzles(ctx, d, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return d, ps
}

func stored(t *testing.T, d *db.DB, rater string) int {
	t.Helper()
	var n int
	if err := d.GetContext(context.Background(), &n, d.Rebind("SELECT count(*) FROM ratings WHERE rater = ?"), rater); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRate rates and stores, skips what is stored on a second call, and
// rates it again with Force.
func TestRate(t *testing.T) {
	d, ps := setup(t, 6)
	ctx := context.Background()
	rs := []raters.Rater{fake{name: "a"}, fake{name: "b"}}
	res, err := ratepool.Rate(ctx, d, ps, rs, ratepool.Options{Workers: 2, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	a := res.ByRater["a"]
	if mean, ok := a.Mean(); res.Puzzles != 6 || res.Written != 12 || a.Rated != 6 || !ok || mean != 22.5 ||
		a.Labels["even"] != 3 || a.Labels["odd"] != 3 {
		t.Errorf("result %+v, a %+v", res, a)
	}
	if stored(t, d, "a") != 6 || stored(t, d, "b") != 6 {
		t.Errorf("stored %d and %d ratings, want 6 each", stored(t, d, "a"), stored(t, d, "b"))
	}
	res, err = ratepool.Rate(ctx, d, ps, rs, ratepool.Options{})
	if err != nil || res.Puzzles != 0 || res.Skipped != 12 || res.ByRater["b"].Skipped != 6 || res.Written != 0 {
		t.Errorf("again: %v, %+v", err, res)
	}
	res, err = ratepool.Rate(ctx, d, ps, rs[:1], ratepool.Options{Force: true})
	if err != nil || res.Puzzles != 6 || res.Skipped != 0 || res.Written != 6 {
		t.Errorf("again with Force: %v, %+v", err, res)
	}
}

// TestRateCutShort holds a rater that never finishes to 1 ms: its
// ratings are counted as cut short, the first puzzles named, and none is
// stored; the other rater's are.
func TestRateCutShort(t *testing.T) {
	d, ps := setup(t, 12)
	rs := []raters.Rater{fake{name: "slow", block: true}, fake{name: "a"}}
	res, err := ratepool.Rate(context.Background(), d, ps, rs, ratepool.Options{Limits: ratepool.Limits{"slow": time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	s := res.ByRater["slow"]
	if s.CutShort != 12 || s.Rated != 0 || len(s.CutShortIDs) != ratepool.CutShortShown || res.ByRater["a"].Rated != 12 {
		t.Errorf("slow %+v, a %+v", s, res.ByRater["a"])
	}
	if stored(t, d, "slow") != 0 || stored(t, d, "a") != 12 {
		t.Errorf("stored %d cut-short ratings and %d others; want 0 and 12", stored(t, d, "slow"), stored(t, d, "a"))
	}
}

// TestRateInterrupted ends the context after the first transaction: the
// ratings written stay, Rate says how many, and the error is the end's.
func TestRateInterrupted(t *testing.T) {
	d, ps := setup(t, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := ratepool.Rate(ctx, d, ps, []raters.Rater{fake{name: "a"}},
		ratepool.Options{Workers: 1, Batch: 5, Every: time.Hour, Committed: func(int) { cancel() }})
	if !errors.Is(err, context.Canceled) || res.Written != 5 || stored(t, d, "a") != 5 {
		t.Errorf("interrupted: %v, %d written, %d stored; want context.Canceled and 5", err, res.Written, stored(t, d, "a"))
	}
}

// TestRateFailure has a rater fail on the fifth puzzle: the error names
// the puzzle and the rater, and the ratings made before it are stored.
func TestRateFailure(t *testing.T) {
	d, ps := setup(t, 10)
	res, err := ratepool.Rate(context.Background(), d, ps, []raters.Rater{fake{name: "a", failOn: 24}},
		ratepool.Options{Workers: 1, Every: time.Hour})
	if err == nil || !strings.Contains(err.Error(), "rate puzzle 5 by a: no way") {
		t.Fatalf("Rate: %v", err)
	}
	if res.Written != 4 || stored(t, d, "a") != 4 {
		t.Errorf("%d written, %d stored; want the 4 made before the failure", res.Written, stored(t, d, "a"))
	}
}
