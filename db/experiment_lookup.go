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
// solved ones, each newest first. Each part reads the experiment's runs
// newest first and stops at limit (the key of experiment_runs gives the
// order), rather than sorting all of them: milliseconds for an experiment
// of 400,000 runs where sorting took most of a second. The ids are read
// first, each run's status looked up by a subquery, so that no engine can
// join the runs otherwise: PostgreSQL merged the experiment's runs with
// every run newer than its newest, or read experiment_runs by run across
// all experiments (0.1 to 1.4 s for the biggest experiment of the scale
// lab, docs/web.md).
func ExperimentRunTable(ctx context.Context, x sqlx.ExtContext, name string, limit int) (Table, error) {
	part := func(cond string) string {
		return `SELECT * FROM (
			SELECT r.id AS id, c.name AS config, r.puzzle_id AS puzzle_id, r.seed AS seed, r.status AS status,
			       r.best_cost AS best_cost, r.generations AS generations, r.evaluations AS evaluations,
			       r.wall_seconds AS wall_seconds, r.host AS host
			FROM (SELECT er.run_id FROM experiment_runs er
			      WHERE er.experiment_id = (SELECT id FROM experiments WHERE name = ?)
			        AND (SELECT s.status FROM runs s WHERE s.id = er.run_id) ` + cond + `
			      ORDER BY er.run_id DESC LIMIT ?) AS ids
			JOIN runs r ON r.id = ids.run_id
			JOIN configs c ON c.id = r.config_id) AS part`
	}
	t, err := queryTable(ctx, x, `
		SELECT * FROM (`+part("<> 'solved'")+` UNION ALL `+part("= 'solved'")+`) AS runs
		ORDER BY CASE WHEN status = 'solved' THEN 1 ELSE 0 END, id DESC LIMIT ?`, name, limit, name, limit, limit)
	return t, dbError(err, "runs of experiment "+name)
}
