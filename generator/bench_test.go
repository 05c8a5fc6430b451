package generator_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/raters"
)

// BenchmarkGenerate measures throughput on every core (GOMAXPROCS
// workers); puzzles/s is the figure docs/generate.md reports.
func BenchmarkGenerate(b *testing.B) {
	hard := &generator.RatingFilter{Rater: raters.Human{}, Levels: generator.HumanLevels(), Min: 3, Max: 6, Spec: "human:hard..beyond"}
	big := sudokulab.Shape{BoxRows: 4, BoxCols: 4}
	tests := []struct {
		name string
		opts generator.Options
	}{
		{"9x9", generator.Options{Shape: sudokulab.Classic}},
		{"9x9/minimal", generator.Options{Shape: sudokulab.Classic, Minimal: true}},
		{"9x9/rot180", generator.Options{Shape: sudokulab.Classic, Symmetry: generator.Rot180}},
		{"9x9/rot180-minimal", generator.Options{Shape: sudokulab.Classic, Symmetry: generator.Rot180, Minimal: true}},
		{"9x9/human-hard..beyond", generator.Options{Shape: sudokulab.Classic, Rating: hard}},
		{"9x9/minimal-human-hard..beyond", generator.Options{Shape: sudokulab.Classic, Minimal: true, Rating: hard}},
		{"16x16", generator.Options{Shape: big}},
		{"16x16/minimal", generator.Options{Shape: big, Minimal: true}},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			g, err := generator.New(tt.opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			if err := g.Generate(context.Background(), 0, b.N, 0, func(generator.Puzzle) error { return nil }); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}

// BenchmarkRandomSolution measures drawing one solution grid, mixing
// included, on one core.
func BenchmarkRandomSolution(b *testing.B) {
	for _, shape := range []sudokulab.Shape{sudokulab.Classic, {BoxRows: 4, BoxCols: 4}} {
		b.Run(shape.String(), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			for range b.N {
				generator.RandomSolution(shape, rng)
			}
		})
	}
}
