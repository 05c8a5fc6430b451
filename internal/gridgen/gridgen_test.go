package gridgen_test

import (
	"testing"

	"sudokulab"
	"sudokulab/internal/gridgen"
)

// TestShuffled checks that the solution obeys the rules, the puzzle keeps
// its givens, about frac of the cells are given, and a seed repeats.
func TestShuffled(t *testing.T) {
	for _, tc := range []struct {
		b    int
		frac float64
	}{{2, 0.5}, {3, 0.3}, {4, 0.45}, {5, 0.45}} {
		p, s := gridgen.Shuffled(tc.b, tc.frac, 3)
		if err := sudokulab.CheckSolution(p, s); err != nil {
			t.Errorf("order %d: %v", tc.b, err)
		}
		n := tc.b * tc.b
		if want := int(tc.frac*float64(n*n) + 0.999); p.Givens() != want {
			t.Errorf("order %d: %d givens, want %d", tc.b, p.Givens(), want)
		}
		if again, _ := gridgen.Shuffled(tc.b, tc.frac, 3); !again.Equal(p) {
			t.Errorf("order %d: seed 3 gave two puzzles", tc.b)
		}
		if other, _ := gridgen.Shuffled(tc.b, tc.frac, 4); other.Equal(p) {
			t.Errorf("order %d: seeds 3 and 4 gave the same puzzle", tc.b)
		}
	}
}

// TestPattern checks the pattern grid keeps keep valid givens.
func TestPattern(t *testing.T) {
	g := gridgen.Pattern(5, 60, 1)
	if g.Givens() != 60 {
		t.Errorf("%d givens, want 60", g.Givens())
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
}
