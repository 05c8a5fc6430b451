package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// namedTables are the tables whose rows MustExist looks up by name.
var namedTables = map[string]bool{"collections": true, "configs": true, "experiments": true}

// MustExist returns an ENOTFOUND error naming the thing (what: "experiment",
// "configuration", "collection") and the command that lists them unless
// table (collections, configs or experiments) has a row called name. A
// failure to look is an error of its own, never "not found".
func MustExist(ctx context.Context, x sqlx.ExtContext, table, what, name string) error {
	if !namedTables[table] {
		return sudokulab.Errorf(sudokulab.EINTERNAL, "MustExist: no named table %q", table)
	}
	var n int
	if err := sqlx.GetContext(ctx, x, &n, x.Rebind(`SELECT COUNT(*) FROM `+table+` WHERE name = ?`), name); err != nil {
		return dbError(err, "find "+what+" "+name)
	}
	if n == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "no %s called %q (sudokulab %s list shows them)", what, name, table)
	}
	return nil
}

// Names returns the names of the rows of table: collections, configs or
// experiments.
func Names(ctx context.Context, x sqlx.ExtContext, table string) ([]string, error) {
	if !namedTables[table] {
		return nil, sudokulab.Errorf(sudokulab.EINTERNAL, "Names: no named table %q", table)
	}
	var names []string
	err := sqlx.SelectContext(ctx, x, &names, `SELECT name FROM `+table)
	return names, dbError(err, "list "+table)
}

// CountPuzzles returns how many puzzles are stored.
func CountPuzzles(ctx context.Context, x sqlx.ExtContext) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, x, &n, `SELECT count(*) FROM puzzles`)
	return n, dbError(err, "count puzzles")
}
