package raters_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/tdoku"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
)

// tdokuFull returns the first n puzzles of a tdoku list from the shared
// data folder, failing tb, naming the file, when it is missing.
func tdokuFull(tb testing.TB, l tdoku.List, n int) []sudokulab.Grid {
	tb.Helper()
	g, err := tdoku.Full(l)
	if err != nil {
		tb.Fatal(err)
	}
	return g[:min(n, len(g))]
}

// checkSound solves g logically and fails t if a step places a digit the
// solution does not have or eliminates the solution's digit.
func checkSound(t *testing.T, name string, g sudokulab.Grid) raters.Trace {
	t.Helper()
	res, err := exact.Solve(context.Background(), g, 2)
	if err != nil || res.Count != 1 {
		t.Fatalf("%s: exact solver: count %d, err %v", name, res.Count, err)
	}
	sol := res.Solution.Cells
	tr, err := raters.SolveLogically(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range tr.Steps {
		for _, c := range s.Placements {
			if int(sol[c.Cell]) != c.Digit {
				t.Fatalf("%s: step %d (%s) places %d in cell %d; the solution has %d", name, i, s.Technique, c.Digit, c.Cell, sol[c.Cell])
			}
		}
		for _, c := range s.Eliminations {
			if int(sol[c.Cell]) == c.Digit {
				t.Fatalf("%s: step %d (%s) eliminates the solution's %d from cell %d", name, i, s.Technique, c.Digit, c.Cell)
			}
		}
	}
	if tr.Contradiction {
		t.Fatalf("%s: contradiction", name)
	}
	return tr
}

func TestSoundOnPaperPuzzles(t *testing.T) {
	for _, p := range paperdata.All() {
		checkSound(t, p.Name, p.Puzzle)
	}
}

// TestSoundOnTdoku checks the soundness of every step on the committed
// samples of three tdoku lists (the first 300 puzzles of each, 30 with
// -short), whose hard puzzles need the chain, ALS and forcing-net
// techniques.
func TestSoundOnTdoku(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	used := map[raters.Technique]int{}
	for _, l := range []tdoku.List{tdoku.Clue17, tdoku.Top1465, tdoku.Hardest1106} {
		sample := tdoku.Sample(l)
		for _, g := range sample[:min(n, len(sample))] {
			tr := checkSound(t, l.Name+":"+g.String(), g)
			for _, s := range tr.Steps {
				used[s.Technique]++
			}
		}
	}
	t.Logf("techniques used: %v", used)
	if testing.Short() {
		return
	}
	// The hard lists need the chain, ALS and forcing-net techniques; one
	// that is never used is not checked here.
	for _, tech := range []raters.Technique{raters.XChain, raters.XYChain, raters.AIC, raters.ALSXZ, raters.ALSXYWing, raters.ForcingNet} {
		if used[tech] == 0 {
			t.Errorf("%s never used: not checked for soundness", tech)
		}
	}
}
