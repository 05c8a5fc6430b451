package db

// Merge's runs stage: runs matched by their identity, with their
// trajectories.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// mergeRuns merges runs by identity (puzzle, configuration, seed and
// budget), each new one with its trajectory, and links every run to the
// experiments it belongs to in the source. A stored run with another
// status, counters, best cost, final grid or error is a conflict; it is
// still linked, since a run is its identity.
func (m *merger) mergeRuns(ctx context.Context) error {
	var points map[int64]int64 // trajectory points per source run of the page
	read := func(ctx context.Context, after int64, n int) ([]sudokulab.Run, int64, error) {
		page, _, err := m.readRuns(ctx, after, n)
		if err != nil || len(page) == 0 {
			return nil, after, err
		}
		runs := make([]sudokulab.Run, len(page))
		for i, r := range page {
			runs[i] = r.run
		}
		ids := make([]int64, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		in, args := inList(ids)
		points = map[int64]int64{}
		err = selectAll(ctx, m.src, "count trajectory points", m.src.Rebind(`
			SELECT run_id, COUNT(*) FROM trajectory_points WHERE run_id IN `+in+` GROUP BY run_id`), args,
			func(rs *sqlx.Rows) error {
				var id, k int64
				err := rs.Scan(&id, &k)
				points[id] = k
				return err
			})
		if err != nil {
			return nil, after, err
		}
		// End the page before the run whose points would pass MaxPoints.
		var sum int64
		for i, r := range runs {
			sum += points[r.ID]
			if i > 0 && sum > int64(m.opts.MaxPoints) {
				runs = runs[:i]
				break
			}
		}
		return runs, runs[len(runs)-1].ID, nil
	}
	write := func(tx *sqlx.Tx, d *delta, runs []sudokulab.Run) error {
		return m.writeRuns(ctx, tx, d, runs, points)
	}
	return mergePages(ctx, m, MergeRuns, nil, read, write, nil) // invalid runs: see writeRuns
}

// writeRuns writes one page of runs in the transaction tx.
func (m *merger) writeRuns(ctx context.Context, tx *sqlx.Tx, d *delta, runs []sudokulab.Run, points map[int64]int64) error {
	type mapped struct {
		src   sudokulab.Run
		dstID int64
		new   bool
	}
	var rows []mapped
	for _, r := range runs {
		if m.bad[badKey{"runs", r.ID, 0}] != "" {
			d.c(MergeRuns).Invalid++
			d.c(MergeTrajectoryPoints).Skipped += points[r.ID]
			continue
		}
		p, okP := m.puzzles[r.PuzzleID]
		c, okC := m.configs[r.ConfigID]
		if !okP || !okC {
			d.c(MergeRuns).Skipped++
			d.c(MergeTrajectoryPoints).Skipped += points[r.ID]
			continue
		}
		rows = append(rows, mapped{src: r})
		dst := &rows[len(rows)-1].src
		dst.PuzzleID, dst.ConfigID = p, c
		dst.ExperimentID = m.experiments[r.ExperimentID] // 0 (NULL) when none
	}
	if len(rows) == 0 {
		return nil
	}
	keys := make([][]any, len(rows))
	for i, r := range rows {
		s := r.src
		keys[i] = []any{int64(i), s.PuzzleID, s.ConfigID, s.Seed, s.MaxEvaluations, s.MaxGenerations, s.TimeoutMS}
	}
	big := "BIGINT"
	cte, args := keyTable("k", []string{"i", "p", "c", "s", "me", "mg", "t"}, []string{big, big, big, big, big, big, big}, keys)
	err := selectAll(ctx, tx, "find runs", tx.Rebind(`WITH `+cte+`
		SELECT k.i, r.id, r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.error
		FROM k CROSS JOIN runs r WHERE r.puzzle_id = k.p AND r.config_id = k.c AND r.seed = k.s
			AND r.max_evaluations = k.me AND r.max_generations = k.mg AND r.timeout_ms = k.t`), args,
		func(rs *sqlx.Rows) error {
			var (
				i, id                 int64
				status                string
				evals, gens, restarts int64
				best                  sql.NullInt64
				final, msg            sql.NullString
			)
			if err := rs.Scan(&i, &id, &status, &evals, &gens, &restarts, &best, &final, &msg); err != nil {
				return err
			}
			r := &rows[i]
			r.dstID = id
			s := r.src
			var diff differ
			if status != string(s.Status) {
				diff.add("status", status, string(s.Status))
			}
			if evals != s.Evaluations {
				diff.add("evaluations", strconv.FormatInt(evals, 10), strconv.FormatInt(s.Evaluations, 10))
			}
			if gens != s.Generations {
				diff.add("generations", strconv.FormatInt(gens, 10), strconv.FormatInt(s.Generations, 10))
			}
			if restarts != s.Restarts {
				diff.add("restarts", strconv.FormatInt(restarts, 10), strconv.FormatInt(s.Restarts, 10))
			}
			srcBest := sql.NullInt64{}
			if s.BestCost != nil {
				srcBest = sql.NullInt64{Int64: int64(*s.BestCost), Valid: true}
			}
			if best != srcBest {
				diff.add("best cost", nullInt(best), nullInt(srcBest))
			}
			srcFinal := sql.NullString{}
			if len(s.FinalGrid.Cells) > 0 {
				srcFinal = sql.NullString{String: s.FinalGrid.String(), Valid: true}
			}
			if final != srcFinal {
				diff.add("final grid", nullText(final), nullText(srcFinal))
			}
			srcMsg := sql.NullString{String: s.Error, Valid: s.Error != ""}
			if msg != srcMsg {
				diff.add("error", nullText(msg), nullText(srcMsg))
			}
			if len(diff) > 0 {
				d.conflict(MergeRuns, m.runIdentity(id, s), diff.String())
			} else {
				d.c(MergeRuns).Existing++
			}
			d.c(MergeTrajectoryPoints).Existing += points[s.ID]
			return nil
		})
	if err != nil {
		return err
	}
	var newIDs []int64 // source ids of the runs added
	dstOf := map[int64]int64{}
	for i := range rows {
		r := &rows[i]
		if r.dstID == 0 {
			run := r.src // InsertRunIfNew sets its ID
			id, inserted, err := InsertRunIfNew(ctx, tx, &run, nil)
			if err != nil {
				return err
			}
			if !inserted { // recorded by another writer since the lookup
				if id, _, err = FindRunID(ctx, tx, run); err != nil {
					return err
				}
				d.c(MergeRuns).Existing++
				d.c(MergeTrajectoryPoints).Existing += points[r.src.ID]
			} else {
				r.new = true
				newIDs = append(newIDs, r.src.ID)
				d.c(MergeRuns).Added++
			}
			r.dstID = id
		}
		dstOf[r.src.ID] = r.dstID
	}
	// The trajectories of the runs added, read from the source now.
	if len(newIDs) > 0 {
		in, args := inList(newIDs)
		var points []sudokulab.TrajectoryPoint
		err := selectAll(ctx, m.src, "read trajectories", m.src.Rebind(`
			SELECT run_id, seq, generation, evaluations, elapsed_seconds, best_cost, current_cost, restarts, convergence
			FROM trajectory_points WHERE run_id IN `+in+` ORDER BY run_id, seq`), args, func(rs *sqlx.Rows) error {
			var p sudokulab.TrajectoryPoint
			err := rs.Scan(&p.RunID, &p.Seq, &p.Generation, &p.Evaluations, &p.ElapsedSeconds, &p.BestCost,
				&p.CurrentCost, &p.Restarts, &p.Convergence)
			p.RunID = dstOf[p.RunID]
			points = append(points, p)
			return err
		})
		if err != nil {
			return err
		}
		if err := InsertPoints(ctx, tx, points); err != nil {
			return err
		}
		d.c(MergeTrajectoryPoints).Added += int64(len(points))
	}
	// The experiments each run belongs to in the source.
	srcIDs := make([]int64, len(rows))
	for i, r := range rows {
		srcIDs[i] = r.src.ID
	}
	in, args := inList(srcIDs)
	var links []any
	n := 0
	err = selectAll(ctx, m.src, "read experiment runs", m.src.Rebind(`
		SELECT experiment_id, run_id FROM experiment_runs WHERE run_id IN `+in+` ORDER BY run_id, experiment_id`), args,
		func(rs *sqlx.Rows) error {
			var e, r int64
			if err := rs.Scan(&e, &r); err != nil {
				return err
			}
			if de, ok := m.experiments[e]; ok {
				links = append(links, de, dstOf[r])
				n++
			}
			return nil
		})
	if err != nil {
		return err
	}
	if n > 0 {
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO experiment_runs (experiment_id, run_id)
			VALUES `+values(n, 2)+` ON CONFLICT DO NOTHING`), links...)
		if err != nil {
			return dbError(err, "link runs to experiments")
		}
		k, err := affected(res, "link runs to experiments")
		if err != nil {
			return err
		}
		d.c(MergeExperimentRuns).Added += k
		d.c(MergeExperimentRuns).Existing += int64(n) - k
	}
	return nil
}

// runIdentity names a destination run in a conflict.
func (m *merger) runIdentity(id int64, r sudokulab.Run) string {
	budget := "no budget"
	var parts []string
	if r.MaxEvaluations > 0 {
		parts = append(parts, fmt.Sprintf("%d evaluations", r.MaxEvaluations))
	}
	if r.MaxGenerations > 0 {
		parts = append(parts, fmt.Sprintf("%d generations", r.MaxGenerations))
	}
	if r.TimeoutMS > 0 {
		parts = append(parts, fmt.Sprintf("%d ms", r.TimeoutMS))
	}
	if len(parts) > 0 {
		budget = "budget " + strings.Join(parts, ", ")
	}
	config := m.configNames[r.ConfigID]
	if config == "" {
		config = strconv.FormatInt(r.ConfigID, 10)
	}
	return fmt.Sprintf("run %d (configuration %s, puzzle %d, seed %d, %s)", id, config, r.PuzzleID, r.Seed, budget)
}
