package db

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// ExperimentName returns the name of experiment id, or an ENOTFOUND error.
func ExperimentName(ctx context.Context, x sqlx.ExtContext, id int64) (string, error) {
	var name string
	err := x.QueryRowxContext(ctx, x.Rebind(`SELECT name FROM experiments WHERE id = ?`), id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", sudokulab.Errorf(sudokulab.ENOTFOUND, "no experiment with id %d", id)
	}
	return name, dbError(err, "experiment name")
}
