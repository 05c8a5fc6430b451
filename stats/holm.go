package stats

import (
	"math"
	"slices"
)

// Holm returns the p-values p adjusted by Holm's step-down method (Holm
// 1979, "A simple sequentially rejective multiple test procedure"), in the
// order given, as R's p.adjust(p, "holm") does: the i-th smallest of the m
// p-values is multiplied by m-i+1, the results are made non-decreasing in
// the order of the p-values, and capped at 1. Rejecting the hypotheses
// whose adjusted p-value is at most alpha controls the family-wise error
// rate at alpha. NaN p-values (tests that could not be run) stay NaN and
// do not count in m.
func Holm(p []float64) []float64 {
	adj := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		adj[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(idx)
	running := 0.0
	for rank, i := range idx {
		v := math.Min(1, float64(m-rank)*p[i])
		running = math.Max(running, v)
		adj[i] = running
	}
	return adj
}
