package acs_test

import (
	"testing"

	"sudokulab"
)

// solved returns the solved grid of box side k (k*k x k*k) given by the
// pattern v(r, c) = (k*(r mod k) + r div k + c) mod k*k + 1, its rows,
// columns and symbols then shuffled with a seed.
func solved(k int, seed int64) sudokulab.Grid {
	n := k * k
	rng := sudokulab.NewRand(seed)
	perm := func(m int) []int { return rng.Perm(m) }
	// Shuffle rows within bands and bands, columns within stacks and
	// stacks, and the symbols: each keeps the grid a solution.
	rows, cols := make([]int, 0, n), make([]int, 0, n)
	for _, band := range perm(k) {
		for _, r := range perm(k) {
			rows = append(rows, band*k+r)
		}
	}
	for _, stack := range perm(k) {
		for _, c := range perm(k) {
			cols = append(cols, stack*k+c)
		}
	}
	sym := perm(n)
	g := sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: k, BoxCols: k}, Cells: make([]uint8, n*n)}
	for r := range n {
		for c := range n {
			rr, cc := rows[r], cols[c]
			g.Cells[r*n+c] = uint8(sym[(k*(rr%k)+rr/k+cc)%n] + 1)
		}
	}
	return g
}

// holes returns a puzzle made from solved(k, seed) by keeping each cell
// with probability given (the instance classes of Lewis and of Lloyd and
// Amos keep an exact fraction; a probability is close enough here).
func holes(tb testing.TB, k int, given float64, seed int64) sudokulab.Grid {
	tb.Helper()
	g := solved(k, seed)
	rng := sudokulab.NewRand(seed + 1000)
	for i := range g.Cells {
		if rng.Float64() >= given {
			g.Cells[i] = 0
		}
	}
	if err := g.Validate(); err != nil {
		tb.Fatal(err)
	}
	return g
}
