package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// PuzzleListTable lists the puzzles ListPuzzles selects, as puzzles list
// prints them: the columns id, size, givens, solutions (the count,
// "undetermined" when counting stopped, NULL when not counted) and grid.
func PuzzleListTable(ctx context.Context, x sqlx.ExtContext, where string, limit int) (Table, error) {
	ps, err := ListPuzzles(ctx, x, where, limit)
	if err != nil {
		return Table{}, err
	}
	t := Table{Columns: []string{"id", "size", "givens", "solutions", "grid"}, Rows: make([][]any, len(ps))}
	for i, p := range ps {
		var count any
		if p.SolutionCount != nil {
			count = *p.SolutionCount
		} else if p.CountStatus == sudokulab.CountUndetermined {
			count = sudokulab.CountUndetermined
		}
		t.Rows[i] = []any{p.ID, p.Givens.N(), p.Givens.Givens(), count, p.Givens.String()}
	}
	return t, nil
}
