package db_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// BenchmarkInsertTrajectoryPoints stores runs of pointsPerRun trajectory
// points, each run with its points in one transaction (InsertRun on the
// pool), and reports the points stored per second. The target is at least
// 200,000 points/s.
func BenchmarkInsertTrajectoryPoints(b *testing.B) {
	const pointsPerRun = 1000
	ctx := context.Background()
	d := openTemp(b)
	puzzle, config, exp := runFixture(b, d)
	pts := makePoints(pointsPerRun)
	best := 0
	b.ResetTimer()
	for i := range b.N {
		r := &sudokulab.Run{ExperimentID: exp, PuzzleID: puzzle.ID, ConfigID: config, Seed: int64(i),
			Status: sudokulab.StatusSolved, BestCost: &best}
		if _, err := db.InsertRun(ctx, d, r, pts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*pointsPerRun)/b.Elapsed().Seconds(), "points/s")
}
