package db

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// Table is a result set ready to print: column names and rows.
type Table struct {
	Columns []string
	Rows    [][]any
}

// Report reads one of the store's tables (configurations, experiments,
// runs) from a database or a transaction.
type Report func(ctx context.Context, x sqlx.ExtContext) (Table, error)

// Number reads a numeric cell of a Table: an integer, a float, or a number
// the driver returned as text (PostgreSQL numerics, SQLite values in a text
// column); NULL and anything else are NaN.
func Number(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return f
		}
	case []byte:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return f
		}
	}
	return math.NaN()
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
		t.Rows = append(t.Rows, textBytes(r))
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

// ExperimentTable lists the experiments with what they hold so far: the
// runs planned (work queued), done, and the runs that belong to them.
func ExperimentTable(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	t, err := queryTable(ctx, x, `
		WITH w AS (
		  SELECT experiment_id, COUNT(*) AS planned,
		         SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END) AS done
		  FROM work GROUP BY experiment_id),
		r AS (
		  SELECT er.experiment_id,
		         COUNT(DISTINCT r.config_id) AS configs,
		         COUNT(DISTINCT r.puzzle_id) AS puzzles,
		         COUNT(*) AS runs,
		         SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) AS solved,
		         MIN(r.started_at) AS first_run, MAX(r.finished_at) AS last_run
		  FROM experiment_runs er JOIN runs r ON r.id = er.run_id
		  GROUP BY er.experiment_id)
		SELECT e.name,
		       COALESCE(r.configs, 0) AS configs,
		       COALESCE(r.puzzles, 0) AS puzzles,
		       COALESCE(w.planned, r.runs, 0) AS planned,
		       COALESCE(r.runs, 0) AS runs,
		       COALESCE(r.solved, 0) AS solved,
		       r.first_run, r.last_run,
		       e.description
		FROM experiments e
		LEFT JOIN w ON w.experiment_id = e.id
		LEFT JOIN r ON r.experiment_id = e.id
		ORDER BY e.name`)
	return t, dbError(err, "list experiments")
}

// ExperimentDetail summarises the named experiment per configuration: its
// work pending, running (under a live lease), lapsed (its worker died; to
// be taken again), abandoned and done, and what its runs say. An unknown
// name gives no rows.
func ExperimentDetail(ctx context.Context, x sqlx.ExtContext, name string) (Table, error) {
	now := nowOf(x)
	t, err := queryTable(ctx, x, `
		WITH e AS (SELECT id FROM experiments WHERE name = ?),
		w AS (
		  SELECT config_id,
		         SUM(CASE WHEN state = 'pending' THEN 1 ELSE 0 END) AS pending,
		         SUM(CASE WHEN state = 'running' AND lease_until >= `+now+` THEN 1 ELSE 0 END) AS running,
		         SUM(CASE WHEN state = 'running' AND lease_until < `+now+` AND attempts < ? THEN 1 ELSE 0 END) AS lapsed,
		         SUM(CASE WHEN state = 'running' AND lease_until < `+now+` AND attempts >= ? THEN 1 ELSE 0 END) AS abandoned,
		         SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END) AS done
		  FROM work WHERE experiment_id = (SELECT id FROM e) GROUP BY config_id),
		r AS (
		  SELECT r.config_id,
		         COUNT(DISTINCT r.puzzle_id) AS puzzles,
		         COUNT(*) AS runs,
		         SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) AS solved,
		         ROUND(100.0 * SUM(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END) / COUNT(*), 1) AS success_pct,
		         ROUND(AVG(CASE WHEN r.status = 'solved' THEN r.evaluations END), 1) AS mean_evaluations_solved,
		         SUM(CASE WHEN r.status = 'error' THEN 1 ELSE 0 END) AS errors,
		         MIN(r.started_at) AS first_run, MAX(r.finished_at) AS last_run
		  FROM experiment_runs er JOIN runs r ON r.id = er.run_id
		  WHERE er.experiment_id = (SELECT id FROM e)
		  GROUP BY r.config_id)
		SELECT c.name AS config, c.solver,
		       COALESCE(w.pending, 0) AS pending, COALESCE(w.running, 0) AS running,
		       COALESCE(w.lapsed, 0) AS lapsed, COALESCE(w.abandoned, 0) AS abandoned,
		       COALESCE(w.done, r.runs, 0) AS done,
		       COALESCE(r.puzzles, 0) AS puzzles, COALESCE(r.runs, 0) AS runs, COALESCE(r.solved, 0) AS solved,
		       r.success_pct, r.mean_evaluations_solved, COALESCE(r.errors, 0) AS errors,
		       r.first_run, r.last_run
		FROM configs c
		LEFT JOIN w ON w.config_id = c.id
		LEFT JOIN r ON r.config_id = c.id
		WHERE w.config_id IS NOT NULL OR r.config_id IS NOT NULL
		ORDER BY c.name`, name, DefaultMaxAttempts, DefaultMaxAttempts)
	return t, dbError(err, "show experiment "+name)
}

// ExperimentHosts lists who worked on the named experiment: per host, the
// runs it recorded for it, and per worker process the runs it holds now
// with the latest lease.
func ExperimentHosts(ctx context.Context, x sqlx.ExtContext, name string) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT r.host AS host, '' AS worker, COUNT(*) AS runs_recorded, 0 AS running, NULL AS lease_until
		FROM experiment_runs er JOIN runs r ON r.id = er.run_id JOIN experiments e ON e.id = er.experiment_id
		WHERE e.name = ? AND r.experiment_id = e.id
		GROUP BY r.host
		UNION ALL
		SELECT '' AS host, w.worker AS worker, 0 AS runs_recorded, COUNT(*) AS running, MAX(w.lease_until) AS lease_until
		FROM work w JOIN experiments e ON e.id = w.experiment_id
		WHERE e.name = ? AND w.state = 'running'
		GROUP BY w.worker
		ORDER BY 1, 2`, name, name)
	return t, dbError(err, "show experiment "+name)
}

// RunTable lists runs from the view run_results that match the SQL
// predicate where (empty: all), newest first, at most limit (0: all).
func RunTable(ctx context.Context, x sqlx.ExtContext, where string, limit int) (Table, error) {
	return RunList(RunSelection{RunsWhere: where}, limit)(ctx, x)
}

// ExperimentConfigRuns counts the runs one configuration holds in an
// experiment: every run that belongs to it (experiment_runs), whether it
// recorded the run or linked it from an earlier experiment.
type ExperimentConfigRuns struct {
	Config string
	// Runs counts the configuration's runs in the experiment; Linked
	// those of them another experiment recorded first; Solved and Errors
	// those that ended solved or with an error.
	Runs, Linked, Solved, Errors int64
	// SolvedEffort and SolvedGenerations sum the effort (in EffortUnit:
	// evaluations, or nodes for a tree search) and the generations of the
	// solved runs.
	SolvedEffort, SolvedGenerations float64
	EffortUnit                      string
}

// ExperimentRunCounts counts the runs of each configuration (by id, in
// the order given) that experiment experimentID holds, as
// experiment_run_results does: the runs it recorded and those linked from
// earlier experiments. A configuration without runs in it gets a row of
// zeros.
func ExperimentRunCounts(ctx context.Context, x sqlx.ExtContext, experimentID int64, configIDs []int64) ([]ExperimentConfigRuns, error) {
	out := make([]ExperimentConfigRuns, len(configIDs))
	if len(configIDs) == 0 {
		return out, nil
	}
	in, args := inList(configIDs)
	t, err := queryTable(ctx, x, `
		SELECT c.id, c.name,
		       COUNT(r.id),
		       COALESCE(SUM(CASE WHEN r.id IS NOT NULL AND COALESCE(r.experiment_id, -1) <> ? THEN 1 ELSE 0 END), 0),
		       COALESCE(SUM(r.solved), 0),
		       COALESCE(SUM(CASE WHEN r.status = 'error' THEN 1 ELSE 0 END), 0),
		       COALESCE(SUM(CASE WHEN r.solved = 1 THEN r.effort END), 0),
		       COALESCE(SUM(CASE WHEN r.solved = 1 THEN r.generations END), 0),
		       MAX(CASE WHEN r.solved = 1 THEN r.effort_unit END)
		FROM configs c
		LEFT JOIN (
		  SELECT rr.id, rr.config_id, rr.experiment_id, rr.status, rr.solved, rr.effort, rr.effort_unit, rr.generations
		  FROM experiment_runs er JOIN run_results rr ON rr.id = er.run_id
		  WHERE er.experiment_id = ?) r ON r.config_id = c.id
		WHERE c.id IN `+in+`
		GROUP BY c.id, c.name`, append([]any{experimentID, experimentID}, args...)...)
	if err != nil {
		return nil, dbError(err, "count the experiment's runs")
	}
	for _, row := range t.Rows {
		id := int64(Number(row[0]))
		for i, c := range configIDs {
			if c != id {
				continue
			}
			out[i] = ExperimentConfigRuns{
				Config: row[1].(string), Runs: int64(Number(row[2])), Linked: int64(Number(row[3])),
				Solved: int64(Number(row[4])), Errors: int64(Number(row[5])),
				SolvedEffort: Number(row[6]), SolvedGenerations: Number(row[7]),
			}
			if u, ok := row[8].(string); ok {
				out[i].EffortUnit = u
			}
		}
	}
	return out, nil
}

// ConfigUnit is the unit a configuration counts its effort in
// (run_results.effort_unit): "evaluations", or "nodes" for a tree search.
type ConfigUnit struct {
	Config, Unit string
}

// RunUnits returns the effort unit of each configuration among the runs
// of the run_results row r that cond chooses (a condition on r, with its
// arguments, run read-only as ReadQuery runs it), by configuration name,
// and whether every one of those runs has its CPU time recorded.
func (d *DB) RunUnits(ctx context.Context, cond string, args ...any) (units []ConfigUnit, allCPU bool, err error) {
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.effort_unit, MIN(CASE WHEN r.cpu_seconds IS NULL THEN 0 ELSE 1 END)
		FROM run_results r
		WHERE `+cond+`
		GROUP BY r.config, r.effort_unit
		ORDER BY r.config, r.effort_unit`, args...)
	if err != nil {
		return nil, false, err
	}
	allCPU = len(t.Rows) > 0
	for _, row := range t.Rows {
		u := ConfigUnit{Config: fmt.Sprint(row[0])}
		if row[1] != nil {
			u.Unit = fmt.Sprint(row[1])
		}
		units = append(units, u)
		allCPU = allCPU && Number(row[2]) == 1
	}
	return units, allCPU, nil
}

// CollectionPuzzles is a collection with its size and those of its
// puzzles that some set holds.
type CollectionPuzzles struct {
	Name string
	// Size is the number of puzzles in the collection; Puzzles those of
	// them that are in the set asked about.
	Size    int
	Puzzles []int64
}

// ExperimentCollections returns the collections that hold puzzles the
// runs of the named experiment were on, by name, each with its size and
// those puzzles, so that a report can name a whole collection where the
// runs cover one (run --collection) instead of listing puzzle ids. It
// reads through ReadQuery: it changes nothing.
func (d *DB) ExperimentCollections(ctx context.Context, experiment string) ([]CollectionPuzzles, error) {
	t, err := d.ReadQuery(ctx, `
		WITH sizes AS (SELECT collection_id, COUNT(*) AS n FROM collection_puzzles GROUP BY collection_id),
		ran AS (
		  SELECT DISTINCT r.puzzle_id
		  FROM experiment_runs er
		  JOIN experiments e ON e.id = er.experiment_id
		  JOIN runs r ON r.id = er.run_id
		  WHERE e.name = ?)
		SELECT c.name, s.n, cp.puzzle_id
		FROM collections c
		JOIN sizes s ON s.collection_id = c.id
		JOIN collection_puzzles cp ON cp.collection_id = c.id
		JOIN ran ON ran.puzzle_id = cp.puzzle_id
		ORDER BY c.name, cp.puzzle_id`, experiment)
	if err != nil {
		return nil, err
	}
	var out []CollectionPuzzles
	for _, row := range t.Rows {
		name := fmt.Sprint(row[0])
		if len(out) == 0 || out[len(out)-1].Name != name {
			out = append(out, CollectionPuzzles{Name: name, Size: int(Number(row[1]))})
		}
		c := &out[len(out)-1]
		c.Puzzles = append(c.Puzzles, int64(Number(row[2])))
	}
	return out, nil
}
