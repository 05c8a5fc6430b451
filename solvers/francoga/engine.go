package francoga

import (
	"context"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// gen is one population, stored flat: individual k's cells are
// cells[k*nn:(k+1)*nn], its unit counts tally[k] and its cost cost[k].
type gen struct {
	cells []uint8
	tally []*sudokulab.Tally
	cost  []int
}

func newGen(size int, shape sudokulab.Shape) *gen {
	g := &gen{cells: make([]uint8, size*shape.Cells()), tally: make([]*sudokulab.Tally, size), cost: make([]int, size)}
	for k := range g.tally {
		g.tally[k] = sudokulab.NewTally(shape)
	}
	return g
}

// engine holds one run's state, all allocated before the first generation.
type engine struct {
	s Settings
	// puzzle holds the givens and the cells the prefilter fixed; d the
	// domains (every symbol in each empty cell with prefilter none), which
	// bind the swaps when filtered.
	puzzle   sudokulab.Grid
	d        *ac3.Domains
	filtered bool
	geo      *sudokulab.Geometry
	n, nn    int
	free     []int // the non-given cells
	// unitFree[u] lists the non-given cells of unit u (rows, columns,
	// boxes as in Geometry.Units); swapUnits[kind] the units of that kind
	// with at least two.
	unitFree  [][]int
	swapUnits [3][]int
	cum       []float64 // roulette: cumulative Fa
	cur, next *gen
	best      []uint8
	bestTally *sudokulab.Tally
	bestCost  int
	// prop, with Propagate above none, builds the first population
	// (ac3.Propagator.Draw).
	prop *ac3.Propagator
}

// newEngine makes the engine for puzzle with the domains d, whose fixed
// cells (the givens, and with a prefilter the cells it reduced to one
// value) it treats as givens; filtered says d comes from a prefilter.
func newEngine(s Settings, puzzle sudokulab.Grid, d *ac3.Domains, filtered bool) *engine {
	geo := puzzle.Geometry()
	n := geo.N
	puzzle = d.Grid()
	e := &engine{s: s, puzzle: puzzle, d: d, filtered: filtered, geo: geo, n: n, nn: n * n, unitFree: make([][]int, 3*n),
		cum: make([]float64, s.Population), cur: newGen(s.Population, puzzle.Shape), next: newGen(s.Population, puzzle.Shape),
		best: make([]uint8, n*n), bestTally: sudokulab.NewTally(puzzle.Shape)}
	for i, v := range puzzle.Cells {
		if v == 0 {
			e.free = append(e.free, i)
		}
	}
	for u, cells := range geo.Units {
		for _, i := range cells {
			if puzzle.Cells[i] == 0 {
				e.unitFree[u] = append(e.unitFree[u], i)
			}
		}
		if len(e.unitFree[u]) >= 2 {
			e.swapUnits[u/n] = append(e.swapUnits[u/n], u)
		}
	}
	return e
}

func (e *engine) ind(g *gen, k int) []uint8 { return g.cells[k*e.nn : (k+1)*e.nn] }

func (e *engine) evaluate(g *gen, k int) {
	g.tally[k].Reset(e.ind(g, k))
	g.cost[k] = g.tally[k].Cost()
}

// roulette draws an individual of e.cur with probability proportional to
// Fa = K*max(Fo) - Fo (section 5.1.D, Eq. 4); e.cum must hold the
// cumulative Fa. If every Fa is 0 it draws uniformly.
func (e *engine) roulette(rng *rand.Rand) int {
	total := e.cum[len(e.cum)-1]
	if total <= 0 {
		return rng.IntN(len(e.cum))
	}
	r := rng.Float64() * total
	for k, c := range e.cum {
		if r < c {
			return k
		}
	}
	return len(e.cum) - 1
}

func (e *engine) prepareRoulette() {
	maxFo := 0
	for _, c := range e.cur.cost {
		maxFo = max(maxFo, c)
	}
	sum := 0.0
	for k, c := range e.cur.cost {
		sum += e.s.K*float64(maxFo) - float64(c)
		e.cum[k] = sum
	}
}

// crossover writes into individuals c and c+1 of e.next the children of
// individuals a and b of e.cur (section 5.1.E): child 1 takes each box
// from the parent missing fewer symbols in it; child 2, by a fair coin,
// takes each row, or each column, likewise. Ties go to a random parent.
func (e *engine) crossover(c, a, b int, rng *rand.Rand) {
	n := e.n
	pa, pb := e.ind(e.cur, a), e.ind(e.cur, b)
	ta, tb := e.cur.tally[a], e.cur.tally[b]
	child1, child2 := e.ind(e.next, c), e.ind(e.next, c+1)
	for u := 2 * n; u < 3*n; u++ {
		from := pick(pa, pb, ta.UnitMissing(u), tb.UnitMissing(u), rng)
		for _, i := range e.geo.Units[u] {
			child1[i] = from[i]
		}
	}
	lo := 0 // rows
	if rng.IntN(2) == 1 {
		lo = n // columns
	}
	for u := lo; u < lo+n; u++ {
		from := pick(pa, pb, ta.UnitMissing(u), tb.UnitMissing(u), rng)
		for _, i := range e.geo.Units[u] {
			child2[i] = from[i]
		}
	}
}

func pick(a, b []uint8, missA, missB int, rng *rand.Rand) []uint8 {
	switch {
	case missA < missB:
		return a
	case missB < missA:
		return b
	case rng.IntN(2) == 0:
		return a
	}
	return b
}

// mutate applies one mutation of a random kind to individual k of e.next
// (section 5.1.F, Figure 4).
func (e *engine) mutate(k int, rng *rand.Rand) {
	if len(e.free) == 0 {
		return
	}
	w := e.s.Weights
	r := rng.Float64() * (w[0] + w[1] + w[2] + w[3])
	kind := MutateElement
	for j := range 3 {
		if r < w[j] {
			kind = j
			break
		}
		r -= w[j]
	}
	cells := e.ind(e.next, k)
	if kind == MutateElement {
		// Draw on a full domain draws rng.IntN(N)+1, as the paper's
		// mutation does.
		i := e.free[rng.IntN(len(e.free))]
		cells[i] = e.d.Draw(i, rng)
		return
	}
	units := e.swapUnits[kind]
	if len(units) == 0 {
		return
	}
	free := e.unitFree[units[rng.IntN(len(units))]]
	if e.filtered {
		e.domainSwap(cells, free, rng)
		return
	}
	x := rng.IntN(len(free))
	y := rng.IntN(len(free) - 1)
	if y >= x {
		y++
	}
	cells[free[x]], cells[free[y]] = cells[free[y]], cells[free[x]]
}

// domainSwap swaps two of the cells free, drawn uniformly among the pairs
// whose swap keeps both within their domains; with no such pair it does
// nothing. It is mutate's draw when a prefilter pruned the domains: with
// prefilter none every pair qualifies and mutate's draw of one pair gives
// the same distribution.
func (e *engine) domainSwap(cells []uint8, free []int, rng *rand.Rand) {
	count := 0
	for x, i := range free {
		for _, j := range free[x+1:] {
			if e.d.SwapOK(cells, i, j) {
				count++
			}
		}
	}
	if count == 0 {
		return
	}
	r := rng.IntN(count)
	for x, i := range free {
		for _, j := range free[x+1:] {
			if e.d.SwapOK(cells, i, j) {
				if r == 0 {
					cells[i], cells[j] = cells[j], cells[i]
					return
				}
				r--
			}
		}
	}
}

// generation replaces e.cur by the next generation and returns the number
// of individuals evaluated.
func (e *engine) generation(rng *rand.Rand) int64 {
	p := e.s.Population
	e.prepareRoulette()
	for c := 0; c < p; c += 2 {
		a := e.roulette(rng)
		if c+1 == p {
			copy(e.ind(e.next, c), e.ind(e.cur, a))
			break
		}
		b := e.roulette(rng)
		if rng.Float64() < e.s.Crossover {
			e.crossover(c, a, b, rng)
		} else {
			copy(e.ind(e.next, c), e.ind(e.cur, a))
			copy(e.ind(e.next, c+1), e.ind(e.cur, b))
		}
	}
	for range e.s.Mutations {
		e.mutate(rng.IntN(p), rng)
	}
	worst := 0
	for k := 0; k < p; k++ {
		e.evaluate(e.next, k)
		if e.next.cost[k] > e.next.cost[worst] {
			worst = k
		}
	}
	e.cur, e.next = e.next, e.cur
	e.keepIncumbent(worst)
	return int64(p)
}

// keepIncumbent updates the incumbent from e.cur or, if no individual is
// as good as it, puts it in place of the worst individual (section 5.1.F).
func (e *engine) keepIncumbent(worst int) {
	bi := 0
	for k, c := range e.cur.cost {
		if c < e.cur.cost[bi] {
			bi = k
		}
	}
	switch c := e.cur.cost[bi]; {
	case c < e.bestCost:
		e.bestCost = c
		copy(e.best, e.ind(e.cur, bi))
		e.bestTally.CopyFrom(e.cur.tally[bi])
	case c > e.bestCost:
		copy(e.ind(e.cur, worst), e.best)
		e.cur.tally[worst].CopyFrom(e.bestTally)
		e.cur.cost[worst] = e.bestCost
	}
}

func (e *engine) observe(gens, evals int64, obs sudokulab.Observer) {
	if obs == nil {
		return
	}
	sum := 0
	for _, c := range e.cur.cost {
		sum += c
	}
	obs.Observe(sudokulab.Step{Generation: gens, Evaluations: evals, BestCost: e.bestCost,
		CurrentCost: float64(sum) / float64(len(e.cur.cost))})
}

// run fills the first population and evolves it until it holds a
// solution, the budget is spent or ctx ends. With infeasible (the
// prefilter proved that the puzzle has no solution) it stops after the
// first population, unsolved.
func (e *engine) run(ctx context.Context, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer, infeasible bool) sudokulab.Result {
	p := e.s.Population
	// Section 5.1.B: every empty cell gets a random symbol 1..N (with a
	// prefilter, of its domain; Draw on a full domain draws
	// rng.IntN(N)+1).
	worst := 0
	for k := 0; k < p; k++ {
		cells := e.ind(e.cur, k)
		copy(cells, e.puzzle.Cells)
		if e.prop != nil {
			e.prop.Draw(cells, e.free, e.d, rng)
		} else {
			for _, i := range e.free {
				cells[i] = e.d.Draw(i, rng)
			}
		}
		e.evaluate(e.cur, k)
		if e.cur.cost[k] > e.cur.cost[worst] {
			worst = k
		}
	}
	e.bestCost = 1 << 30
	e.keepIncumbent(worst)
	evals, gens := int64(p), int64(0)
	e.observe(gens, evals, obs)
	status := sudokulab.StatusUnsolved
	for {
		if e.bestCost == 0 {
			status = sudokulab.StatusSolved
			break
		}
		if infeasible || budget.Spent(evals, gens) {
			break
		}
		if err := ctx.Err(); err != nil {
			status = sudokulab.StatusOf(err)
			break
		}
		evals += e.generation(rng)
		gens++
		e.observe(gens, evals, obs)
	}
	g := sudokulab.Grid{Shape: e.puzzle.Shape, Cells: append([]uint8(nil), e.best...)}
	return sudokulab.Result{Grid: g, Cost: g.Cost(), Status: status, Evaluations: evals, Generations: gens}
}
