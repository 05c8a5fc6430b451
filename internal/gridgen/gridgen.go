// Package gridgen makes Sudoku puzzles of any square box order from a
// pattern grid, deterministically from a seed: for tests, benchmarks and
// the large-grid instance classes of the literature (n x n grids with a
// given fraction of their cells given), whose solution count may take
// anything from microseconds to hours to prove.
package gridgen

import (
	"math/rand/v2"

	"sudokulab"
)

// pattern returns the value of cell (r, c) of the pattern solution of box
// order b: (b*(r%b) + r/b + c) % n + 1, a valid n x n grid (n = b*b).
func pattern(b, r, c int) int { return (b*(r%b)+r/b+c)%(b*b) + 1 }

// Shuffled returns a puzzle of box order b with about frac of its cells
// given, and its solution: the pattern grid with its symbols permuted,
// rows shuffled within bands and columns within stacks, by a PCG
// generator seeded with seed; the cells kept are chosen by the same
// generator.
func Shuffled(b int, frac float64, seed uint64) (puzzle, solution sudokulab.Grid) {
	n := b * b
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	symbols := rng.Perm(n)
	order := func() []int {
		out := make([]int, 0, n)
		for band := range b {
			for _, i := range rng.Perm(b) {
				out = append(out, band*b+i)
			}
		}
		return out
	}
	rows, cols := order(), order()
	shape := sudokulab.Shape{BoxRows: b, BoxCols: b}
	solution, _ = sudokulab.NewGrid(shape)
	puzzle, _ = sudokulab.NewGrid(shape)
	for r := range n {
		for c := range n {
			solution.Cells[r*n+c] = uint8(symbols[pattern(b, rows[r], cols[c])-1] + 1)
		}
	}
	for i, cell := range rng.Perm(n * n) {
		if float64(i) < frac*float64(n*n) {
			puzzle.Cells[cell] = solution.Cells[cell]
		}
	}
	return puzzle, solution
}

// Pattern returns the unshuffled pattern grid of box order b with all but
// keep cells removed, chosen by a PCG generator seeded with seed.
func Pattern(b, keep int, seed uint64) sudokulab.Grid {
	n := b * b
	g, _ := sudokulab.NewGrid(sudokulab.Shape{BoxRows: b, BoxCols: b})
	for r := range n {
		for c := range n {
			g.Cells[r*n+c] = uint8(pattern(b, r, c))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, i := range rng.Perm(n * n)[keep:] {
		g.Cells[i] = 0
	}
	return g
}
