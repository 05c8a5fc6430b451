package db

import (
	"context"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Table is a result set ready to print: column names and rows.
type Table struct {
	Columns []string
	Rows    [][]any
}

// queryTable runs a query of the store (args bound through Rebind) and
// returns its rows with text columns as strings.
func queryTable(ctx context.Context, x sqlx.ExtContext, query string, args ...any) (Table, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(query), args...)
	if err != nil {
		return Table{}, err
	}
	defer rows.Close()
	return scanTable(rows)
}

// scanTable reads every row, turning byte slices into strings.
func scanTable(rows *sqlx.Rows) (Table, error) {
	var (
		t   Table
		err error
	)
	if t.Columns, err = rows.Columns(); err != nil {
		return t, err
	}
	for rows.Next() {
		r, err := rows.SliceScan()
		if err != nil {
			return t, err
		}
		for i, v := range r {
			if b, ok := v.([]byte); ok {
				r[i] = string(b)
			}
		}
		t.Rows = append(t.Rows, r)
	}
	return t, rows.Err()
}

// ConfigTable lists every configuration with its run counts, presets
// first.
func ConfigTable(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT c.name, c.solver, c.preset,
		       COUNT(r.id) AS runs,
		       COALESCE(SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END), 0) AS solved,
		       c.params, c.description
		FROM configs c LEFT JOIN runs r ON r.config_id = c.id
		GROUP BY c.id, c.name, c.solver, c.preset, c.params, c.description
		ORDER BY c.preset DESC, c.name`)
	return t, dbError(err, "list configurations")
}

// ExperimentTable lists the experiments with what they hold so far.
func ExperimentTable(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT e.name,
		       COUNT(DISTINCT r.config_id) AS configs,
		       COUNT(DISTINCT r.puzzle_id) AS puzzles,
		       COUNT(r.id) AS runs,
		       COALESCE(SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END), 0) AS solved,
		       MIN(r.started_at) AS first_run, MAX(r.finished_at) AS last_run,
		       e.description
		FROM experiments e LEFT JOIN runs r ON r.experiment_id = e.id
		GROUP BY e.id, e.name, e.description
		ORDER BY e.name`)
	return t, dbError(err, "list experiments")
}

// ExperimentDetail summarises the runs of the named experiment per
// configuration; an unknown name gives no rows.
func ExperimentDetail(ctx context.Context, x sqlx.ExtContext, name string) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT c.name AS config, c.solver,
		       COUNT(DISTINCT r.puzzle_id) AS puzzles,
		       COUNT(r.id) AS runs,
		       SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) AS solved,
		       ROUND(100.0 * SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) / COUNT(r.id), 1) AS success_pct,
		       ROUND(AVG(CASE WHEN r.status = 'solved' THEN r.evaluations END), 1) AS mean_evaluations_solved,
		       SUM(CASE WHEN r.status = 'error' THEN 1 ELSE 0 END) AS errors,
		       MIN(r.started_at) AS first_run, MAX(r.finished_at) AS last_run
		FROM runs r
		JOIN experiments e ON e.id = r.experiment_id
		JOIN configs c ON c.id = r.config_id
		WHERE e.name = ?
		GROUP BY c.id, c.name, c.solver
		ORDER BY c.name`, name)
	return t, dbError(err, "show experiment "+name)
}

// RunTable lists runs from the view run_results that match the SQL
// predicate where (empty: all), newest first, at most limit (0: all).
func RunTable(ctx context.Context, x sqlx.ExtContext, where string, limit int) (Table, error) {
	q := `SELECT id, experiment, config, puzzle_id, seed, status, generations, evaluations, restarts, best_cost, wall_seconds, finished_at FROM run_results`
	if strings.TrimSpace(where) != "" {
		if err := checkPredicate(where); err != nil {
			return Table{}, err
		}
		q += " WHERE (" + where + "\n)"
	}
	q += " ORDER BY id DESC"
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	// No placeholders, so no Rebind: a '?' in the predicate is the user's.
	rows, err := x.QueryxContext(ctx, q)
	if err != nil {
		if ctx.Err() != nil {
			return Table{}, ctx.Err()
		}
		return Table{}, userSQLError(err)
	}
	defer rows.Close()
	t, err := scanTable(rows)
	if err != nil {
		return t, userSQLError(err)
	}
	return t, nil
}
