package francoga

import (
	"math/rand/v2"

	"sudokulab"
)

// CrossoverOf crosses two full grids of puzzle with default settings and
// returns the box child and the row-or-column child.
func CrossoverOf(puzzle, a, b sudokulab.Grid, rng *rand.Rand) (boxes, lines sudokulab.Grid) {
	e := newEngine(Settings{}.withDefaults(), puzzle)
	copy(e.ind(e.cur, 0), a.Cells)
	copy(e.ind(e.cur, 1), b.Cells)
	e.evaluate(e.cur, 0)
	e.evaluate(e.cur, 1)
	e.crossover(0, 0, 1, rng)
	return sudokulab.Grid{Shape: puzzle.Shape, Cells: e.ind(e.next, 0)}, sudokulab.Grid{Shape: puzzle.Shape, Cells: e.ind(e.next, 1)}
}

// MutateOf applies count mutations of the given kind weights to a copy of
// full and returns it.
func MutateOf(puzzle, full sudokulab.Grid, weights [4]float64, count int, rng *rand.Rand) sudokulab.Grid {
	e := newEngine(Settings{Weights: weights}.withDefaults(), puzzle)
	copy(e.ind(e.next, 0), full.Cells)
	for range count {
		e.mutate(0, rng)
	}
	return sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), e.ind(e.next, 0)...)}
}

// IncumbentCase loads full grids as the current population, makes
// incumbent the best grid found so far, applies the re-insertion rule of
// section 5.1.F and returns the population's costs afterwards.
func IncumbentCase(puzzle, incumbent sudokulab.Grid, population ...sudokulab.Grid) []int {
	e := newEngine(Settings{Population: len(population)}.withDefaults(), puzzle)
	copy(e.best, incumbent.Cells)
	e.bestTally.Reset(e.best)
	e.bestCost = e.bestTally.Cost()
	worst := 0
	for k, g := range population {
		copy(e.ind(e.cur, k), g.Cells)
		e.evaluate(e.cur, k)
		if e.cur.cost[k] > e.cur.cost[worst] {
			worst = k
		}
	}
	e.keepIncumbent(worst)
	return append([]int(nil), e.cur.cost...)
}
