package exact_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"sudokulab"
	"sudokulab/internal/tdoku"
	"sudokulab/solvers/exact"
)

// crossCheckEnv names the environment variable that turns the cross-check
// into the full one: every puzzle of the four tdoku lists (99,6xx) and
// 20,000 generated ones, instead of samples.
const crossCheckEnv = "SUDOKULAB_EXACT_CROSSCHECK"

// TestCrossCheck holds the 9x9 engine against the general engine on a
// the committed samples of the tdoku lists (1,875 puzzles, see
// internal/tdoku; 100 of each with -short) and on
// generated puzzles with zero, one or many solutions: the same count up to
// 2, the same first solution, the same effort. With
// SUDOKULAB_EXACT_CROSSCHECK=1 it checks every puzzle of the full lists in
// the shared data folder (see internal/shareddata) and 20,000 generated
// ones, which takes minutes:
//
//	SUDOKULAB_EXACT_CROSSCHECK=1 go test ./solvers/exact/ -run CrossCheck -v -timeout 60m
func TestCrossCheck(t *testing.T) {
	full := os.Getenv(crossCheckEnv) != ""
	perList, generated := tdoku.SampleSize, 500
	if full {
		generated = 20000
	}
	if testing.Short() && !full {
		perList, generated = 100, 100
	}
	fast, general := exact.New(sudokulab.Classic), exact.NewGeneral(sudokulab.Classic)
	ctx := context.Background()
	checked, counts := 0, map[int]int{}
	check := func(name string, p sudokulab.Grid) {
		t.Helper()
		for _, limit := range []int{1, 2} {
			a, err1 := fast.Solve(ctx, p, limit)
			b, err2 := general.Solve(ctx, p, limit)
			if err1 != nil || err2 != nil || !sameResult(a, b) {
				t.Fatalf("%s: %s limit %d: 9x9 engine %+v, %v; general engine %+v, %v", name, p, limit, a, err1, b, err2)
			}
			if limit == 2 {
				counts[a.Count]++
			}
			if a.Count > 0 {
				if err := sudokulab.CheckSolution(p, a.Solution); err != nil {
					t.Fatalf("%s: %s: solution %s: %v", name, p, a.Solution, err)
				}
			}
		}
		checked++
	}
	for _, l := range tdoku.Lists {
		for _, p := range listPuzzles(t, l, perList, full) {
			check(l.Name, p)
		}
	}
	rng := rand.New(rand.NewPCG(2024, 15))
	for i := 0; i < generated; i++ {
		switch i % 3 {
		case 0: // holes in a full grid: one solution or many
			check("holes", withHoles(rng, randomFull(t, rng, sudokulab.Classic), 45+rng.IntN(20)))
		case 1: // few random givens: many solutions, sometimes none
			check("givens", randomGivens(rng, sudokulab.Classic, 8+rng.IntN(22)))
		default: // a changed given: often no solution
			p := withHoles(rng, randomFull(t, rng, sudokulab.Classic), 50)
			for c := range p.Cells {
				if p.Cells[c] != 0 {
					p.Cells[c] = p.Cells[c]%9 + 1
					break
				}
			}
			check("changed", p)
		}
	}
	t.Logf("%d puzzles checked; solution counts (limit 2): %v", checked, counts)
}
