package raters_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
)

// tdokuDir holds the shared tdoku puzzle files; tests that read it skip
// when it is missing.
const tdokuDir = "/work/shared/data/tdoku"

// tdoku returns the first n puzzles of a tdoku file, skipping t if the file
// is missing.
func tdoku(t testing.TB, file string, n int) []sudokulab.Grid {
	f, err := os.Open(filepath.Join(tdokuDir, file))
	if err != nil {
		t.Skipf("tdoku data: %v", err)
	}
	defer f.Close()
	var out []sudokulab.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		g, err := sudokulab.Parse(strings.Fields(line)[0])
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, g)
	}
	return out
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

func TestSoundOnTdoku(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	used := map[raters.Technique]int{}
	for _, file := range []string{"puzzles2_17_clue.txt", "puzzles3_magictour_top1465.txt", "puzzles6_forum_hardest_1106.txt"} {
		for _, g := range tdoku(t, file, n) {
			tr := checkSound(t, file+":"+g.String(), g)
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
