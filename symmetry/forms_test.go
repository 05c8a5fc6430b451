package symmetry_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/symmetry"
)

// TestForms gives two puzzles that are one up to symmetry the same form,
// tells done of each, and stops at an ended context.
func TestForms(t *testing.T) {
	g := sudokulab.MustParse("1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..")
	ps := []sudokulab.Puzzle{{ID: 1, Givens: g}, {ID: 2, Givens: transpose(g)}}
	n := 0
	forms, err := symmetry.Forms(context.Background(), ps, func() { n++ })
	if err != nil || n != 2 || len(forms) != 2 || forms[1] != forms[2] || forms[1] == "" {
		t.Errorf("Forms = %v, %v after %d calls of done; want one form for both", forms, err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := symmetry.Forms(ctx, ps, nil); err != context.Canceled {
		t.Errorf("Forms with an ended context: %v, want context.Canceled", err)
	}
}

// transpose mirrors g about its main diagonal.
func transpose(g sudokulab.Grid) sudokulab.Grid {
	t := g.Clone()
	for r := range 9 {
		for c := range 9 {
			t.Cells[r*9+c] = g.Cells[c*9+r]
		}
	}
	return t
}
