package se_test

import (
	"context"
	"testing"

	"sudokulab/raters/se"
)

// BenchmarkRate rates three of top1465's hardest puzzles (serate ER 9.2 to
// 9.8), the chaining levels that dominate rating time.
func BenchmarkRate(b *testing.B) {
	puzzles := []string{
		"7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
		"......8...7..9..1...3..7..51..6......5..2..4...8..9..74.....2...6..1..5......6..3",
		".1..3..6.8..................63.9....7..8..4......1.5...9.....1.2..7........5..7..",
	}
	var grids [][81]int
	for _, p := range puzzles {
		var v [81]int
		for i := 0; i < 81; i++ {
			if p[i] >= '1' && p[i] <= '9' {
				v[i] = int(p[i] - '0')
			}
		}
		grids = append(grids, v)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range grids {
			if _, err := se.Rate(context.Background(), g); err != nil {
				b.Fatal(err)
			}
		}
	}
}
