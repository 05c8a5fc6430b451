package compare_test

import (
	"testing"

	"sudokulab/compare"
)

func TestResultRuns(t *testing.T) {
	tests := []struct {
		name         string
		puzzles      []compare.Row
		overall      compare.Side
		wantA, wantB int
	}{
		{"none", nil, compare.Side{}, 0, 0},
		{"only A on one puzzle", []compare.Row{{Puzzle: 1, A: compare.Side{Runs: 3}}, {Puzzle: 2, A: compare.Side{Runs: 2}, B: compare.Side{Runs: 4}}},
			compare.Side{Runs: 2}, 5, 4},
	}
	for _, tt := range tests {
		r := &compare.Result{Puzzles: tt.puzzles, Overall: compare.Row{A: tt.overall, B: tt.overall}}
		if a, b := r.Runs(); a != tt.wantA || b != tt.wantB {
			t.Errorf("%s: runs %d and %d, want %d and %d", tt.name, a, b, tt.wantA, tt.wantB)
		}
	}
}
