package db

import (
	"context"
	"fmt"
)

// RankedRun is one finished run as a ranking of configurations reads it:
// a run that ended solved, unsolved or timeout (canceled runs and errors
// say nothing about a configuration).
type RankedRun struct {
	Config string
	Puzzle int64
	Solved bool
	// Effort is run_results.effort in EffortUnit ("evaluations", or
	// "nodes" for the exact solver); CPU and Wall are its CPU and
	// wall-clock seconds. Each is nil when not recorded.
	Effort     *float64
	EffortUnit string
	CPU, Wall  *float64
	// TimeoutSeconds is the run's time budget, 0 for none.
	TimeoutSeconds float64
}

// RankingRuns reads the finished runs sel chooses, ordered by
// configuration, puzzle and run id, on a read-only connection. An
// experiment or configuration sel names that does not exist is an
// ENOTFOUND error, a predicate the database rejects an EINVALID one.
func (d *DB) RankingRuns(ctx context.Context, sel RunSelection) ([]RankedRun, error) {
	if err := sel.Check(); err != nil {
		return nil, err
	}
	if err := RequireSelected(ctx, d, sel); err != nil {
		return nil, err
	}
	runs, err := d.FinishedRuns(ctx, sel)
	if err != nil {
		return nil, fmt.Errorf("ranking runs: %w", err)
	}
	return runs, nil
}

// FinishedRuns is RankingRuns without its checks: the finished runs sel
// chooses, ordered by configuration, puzzle and run id, read on a
// read-only connection. sel must have passed Check.
func (d *DB) FinishedRuns(ctx context.Context, sel RunSelection) ([]RankedRun, error) {
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.puzzle_id, r.solved, r.effort, r.effort_unit, r.cpu_seconds, r.wall_seconds, r.timeout_ms
		FROM run_results r
		WHERE `+cond+` AND r.status IN ('solved', 'unsolved', 'timeout')
		ORDER BY r.config, r.puzzle_id, r.id`, args...)
	if err != nil {
		return nil, err
	}
	runs := make([]RankedRun, len(t.Rows))
	for i, row := range t.Rows {
		r := RankedRun{
			Config: fmt.Sprint(row[0]), Puzzle: int64(Number(row[1])), Solved: Number(row[2]) == 1,
			Effort: optNumber(row[3]), CPU: optNumber(row[5]), Wall: optNumber(row[6]),
			TimeoutSeconds: Number(row[7]) / 1000,
		}
		if row[4] != nil {
			r.EffortUnit = fmt.Sprint(row[4])
		}
		runs[i] = r
	}
	return runs, nil
}

// optNumber is Number of a column that may be NULL (nil).
func optNumber(v any) *float64 {
	if v == nil {
		return nil
	}
	x := Number(v)
	return &x
}
