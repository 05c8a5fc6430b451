package db

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// PuzzleRunStats is what the runs of one configuration say about one
// puzzle: how many runs there were, how many solved it, and the
// evaluations they spent in all (solved or not).
type PuzzleRunStats struct {
	PuzzleID    int64
	BoxRows     int
	BoxCols     int
	Grid        string
	Runs        int64
	Solved      int64
	Evaluations int64
}

// ConfigRunStats returns, for each puzzle the configuration named config
// has been run on, the counts of its runs (runs that ended in an error are
// left out: they say nothing about the puzzle). It reads only; an unknown
// configuration is an ENOTFOUND error.
func ConfigRunStats(ctx context.Context, x sqlx.ExtContext, config string) ([]PuzzleRunStats, error) {
	var id int64
	err := x.QueryRowxContext(ctx, x.Rebind(`SELECT id FROM configs WHERE name = ?`), config).Scan(&id)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "configuration %q not found", config)
		}
		return nil, dbError(err, "configuration "+config)
	}
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT p.id, p.box_rows, p.box_cols, p.grid, count(*),
			sum(CASE WHEN r.status = 'solved' THEN 1 ELSE 0 END),
			COALESCE(sum(r.effort), 0)
		FROM run_results r JOIN puzzles p ON p.id = r.puzzle_id
		WHERE r.config_id = ? AND r.status <> 'error'
		GROUP BY p.id, p.box_rows, p.box_cols, p.grid
		ORDER BY p.id`), id)
	if err != nil {
		return nil, dbError(err, "run statistics of "+config)
	}
	defer rows.Close()
	var out []PuzzleRunStats
	for rows.Next() {
		var s PuzzleRunStats
		if err := rows.Scan(&s.PuzzleID, &s.BoxRows, &s.BoxCols, &s.Grid, &s.Runs, &s.Solved, &s.Evaluations); err != nil {
			return nil, dbError(err, "run statistics of "+config)
		}
		out = append(out, s)
	}
	return out, dbError(rows.Err(), "run statistics of "+config)
}

// RatedPuzzles returns the ids of the puzzles that have a rating by rater
// with the given rater_version and options (empty options stand for "{}",
// as UpsertRating stores them): the puzzles a re-run of the rater with the
// same settings can skip.
func RatedPuzzles(ctx context.Context, x sqlx.ExtContext, rater, version, options string) (map[int64]bool, error) {
	if options == "" {
		options = "{}"
	}
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT puzzle_id FROM ratings WHERE rater = ? AND rater_version = ? AND options = ?`), rater, version, options)
	if err != nil {
		return nil, dbError(err, "ratings by "+rater)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, dbError(err, "ratings by "+rater)
		}
		out[id] = true
	}
	return out, dbError(rows.Err(), "ratings by "+rater)
}
