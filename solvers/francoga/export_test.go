package francoga

import (
	"context"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// CrossoverOf crosses two full grids of puzzle with default settings and
// returns the box child and the row-or-column child.
func CrossoverOf(puzzle, a, b sudokulab.Grid, rng *rand.Rand) (boxes, lines sudokulab.Grid) {
	e := newEngine(Settings{}.withDefaults(), puzzle, ac3.Unfiltered(puzzle), false)
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
	e := newEngine(Settings{Weights: weights}.withDefaults(), puzzle, ac3.Unfiltered(puzzle), false)
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
	e := newEngine(Settings{Population: len(population)}.withDefaults(), puzzle, ac3.Unfiltered(puzzle), false)
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

// Engine is a test handle on an engine run after a prefilter.
type Engine struct{ e *engine }

// NewFilteredEngine builds an engine with settings s for puzzle after the
// named prefilter (which must not prove the puzzle unsolvable); Run fills
// its first population and runs generations.
func NewFilteredEngine(s Settings, puzzle sudokulab.Grid, prefilter string) (*Engine, *ac3.Domains) {
	d, _, err := ac3.Apply(prefilter, puzzle)
	if err != nil {
		panic(err)
	}
	return &Engine{newEngine(s.withDefaults(), puzzle, d, prefilter != ac3.None)}, d
}

// Run fills the first population and runs up to gens generations,
// calling check on every individual of every population, and returns the
// number of generations run.
func (x *Engine) Run(gens int64, rng *rand.Rand, check func(gen int64, cells []uint8)) int64 {
	e := x.e
	return e.run(context.Background(), sudokulab.Budget{MaxGenerations: gens}, rng, sudokulab.ObserverFunc(func(st sudokulab.Step) {
		for k := 0; k < e.s.Population; k++ {
			check(st.Generation, e.ind(e.cur, k))
		}
	}), false).Generations
}

// MutateFiltered applies count mutations of the given kind weights, after
// the named prefilter, to a copy of full and returns it.
func MutateFiltered(puzzle, full sudokulab.Grid, prefilter string, weights [4]float64, count int, rng *rand.Rand) sudokulab.Grid {
	d, _, err := ac3.Apply(prefilter, puzzle)
	if err != nil {
		panic(err)
	}
	e := newEngine(Settings{Weights: weights}.withDefaults(), puzzle, d, true)
	copy(e.ind(e.next, 0), full.Cells)
	for range count {
		e.mutate(0, rng)
	}
	return sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), e.ind(e.next, 0)...)}
}
