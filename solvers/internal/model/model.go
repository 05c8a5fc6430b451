// Package model holds the pieces of a per-cell symbol model that the
// estimation of distribution algorithms (reseda, nbcoin) share: the
// candidates the fixed cells leave a cell, the uniform start over them,
// and the free cells listed box by box.
package model

import (
	"math/bits"

	"sudokulab"
)

// Candidates returns the symbols of dom (bit k-1 for symbol k) that no
// fixed cell of cell i's row, column or box holds, given the unit masks of
// the fixed cells (sudokulab.Geometry.UnitMasks); it returns dom itself
// when the fixed cells exclude every symbol of it.
func Candidates(geo *sudokulab.Geometry, masks []uint32, i int, dom uint32) uint32 {
	if c := dom &^ geo.Seen(masks, i); c != 0 {
		return c
	}
	return dom
}

// Uniform sets the entries of row for the symbols in allowed to 1 over
// their number, leaving the others as they are.
func Uniform(row []float64, allowed uint32) {
	q := 1 / float64(bits.OnesCount32(allowed))
	for k := range row {
		if allowed&(1<<k) != 0 {
			row[k] = q
		}
	}
}

// BoxFree lists the free cells (0 in fixed) box by box into free[:0], box
// b's at free[start[b]:start[b+1]] (start has N+1 entries), and returns
// the list; it allocates nothing when free has room for every cell.
func BoxFree(geo *sudokulab.Geometry, fixed []uint8, free, start []int32) []int32 {
	n := geo.N
	free = free[:0]
	for b := range n {
		start[b] = int32(len(free))
		for _, i := range geo.Units[2*n+b] {
			if fixed[i] == 0 {
				free = append(free, int32(i))
			}
		}
	}
	start[n] = int32(len(free))
	return free
}
