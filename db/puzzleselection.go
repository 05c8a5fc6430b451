package db

import (
	"context"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// PuzzlePredicate is the predicate over the view puzzle_catalog that
// selects the puzzles matching where (an SQL predicate a person gave), of
// the collection named collection and with one of the ids; an empty
// where, collection or ids leaves that condition out. Each part is checked
// as AndPredicates does, so a where that could leave its parentheses is an
// EINVALID error. The text is stable: sudokulab run names an experiment
// after it.
func PuzzlePredicate(where, collection string, ids []int64) (string, error) {
	pred, err := AndPredicates(where)
	if collection != "" {
		pred, err = AndPredicates(where, "collection = '"+strings.ReplaceAll(collection, "'", "''")+"'")
	}
	if err != nil || len(ids) == 0 {
		return pred, err
	}
	in := make([]string, len(ids))
	for i, id := range ids {
		in[i] = strconv.FormatInt(id, 10)
	}
	return AndPredicates(pred, "id IN ("+strings.Join(in, ", ")+")")
}

// SelectionPredicate is PuzzlePredicate once the collection, when named,
// is known to exist: a missing one is GetCollection's ENOTFOUND error,
// said before any fault of where.
func SelectionPredicate(ctx context.Context, x sqlx.ExtContext, where, collection string, ids []int64) (string, error) {
	if collection != "" {
		if _, err := GetCollection(ctx, x, collection); err != nil {
			return "", err
		}
	}
	return PuzzlePredicate(where, collection, ids)
}
