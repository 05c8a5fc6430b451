package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// PointBatch is the number of trajectory points InsertRun writes per
// INSERT statement (9 parameters each, well under SQLite's limit of 32766).
// Tuned with BenchmarkInsertTrajectoryPoints (runs of 1,000 points, 2
// CPUs): one row per statement gives about 160,000 points/s, 10 rows
// 355,000, 100 to 4,000 rows 430,000 to 470,000 with 250 at the top.
const PointBatch = 250

// beginner is a pool that can start a transaction (*sqlx.DB, *DB), as
// opposed to a transaction.
type beginner interface {
	BeginTxx(ctx context.Context, opts *sql.TxOptions) (*sqlx.Tx, error)
}

// InsertRun stores a finished run and its trajectory, sets r.ID and returns
// it. The points are stored in slice order with seq 0, 1, 2, ...; their
// RunID and Seq fields are ignored. Given the pool rather than a
// transaction, it uses a transaction of its own so that a run is never
// stored without its trajectory.
//
// A run with the same identity (puzzle, configuration, seed and budget) as
// a stored one is an ECONFLICT error: this is what lets two processes work
// through the same experiment without recording a run twice. Inside a
// caller's transaction on SQLite the failed insert leaves the transaction
// usable. A missing puzzle, configuration or experiment is an ENOTFOUND
// error.
func InsertRun(ctx context.Context, x sqlx.ExtContext, r *sudokulab.Run, points []sudokulab.TrajectoryPoint) (int64, error) {
	if b, ok := x.(beginner); ok {
		var id int64
		err := withTx(ctx, b, "", func(tx *sqlx.Tx) (err error) {
			id, _, err = insertRun(ctx, tx, r, points, false)
			return err
		})
		if err != nil {
			r.ID = 0
			return 0, dbError(err, "add run")
		}
		return id, nil
	}
	id, _, err := insertRun(ctx, x, r, points, false)
	return id, err
}

// insertRun inserts the run and its points. With ifNew a run whose
// identity is stored already is skipped (inserted false) by ON CONFLICT DO
// NOTHING, which keeps the transaction usable on every backend; without
// it, it is an ECONFLICT error.
func insertRun(ctx context.Context, x sqlx.ExtContext, r *sudokulab.Run, points []sudokulab.TrajectoryPoint, ifNew bool) (id int64, inserted bool, err error) {
	if !r.Status.Valid() {
		return 0, false, sudokulab.Errorf(sudokulab.EINVALID, "run status %q: want solved, unsolved, timeout, canceled or error", r.Status)
	}
	if r.MaxEvaluations < 0 || r.MaxGenerations < 0 || r.TimeoutMS < 0 {
		return 0, false, sudokulab.Errorf(sudokulab.EINVALID, "run budget cannot be negative (0 means no limit)")
	}
	r.StartedAt = stamp(r.StartedAt)
	r.FinishedAt = stamp(r.FinishedAt)
	conflict := ""
	if ifNew {
		conflict = "ON CONFLICT (puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms) DO NOTHING"
	}
	err = x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO runs (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
			status, evaluations, generations, restarts, best_cost, final_grid, wall_seconds, error,
			code_version, host, started_at, finished_at, cpu_seconds, prefilter_revisions, nodes, guesses)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		`+conflict+`
		RETURNING id`),
		nullID(r.ExperimentID), r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS,
		string(r.Status), r.Evaluations, r.Generations, r.Restarts, r.BestCost, nullGrid(r.FinalGrid), r.WallSeconds,
		nullStr(r.Error), r.CodeVersion, r.Host, FormatTime(r.StartedAt), FormatTime(r.FinishedAt),
		r.CPUSeconds, r.PrefilterRevisions, r.Nodes, r.Guesses).Scan(&id)
	if ifNew && errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, dbError(err, fmt.Sprintf("add run of config %d on puzzle %d with seed %d", r.ConfigID, r.PuzzleID, r.Seed))
	}
	r.ID = id
	if err := insertPoints(ctx, x, id, points); err != nil {
		return 0, false, err
	}
	return id, true, nil
}

// runKey is the identity of a run.
type runKey struct {
	puzzle, config, seed, evals, gens, timeout int64
}

func keyOf(r *sudokulab.Run) runKey {
	return runKey{r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS}
}

// runParams is the number of columns a run's INSERT sets.
const runParams = 23

// insertRunsChunk bounds the runs of one multi-row INSERT (runParams
// parameters each, well under SQLite's 32,766 and PostgreSQL's 65,535).
const insertRunsChunk = 200

// InsertRunsIfNew stores finished runs without their trajectories in
// multi-row INSERTs, skipping those whose identity is stored already (or
// appears earlier in runs), and sets every run's ID: the new row's, or
// the stored run's. It reports which were new. The run engine records a
// batch of runs with it in one transaction.
func InsertRunsIfNew(ctx context.Context, x sqlx.ExtContext, runs []*sudokulab.Run) (inserted []bool, err error) {
	inserted = make([]bool, len(runs))
	for start := 0; start < len(runs); start += insertRunsChunk {
		part := runs[start:min(start+insertRunsChunk, len(runs))]
		args := make([]any, 0, runParams*len(part))
		for _, r := range part {
			if !r.Status.Valid() {
				return nil, sudokulab.Errorf(sudokulab.EINVALID, "run status %q: want solved, unsolved, timeout, canceled or error", r.Status)
			}
			if r.MaxEvaluations < 0 || r.MaxGenerations < 0 || r.TimeoutMS < 0 {
				return nil, sudokulab.Errorf(sudokulab.EINVALID, "run budget cannot be negative (0 means no limit)")
			}
			r.StartedAt, r.FinishedAt = stamp(r.StartedAt), stamp(r.FinishedAt)
			args = append(args, nullID(r.ExperimentID), r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS,
				string(r.Status), r.Evaluations, r.Generations, r.Restarts, r.BestCost, nullGrid(r.FinalGrid), r.WallSeconds,
				nullStr(r.Error), r.CodeVersion, r.Host, FormatTime(r.StartedAt), FormatTime(r.FinishedAt),
				r.CPUSeconds, r.PrefilterRevisions, r.Nodes, r.Guesses)
		}
		rows, err := x.QueryxContext(ctx, x.Rebind(`
			INSERT INTO runs (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
				status, evaluations, generations, restarts, best_cost, final_grid, wall_seconds, error,
				code_version, host, started_at, finished_at, cpu_seconds, prefilter_revisions, nodes, guesses)
			VALUES `+values(len(part), runParams)+`
			ON CONFLICT (puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms) DO NOTHING
			RETURNING id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms`), args...)
		if err != nil {
			return nil, dbError(err, "add runs")
		}
		ids := make(map[runKey]int64, len(part))
		for rows.Next() {
			var (
				k  runKey
				id int64
			)
			if err := rows.Scan(&id, &k.puzzle, &k.config, &k.seed, &k.evals, &k.gens, &k.timeout); err != nil {
				rows.Close()
				return nil, dbError(err, "add runs")
			}
			ids[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, dbError(err, "add runs")
		}
		for i, r := range part {
			k := keyOf(r)
			if id, ok := ids[k]; ok {
				r.ID, inserted[start+i] = id, true
				delete(ids, k) // a second run of the same identity is not new
				continue
			}
			id, found, err := FindRunID(ctx, x, *r)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, fmt.Errorf("db: add run of config %d on puzzle %d with seed %d: neither stored nor found", r.ConfigID, r.PuzzleID, r.Seed)
			}
			r.ID = id
		}
	}
	return inserted, nil
}

// pointsQuery caches the INSERT statement for n points.
var pointsQuery sync.Map // map[string]string, key driver name + n

func pointsSQL(x sqlx.ExtContext, n int) string {
	key := fmt.Sprint(x.DriverName(), n)
	if q, ok := pointsQuery.Load(key); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString("INSERT INTO trajectory_points (run_id, seq, generation, evaluations, elapsed_seconds, best_cost, current_cost, restarts, convergence) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?,?,?,?,?)")
	}
	q := x.Rebind(b.String())
	pointsQuery.Store(key, q)
	return q
}

// insertPoints writes the points of one run, numbered 0, 1, 2 ... in slice
// order whatever their RunID and Seq fields say.
func insertPoints(ctx context.Context, x sqlx.ExtContext, runID int64, points []sudokulab.TrajectoryPoint) error {
	return writePoints(ctx, x, runID, points)
}

// InsertPoints stores trajectory points of any number of runs, each with
// its RunID and Seq set, in multi-row INSERTs of PointBatch rows. Given a
// transaction it prepares the full-size INSERT once per call, so the run
// engine gathers the points of a whole batch of runs into one call rather
// than preparing a statement of a different size for every run.
func InsertPoints(ctx context.Context, x sqlx.ExtContext, points []sudokulab.TrajectoryPoint) error {
	return writePoints(ctx, x, 0, points)
}

// preparer is a transaction or pool that can prepare a statement.
type preparer interface {
	PreparexContext(ctx context.Context, query string) (*sqlx.Stmt, error)
}

// writePoints inserts points; a runID of 0 means each point's own RunID and
// Seq, any other the given run with seq from the slice order.
func writePoints(ctx context.Context, x sqlx.ExtContext, runID int64, points []sudokulab.TrajectoryPoint) error {
	var full *sqlx.Stmt
	if p, ok := x.(preparer); ok && len(points) >= 2*PointBatch {
		st, err := p.PreparexContext(ctx, pointsSQL(x, PointBatch))
		if err != nil {
			return dbError(err, "prepare trajectory insert")
		}
		defer st.Close()
		full = st
	}
	args := make([]any, 0, 9*min(len(points), PointBatch))
	for start := 0; start < len(points); start += PointBatch {
		batch := points[start:min(start+PointBatch, len(points))]
		args = args[:0]
		for i, p := range batch {
			var cur any
			if p.CurrentCost != nil {
				cur = *p.CurrentCost
			}
			var conv any
			if p.Convergence != nil {
				conv = *p.Convergence
			}
			run, seq := runID, int64(start+i)
			if runID == 0 {
				run, seq = p.RunID, int64(p.Seq)
			}
			args = append(args, run, seq, p.Generation, p.Evaluations, p.ElapsedSeconds, int64(p.BestCost), cur, p.Restarts, conv)
		}
		var err error
		if full != nil && len(batch) == PointBatch {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = x.ExecContext(ctx, pointsSQL(x, len(batch)), args...)
		}
		if err != nil {
			return dbError(err, fmt.Sprintf("add trajectory of run %d", args[0]))
		}
	}
	return nil
}

// FindRunID returns the id of the stored run with the identity of r
// (puzzle, configuration, seed and budget), and whether there is one.
func FindRunID(ctx context.Context, x sqlx.ExtContext, r sudokulab.Run) (id int64, found bool, err error) {
	err = x.QueryRowxContext(ctx, x.Rebind(`
		SELECT id FROM runs
		WHERE puzzle_id = ? AND config_id = ? AND seed = ?
		  AND max_evaluations = ? AND max_generations = ? AND timeout_ms = ?`),
		r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, dbError(err, "find run")
	}
	return id, true, nil
}

// runCols are the columns scanRun reads, in order, from runs r joined with
// puzzles p (for the shape of the final grid).
const runCols = `r.id, r.experiment_id, r.puzzle_id, r.config_id, r.seed, r.max_evaluations, r.max_generations,
	r.timeout_ms, r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.wall_seconds,
	r.error, r.code_version, r.host, r.started_at, r.finished_at, r.cpu_seconds, r.prefilter_revisions, r.nodes,
	r.guesses, p.box_rows, p.box_cols`

func scanRun(rs rowScanner) (sudokulab.Run, error) {
	var (
		r      sudokulab.Run
		status string
		final  string
		shape  sudokulab.Shape
	)
	err := rs.Scan(&r.ID, idCol[int64]{&r.ExperimentID}, &r.PuzzleID, &r.ConfigID, &r.Seed, &r.MaxEvaluations,
		&r.MaxGenerations, &r.TimeoutMS, &status, &r.Evaluations, &r.Generations, &r.Restarts, &r.BestCost,
		strCol{&final}, &r.WallSeconds, strCol{&r.Error}, &r.CodeVersion, &r.Host, timeCol{&r.StartedAt},
		timeCol{&r.FinishedAt}, &r.CPUSeconds, &r.PrefilterRevisions, &r.Nodes, &r.Guesses, &shape.BoxRows, &shape.BoxCols)
	if err != nil {
		return r, err
	}
	r.Status = sudokulab.RunStatus(status)
	r.FinalGrid, err = parseGridCol(final, shape, "final grid")
	return r, err
}

// GetRun returns the run with the given id, or an ENOTFOUND error.
func GetRun(ctx context.Context, x sqlx.ExtContext, id int64) (*sudokulab.Run, error) {
	r, err := scanRun(x.QueryRowxContext(ctx, x.Rebind(`
		SELECT `+runCols+` FROM runs r JOIN puzzles p ON p.id = r.puzzle_id WHERE r.id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no run with id %d", id)
	}
	if err != nil {
		return nil, dbError(err, "get run")
	}
	return &r, nil
}

// PuzzleRuns returns the runs on a puzzle, ordered by id; none is not an
// error.
func PuzzleRuns(ctx context.Context, x sqlx.ExtContext, puzzleID int64) ([]sudokulab.Run, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT `+runCols+` FROM runs r JOIN puzzles p ON p.id = r.puzzle_id
		WHERE r.puzzle_id = ? ORDER BY r.id`), puzzleID)
	if err != nil {
		return nil, dbError(err, "puzzle runs")
	}
	defer rows.Close()
	var out []sudokulab.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, dbError(err, "puzzle runs")
		}
		out = append(out, r)
	}
	return out, dbError(rows.Err(), "puzzle runs")
}

// RunTrajectory returns the trajectory points of a run in seq order.
func RunTrajectory(ctx context.Context, x sqlx.ExtContext, runID int64) ([]sudokulab.TrajectoryPoint, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT run_id, seq, generation, evaluations, elapsed_seconds, best_cost, current_cost, restarts, convergence
		FROM trajectory_points WHERE run_id = ? ORDER BY seq`), runID)
	if err != nil {
		return nil, dbError(err, "run trajectory")
	}
	defer rows.Close()
	var out []sudokulab.TrajectoryPoint
	for rows.Next() {
		var p sudokulab.TrajectoryPoint
		if err := rows.Scan(&p.RunID, &p.Seq, &p.Generation, &p.Evaluations, &p.ElapsedSeconds, &p.BestCost, &p.CurrentCost, &p.Restarts, &p.Convergence); err != nil {
			return nil, dbError(err, "run trajectory")
		}
		out = append(out, p)
	}
	return out, dbError(rows.Err(), "run trajectory")
}

// UpsertRating stores a rating, replacing the puzzle's rating by the same
// rater if there is one (its id is kept). Empty Options stand for "{}";
// Options and Details must be JSON objects. A missing puzzle is an
// ENOTFOUND error.
func UpsertRating(ctx context.Context, x sqlx.ExtContext, r sudokulab.Rating) error {
	if r.Rater == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "a rating needs a rater")
	}
	if r.Options == "" {
		r.Options = "{}"
	}
	if err := r.Check(); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "rating of puzzle %d by %.80q", r.PuzzleID, r.Rater)
	}
	_, err := x.ExecContext(ctx, x.Rebind(`
		INSERT INTO ratings (puzzle_id, rater, rater_version, options, value, label, details, rated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (puzzle_id, rater) DO UPDATE SET
			rater_version = excluded.rater_version, options = excluded.options, value = excluded.value,
			label = excluded.label, details = excluded.details, rated_at = excluded.rated_at`),
		r.PuzzleID, r.Rater, r.RaterVersion, r.Options, r.Value, nullStr(r.Label), nullStr(r.Details),
		FormatTime(stamp(r.RatedAt)))
	if err != nil {
		return dbError(err, fmt.Sprintf("rate puzzle %d by %s", r.PuzzleID, r.Rater))
	}
	return nil
}

// PuzzleRatings returns the ratings of a puzzle, ordered by rater.
func PuzzleRatings(ctx context.Context, x sqlx.ExtContext, puzzleID int64) ([]sudokulab.Rating, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT id, puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id
		FROM ratings WHERE puzzle_id = ? ORDER BY rater`), puzzleID)
	if err != nil {
		return nil, dbError(err, "puzzle ratings")
	}
	defer rows.Close()
	var out []sudokulab.Rating
	for rows.Next() {
		var r sudokulab.Rating
		if err := rows.Scan(&r.ID, &r.PuzzleID, &r.Rater, &r.RaterVersion, &r.Options, &r.Value,
			strCol{&r.Label}, strCol{&r.Details}, timeCol{&r.RatedAt}, idCol[int64]{&r.ImportID}); err != nil {
			return nil, dbError(err, "puzzle ratings")
		}
		out = append(out, r)
	}
	return out, dbError(rows.Err(), "puzzle ratings")
}

// configCols are the columns scanConfig reads, in order.
const configCols = "id, name, solver, params, params_hash, description, preset, created_at"

func scanConfig(rs rowScanner) (sudokulab.Config, error) {
	var c sudokulab.Config
	err := rs.Scan(&c.ID, &c.Name, &c.Solver, &c.Params, &c.ParamsHash, &c.Description, &c.Preset, timeCol{&c.CreatedAt})
	return c, err
}

// EnsureConfig stores a solver configuration unless the same one is stored,
// and returns its id; created says whether the row is new. It
// canonicalizes c.Params, computes c.ParamsHash, and sets c.ID (and
// c.CreatedAt). The same solver and parameters under another name, or the
// name taken by other settings, is an ECONFLICT error naming the stored
// configuration.
func EnsureConfig(ctx context.Context, x sqlx.ExtContext, c *sudokulab.Config) (id int64, created bool, err error) {
	return ensureConfig(ctx, x, c, false)
}

// ensureConfig is EnsureConfig; raced says the configuration's insert
// found it stored by another since the lookup, so that a second such
// insert is an error rather than a loop.
func ensureConfig(ctx context.Context, x sqlx.ExtContext, c *sudokulab.Config, raced bool) (id int64, created bool, err error) {
	if strings.TrimSpace(c.Name) == "" || strings.TrimSpace(c.Solver) == "" {
		return 0, false, sudokulab.Errorf(sudokulab.EINVALID, "a configuration needs a name and a solver")
	}
	params, err := sudokulab.CanonicalParams(c.Params)
	if err != nil {
		return 0, false, err
	}
	c.Params, c.ParamsHash = params, sudokulab.ConfigParamsHash(c.Solver, params)
	if err := c.Check(nil); err != nil {
		return 0, false, sudokulab.WrapError(sudokulab.EINVALID, err, "configuration %.80q", c.Name)
	}
	rows, err := x.QueryxContext(ctx, x.Rebind(`SELECT `+configCols+` FROM configs
		WHERE name = ? OR (solver = ? AND params_hash = ?)`), c.Name, c.Solver, c.ParamsHash)
	if err != nil {
		return 0, false, dbError(err, "find configuration "+c.Name)
	}
	var found []sudokulab.Config
	for rows.Next() {
		s, err := scanConfig(rows)
		if err != nil {
			rows.Close()
			return 0, false, dbError(err, "find configuration "+c.Name)
		}
		found = append(found, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, false, dbError(err, "find configuration "+c.Name)
	}
	for _, s := range found {
		switch {
		case s.Name == c.Name && s.Solver == c.Solver && s.ParamsHash == c.ParamsHash:
			c.ID, c.CreatedAt = s.ID, s.CreatedAt
			return s.ID, false, nil
		case s.Name == c.Name:
			return 0, false, sudokulab.Errorf(sudokulab.ECONFLICT,
				"configuration %q exists with other settings (%s %s)", c.Name, s.Solver, s.Params)
		default:
			return 0, false, sudokulab.Errorf(sudokulab.ECONFLICT,
				"configuration %q has the same settings as the stored configuration %q", c.Name, s.Name)
		}
	}
	c.CreatedAt = stamp(c.CreatedAt)
	// Another process may store the same configuration between the
	// lookup and the insert (irace's target runners, two at a time, each
	// a sudokulab run): the insert then adds nothing, and the lookup
	// again finds what it stored.
	err = x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO configs (name, solver, params, params_hash, description, preset, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING
		RETURNING id`),
		c.Name, c.Solver, c.Params, c.ParamsHash, c.Description, boolInt(c.Preset), FormatTime(c.CreatedAt)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) && !raced {
		return ensureConfig(ctx, x, c, true)
	}
	if err != nil {
		return 0, false, dbError(err, "add configuration "+c.Name)
	}
	c.ID = id
	return id, true, nil
}

// GetConfigByID returns the configuration with the given id, or an
// ENOTFOUND error.
func GetConfigByID(ctx context.Context, x sqlx.ExtContext, id int64) (*sudokulab.Config, error) {
	c, err := scanConfig(x.QueryRowxContext(ctx, x.Rebind(`SELECT `+configCols+` FROM configs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no configuration with id %d", id)
	}
	if err != nil {
		return nil, dbError(err, "get configuration")
	}
	return &c, nil
}

// GetConfig returns the configuration called name, or an ENOTFOUND error.
func GetConfig(ctx context.Context, x sqlx.ExtContext, name string) (*sudokulab.Config, error) {
	c, err := scanConfig(x.QueryRowxContext(ctx, x.Rebind(`SELECT `+configCols+` FROM configs WHERE name = ?`), name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no configuration called %q", name)
	}
	if err != nil {
		return nil, dbError(err, "get configuration "+name)
	}
	return &c, nil
}
