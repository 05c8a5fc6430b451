package lewissa_test

import (
	"testing"

	"sudokulab"
	"sudokulab/internal/gridgen"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/lewissa"
)

// BenchmarkMoves measures the hot loop: annealing moves (draw a swap in a
// box, value it from the row and column counts, accept or not), reported
// per move, on AI Escargot and on 16x16 and 25x25 puzzles with 45 % given.
func BenchmarkMoves(b *testing.B) {
	g16, _ := gridgen.Shuffled(4, 0.45, 1)
	g25, _ := gridgen.Shuffled(5, 0.45, 1)
	for _, tc := range []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
		{"16x16-45", g16},
		{"25x25-45", g25},
	} {
		b.Run(tc.name, func(b *testing.B) {
			// Chains of about 1,000 moves, at the temperature of the start.
			open := float64(len(tc.puzzle.Cells) - tc.puzzle.Givens())
			a := lewissa.NewAnnealer(tc.puzzle, 1-1e-6, 1000/(open*open), 0, 10, sudokulab.NewRand(1))
			a.Start()
			moves := a.ChainLength()
			b.ReportAllocs()
			for b.Loop() {
				a.Chain()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*moves), "ns/move")
		})
	}
}
