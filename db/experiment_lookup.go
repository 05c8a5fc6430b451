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

// ExperimentRunTable lists at most limit runs of the named experiment
// (experiment_run_results): those that did not solve first, then the
// solved ones, each newest first.
func ExperimentRunTable(ctx context.Context, x sqlx.ExtContext, name string, limit int) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT id, config, puzzle_id, seed, status, best_cost, generations, evaluations, wall_seconds, host
		FROM experiment_run_results WHERE experiment = ?
		ORDER BY solved, id DESC LIMIT ?`, name, limit)
	return t, dbError(err, "runs of experiment "+name)
}
