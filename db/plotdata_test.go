package db_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestPlotData reads what plot draws from four runs on every backend:
// budgets, puzzles, trajectories, times and success counts of a
// selection, and a predicate naming a column its view lacks.
func TestPlotData(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		puzzle, config, exp := runFixture(t, d)
		addRuns(t, d, puzzle.ID, config, exp, sudokulab.StatusSolved, sudokulab.StatusUnsolved, sudokulab.StatusSolved, sudokulab.StatusError)
		all, solved := db.RunSelection{}, db.RunSelection{RunsWhere: "status = 'solved'"}

		if got, err := d.RunBudgets(ctx, all, "generations"); err != nil || fmt.Sprint(got) != "[100]" {
			t.Errorf("RunBudgets generations = %v, %v; want [100]", got, err)
		}
		if got, err := d.RunBudgets(ctx, all, "evaluations"); err != nil || len(got) != 0 {
			t.Errorf("RunBudgets evaluations = %v, %v; want none (no budget of evaluations)", got, err)
		}
		if _, err := d.RunBudgets(ctx, all, "nodes"); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("RunBudgets nodes: %v, want EINVALID", err)
		}
		if got, err := d.SelectedPuzzles(ctx, all); err != nil || len(got) != 1 || got[0].ID != puzzle.ID || got[0].Givens != puzzle.Givens.Givens() {
			t.Errorf("SelectedPuzzles = %+v, %v; want puzzle %d with %d givens", got, err, puzzle.ID, puzzle.Givens.Givens())
		}

		runs, err := d.Trajectories(ctx, solved, "evaluations")
		if err != nil || len(runs) != 2 {
			t.Fatalf("Trajectories = %+v, %v; want the 2 solved runs", runs, err)
		}
		for i, r := range runs {
			if r.Config != "ga" || r.PuzzleID != puzzle.ID || fmt.Sprint(r.X, r.Best) != "[0 100 200] [1 0 0]" || r.Spent != float64(100*(2*i+1)) {
				t.Errorf("trajectory %d = %+v", i, r)
			}
		}

		times, err := d.RunTimes(ctx, all, "generations")
		if err != nil || len(times) != 4 {
			t.Fatalf("RunTimes = %+v, %v", times, err)
		}
		for i, rt := range times {
			if rt.Solved != (i%2 == 0) || rt.Spent != float64(10*(i+1)) {
				t.Errorf("RunTimes[%d] = %+v", i, rt)
			}
		}

		totals, err := d.SuccessTotals(ctx, all)
		if err != nil || len(totals) != 1 || totals[0].Config != "ga" || totals[0].Runs != 4 || totals[0].Solved != 2 {
			t.Errorf("SuccessTotals = %+v, %v; want ga 2 of 4", totals, err)
		}
		labels, err := d.SuccessByLabel(ctx, all, "human")
		if err != nil || len(labels) != 1 || labels[0].Group != "(no label)" || labels[0].Runs != 4 || !math.IsNaN(labels[0].Level) {
			t.Errorf("SuccessByLabel = %+v, %v; want one unlabelled group of 4 runs", labels, err)
		}
		byColl, err := d.SuccessByCollection(ctx, db.RunSelection{Configs: []string{"ga"}})
		if err != nil || len(byColl) != 1 || byColl[0].Runs != 4 || byColl[0].Solved != 2 {
			t.Errorf("SuccessByCollection = %+v, %v", byColl, err)
		}

		field, err := d.CheckSelectionViews(ctx, db.RunSelection{RunsWhere: "solved = 1", Where: "nosuch = 1"})
		if field != "where" || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("CheckSelectionViews = %q, %v; want where, EINVALID", field, err)
		}
		if field, err := d.CheckSelectionViews(ctx, solved); field != "" || err != nil {
			t.Errorf("CheckSelectionViews(%+v) = %q, %v", solved, field, err)
		}
	})
}
