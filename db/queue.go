package db

// The shared work queue: an experiment's plan as rows of the table work,
// enqueued in short transactions however large the plan, claimed in small
// batches under a lease by any number of processes on any number of
// machines, and recorded with the claim released in one transaction. The
// claim is the only statement that differs between the engines
// (dialect.skipLocked).

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// WorkItem is one run of a plan: its identity and trace policy, and the
// claim on it.
type WorkItem struct {
	ID, ExperimentID, PuzzleID, ConfigID, Seed int64
	Budget
	// Trace is the trace policy in the form runner.ParseTrace reads.
	Trace string
	// Attempts counts the claims on the item, this one included.
	Attempts int
}

// PlanSpec describes a plan to enqueue: the puzzles, configurations and
// seeds whose every combination is one run with the budget.
type PlanSpec struct {
	ExperimentID int64
	// Where is an SQL predicate over the view puzzle_catalog (empty: every
	// puzzle); PuzzleIDs, when not nil, lists the puzzles instead. Limit,
	// when positive, keeps the first Limit puzzles by id.
	Where     string
	PuzzleIDs []int64
	Limit     int
	// ConfigIDs lists the configurations, in plan order.
	ConfigIDs []int64
	// Seeds lists the seeds; when nil, SeedCount seeds from FirstSeed.
	Seeds     []int64
	FirstSeed int64
	SeedCount int64
	Budget    Budget
	Trace     string
	// Shard and Shards select the Shard-th (1-based) of Shards slices of
	// the plan: the runs whose position in plan order (puzzles by id, then
	// configurations, then seeds) is Shard-1 modulo Shards. Zero means the
	// whole plan.
	Shard, Shards int
}

// EnqueueResult counts what Enqueue did.
type EnqueueResult struct {
	// Puzzles is the number of puzzles in the plan; Planned the runs of
	// the plan (of its shard) now in the queue, Added those new to it,
	// and Linked those found recorded already, by this experiment or
	// another: they are marked done and linked to the experiment.
	Puzzles                int
	Planned, Added, Linked int64
}

// enqueueRows bounds the work rows one enqueue transaction adds.
const enqueueRows = 4000

// Enqueue adds the runs of a plan to the work queue, in transactions of
// at most a few thousand rows, so neither memory nor the write lock is
// held in proportion to the plan. Runs already queued for the experiment
// are left as they are; runs already recorded (same puzzle,
// configuration, seed and budget) are marked done at once and linked to
// the experiment. The predicate is checked and evaluated read-only. It
// can be repeated, and interrupted: what committed stays queued.
func Enqueue(ctx context.Context, d *DB, spec PlanSpec, progress func(EnqueueResult)) (EnqueueResult, error) {
	var res EnqueueResult
	if spec.ExperimentID == 0 {
		return res, sudokulab.Errorf(sudokulab.EINVALID, "a plan needs an experiment")
	}
	if len(spec.ConfigIDs) == 0 {
		return res, sudokulab.Errorf(sudokulab.EINVALID, "a plan needs at least one configuration")
	}
	seeds := int64(len(spec.Seeds))
	if spec.Seeds == nil {
		seeds = spec.SeedCount
	}
	if seeds < 1 {
		return res, sudokulab.Errorf(sudokulab.EINVALID, "a plan needs at least one seed")
	}
	if spec.Shards < 0 || spec.Shard < 0 || spec.Shard > spec.Shards || (spec.Shards > 0) != (spec.Shard > 0) {
		return res, sudokulab.Errorf(sudokulab.EINVALID, "shard %d/%d: want K/N with 1 <= K <= N", spec.Shard, spec.Shards)
	}
	if err := spec.checkSeeds(); err != nil {
		return res, err
	}
	if spec.Shards == 0 {
		spec.Shard, spec.Shards = 1, 1
	}
	if err := checkPredicate(spec.Where); err != nil {
		return res, err
	}
	configs := int64(len(spec.ConfigIDs))
	perPuzzle := configs * seeds
	chunk := int(max(1, min(500, enqueueRows/max(1, configs))))
	seedStep := max(1, enqueueRows/(int64(chunk)*configs))
	var after int64 // the last puzzle id enqueued
	pace := NewPacer(d)
	for {
		want := chunk
		if spec.Limit > 0 {
			want = min(want, spec.Limit-res.Puzzles)
		}
		if want <= 0 {
			break
		}
		var ids []int64
		err := d.Retry(ctx, func() (err error) {
			ids, err = planPuzzles(ctx, d, spec, after, want)
			return err
		})
		if err != nil {
			return res, err
		}
		if len(ids) == 0 {
			break
		}
		for first := int64(0); first < seeds; first += seedStep {
			last := min(seeds, first+seedStep) - 1
			var added, linked int64
			if err := pace.Before(ctx); err != nil {
				return res, err
			}
			err := d.WithTx(ctx, func(tx *sqlx.Tx) (err error) {
				added, linked, err = enqueueChunk(ctx, tx, spec, ids, int64(res.Puzzles), first, last, seeds)
				return err
			})
			pace.After()
			if err != nil {
				return res, err
			}
			res.Added += added
			res.Linked += linked
		}
		res.Puzzles += len(ids)
		after = ids[len(ids)-1]
		if progress != nil {
			progress(res)
		}
	}
	// The shard's share of the plan: positions Shard-1, Shard-1+Shards ...
	total := int64(res.Puzzles) * perPuzzle
	res.Planned = total / int64(spec.Shards)
	if int64(spec.Shard-1) < total%int64(spec.Shards) {
		res.Planned++
	}
	return res, nil
}

// checkSeeds refuses a run of seeds that passes the largest 64-bit
// integer, which would wrap around to negative seeds.
func (spec PlanSpec) checkSeeds() error {
	if spec.Seeds == nil && spec.SeedCount > 0 && spec.FirstSeed > math.MaxInt64-(spec.SeedCount-1) {
		return sudokulab.Errorf(sudokulab.EINVALID, "%d seeds from %d: the last would pass the largest seed, %d", spec.SeedCount, spec.FirstSeed, int64(math.MaxInt64))
	}
	return nil
}

// planPuzzles returns the ids of the next puzzles of the plan after the
// id after, at most n, evaluating the user's predicate read-only.
func planPuzzles(ctx context.Context, d *DB, spec PlanSpec, after int64, n int) ([]int64, error) {
	if spec.PuzzleIDs != nil {
		var out []int64
		for _, id := range sortedUnique(spec.PuzzleIDs) {
			if id > after && len(out) < n {
				out = append(out, id)
			}
		}
		return out, nil
	}
	q := `SELECT id FROM puzzle_catalog WHERE id > ` + fmt.Sprint(after)
	if strings.TrimSpace(spec.Where) != "" {
		q += " AND (" + spec.Where + "\n)"
	}
	q = `SELECT DISTINCT id FROM (` + q + `) m ORDER BY id LIMIT ` + fmt.Sprint(n)
	conn, ctx, release, err := d.readOnlyConn(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	// No placeholders, so no Rebind: a '?' in the predicate is the user's.
	// A failure that may pass (a busy database, a server restarting) is
	// the caller's to retry, not the predicate's fault.
	predicateErr := func(err error) error {
		switch {
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case retryable(err):
			return fmt.Errorf("plan puzzles: %w", err)
		}
		return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", spec.Where, dbMessage(err))
	}
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return nil, predicateErr(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err, "plan puzzles")
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, predicateErr(err)
	}
	return ids, nil
}

// HasWork reports whether the experiment has ever had work in the queue,
// whatever its state now.
func HasWork(ctx context.Context, x sqlx.ExtContext, experimentID int64) (bool, error) {
	var n int
	err := x.QueryRowxContext(ctx, x.Rebind(`SELECT COUNT(*) FROM (SELECT 1 FROM work WHERE experiment_id = ? LIMIT 1) w`), experimentID).Scan(&n)
	return n > 0, dbError(err, fmt.Sprintf("work of experiment %d", experimentID))
}

// PlanDone counts the runs of a plan already done in its experiment: the
// done work of the plan's configurations, seeds and budget on the puzzles
// its selection holds now. For a shard it is the plan's count divided by
// the number of shards, an estimate good enough for a progress report.
// The predicate is evaluated read-only.
func PlanDone(ctx context.Context, d *DB, spec PlanSpec) (int64, error) {
	if err := spec.checkSeeds(); err != nil {
		return 0, err
	}
	if err := checkPredicate(spec.Where); err != nil {
		return 0, err
	}
	// Every value is an integer written into the text: no placeholders,
	// since a '?' in the predicate is the user's.
	var b strings.Builder
	fmt.Fprintf(&b, `SELECT COUNT(*) FROM work WHERE experiment_id = %d AND state = 'done'
		AND max_evaluations = %d AND max_generations = %d AND timeout_ms = %d`,
		spec.ExperimentID, spec.Budget.MaxEvaluations, spec.Budget.MaxGenerations, spec.Budget.TimeoutMS)
	inList := func(col string, vals []int64) {
		b.WriteString(" AND " + col + " IN (")
		for i, v := range vals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fmt.Sprint(v))
		}
		b.WriteString(")")
	}
	inList("config_id", spec.ConfigIDs)
	if spec.Seeds != nil {
		inList("seed", spec.Seeds)
	} else {
		fmt.Fprintf(&b, " AND seed BETWEEN %d AND %d", spec.FirstSeed, spec.FirstSeed+spec.SeedCount-1)
	}
	if spec.PuzzleIDs != nil {
		ids := sortedUnique(spec.PuzzleIDs)
		if spec.Limit > 0 && len(ids) > spec.Limit {
			ids = ids[:spec.Limit]
		}
		inList("puzzle_id", ids)
	} else if strings.TrimSpace(spec.Where) != "" || spec.Limit > 0 {
		sub := `SELECT DISTINCT id FROM puzzle_catalog`
		if strings.TrimSpace(spec.Where) != "" {
			sub += " WHERE (" + spec.Where + "\n)"
		}
		if spec.Limit > 0 {
			sub = `SELECT id FROM (` + sub + `) m ORDER BY id LIMIT ` + fmt.Sprint(spec.Limit)
		}
		b.WriteString(" AND puzzle_id IN (" + sub + ")")
	}
	conn, ctx, release, err := d.readOnlyConn(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	var n int64
	if err := conn.QueryRowContext(ctx, b.String()).Scan(&n); err != nil {
		if ctx.Err() != nil {
			return 0, context.Cause(ctx)
		}
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", spec.Where, dbMessage(err))
	}
	if spec.Shards > 1 {
		n /= int64(spec.Shards)
	}
	return n, nil
}

func sortedUnique(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// enqueueChunk adds the work of the puzzles ids (the first at plan
// position base) with the seeds at positions first..last, and links the
// runs recorded already.
func enqueueChunk(ctx context.Context, tx *sqlx.Tx, spec PlanSpec, ids []int64, base, first, last, seeds int64) (added, linked int64, err error) {
	var (
		b    strings.Builder
		args []any
	)
	b.WriteString("WITH pz(id, pos) AS (VALUES ")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(CAST(? AS BIGINT), CAST(? AS BIGINT))")
		args = append(args, id, base+int64(i))
	}
	b.WriteString("), cf(id, pos) AS (VALUES ")
	for i, id := range spec.ConfigIDs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(CAST(? AS BIGINT), CAST(? AS BIGINT))")
		args = append(args, id, int64(i))
	}
	b.WriteString("), sd(seed, pos) AS (VALUES ")
	for pos := first; pos <= last; pos++ {
		if pos > first {
			b.WriteString(", ")
		}
		seed := spec.FirstSeed + pos
		if spec.Seeds != nil {
			seed = spec.Seeds[pos]
		}
		b.WriteString("(CAST(? AS BIGINT), CAST(? AS BIGINT))")
		args = append(args, seed, pos)
	}
	b.WriteString(`)
		INSERT INTO work (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms, trace)
		SELECT ?, pz.id, cf.id, sd.seed, ?, ?, ?, ?
		FROM pz CROSS JOIN cf CROSS JOIN sd
		WHERE ((pz.pos * ? + cf.pos) * ? + sd.pos) % ? = ?
		ORDER BY pz.pos, cf.pos, sd.pos
		ON CONFLICT DO NOTHING`)
	args = append(args, spec.ExperimentID, spec.Budget.MaxEvaluations, spec.Budget.MaxGenerations, spec.Budget.TimeoutMS,
		spec.Trace, int64(len(spec.ConfigIDs)), seeds, int64(spec.Shards), int64(spec.Shard-1))
	r, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...)
	if err != nil {
		return 0, 0, dbError(err, "enqueue work")
	}
	if added, err = affected(r, "enqueue work"); err != nil {
		return 0, 0, err
	}

	// Runs recorded already: done at once, and linked to the experiment.
	in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	scope := []any{spec.ExperimentID}
	for _, id := range ids {
		scope = append(scope, id)
	}
	const same = `r.puzzle_id = work.puzzle_id AND r.config_id = work.config_id AND r.seed = work.seed
		AND r.max_evaluations = work.max_evaluations AND r.max_generations = work.max_generations
		AND r.timeout_ms = work.timeout_ms`
	r, err = tx.ExecContext(ctx, tx.Rebind(`
		UPDATE work SET state = 'done', finished_at = `+nowOf(tx)+`,
			run_id = (SELECT r.id FROM runs r WHERE `+same+`)
		WHERE experiment_id = ? AND state = 'pending' AND puzzle_id IN `+in+`
		  AND EXISTS (SELECT 1 FROM runs r WHERE `+same+`)`), scope...)
	if err != nil {
		return 0, 0, dbError(err, "link recorded runs")
	}
	if linked, err = affected(r, "link recorded runs"); err != nil {
		return 0, 0, err
	}
	if linked > 0 {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`
			INSERT INTO experiment_runs (experiment_id, run_id)
			SELECT experiment_id, run_id FROM work
			WHERE experiment_id = ? AND puzzle_id IN `+in+` AND run_id IS NOT NULL
			ON CONFLICT DO NOTHING`), scope...); err != nil {
			return 0, 0, dbError(err, "link recorded runs")
		}
	}
	return added, linked, nil
}

// nowOf returns the current-time expression of x's engine.
func nowOf(x sqlx.ExtContext) string { return dialectByDriver(x.DriverName()).now }

// dialectByDriver returns the dialect of a database/sql driver name.
func dialectByDriver(driver string) *dialect {
	if driver == postgresDialect.driver {
		return &postgresDialect
	}
	return &sqliteDialect
}

// Claim asks for work: at most N items, of the experiment ExperimentID
// (0: of any experiment, oldest first), for Worker to do within Lease.
type Claim struct {
	Worker       string
	ExperimentID int64
	N            int
	Lease        time.Duration
	// MaxAttempts bounds the claims on one item: an item whose workers
	// died MaxAttempts times is left alone (reported as abandoned). 0
	// means DefaultMaxAttempts.
	MaxAttempts int
}

// DefaultMaxAttempts is the number of claims after which work whose
// workers keep dying is abandoned.
const DefaultMaxAttempts = 3

// workCols are the columns scanWork reads.
const workCols = `id, experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms, trace, attempts`

// ClaimWork claims work for c.Worker: first items whose lease lapsed (their
// worker died), then pending ones, in id order, each in one statement
// that marks them running under a lease taken from the database's clock.
// On PostgreSQL, concurrent claims skip each other's rows (FOR UPDATE
// SKIP LOCKED); on SQLite the statement holds the write lock briefly.
func ClaimWork(ctx context.Context, d *DB, c Claim) ([]WorkItem, error) {
	if c.Worker == "" || c.N < 1 || c.Lease <= 0 {
		return nil, fmt.Errorf("db: claim work: need a worker, a count and a lease")
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	dl := d.dialect
	var out []WorkItem
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		out = out[:0]
		for _, pick := range []string{
			`state = 'running' AND lease_until < (SELECT ` + dl.now + `) AND attempts < ?`,
			`state = 'pending' AND attempts < ?`,
		} {
			n := c.N - len(out)
			if n <= 0 {
				break
			}
			args := []any{c.Worker, c.Lease.Milliseconds(), c.MaxAttempts}
			where := pick
			if c.ExperimentID != 0 {
				where += ` AND experiment_id = ?`
				args = append(args, c.ExperimentID)
			}
			args = append(args, n)
			rows, err := tx.QueryxContext(ctx, tx.Rebind(`
				UPDATE work SET state = 'running', worker = ?, lease_until = `+dl.lease+`, attempts = attempts + 1
				WHERE id IN (SELECT id FROM work WHERE `+where+` ORDER BY experiment_id, id LIMIT ?`+dl.skipLocked+`)
				RETURNING `+workCols), args...)
			if err != nil {
				return dbError(err, "claim work")
			}
			for rows.Next() {
				var w WorkItem
				if err := rows.Scan(&w.ID, &w.ExperimentID, &w.PuzzleID, &w.ConfigID, &w.Seed, &w.MaxEvaluations,
					&w.MaxGenerations, &w.TimeoutMS, &w.Trace, &w.Attempts); err != nil {
					rows.Close()
					return dbError(err, "claim work")
				}
				out = append(out, w)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return dbError(err, "claim work")
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// RETURNING promises no order.
	slices.SortFunc(out, func(a, b WorkItem) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// FinishedWork is a claimed item done: the run to record and its
// trajectory.
type FinishedWork struct {
	WorkID int64
	Run    *sudokulab.Run
	Points []sudokulab.TrajectoryPoint
}

// CompleteWork records finished work in one transaction on x (the caller's
// transaction; see DB.WithTx): each run with its trajectory unless a run
// with its identity is recorded already (by another worker whose lease
// lapsed, or another experiment), the item marked done with the run's id,
// and the run linked to the item's experiment. It reports which runs were
// new. A worker finishing after its lease lapsed adds nothing twice: the
// run's identity is unique.
func CompleteWork(ctx context.Context, x sqlx.ExtContext, done []FinishedWork) (inserted []bool, err error) {
	runs := make([]*sudokulab.Run, len(done))
	for i, f := range done {
		runs[i] = f.Run
	}
	if inserted, err = InsertRunsIfNew(ctx, x, runs); err != nil {
		return nil, err
	}
	var points []sudokulab.TrajectoryPoint
	for i, f := range done {
		if inserted[i] {
			for _, p := range f.Points {
				p.RunID = f.Run.ID
				points = append(points, p)
			}
		}
	}
	if err := InsertPoints(ctx, x, points); err != nil {
		return nil, err
	}
	now := nowOf(x)
	for start := 0; start < len(done); start += insertRunsChunk {
		part := done[start:min(start+insertRunsChunk, len(done))]
		var (
			cases strings.Builder
			args  []any
			ids   []any
			links []any
		)
		for _, f := range part {
			cases.WriteString(" WHEN ? THEN CAST(? AS BIGINT)")
			args = append(args, f.WorkID, f.Run.ID)
			ids = append(ids, f.WorkID)
			if f.Run.ExperimentID != 0 {
				links = append(links, f.Run.ExperimentID, f.Run.ID)
			}
		}
		if _, err := x.ExecContext(ctx, x.Rebind(`
			UPDATE work SET state = 'done', lease_until = NULL, finished_at = `+now+`,
				run_id = CASE id`+cases.String()+` END
			WHERE id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")+`)`), append(args, ids...)...); err != nil {
			return nil, dbError(err, "finish work")
		}
		if len(links) > 0 {
			if _, err := x.ExecContext(ctx, x.Rebind(`INSERT INTO experiment_runs (experiment_id, run_id) VALUES `+
				values(len(links)/2, 2)+` ON CONFLICT DO NOTHING`), links...); err != nil {
				return nil, dbError(err, "link runs to experiment")
			}
		}
	}
	return inserted, nil
}

// RenewWork extends the lease on every item worker holds, from now, and
// returns how many it holds.
func RenewWork(ctx context.Context, d *DB, worker string, lease time.Duration) (int64, error) {
	var n int64
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		r, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE work SET lease_until = `+d.dialect.lease+`
			WHERE worker = ? AND state = 'running'`), lease.Milliseconds(), worker)
		if err != nil {
			return dbError(err, "renew work lease")
		}
		n, err = affected(r, "renew work lease")
		return err
	})
	return n, err
}

// ReleaseWork hands back the items worker holds and has not finished, for
// others to take at once; the claim does not count as an attempt.
func ReleaseWork(ctx context.Context, d *DB, worker string) (int64, error) {
	var n int64
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		r, err := tx.ExecContext(ctx, tx.Rebind(`
			UPDATE work SET state = 'pending', worker = NULL, lease_until = NULL, attempts = attempts - 1
			WHERE worker = ? AND state = 'running'`), worker)
		if err != nil {
			return dbError(err, "release work")
		}
		n, err = affected(r, "release work")
		return err
	})
	return n, err
}

// WorkLeft says what an experiment's queue (0: every experiment's) still
// holds.
type WorkLeft struct {
	// Pending items wait for a worker; Running ones are held under a live
	// lease; Lapsed ones are held under a lease that ran out (their worker
	// died) and will be claimed again; Abandoned ones ran out of attempts.
	Pending, Running, Lapsed, Abandoned int64
}

// Claimable reports whether a claim could find work now.
func (w WorkLeft) Claimable() bool { return w.Pending > 0 || w.Lapsed > 0 }

// Done reports whether nothing is left to do or wait for.
func (w WorkLeft) Done() bool { return w.Pending == 0 && w.Running == 0 && w.Lapsed == 0 }

// RemainingWork counts the unfinished items of an experiment (0: all).
func RemainingWork(ctx context.Context, x sqlx.ExtContext, experimentID int64, maxAttempts int) (WorkLeft, error) {
	if maxAttempts <= 0 {
		maxAttempts = DefaultMaxAttempts
	}
	now := "(SELECT " + nowOf(x) + ")"
	q := `SELECT
		COALESCE(SUM(CASE WHEN state = 'pending' THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'running' AND lease_until >= ` + now + ` THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'running' AND lease_until < ` + now + ` AND attempts < ? THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'running' AND lease_until < ` + now + ` AND attempts >= ? THEN 1 ELSE 0 END), 0)
		FROM work WHERE state IN ('pending', 'running')`
	args := []any{maxAttempts, maxAttempts}
	if experimentID != 0 {
		q += ` AND experiment_id = ?`
		args = append(args, experimentID)
	}
	var w WorkLeft
	err := x.QueryRowxContext(ctx, x.Rebind(q), args...).Scan(&w.Pending, &w.Running, &w.Lapsed, &w.Abandoned)
	return w, dbError(err, "count remaining work")
}

// CountPlanPuzzles returns how many puzzles a plan's selection holds (at
// most spec.Limit when positive), evaluating the predicate read-only.
func CountPlanPuzzles(ctx context.Context, d *DB, spec PlanSpec) (int, error) {
	if spec.PuzzleIDs != nil {
		n := len(sortedUnique(spec.PuzzleIDs))
		if spec.Limit > 0 {
			n = min(n, spec.Limit)
		}
		return n, nil
	}
	if err := checkPredicate(spec.Where); err != nil {
		return 0, err
	}
	q := `SELECT DISTINCT id FROM puzzle_catalog`
	if strings.TrimSpace(spec.Where) != "" {
		q += " WHERE (" + spec.Where + "\n)"
	}
	if spec.Limit > 0 {
		q += " ORDER BY id LIMIT " + fmt.Sprint(spec.Limit)
	}
	t, err := d.ReadQuery(ctx, `SELECT COUNT(*) FROM (`+q+`) m`)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", spec.Where, strings.TrimPrefix(err.Error(), "sql: "))
	}
	var n int
	switch v := t.Rows[0][0].(type) {
	case int64:
		n = int(v)
	case int32:
		n = int(v)
	}
	return n, nil
}
