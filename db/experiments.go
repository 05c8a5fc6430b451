package db

// Experiments: the named groups of runs.

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// EnsureExperiment returns the id of the experiment called name, creating
// it with the description if there is none. An existing experiment keeps
// its description unless it has none.
func EnsureExperiment(ctx context.Context, x sqlx.ExtContext, name, description string) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "an experiment needs a name")
	}
	return ensureNamed(ctx, x, "experiments", "experiment", name, description)
}

// ExperimentID returns the id of the experiment called name. Only a
// missing experiment is an ENOTFOUND error; a failed read is returned as
// the database reported it, so that callers can try it again.
func ExperimentID(ctx context.Context, x sqlx.ExtContext, name string) (int64, error) {
	var id int64
	err := sqlx.GetContext(ctx, x, &id, x.Rebind(`SELECT id FROM experiments WHERE name = ?`), name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, sudokulab.Errorf(sudokulab.ENOTFOUND, "no experiment called %q (see sudokulab experiments list)", name)
	}
	return id, dbError(err, "find experiment "+name)
}
