package acs_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/acs"
	"sudokulab/solvers/solvertest"
)

// BenchmarkIteration measures the hot loop: one iteration of the colony
// (10 ants each building a grid with propagation, then the global update)
// on AI Escargot and on a 16x16 and a 25x25 puzzle with 45 % of the cells
// given.
func BenchmarkIteration(b *testing.B) {
	for _, tc := range []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
		{"16x16-45", holes(b, 4, 0.45, 1)},
		{"25x25-45", holes(b, 5, 0.45, 1)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			col := acs.NewColony(tc.puzzle.Shape, nil, sudokulab.NewRand(1))
			if !col.Start(tc.puzzle.Cells) {
				b.Fatal("infeasible")
			}
			b.ReportAllocs()
			for b.Loop() {
				col.Iterate()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
			b.ReportMetric(float64(b.N)*10/b.Elapsed().Seconds(), "evaluations/s")
		})
	}
}

// BenchmarkSolve measures whole runs on AI Escargot, each seed solved to
// the end.
func BenchmarkSolve(b *testing.B) {
	s := solvertest.New(b, acs.Info(), nil)
	p := paperdata.MustGet("ai-escargot").Puzzle
	var gens int64
	seed := int64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 100_000}, sudokulab.NewRand(seed), nil)
		if err != nil {
			b.Fatal(err)
		}
		gens += res.Generations
	}
	b.ReportMetric(float64(gens)/float64(b.N), "iterations/run")
}
