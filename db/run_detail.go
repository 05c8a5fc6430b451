package db

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// RunDetail is one run with its puzzle, its configuration and its
// trajectory: what `sudokulab runs show` prints.
type RunDetail struct {
	Run        *sudokulab.Run
	Puzzle     *sudokulab.Puzzle
	Config     *sudokulab.Config
	Trajectory []sudokulab.TrajectoryPoint
}

// GetRunDetail reads the run id with its puzzle, configuration and
// trajectory; a missing run is an ENOTFOUND error.
func GetRunDetail(ctx context.Context, x sqlx.ExtContext, id int64) (RunDetail, error) {
	r, err := GetRun(ctx, x, id)
	if err != nil {
		return RunDetail{}, err
	}
	p, err := GetPuzzle(ctx, x, r.PuzzleID)
	if err != nil {
		return RunDetail{}, err
	}
	c, err := GetConfigByID(ctx, x, r.ConfigID)
	if err != nil {
		return RunDetail{}, err
	}
	points, err := RunTrajectory(ctx, x, id)
	if err != nil {
		return RunDetail{}, err
	}
	return RunDetail{Run: r, Puzzle: p, Config: c, Trajectory: points}, nil
}

// TrajectoryTable is points as a table, one row per point: seq,
// generation, evaluations, elapsed_seconds, best_cost and current_cost
// (nil, NULL, when the solver reports none).
func TrajectoryTable(points []sudokulab.TrajectoryPoint) Table {
	rows := make([][]any, len(points))
	for i, pt := range points {
		var cur any
		if pt.CurrentCost != nil {
			cur = *pt.CurrentCost
		}
		rows[i] = []any{pt.Seq, pt.Generation, pt.Evaluations, pt.ElapsedSeconds, pt.BestCost, cur}
	}
	return Table{Columns: []string{"seq", "generation", "evaluations", "elapsed_seconds", "best_cost", "current_cost"}, Rows: rows}
}
