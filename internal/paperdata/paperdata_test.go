package paperdata_test

import (
	"os"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/shareddata"
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
// data/paper-puzzles.csv in the shared data folder (see
// internal/shareddata); it fails, naming the file, when that is missing (it skips, saying so,
// only where the folder is declared absent: shareddata.Absent).
func TestSameAsShared(t *testing.T) {
	path := shareddata.Need(t, "data/paper-puzzles.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != paperdata.CSV {
		t.Error("internal/paperdata/paper-puzzles.csv differs from shared/data/paper-puzzles.csv; copy it again")
	}
}
