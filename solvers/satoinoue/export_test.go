package satoinoue

import (
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Individual is a handle on one individual of a test engine.
type Individual struct {
	e *engine
	p *pop
	k int
}

// Cells returns the individual's cells.
func (x Individual) Cells() []uint8 { c, _, _ := x.p.ind(x.k); return c }

// Cost returns the individual's incrementally kept cost.
func (x Individual) Cost() int { return int(x.p.cost[x.k]) }

// RowMissing returns the kept missing count of row r.
func (x Individual) RowMissing(r int) int { _, _, m := x.p.ind(x.k); return int(m[r]) }

// NewTestEngine builds an engine for puzzle with default settings and loads
// the given grids as individuals 0, 1, ... of its current population; a
// grid with empty cells is filled at random.
func NewTestEngine(puzzle sudokulab.Grid, grids ...sudokulab.Grid) []Individual {
	return NewTestEngineSettings(Settings{}, puzzle, grids...)
}

// NewTestEngineSettings is NewTestEngine with settings s.
func NewTestEngineSettings(s Settings, puzzle sudokulab.Grid, grids ...sudokulab.Grid) []Individual {
	e, err := newEngine(s.withDefaults(), puzzle, ac3.Unfiltered(puzzle), false)
	if err != nil {
		panic(err)
	}
	out := make([]Individual, len(grids))
	for k, g := range grids {
		if !g.Full() {
			e.randomFill(e.cur, k, sudokulab.NewRand(int64(k)))
		} else {
			copy(e.cur.cells[k*e.nn:], g.Cells)
			e.recount(e.cur, k)
		}
		out[k] = Individual{e: e, p: e.cur, k: k}
	}
	return out
}

// Crossover crosses individuals a and b (of one engine) and returns the
// row child and the column child.
func Crossover(a, b Individual, rng *rand.Rand) (rows, cols Individual) {
	e := a.e
	e.crossover(e.mid, 0, a.p, a.k, b.k, rng)
	return Individual{e, e.mid, 0}, Individual{e, e.mid, 1}
}

// Swap swaps cells i and j of x incrementally.
func Swap(x Individual, i, j int) { x.e.swap(x.p, x.k, i, j) }

// Mutate mutates x at the given rate.
func Mutate(x Individual, rate float64, rng *rand.Rand) { x.e.mutate(x.p, x.k, threshold(rate), rng) }

// RandomFill fills x from the puzzle at random.
func RandomFill(x Individual, rng *rand.Rand) { x.e.randomFill(x.p, x.k, rng) }

// NewFilteredEngine builds an engine with settings s for puzzle after the
// named prefilter (which must not prove the puzzle unsolvable) and fills
// its first population.
func NewFilteredEngine(s Settings, puzzle sudokulab.Grid, prefilter string, rng *rand.Rand) (*Engine, *ac3.Domains) {
	d, _, err := ac3.Apply(prefilter, puzzle)
	if err != nil {
		panic(err)
	}
	e, err := newEngine(s.withDefaults(), puzzle, d, prefilter != ac3.None)
	if err != nil {
		panic(err)
	}
	for k := 0; k < e.cur.size(); k++ {
		e.randomFill(e.cur, k, rng)
	}
	return &Engine{e}, d
}

// Engine is a test handle on an engine.
type Engine struct{ e *engine }

// Generation runs one generation.
func (x *Engine) Generation(rng *rand.Rand) { x.e.generation(rng) }

// Individuals returns the current population's individuals and the
// last generation's children.
func (x *Engine) Individuals() (cur, kids []Individual) {
	for k := 0; k < x.e.cur.size(); k++ {
		cur = append(cur, Individual{x.e, x.e.cur, k})
	}
	for k := 0; k < x.e.kids.size(); k++ {
		kids = append(kids, Individual{x.e, x.e.kids, k})
	}
	return cur, kids
}
