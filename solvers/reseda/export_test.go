package reseda

import (
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Engine exposes the EDA operators to the tests.
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

// Init starts a resolution from the fixed cells and returns rho.
func (en *Engine) Init(fixed []uint8) float64 { return en.e.init(fixed) }

// P returns cell i's probabilities, symbol k at index k-1.
func (en *Engine) P(i int) []float64 { return en.e.p[i*en.e.n : (i+1)*en.e.n] }

// SetP sets cell i's probabilities.
func (en *Engine) SetP(i int, p ...float64) { copy(en.P(i), p) }

// Sample draws a grid.
func (en *Engine) Sample(rng *rand.Rand, dst []uint8) { en.e.sample(rng, dst) }

// Cost returns the missing-symbol cost of a full grid.
func (en *Engine) Cost(g []uint8) int { return en.e.costOf(g) }

// Select runs the selection on the given costs (len = samples) and returns
// the indices kept.
func (en *Engine) Select(costs []int) []int {
	copy(en.e.cost, costs)
	en.e.selectBest()
	return append([]int(nil), en.e.sel...)
}

// Update learns from the given samples, all selected (len = best), and
// returns rho.
func (en *Engine) Update(samples ...[]uint8) float64 {
	for j, g := range samples {
		copy(en.e.pop[j*en.e.size:], g)
		en.e.sel[j] = j
	}
	return en.e.update()
}

// Step does one EDA step as Solve does, for benchmarks: Q samples, their
// costs, the selection and the update.
func (en *Engine) Step(rng *rand.Rand) {
	e := &en.e
	for j := range e.cost {
		g := e.pop[j*e.size : (j+1)*e.size]
		e.sample(rng, g)
		e.cost[j] = e.costOf(g)
	}
	e.selectBest()
	e.update()
}

// ZoneCells returns the cells of each zone of a zones setting for shape.
func ZoneCells(shape sudokulab.Shape, zones string) [][]int {
	s := &solver{set: settings{zones: zones, samples: 1, best: 1}}
	s.prepare(shape, nil)
	r := &search{solver: s}
	var out [][]int
	for z := range r.zoneCount() {
		out = append(out, r.zoneCells(z))
	}
	return out
}

// ZoneUsable reports whether zone z of grid first may be fixed on top of
// the fixed cells.
func ZoneUsable(shape sudokulab.Shape, zones string, first, fixed []uint8, z int) bool {
	s := &solver{set: settings{zones: zones, samples: 1, best: 1}}
	s.prepare(shape, nil)
	copy(s.first, first)
	copy(s.attemptFixed, fixed)
	r := &search{solver: s}
	return r.zoneUsable(z)
}

// BlockPermutations returns the admissible permutations of box in the
// puzzle, each as the values of the box's free cells in row order, and
// those cells.
func BlockPermutations(puzzle sudokulab.Grid, box int) (cells []int, perms [][]uint8, err error) {
	bp, err := admissiblePermutations(puzzle, box, nil)
	if err != nil || bp == nil {
		return nil, nil, err
	}
	k := len(bp.cells)
	for j := range bp.count() {
		perms = append(perms, bp.perms[j*k:j*k+k])
	}
	return bp.cells, perms, nil
}

// Restrict prunes puzzle with the engine's prefilter and makes the pruned
// domains the engine's; Init must follow.
func (en *Engine) Restrict(puzzle sudokulab.Grid) *ac3.Domains {
	d, _, err := ac3.Apply(en.e.set.prefilter, puzzle)
	if err != nil {
		panic(err)
	}
	en.e.restrict(d)
	return d
}

// Samples returns the grids the last Step sampled.
func (en *Engine) Samples() [][]uint8 {
	var out [][]uint8
	for j := range en.e.cost {
		out = append(out, en.e.pop[j*en.e.size:(j+1)*en.e.size])
	}
	return out
}
