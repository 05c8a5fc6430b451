package db

// Merge's last stage: the work queue (experiment_runs).

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type workRow struct {
	id, experiment, puzzle, config, seed, maxEvals, maxGens, timeout int64
	trace, state                                                     string
	worker, finished                                                 sql.NullString
	attempts                                                         int64
	enqueued                                                         string
	// run is the destination's run of the item's identity, once looked up.
	run sql.NullInt64
}

// runOfWork is the id of the destination's run with the identity of the
// work row k (a key table with columns p, c, s, me, mg, t).
const runOfWork = `(SELECT r.id FROM runs r WHERE r.puzzle_id = k.p AND r.config_id = k.c AND r.seed = k.s
	AND r.max_evaluations = k.me AND r.max_generations = k.mg AND r.timeout_ms = k.t)`

// mergeWork merges the work queue by experiment and run identity. A
// missing item is added (one running in the source as pending: that claim
// means nothing here); an item pending or running here and done in the
// source becomes done, with the run of its identity. An item done in the
// source whose run the destination does not hold (a run left out as
// invalid) is skipped, and one pending here stays pending: done, it would
// say the destination holds a run it lacks, and no worker would do it. A
// later merge that brings the run brings the item. An item done here
// without its run (as merges before this check left them) gains the run
// of its identity once the destination holds it.
func (m *merger) mergeWork(ctx context.Context) error {
	read := m.readWork
	write := func(tx *sqlx.Tx, d *delta, page []workRow) error {
		var rows []workRow
		for _, r := range page {
			e, okE := m.experiments[r.experiment]
			p, okP := m.puzzles[r.puzzle]
			c, okC := m.configs[r.config]
			if !okE || !okP || !okC {
				d.c(MergeWork).Skipped++
				continue
			}
			r.experiment, r.puzzle, r.config = e, p, c
			if r.state == "running" { // a claim on the source, not here
				r.state, r.worker, r.attempts = "pending", sql.NullString{}, max(0, r.attempts-1)
			}
			rows = append(rows, r)
		}
		if len(rows) == 0 {
			return nil
		}
		cols := []string{"i", "e", "p", "c", "s", "me", "mg", "t"}
		big := "BIGINT"
		types := []string{big, big, big, big, big, big, big, big}
		keys := make([][]any, len(rows))
		for i, r := range rows {
			keys[i] = []any{int64(i), r.experiment, r.puzzle, r.config, r.seed, r.maxEvals, r.maxGens, r.timeout}
		}
		cte, args := keyTable("k", cols, types, keys)
		err := selectAll(ctx, tx, "find the runs of work", tx.Rebind(`WITH `+cte+`
			SELECT k.i, `+runOfWork+` FROM k`), args, func(rs *sqlx.Rows) error {
			var i int64
			var run sql.NullInt64
			err := rs.Scan(&i, &run)
			rows[i].run = run
			return err
		})
		if err != nil {
			return err
		}
		found := map[int64]bool{}
		var progress, link []workRow
		err = selectAll(ctx, tx, "find work", tx.Rebind(`WITH `+cte+`
			SELECT k.i, w.id, w.state, w.run_id FROM k CROSS JOIN work w WHERE w.experiment_id = k.e AND w.puzzle_id = k.p
				AND w.config_id = k.c AND w.seed = k.s AND w.max_evaluations = k.me
				AND w.max_generations = k.mg AND w.timeout_ms = k.t`), args, func(rs *sqlx.Rows) error {
			var (
				i, id int64
				state string
				run   sql.NullInt64
			)
			if err := rs.Scan(&i, &id, &state, &run); err != nil {
				return err
			}
			found[i] = true
			r := rows[i]
			r.id = id // the destination's item
			switch {
			case state != "done" && r.state == "done" && r.run.Valid:
				progress = append(progress, r)
			case state != "done" && r.state == "done":
				d.c(MergeWork).Skipped++ // done there with a run left out: still to do here
			case state == "done" && !run.Valid && r.run.Valid:
				link = append(link, r)
			default:
				d.c(MergeWork).Existing++
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range progress {
			if err := updateWork(ctx, tx, d, fmt.Sprintf("finish work %d", r.id), `
				UPDATE work SET state = 'done', run_id = ?, worker = ?, lease_until = NULL, finished_at = ?
				WHERE id = ? AND state <> 'done'`, r.run, r.worker, r.finished, r.id); err != nil {
				return err
			}
		}
		for _, r := range link {
			if err := updateWork(ctx, tx, d, fmt.Sprintf("link work %d to its run", r.id), `
				UPDATE work SET run_id = ? WHERE id = ? AND state = 'done' AND run_id IS NULL`, r.run, r.id); err != nil {
				return err
			}
		}
		var add [][]any
		for i, r := range rows {
			if found[int64(i)] {
				continue
			}
			if r.state == "done" && !r.run.Valid {
				d.c(MergeWork).Skipped++ // left out with its run
				continue
			}
			if r.state != "done" {
				r.run = sql.NullInt64{}
			}
			add = append(add, []any{r.experiment, r.puzzle, r.config, r.seed, r.maxEvals, r.maxGens, r.timeout,
				r.trace, r.state, r.worker, r.attempts, r.run, r.enqueued, r.finished})
		}
		if len(add) > 0 {
			t := "TEXT"
			cte, args := keyTable("k", []string{"e", "p", "c", "s", "me", "mg", "t", "trace", "state", "worker", "attempts", "run", "enq", "fin"},
				[]string{big, big, big, big, big, big, big, t, t, t, big, big, t, t}, add)
			return addRows(ctx, tx, d, MergeWork, "add work", len(add), `WITH `+cte+`
				INSERT INTO work (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
					trace, state, worker, attempts, run_id, enqueued_at, finished_at)
				SELECT k.e, k.p, k.c, k.s, k.me, k.mg, k.t, k.trace, k.state, k.worker, k.attempts, k.run, k.enq, k.fin
				FROM k WHERE true
				ON CONFLICT DO NOTHING`, args...)
		}
		return nil
	}
	if err := mergePages(ctx, m, MergeWork, nil, read, write, func(r workRow) badKey { return badKey{"work", r.id, 0, ""} }); err != nil {
		return err
	}
	return m.noteWorkWithoutRun(ctx)
}

const (
	whyNoRun  = "left out by an earlier merge --skip-invalid, or deleted"
	linksThem = "a merge of a source holding the run links it"
)

// noteWorkWithoutRun notes the destination's work items done without
// their run, which merges before mergeWork skipped the items of runs left
// out could leave, so that the queue's "done" is not taken on trust.
func (m *merger) noteWorkWithoutRun(ctx context.Context) error {
	var n int64
	if err := m.dst.GetContext(ctx, &n, `SELECT COUNT(*) FROM work WHERE state = 'done' AND run_id IS NULL`); err != nil {
		return dbError(err, "count work done without its run")
	}
	switch {
	case n == 1:
		m.note("1 work item of the destination is done without its run (run_id NULL: %s); %s", whyNoRun, linksThem)
	case n > 1:
		m.note("%d work items of the destination are done without their run (run_id NULL: %s); %s", n, whyNoRun, linksThem)
	}
	return nil
}

// updateWork runs query, an update of one destination item (what names
// it), in tx: counted as updated when it changed the item, as existing
// when another writer had done so since the lookup.
func updateWork(ctx context.Context, tx *sqlx.Tx, d *delta, what, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, tx.Rebind(query), args...)
	if err != nil {
		return dbError(err, what)
	}
	if k, err := affected(res, what); err != nil {
		return err
	} else if k > 0 {
		d.c(MergeWork).Updated++
	} else {
		d.c(MergeWork).Existing++
	}
	return nil
}

// readWork reads a page of the source's work queue.
func (m *merger) readWork(ctx context.Context, after int64, n int) ([]workRow, int64, error) {
	var out []workRow
	err := selectAll(ctx, m.src, "read work", m.src.Rebind(`
		SELECT id, experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
			trace, state, worker, attempts, enqueued_at, finished_at
		FROM work WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r workRow
		err := rs.Scan(&r.id, &r.experiment, &r.puzzle, &r.config, &r.seed, &r.maxEvals, &r.maxGens, &r.timeout,
			&r.trace, &r.state, &r.worker, &r.attempts, &r.enqueued, &r.finished)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}
