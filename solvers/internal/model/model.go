// Package model holds the pieces of a per-cell symbol model that the
// estimation of distribution algorithms (reseda, nbcoin) share: the
// opening of Solve (Start), the candidates the fixed cells leave a cell,
// the uniform start over them, the free cells listed box by box, and the
// cost of a full grid.
package model

import (
	"errors"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Start begins a Solve: it checks that puzzle is a grid of its shape and
// applies the named prefilter to it, returning the domains and the
// prefilter's counters. A malformed grid is an EINVALID error starting
// with solver, the solver's name. When the prefilter proves the puzzle has
// no solution, infeasible is the run's result: unsolved at once, with each
// box filled as a random permutation of the symbols its givens lack, and
// that grid's cost (one evaluation, no generation).
func Start(solver, prefilter string, puzzle sudokulab.Grid, rng *rand.Rand) (d *ac3.Domains, pst ac3.Stats, infeasible *sudokulab.Result, err error) {
	if err := puzzle.Shape.Validate(); err != nil {
		return nil, pst, nil, sudokulab.WrapError(sudokulab.EINVALID, err, "%s", solver)
	}
	if len(puzzle.Cells) != puzzle.Shape.Cells() {
		return nil, pst, nil, sudokulab.Errorf(sudokulab.EINVALID, "%s: %d cells for a %s grid", solver, len(puzzle.Cells), puzzle.Shape)
	}
	d, pst, err = ac3.Apply(prefilter, puzzle)
	switch {
	case errors.Is(err, ac3.ErrNoSolution):
		geo := puzzle.Geometry()
		u := ac3.Unfiltered(puzzle)
		g := append([]uint8(nil), puzzle.Cells...)
		for b := range geo.N {
			u.FillUnit(g, 2*geo.N+b, rng)
		}
		return nil, pst, &sudokulab.Result{
			Grid:               sudokulab.Grid{Shape: puzzle.Shape, Cells: g},
			Cost:               Cost(geo, make([]uint32, 3*geo.N), g),
			Status:             sudokulab.StatusUnsolved,
			Evaluations:        1,
			PrefilterRevisions: int64(pst.Revisions),
		}, nil
	case err != nil:
		return nil, pst, nil, err
	}
	return d, pst, nil, nil
}

// Cost returns the cost of the full grid g: the symbols missing from its
// rows, columns and boxes (sudokulab.Missing.Total). It leaves the grid's
// unit masks in masks (3N of them: rows, columns, then boxes).
func Cost(geo *sudokulab.Geometry, masks []uint32, g []uint8) int {
	n := geo.N
	clear(masks)
	for i, v := range g {
		bit := uint32(1) << (v - 1)
		masks[geo.Row[i]] |= bit
		masks[n+geo.Col[i]] |= bit
		masks[2*n+geo.Box[i]] |= bit
	}
	missing := 3 * n * n
	for _, x := range masks {
		missing -= bits.OnesCount32(x)
	}
	return missing
}

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
