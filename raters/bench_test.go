package raters_test

import (
	"context"
	"testing"

	"sudokulab/internal/tdoku"
	"sudokulab/raters"
)

// BenchmarkRaters rates 1,000 tdoku puzzles (the magictour top 1465) by
// each rater on one goroutine; the rate command spreads the work over all
// CPUs (see BenchmarkRateAll in cmd/sudokulab).
func BenchmarkRaters(b *testing.B) {
	puzzles := tdokuFull(b, tdoku.Top1465, 1000)
	for _, name := range []string{"givens", "backtrack", "human"} {
		b.Run(name, func(b *testing.B) {
			in, _ := raters.Default().Lookup(name)
			r, err := in.New(context.Background(), raters.Env{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				for _, g := range puzzles {
					if _, err := r.Rate(context.Background(), g); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(puzzles)), "µs/puzzle")
		})
	}
}
