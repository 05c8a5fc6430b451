package paperdata_test

import (
	"os"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
)

func TestPuzzles(t *testing.T) {
	all := paperdata.All()
	if len(all) != 11 {
		t.Errorf("%d puzzles, want 11", len(all))
	}
	for _, p := range all {
		if p.Puzzle.Givens() != p.Givens {
			t.Errorf("%s: %d givens, the givens column says %d", p.Name, p.Puzzle.Givens(), p.Givens)
		}
		if err := sudokulab.CheckSolution(p.Puzzle, p.Solution); err != nil {
			t.Errorf("%s: listed solution: %v", p.Name, err)
		}
	}
	if _, ok := paperdata.Get("ai-escargot"); !ok {
		t.Error("no ai-escargot")
	}
}

// TestSameAsShared checks that the embedded copy has not drifted from
// shared/data/paper-puzzles.csv, where that folder sits beside the clone.
func TestSameAsShared(t *testing.T) {
	b, err := os.ReadFile("../../../shared/data/paper-puzzles.csv")
	if err != nil {
		t.Skipf("shared data not beside the clone: %v", err)
	}
	if string(b) != paperdata.CSV {
		t.Error("internal/paperdata/paper-puzzles.csv differs from shared/data/paper-puzzles.csv; copy it again")
	}
}
