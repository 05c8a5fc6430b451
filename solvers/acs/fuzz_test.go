package acs_test

import (
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/acs"
)

// FuzzPropagation feeds the propagation of the givens (section 3.1)
// arbitrary 9x9 grids: it must not panic; what it fixes on a puzzle that
// has a solution must agree with that solution; and a grid it reports
// feasible and complete must be a solution. Seeded with the paper puzzles
// and puzzles cut from their solutions.
func FuzzPropagation(f *testing.F) {
	for _, p := range paperdata.All() {
		if p.Puzzle.Shape == sudokulab.Classic {
			f.Add(p.Puzzle.Cells, p.Solution.Cells, uint64(0))
			f.Add(p.Solution.Cells, p.Solution.Cells, uint64(0x5555555555555555))
		}
	}
	f.Fuzz(func(t *testing.T, cells, solution []byte, mask uint64) {
		if len(cells) != 81 {
			return
		}
		g := sudokulab.Grid{Shape: sudokulab.Classic, Cells: make([]uint8, 81)}
		sol := sudokulab.Grid{Shape: sudokulab.Classic, Cells: make([]uint8, 81)}
		useSol := len(solution) == 81
		for i := range g.Cells {
			g.Cells[i] = cells[i] % 10
			if useSol {
				sol.Cells[i] = solution[i]
			}
		}
		if useSol && sol.Validate() == nil && sol.Full() {
			// Cut a puzzle from the solution: cell i kept if bit i%64 of
			// mask is set (and cells[i] is odd, for variety).
			for i := range g.Cells {
				g.Cells[i] = 0
				if mask>>(i%64)&1 == 1 || cells[i]%2 == 1 {
					g.Cells[i] = sol.Cells[i]
				}
			}
		} else {
			useSol = false
		}
		col := acs.NewColony(sudokulab.Classic, nil, sudokulab.NewRand(1))
		feasible := col.Start(g.Cells)
		if useSol && !feasible {
			t.Fatalf("puzzle %s with solution %s reported unsolvable", g, sol)
		}
		if !feasible {
			return
		}
		got := col.Initial()
		full := true
		for i, v := range got {
			if g.Cells[i] != 0 && v != g.Cells[i] {
				t.Fatalf("given %d at %d became %d", g.Cells[i], i, v)
			}
			if useSol && v != 0 && v != sol.Cells[i] {
				t.Fatalf("cell %d fixed to %d, solution has %d", i, v, sol.Cells[i])
			}
			full = full && v != 0
		}
		if full {
			if err := sudokulab.CheckSolution(g, sudokulab.Grid{Shape: sudokulab.Classic, Cells: got}); err != nil {
				t.Fatalf("complete propagated grid is no solution: %v", err)
			}
		}
	})
}
