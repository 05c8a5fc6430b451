package restartsearch_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/restartsearch"
	"sudokulab/solvers/solvertest"
)

// BenchmarkSolve measures whole runs (seeds 1, 2, ... in turn) on AI
// Escargot and on instances of the 16x16 and 25x25 classes at 45 % given,
// reporting the time per search node (the hot loop: propagation to a
// fixpoint and a random branching choice) beside the time per run.
func BenchmarkSolve(b *testing.B) {
	for _, tc := range []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
		{"16x16-45", instance(sudokulab.Shape{BoxRows: 4, BoxCols: 4}, 0.45, 1)},
		{"25x25-45", instance(sudokulab.Shape{BoxRows: 5, BoxCols: 5}, 0.45, 1)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := solvertest.New(b, restartsearch.Info(), nil)
			var nodes int64
			seed := int64(0)
			b.ReportAllocs()
			for b.Loop() {
				seed++
				res, err := s.Solve(context.Background(), tc.puzzle, sudokulab.Budget{}, sudokulab.NewRand(seed), nil)
				if err != nil || res.Status != sudokulab.StatusSolved {
					b.Fatalf("seed %d: %s, %v", seed, res.Status, err)
				}
				nodes += res.Nodes
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		})
	}
}
