package db

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// Budget is the budget part of a run's identity; 0 means no limit.
type Budget struct {
	MaxEvaluations, MaxGenerations, TimeoutMS int64
}

// RunKey is the rest of a run's identity.
type RunKey struct {
	PuzzleID, ConfigID, Seed int64
}

// RecordedRuns returns the identities of the stored runs of the given
// configurations with the given budget, for the run engine to skip.
func RecordedRuns(ctx context.Context, x sqlx.ExtContext, configIDs []int64, b Budget) (map[RunKey]bool, error) {
	out := map[RunKey]bool{}
	if len(configIDs) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(`
		SELECT puzzle_id, config_id, seed FROM runs
		WHERE config_id IN (?) AND max_evaluations = ? AND max_generations = ? AND timeout_ms = ?`,
		configIDs, b.MaxEvaluations, b.MaxGenerations, b.TimeoutMS)
	if err != nil {
		return nil, err
	}
	rows, err := x.QueryxContext(ctx, x.Rebind(q), args...)
	if err != nil {
		return nil, dbError(err, "list recorded runs")
	}
	defer rows.Close()
	for rows.Next() {
		var k RunKey
		if err := rows.Scan(&k.PuzzleID, &k.ConfigID, &k.Seed); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

// InsertRunIfNew stores a finished run and its trajectory like InsertRun,
// unless a run with the same identity is stored already: then it stores
// nothing and reports inserted false. It uses INSERT ... ON CONFLICT DO
// NOTHING, which leaves the caller's transaction usable on every backend,
// so the run engine can record a batch of runs in one transaction while
// another process works through the same experiment.
func InsertRunIfNew(ctx context.Context, x sqlx.ExtContext, r *sudokulab.Run, points []sudokulab.TrajectoryPoint) (id int64, inserted bool, err error) {
	return insertRun(ctx, x, r, points, true)
}

// FindConfigBySettings returns the configuration of solver whose
// parameters hash to paramsHash, and whether there is one: a configuration
// is identified by its settings, whatever its name.
func FindConfigBySettings(ctx context.Context, x sqlx.ExtContext, solver, paramsHash string) (*sudokulab.Config, bool, error) {
	c, err := scanConfig(x.QueryRowxContext(ctx, x.Rebind(`SELECT `+configCols+` FROM configs WHERE solver = ? AND params_hash = ?`), solver, paramsHash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, dbError(err, "find configuration of "+solver)
	}
	return &c, true, nil
}

// ListConfigs returns every configuration, presets first, then by name.
func ListConfigs(ctx context.Context, x sqlx.ExtContext) ([]sudokulab.Config, error) {
	rows, err := x.QueryxContext(ctx, `SELECT `+configCols+` FROM configs ORDER BY preset DESC, name`)
	if err != nil {
		return nil, dbError(err, "list configurations")
	}
	defer rows.Close()
	var out []sudokulab.Config
	for rows.Next() {
		c, err := scanConfig(rows)
		if err != nil {
			return nil, dbError(err, "list configurations")
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
