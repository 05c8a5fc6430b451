package db

// Merge's runs stage: runs matched by their identity, with their
// trajectories.

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
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

// mappedRun is a source run of a page with its puzzle, configuration and
// experiment mapped to the destination's, and the destination's id of
// the run once found or added.
type mappedRun struct {
	src   sudokulab.Run
	dstID int64
}

// writeRuns writes one page of runs in the transaction tx: it maps them
// to the destination, finds those stored, adds the others with their
// trajectories, and links every run to its experiments.
func (m *merger) writeRuns(ctx context.Context, tx *sqlx.Tx, d *delta, runs []sudokulab.Run, points map[int64]int64) error {
	rows := m.mapRuns(d, runs, points)
	if len(rows) == 0 {
		return nil
	}
	if err := m.findRuns(ctx, tx, d, rows, points); err != nil {
		return err
	}
	added, err := m.addRuns(ctx, tx, d, rows, points)
	if err != nil {
		return err
	}
	dstOf := make(map[int64]int64, len(rows))
	for _, r := range rows {
		dstOf[r.src.ID] = r.dstID
	}
	if err := m.copyTrajectories(ctx, tx, d, added, dstOf); err != nil {
		return err
	}
	return m.linkRuns(ctx, tx, d, dstOf)
}

// mapRuns maps the runs of a page to the destination's puzzles,
// configurations and experiments. Runs the checks found invalid, and runs
// whose puzzle or configuration was not merged, are counted and left out,
// with their trajectory points.
func (m *merger) mapRuns(d *delta, runs []sudokulab.Run, points map[int64]int64) []mappedRun {
	var rows []mappedRun
	for _, r := range runs {
		if m.bad[badKey{"runs", r.ID, 0, ""}] != "" {
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
		rows = append(rows, mappedRun{src: r})
		dst := &rows[len(rows)-1].src
		dst.PuzzleID, dst.ConfigID = p, c
		dst.ExperimentID = m.experiments[r.ExperimentID] // 0 (NULL) when none
	}
	return rows
}

// findRuns looks the runs up in the destination by identity, sets the
// dstID of those stored, and counts each as existing or, when it differs
// from the source's, as a conflict.
func (m *merger) findRuns(ctx context.Context, tx *sqlx.Tx, d *delta, rows []mappedRun, points map[int64]int64) error {
	keys := make([][]any, len(rows))
	for i, r := range rows {
		s := r.src
		keys[i] = []any{int64(i), s.PuzzleID, s.ConfigID, s.Seed, s.MaxEvaluations, s.MaxGenerations, s.TimeoutMS}
	}
	big := "BIGINT"
	cte, args := keyTable("k", []string{"i", "p", "c", "s", "me", "mg", "t"}, []string{big, big, big, big, big, big, big}, keys)
	return selectAll(ctx, tx, "find runs", tx.Rebind(`WITH `+cte+`
		SELECT k.i, r.id, r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.error
		FROM k CROSS JOIN runs r WHERE r.puzzle_id = k.p AND r.config_id = k.c AND r.seed = k.s
			AND r.max_evaluations = k.me AND r.max_generations = k.mg AND r.timeout_ms = k.t`), args,
		func(rs *sqlx.Rows) error {
			var (
				i      int64
				stored storedRun
			)
			if err := rs.Scan(&i, &stored.id, &stored.status, &stored.evals, &stored.gens, &stored.restarts,
				&stored.best, &stored.final, &stored.msg); err != nil {
				return err
			}
			r := &rows[i]
			r.dstID = stored.id
			if diff := stored.differ(r.src); len(diff) > 0 {
				d.conflict(MergeRuns, m.runIdentity(stored.id, r.src), diff.String())
			} else {
				d.c(MergeRuns).Existing++
			}
			d.c(MergeTrajectoryPoints).Existing += points[r.src.ID]
			return nil
		})
}

// storedRun is what findRuns reads of a destination run to compare.
type storedRun struct {
	id                    int64
	status                string
	evals, gens, restarts int64
	best                  sql.NullInt64
	final, msg            sql.NullString
}

// differ lists where the stored run differs from the source's run s.
func (st storedRun) differ(s sudokulab.Run) differ {
	var diff differ
	if st.status != string(s.Status) {
		diff.add("status", st.status, string(s.Status))
	}
	if st.evals != s.Evaluations {
		diff.add("evaluations", strconv.FormatInt(st.evals, 10), strconv.FormatInt(s.Evaluations, 10))
	}
	if st.gens != s.Generations {
		diff.add("generations", strconv.FormatInt(st.gens, 10), strconv.FormatInt(s.Generations, 10))
	}
	if st.restarts != s.Restarts {
		diff.add("restarts", strconv.FormatInt(st.restarts, 10), strconv.FormatInt(s.Restarts, 10))
	}
	srcBest := sql.NullInt64{}
	if s.BestCost != nil {
		srcBest = sql.NullInt64{Int64: int64(*s.BestCost), Valid: true}
	}
	if st.best != srcBest {
		diff.add("best cost", nullInt(st.best), nullInt(srcBest))
	}
	srcFinal := sql.NullString{}
	if len(s.FinalGrid.Cells) > 0 {
		srcFinal = sql.NullString{String: s.FinalGrid.String(), Valid: true}
	}
	if st.final != srcFinal {
		diff.add("final grid", nullText(st.final), nullText(srcFinal))
	}
	srcMsg := sql.NullString{String: s.Error, Valid: s.Error != ""}
	if st.msg != srcMsg {
		diff.add("error", nullText(st.msg), nullText(srcMsg))
	}
	return diff
}

// addRuns adds the runs findRuns did not find and sets their dstID. It
// returns the source ids of the runs it added; one another writer
// recorded since the lookup counts as existing.
func (m *merger) addRuns(ctx context.Context, tx *sqlx.Tx, d *delta, rows []mappedRun, points map[int64]int64) (added []int64, err error) {
	for i := range rows {
		r := &rows[i]
		if r.dstID != 0 {
			continue
		}
		run := r.src // InsertRunIfNew sets its ID
		id, inserted, err := InsertRunIfNew(ctx, tx, &run, nil)
		if err != nil {
			return nil, err
		}
		if !inserted { // recorded by another writer since the lookup
			if id, _, err = FindRunID(ctx, tx, run); err != nil {
				return nil, err
			}
			d.c(MergeRuns).Existing++
			d.c(MergeTrajectoryPoints).Existing += points[r.src.ID]
		} else {
			added = append(added, r.src.ID)
			d.c(MergeRuns).Added++
		}
		r.dstID = id
	}
	return added, nil
}

// copyTrajectories copies the trajectories of the source runs added (by
// source id) from the source, read now, to their destination runs.
func (m *merger) copyTrajectories(ctx context.Context, tx *sqlx.Tx, d *delta, added []int64, dstOf map[int64]int64) error {
	if len(added) == 0 {
		return nil
	}
	in, args := inList(added)
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
	return nil
}

// linkRuns links each destination run (dstOf maps source run ids to
// them) to the merged experiments its source run belongs to.
func (m *merger) linkRuns(ctx context.Context, tx *sqlx.Tx, d *delta, dstOf map[int64]int64) error {
	srcIDs := slices.Sorted(maps.Keys(dstOf))
	in, args := inList(srcIDs)
	var links []any
	n := 0
	err := selectAll(ctx, m.src, "read experiment runs", m.src.Rebind(`
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
	if err != nil || n == 0 {
		return err
	}
	return addRows(ctx, tx, d, MergeExperimentRuns, "link runs to experiments", n, `INSERT INTO experiment_runs (experiment_id, run_id)
		VALUES `+values(n, 2)+` ON CONFLICT DO NOTHING`, links...)
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
