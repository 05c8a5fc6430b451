package nbcoin

import (
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Engine exposes the NB-COIN operators to the tests.
type Engine struct{ e engine }

// NewEngine returns an engine for shape with the parameters of set
// (defaults for the rest).
func NewEngine(shape sudokulab.Shape, set map[string]string) *Engine {
	info := Info()
	p, err := info.Resolve(set)
	if err != nil {
		panic(err)
	}
	s, err := newSolver(p)
	if err != nil {
		panic(err)
	}
	en := &Engine{}
	en.e.prepare(shape, s.(*solver).set)
	return en
}

// Group returns the size of the rewarded and of the punished group.
func (en *Engine) Group() int { return en.e.set.group }

// Init builds the models for the puzzle and returns the convergence.
func (en *Engine) Init(puzzle []uint8) float64 { return en.e.init(puzzle) }

// M returns cell i's model column, symbol k at index k-1.
func (en *Engine) M(i int) []float64 { return en.e.m[i*en.e.n : (i+1)*en.e.n] }

// SetM sets cell i's model column.
func (en *Engine) SetM(i int, m ...float64) { copy(en.M(i), m) }

// Sample draws a grid.
func (en *Engine) Sample(rng *rand.Rand, dst []uint8) { en.e.sample(rng, dst) }

// Cost returns the cost of a full grid.
func (en *Engine) Cost(g []uint8) int { return en.e.costOf(g) }

// Rank ranks the given costs (len = population) and returns the order.
func (en *Engine) Rank(costs []int) []int {
	copy(en.e.cost, costs)
	en.e.rank()
	return append([]int(nil), en.e.order...)
}

// Update learns from a population (len = population, ranked by the given
// costs; with credit=box, by the box-local costs of the grids) and returns
// the convergence.
func (en *Engine) Update(pop [][]uint8, costs []int) float64 {
	for j, g := range pop {
		copy(en.e.pop[j*en.e.size:], g)
		en.e.evaluate(j)
	}
	copy(en.e.cost, costs)
	en.e.rank()
	return en.e.update()
}

// Generation does one generation as Solve does, for benchmarks.
func (en *Engine) Generation(rng *rand.Rand) {
	e := &en.e
	for j := range e.cost {
		g := e.pop[j*e.size : (j+1)*e.size]
		e.sample(rng, g)
		e.cost[j] = e.evaluate(j)
	}
	e.rank()
	e.update()
}

// Restrict prunes puzzle with the engine's prefilter, makes the pruned
// domains the engine's and returns them with the grid Init should start
// from (the cells the prefilter fixed filled in).
func (en *Engine) Restrict(puzzle sudokulab.Grid) (*ac3.Domains, []uint8) {
	d, _, err := ac3.Apply(en.e.set.prefilter, puzzle)
	if err != nil {
		panic(err)
	}
	en.e.d = d
	return d, d.Grid().Cells
}

// BoxCosts returns the box-local costs of grid j recorded by the last
// Update or Generation with credit=box, box 0 first.
func (en *Engine) BoxCosts(j int) []int {
	return append([]int(nil), en.e.boxCost[j*en.e.n:(j+1)*en.e.n]...)
}

// Samples returns the grids the last Generation sampled.
func (en *Engine) Samples() [][]uint8 {
	var out [][]uint8
	for j := range en.e.cost {
		out = append(out, en.e.pop[j*en.e.size:(j+1)*en.e.size])
	}
	return out
}
