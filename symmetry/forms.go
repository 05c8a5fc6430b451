package symmetry

import (
	"context"

	"sudokulab"
)

// Forms returns the symmetry-canonical forms of 9x9 puzzles by id, as
// dedupe gives them to the puzzles that lack one, calling done after each
// (nil: nothing). It stops with ctx's error when ctx ends.
func Forms(ctx context.Context, ps []sudokulab.Puzzle, done func()) (map[int64]string, error) {
	var z Canonicalizer
	forms := make(map[int64]string, len(ps))
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, err := z.Form(p.Givens)
		if err != nil {
			return nil, err
		}
		forms[p.ID] = f
		if done != nil {
			done()
		}
	}
	return forms, nil
}
