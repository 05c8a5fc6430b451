package db

import (
	"context"
	"database/sql"

	"sudokulab"
)

// RunVisitor receives what ExportRuns reads: each run, then its
// trajectory points in order.
type RunVisitor interface {
	// Run starts a run: the points that follow, up to the next call of
	// Run, are its own. r is valid until the next call.
	Run(r *sudokulab.ExportedRun) error
	// Point is one trajectory point of the current run, in seq order. p is
	// valid until the next call.
	Point(p *sudokulab.TrajectoryPoint) error
}

// ExportRuns reads the runs sel selects, ordered by configuration name,
// puzzle id and run id, each followed by its trajectory points, and hands
// them to v as it reads them: neither the runs nor their points are held
// in memory. It returns how many runs and points it read. The whole read
// is one query on a connection that refuses every change, so the SQL of
// sel cannot write; a predicate the database rejects is an EINVALID
// error, and an experiment or configuration that does not exist an
// ENOTFOUND error. An error returned by v stops the read and is returned
// as it is.
func ExportRuns(ctx context.Context, d *DB, sel RunSelection, v RunVisitor) (runs, points int64, err error) {
	if err := sel.Check(); err != nil {
		return 0, 0, err
	}
	// No statement timeout: the export streams as fast as its reader
	// takes the rows, which may be slow; Ctrl-C cancels it on the server.
	conn, ctx, release, err := d.readOnlyConnTimeout(ctx, 0)
	if err != nil {
		return 0, 0, err
	}
	defer release()
	x := connExt{conn, d.DB}
	if err := RequireSelected(ctx, x, sel); err != nil {
		return 0, 0, err
	}
	// Without an experiment a run is exported under the one that
	// recorded it.
	experiment := "r.experiment"
	var args []any
	if sel.Experiment != "" {
		experiment, args = "CAST(? AS TEXT)", []any{sel.Experiment}
	}
	cond, condArgs := sel.Condition()
	q := `
		SELECT r.id, r.experiment_id, ` + experiment + `, r.config_id, r.config, r.solver,
		       r.puzzle_id, r.size, r.givens, pl.label,
		       r.seed, r.max_evaluations, r.max_generations, r.timeout_ms,
		       r.status, r.evaluations, r.generations, r.restarts, r.best_cost,
		       r.wall_seconds, r.cpu_seconds, r.prefilter_revisions, r.nodes, r.guesses,
		       r.effort, r.effort_unit, r.error, r.code_version, r.host, r.started_at, r.finished_at,
		       t.seq, t.generation, t.evaluations, t.elapsed_seconds, t.best_cost, t.current_cost,
		       t.restarts, t.convergence, cp.params
		FROM run_results r
		JOIN configs cp ON cp.id = r.config_id
		LEFT JOIN (SELECT id, MIN(label) AS label FROM puzzle_catalog WHERE label <> '' GROUP BY id) pl
		       ON pl.id = r.puzzle_id
		LEFT JOIN trajectory_points t ON t.run_id = r.id
		WHERE ` + cond + `
		ORDER BY r.config, r.puzzle_id, r.id, t.seq`
	rows, err := x.QueryxContext(ctx, d.rebind(q), append(args, condArgs...)...)
	if err != nil {
		return 0, 0, exportError(ctx, err)
	}
	defer rows.Close()
	var (
		run    sudokulab.ExportedRun
		point  sudokulab.TrajectoryPoint
		lastID int64 = -1
		status string
		seq    sql.NullInt64
		gen    sql.NullInt64
		evals  sql.NullInt64
		secs   sql.NullFloat64
		best   sql.NullInt64
		rs     sql.NullInt64
	)
	for rows.Next() {
		r := &run.Run
		var next sudokulab.ExportedRun
		n := &next.Run
		err := rows.Scan(&n.ID, idCol[int64]{&n.ExperimentID}, strCol{&next.Experiment}, &n.ConfigID, &next.Config, &next.Solver,
			&n.PuzzleID, &next.Size, &next.Givens, strCol{&next.PuzzleLabel},
			&n.Seed, &n.MaxEvaluations, &n.MaxGenerations, &n.TimeoutMS,
			&status, &n.Evaluations, &n.Generations, &n.Restarts, &n.BestCost,
			&n.WallSeconds, &n.CPUSeconds, &n.PrefilterRevisions, &n.Nodes, &n.Guesses,
			&next.Effort, &next.EffortUnit, strCol{&n.Error}, &n.CodeVersion, &n.Host, timeCol{&n.StartedAt}, timeCol{&n.FinishedAt},
			&seq, &gen, &evals, &secs, &best, &point.CurrentCost, &rs, &point.Convergence, &next.Params)
		if err != nil {
			return runs, points, dbError(err, "export runs")
		}
		n.Status = sudokulab.RunStatus(status)
		if n.ID != lastID {
			run, lastID = next, n.ID
			runs++
			if err := v.Run(&run); err != nil {
				return runs, points, err
			}
		}
		if !seq.Valid {
			continue // a run without trajectory points
		}
		point.RunID, point.Seq = r.ID, int(seq.Int64)
		point.Generation, point.Evaluations = gen.Int64, evals.Int64
		point.ElapsedSeconds, point.BestCost, point.Restarts = secs.Float64, int(best.Int64), rs.Int64
		points++
		if err := v.Point(&point); err != nil {
			return runs, points, err
		}
	}
	if err := rows.Err(); err != nil {
		return runs, points, exportError(ctx, err)
	}
	return runs, points, nil
}

// exportError reports an error of the export query: the caller's
// cancellation as it is, else the database's message as an EINVALID
// error, since the predicates are what a person can get wrong.
func exportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "export runs: %s", dbMessage(err))
}
