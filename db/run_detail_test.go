package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

func TestGetRunDetail(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	puzzle, config, _ := runFixture(t, d)
	pts := makePoints(4)
	id, err := db.InsertRun(ctx, d, &sudokulab.Run{PuzzleID: puzzle.ID, ConfigID: config, Seed: 7, Status: sudokulab.StatusSolved}, pts)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := db.GetRunDetail(ctx, d, id)
	if err != nil {
		t.Fatal(err)
	}
	if rd.Run.ID != id || rd.Run.Seed != 7 || rd.Puzzle.ID != puzzle.ID || rd.Config.Name != "ga" || len(rd.Trajectory) != len(pts) {
		t.Fatalf("GetRunDetail = run %d seed %d, puzzle %d, config %q, %d points", rd.Run.ID, rd.Run.Seed, rd.Puzzle.ID, rd.Config.Name, len(rd.Trajectory))
	}
	if _, err := db.GetRunDetail(ctx, d, id+1); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Fatalf("GetRunDetail(missing) = %v, want ENOTFOUND", err)
	}
	tab := db.TrajectoryTable(rd.Trajectory)
	if got := fmt.Sprint(tab.Columns); got != "[seq generation evaluations elapsed_seconds best_cost current_cost]" {
		t.Fatalf("columns %s", got)
	}
	// makePoints(4): no current cost on every third point (NULL).
	want := []string{"[0 0 0 0 2 <nil>]", "[1 1 100 0.001 1 3.5]", "[2 2 200 0.002 0 2.5]", "[3 3 300 0.003 0 <nil>]"}
	for i, row := range tab.Rows {
		if got := fmt.Sprint(row); got != want[i] {
			t.Errorf("row %d = %s, want %s", i, got, want[i])
		}
	}
}
