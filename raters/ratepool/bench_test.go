package ratepool_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/tdoku"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

// BenchmarkRateAll rates 1,000 tdoku puzzles (the magictour top 1465, hard
// for backtracking, from the shared data folder) by every rater but
// empirical on all CPUs, as rate does.
func BenchmarkRateAll(b *testing.B) {
	list, err := tdoku.Full(tdoku.Top1465)
	if err != nil {
		b.Fatal(err)
	}
	rs, err := raters.Default().Make(context.Background(), raters.All, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	var work []ratepool.Job
	for i, g := range list[:1000] {
		work = append(work, ratepool.Job{Puzzle: sudokulab.Puzzle{ID: int64(i + 1), Givens: g}, Raters: rs})
	}
	ctx := context.Background()
	for b.Loop() {
		n := 0
		if err := ratepool.All(ctx, work, 0, nil, func(ratepool.Outcome) error { n++; return nil }, nil, 0); err != nil {
			b.Fatal(err)
		}
		if n != len(work)*len(rs) {
			b.Fatalf("%d ratings, want %d", n, len(work)*len(rs))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/1000puzzles")
}
