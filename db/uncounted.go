package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// UncountedPuzzles returns the puzzles matching where (a predicate over
// the view puzzle_catalog, as ListPuzzles takes; empty: all) whose
// solution count is not known: undetermined (the budget of an earlier
// count ran out) or never counted. sudokulab count counts them again.
func UncountedPuzzles(ctx context.Context, x sqlx.ExtContext, where string) ([]sudokulab.Puzzle, error) {
	where, err := AndPredicates("solution_count IS NULL", where)
	if err != nil {
		return nil, err
	}
	return ListPuzzles(ctx, x, where, 0)
}
