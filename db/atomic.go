package db

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// The writes of this file run in a transaction of their own (see WithTx),
// for commands that hold a *DB and have no transaction to pass.

// RemoveCollection is DeleteCollection in a transaction of its own.
func (d *DB) RemoveCollection(ctx context.Context, name string) (memberships int, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		memberships, err = DeleteCollection(ctx, tx, name)
		return err
	})
	return memberships, err
}

// Freeze is FreezeCollection in a transaction of its own.
func (d *DB) Freeze(ctx context.Context, name string, f Freeze) (n int, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		n, err = FreezeCollection(ctx, tx, name, f)
		return err
	})
	return n, err
}

// AddPuzzleTo stores p as AddPuzzle does and, when collection is not
// empty, puts it there under label (creating the collection), all in one
// transaction. It reports whether p was new.
func (d *DB) AddPuzzleTo(ctx context.Context, p *sudokulab.Puzzle, collection, label string) (created bool, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		if _, created, err = AddPuzzle(ctx, tx, p); err != nil {
			return err
		}
		if collection == "" {
			return nil
		}
		cid, err := EnsureCollection(ctx, tx, collection, "")
		if err != nil {
			return err
		}
		return AddMembership(ctx, tx, sudokulab.Membership{CollectionID: cid, PuzzleID: p.ID, Label: label})
	})
	return created, err
}

// SetSymmetryForms stores the symmetry-canonical forms of puzzles (by
// id) in one transaction.
func (d *DB) SetSymmetryForms(ctx context.Context, forms map[int64]string) error {
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for id, f := range forms {
			if err := SetSymmetryForm(ctx, tx, id, f); err != nil {
				return err
			}
		}
		return nil
	})
}

// CheckCatalogPredicate evaluates where, a predicate over the view
// puzzle_catalog, on a read-only connection before a writing command
// pastes it into its own SQL: a predicate that is not one expression,
// that the database rejects, or that would change the database (a
// function with side effects on PostgreSQL) is an EINVALID error naming
// it. An empty predicate passes.
func (d *DB) CheckCatalogPredicate(ctx context.Context, where string) error {
	if strings.TrimSpace(where) == "" {
		return nil
	}
	if err := checkPredicate(where); err != nil {
		return err
	}
	// Query, not ReadQuery: no placeholders, so a '?' in the predicate
	// stays the user's.
	if _, _, err := d.Query(ctx, "SELECT COUNT(*) FROM puzzle_catalog WHERE ("+where+"\n)", false); err != nil {
		if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			return err
		}
		return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, strings.TrimPrefix(err.Error(), "sql: "))
	}
	return nil
}

// RatingLevels returns the levels of the labels of rater in the table
// rating_levels (human: easy 1 .. beyond 6); empty when it has none.
func RatingLevels(ctx context.Context, x sqlx.ExtContext, rater string) (map[string]int, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`SELECT label, level FROM rating_levels WHERE rater = ?`), rater)
	if err != nil {
		return nil, dbError(err, "read rating_levels")
	}
	defer rows.Close()
	levels := map[string]int{}
	for rows.Next() {
		var label string
		var level int
		if err := rows.Scan(&label, &level); err != nil {
			return nil, dbError(err, "read rating_levels")
		}
		levels[label] = level
	}
	return levels, dbError(rows.Err(), "read rating_levels")
}
