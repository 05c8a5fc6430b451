package raters

import (
	"context"
	"fmt"

	"sudokulab"
)

// Givens rates a puzzle by its number of givens. Its details hold the
// minimum number of givens in any row, column and box: {"min_row": 2,
// "min_col": 1, "min_box": 2, "min_unit": 1}. It has no options and no
// label.
type Givens struct{}

var _ Rater = Givens{}

// GivensInfo registers the givens rater.
func GivensInfo() Info {
	return Info{
		Name:    "givens",
		Summary: "number of givens, with the per-unit minimum",
		New: func(ctx context.Context, env Env) (Rater, error) {
			if err := newOptions("givens", env.Options).done(); err != nil {
				return nil, err
			}
			return Givens{}, nil
		},
	}
}

func (Givens) Name() string    { return "givens" }
func (Givens) Version() string { return "1" }
func (Givens) Options() string { return "{}" }

// Rate counts the givens of puzzle.
func (g Givens) Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error) {
	if err := ctx.Err(); err != nil {
		return sudokulab.Rating{}, fmt.Errorf("givens: %w", err)
	}
	if err := puzzle.Validate(); err != nil {
		return sudokulab.Rating{}, err
	}
	geo := puzzle.Geometry()
	n := geo.N
	mins := [3]int{n, n, n}
	for u, cells := range geo.Units {
		k := 0
		for _, c := range cells {
			if puzzle.Cells[c] != 0 {
				k++
			}
		}
		mins[u/n] = min(mins[u/n], k)
	}
	r := base(g)
	r.Value = ptr(float64(puzzle.Givens()))
	r.Details = mustJSON(map[string]int{"min_row": mins[0], "min_col": mins[1], "min_box": mins[2],
		"min_unit": min(mins[0], mins[1], mins[2])})
	return r, nil
}
