package nbcoin

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/model"
)

// solver is NB-COIN with its parameters fixed. It keeps its buffers from one
// Solve to the next; like every sudokulab.Solver it runs one Solve at a
// time.
type solver struct {
	set settings
	e   engine
}

var _ sudokulab.Solver = (*solver)(nil)

// engine holds the models and the population. Its buffers are sized at the
// first Solve for a shape and reused, so that generations allocate
// nothing.
type engine struct {
	set   settings
	shape sudokulab.Shape
	geo   *sudokulab.Geometry
	n     int // symbols, N, and L, the size of a model column
	size  int // cells, N*N

	fixed []uint8
	// free lists the free cells; boxFree lists them box by box, box b's
	// being boxFree[boxStart[b]:boxStart[b+1]]; boxUsed holds the symbols
	// given in each box as bits (bit k-1 for symbol k).
	free     []int32
	boxFree  []int32
	boxStart []int32
	boxUsed  []uint32
	// allowed holds each cell's candidates as bits: the symbols of its
	// domain no given of its box, row or column holds (its whole domain
	// without pre-computation). The domain is every symbol unless a
	// prefilter pruned it (d non-nil); sampling then keeps to allowed.
	allowed []uint32
	d       *ac3.Domains
	// m holds the models: m[i*n+k-1] is the probability of symbol k at cell
	// i, cell i being one position of its box's model.
	m []float64
	// pop holds the population, one grid after another; cost their costs;
	// order the population ranked by cost, using buckets.
	pop     []uint8
	cost    []int
	order   []int
	buckets []int
	// With credit=box: boxUnits lists, box after box, the rows and the
	// columns (as unit indexes, columns from N) that pass through each box,
	// boxUnitsPer of them per box; boxCost[j*n+b] is grid j's box-local
	// cost for box b, the symbols missing from those rows and columns; and
	// boxOrder[b*population:(b+1)*population] the population ranked by it.
	boxUnits    []int32
	boxUnitsPer int
	boxCost     []int
	boxOrder    []int
	unitMiss    []int
	// With neighbour-weight below 1: givenRC holds the symbols of the
	// fixed cells of each row and column (rows first, then columns) as
	// bits; rc those of the grid being sampled so far, rcSave a copy to
	// undo a box drawn into a dead end; boxPerm the order of the boxes.
	givenRC []uint32
	rc      []uint32
	rcSave  []uint32
	boxPerm []int32
	// prop propagates each cell sampled (propagate above none), from the
	// givens' state at its mark 0; propOn says it is in use for the grid
	// being sampled (a dead end filled without it turns it off); fill is
	// the domains a dead-end box is filled within.
	prop   *ac3.Propagator
	propOn bool
	fill   *ac3.Domains
	// best is the best grid of the run.
	best []uint8
	// Scratch space.
	masks []uint32
	rem   []int32
}

// prepare sizes the buffers for shape, reusing them when they fit.
func (e *engine) prepare(shape sudokulab.Shape, set settings) {
	e.set = set
	e.d, e.prop, e.fill, e.propOn = nil, nil, nil, false
	if e.shape == shape && len(e.pop) == set.population*shape.Cells() {
		return
	}
	e.shape, e.geo = shape, sudokulab.GeometryOf(shape)
	e.n, e.size = shape.N(), shape.Cells()
	n, size := e.n, e.size
	e.fixed = make([]uint8, size)
	e.free = make([]int32, 0, size)
	e.boxFree = make([]int32, 0, size)
	e.boxStart = make([]int32, n+1)
	e.boxUsed = make([]uint32, n)
	e.allowed = make([]uint32, size)
	e.m = make([]float64, size*n)
	e.pop = make([]uint8, set.population*size)
	e.cost = make([]int, set.population)
	e.order = make([]int, set.population)
	e.buckets = make([]int, 3*n*n+2)
	e.best = make([]uint8, size)
	e.masks = make([]uint32, 3*n)
	e.rem = make([]int32, 0, n)
	e.boxUnitsPer = shape.BoxRows + shape.BoxCols
	e.boxUnits = make([]int32, 0, n*e.boxUnitsPer)
	for b := range n {
		// The box's first cell is its top-left corner.
		first := e.geo.Units[2*n+b][0]
		for r := range shape.BoxRows {
			e.boxUnits = append(e.boxUnits, int32(e.geo.Row[first]+r))
		}
		for c := range shape.BoxCols {
			e.boxUnits = append(e.boxUnits, int32(n+e.geo.Col[first]+c))
		}
	}
	e.boxCost = make([]int, set.population*n)
	e.boxOrder = make([]int, set.population*n)
	e.unitMiss = make([]int, 2*n)
	e.givenRC = make([]uint32, 2*n)
	e.rc = make([]uint32, 2*n)
	e.rcSave = make([]uint32, 2*n)
	e.boxPerm = make([]int32, n)
}

// init builds the models for the puzzle (section IV, Fig. 7): a given has
// probability 1 for its symbol; a free cell is uniform over its candidates,
// the symbols of its domain no given of its box, row or column holds (its
// whole domain without pre-computation, or when the givens leave none). The
// domains are e.d's, every symbol without a prefilter. It returns the
// convergence measure.
func (e *engine) init(puzzle []uint8) float64 {
	n, geo := e.n, e.geo
	copy(e.fixed, puzzle)
	clear(e.m)
	masks := e.masks
	geo.UnitMasks(puzzle, masks)
	all := uint32(1)<<n - 1
	e.free = e.free[:0]
	for i, v := range puzzle {
		row := e.m[i*n : i*n+n]
		if v != 0 {
			row[v-1] = 1
			e.allowed[i] = 1 << (v - 1)
			continue
		}
		e.free = append(e.free, int32(i))
		dom := all
		if e.d != nil {
			dom = uint32(e.d.Domain(i))
		}
		allowed := dom
		if e.set.precompute {
			allowed = model.Candidates(geo, masks, i, dom)
		}
		e.allowed[i] = allowed
		model.Uniform(row, allowed)
	}
	e.boxFree = model.BoxFree(geo, puzzle, e.boxFree, e.boxStart)
	copy(e.boxUsed, masks[2*n:3*n])
	copy(e.givenRC, masks[:2*n])
	return e.convergence()
}

// sample draws one grid into dst: each box a permutation of its missing
// symbols, each free cell drawing an unused symbol in proportion to its
// model entries (or uniformly among the unused symbols if they all have 0),
// the cells visited in the order of the order parameter. With a prefilter
// a cell draws from the unused symbols of its candidates (allowed); at a
// dead end, a cell with no such symbol, the box is sampled again, and
// after deadEndRetries dead ends it is filled with FillUnit, a random
// permutation within the domains. With neighbour-weight below 1,
// sampleNeighbour draws the boxes instead.
func (e *engine) sample(rng *rand.Rand, dst []uint8) {
	copy(dst, e.fixed)
	e.propOn = e.prop != nil
	if e.propOn {
		e.prop.Undo(0)
	}
	if e.set.neighbour {
		e.sampleNeighbour(rng, dst)
		return
	}
	for b := range e.n {
		for try := 1; !e.sampleBox(rng, dst, b); try++ {
			if try == deadEndRetries {
				e.fillDomains().FillUnit(dst, 2*e.n+b, rng)
				e.propOn = false
				break
			}
		}
	}
}

// sampleNeighbour is sample with neighbour-weight below 1 (our reading of
// section IV, see the package doc): the boxes in a random order, each cell
// weighing the symbols already placed in its row or column, by the givens
// or by the boxes drawn before, by the neighbour weight.
func (e *engine) sampleNeighbour(rng *rand.Rand, dst []uint8) {
	copy(e.rc, e.givenRC)
	perm := e.boxPerm
	for b := range perm {
		perm[b] = int32(b)
	}
	for j := len(perm) - 1; j > 0; j-- {
		r := rng.IntN(j + 1)
		perm[j], perm[r] = perm[r], perm[j]
	}
	for _, b := range perm {
		b := int(b)
		if e.d != nil {
			copy(e.rcSave, e.rc)
		}
		for try := 1; !e.sampleBox(rng, dst, b); try++ {
			copy(e.rc, e.rcSave)
			if try == deadEndRetries {
				e.fillDomains().FillUnit(dst, 2*e.n+b, rng)
				e.propOn = false
				for _, i := range e.boxFree[e.boxStart[b]:e.boxStart[b+1]] {
					e.place(int(i), dst[i])
				}
				break
			}
		}
	}
}

// place records symbol v at cell i in the row and column masks of the grid
// being sampled.
func (e *engine) place(i int, v uint8) {
	bit := uint32(1) << (v - 1)
	e.rc[e.geo.Row[i]] |= bit
	e.rc[e.n+e.geo.Col[i]] |= bit
}

// fillDomains returns the domains a dead-end box is filled within: the
// prefilter's, or every symbol when only propagation made the dead end.
func (e *engine) fillDomains() *ac3.Domains {
	if e.fill != nil {
		return e.fill
	}
	return e.d
}

// deadEndRetries is how many times, with a prefilter, a box is sampled
// from the model before a dead end makes FillUnit fill it.
const deadEndRetries = 8

// sampleBox draws the free cells of box b into dst, as sample says, and
// reports false at a dead end (only with a prefilter).
func (e *engine) sampleBox(rng *rand.Rand, dst []uint8, b int) bool {
	n := e.n
	all := uint32(1)<<n - 1
	rem := append(e.rem[:0], e.boxFree[e.boxStart[b]:e.boxStart[b+1]]...)
	if e.set.order == OrderRandom {
		for j := len(rem) - 1; j > 0; j-- {
			r := rng.IntN(j + 1)
			rem[j], rem[r] = rem[r], rem[j]
		}
	}
	unused := all &^ e.boxUsed[b]
	on := e.propOn
	mark := 0
	if on {
		mark = e.prop.Mark()
	}
	for len(rem) > 0 {
		if unused == 0 { // the givens repeat a symbol in the box
			unused = all
		}
		j := 0
		if e.set.order == OrderGreedy {
			j = e.mostLikely(rem, unused)
		}
		i := int(rem[j])
		rem = append(rem[:j], rem[j+1:]...)
		avail := unused
		if e.d != nil {
			if avail &= e.allowed[i]; avail == 0 {
				if on {
					e.prop.Undo(mark)
				}
				return false
			}
		}
		if on {
			if avail &= uint32(e.prop.Candidates(i)); avail == 0 {
				e.prop.Undo(mark)
				return false
			}
		}
		row := e.m[i*n : i*n+n]
		var k int
		if e.set.neighbour {
			k = e.drawNeighbour(rng, row, i, avail)
			e.place(i, uint8(k+1))
		} else {
			k = draw(rng, row, avail)
		}
		dst[i] = uint8(k + 1)
		unused &^= 1 << k
		if on && !e.prop.Assign(i, uint8(k+1)) {
			e.prop.Undo(mark)
			return false
		}
	}
	return true
}

// draw returns a symbol index of avail drawn in proportion to the model
// entries row, uniformly among avail if they are all 0 there.
func draw(rng *rand.Rand, row []float64, avail uint32) int {
	s := 0.0
	for a := avail; a != 0; a &= a - 1 {
		s += row[bits.TrailingZeros32(a)]
	}
	if s > 0 {
		return pick(rng, row, avail, s)
	}
	return nthBit(avail, rng.IntN(bits.OnesCount32(avail)))
}

// drawNeighbour is draw for cell i with neighbour-weight w below 1: a
// symbol already in the cell's row or column of the grid being sampled
// weighs w times its model entry. When that leaves no weight: uniformly
// among the symbols of avail not in the row or column, or, if every one
// is, as draw does (the box must be completed).
func (e *engine) drawNeighbour(rng *rand.Rand, row []float64, i int, avail uint32) int {
	clash := e.rc[e.geo.Row[i]] | e.rc[e.n+e.geo.Col[i]]
	w := e.set.nweight
	// The loops visit the set bits of avail only, in increasing order.
	s := 0.0
	for a := avail; a != 0; a &= a - 1 {
		k := bits.TrailingZeros32(a)
		x := row[k]
		if clash&(1<<k) != 0 {
			x *= w
		}
		s += x
	}
	if s > 0 {
		u := rng.Float64() * s
		last := -1
		for a := avail; a != 0; a &= a - 1 {
			k := bits.TrailingZeros32(a)
			x := row[k]
			if clash&(1<<k) != 0 {
				x *= w
			}
			if x <= 0 {
				continue
			}
			last = k
			if u -= x; u < 0 {
				return k
			}
		}
		return last // rounding left u just above 0
	}
	if free := avail &^ clash; free != 0 {
		return nthBit(free, rng.IntN(bits.OnesCount32(free)))
	}
	return draw(rng, row, avail)
}

// mostLikely returns the index in rem of the cell whose largest entry on
// the unused symbols, renormalised over them, is highest (the first among
// equals; a cell with no mass on them comes last).
func (e *engine) mostLikely(rem []int32, unused uint32) int {
	n := e.n
	best, bs, bt := 0, 0.0, -1.0
	for j, i := range rem {
		s, t := 0.0, 0.0
		for k, x := range e.m[int(i)*n : int(i)*n+n] {
			if unused&(1<<k) != 0 {
				s += x
				t = max(t, x)
			}
		}
		if s > 0 && (bt < 0 || t*bs > bt*s) {
			best, bs, bt = j, s, t
		}
	}
	return best
}

// pick draws an index k with unused's bit k set, with probability
// proportional to row[k]; sum is the total of those weights, positive.
func pick(rng *rand.Rand, row []float64, avail uint32, sum float64) int {
	u := rng.Float64() * sum
	last := -1
	for a := avail; a != 0; a &= a - 1 {
		k := bits.TrailingZeros32(a)
		x := row[k]
		if x <= 0 {
			continue
		}
		last = k
		if u -= x; u < 0 {
			return k
		}
	}
	return last // rounding left u just above 0
}

// nthBit returns the index of the j-th (0-based) set bit of x.
func nthBit(x uint32, j int) int {
	for ; j > 0; j-- {
		x &= x - 1
	}
	return bits.TrailingZeros32(x)
}

// costOf returns the cost of a full grid: the symbols missing from its
// rows, columns and boxes, which is 2N^2 minus Sato and Inoue's fitness
// when the boxes are permutations. It leaves the grid's unit masks in
// e.masks.
func (e *engine) costOf(g []uint8) int { return model.Cost(e.geo, e.masks, g) }

// evaluate returns the cost of grid j of the population and, with
// credit=box, records its box-local costs in boxCost.
func (e *engine) evaluate(j int) int {
	n := e.n
	c := e.costOf(e.pop[j*e.size : (j+1)*e.size])
	if !e.set.boxCredit {
		return c
	}
	// costOf left the grid's unit masks in e.masks.
	for u := range e.unitMiss {
		e.unitMiss[u] = n - bits.OnesCount32(e.masks[u])
	}
	bc := e.boxCost[j*n : (j+1)*n]
	per := e.boxUnitsPer
	for b := range n {
		s := 0
		for _, u := range e.boxUnits[b*per : (b+1)*per] {
			s += e.unitMiss[u]
		}
		bc[b] = s
	}
	return c
}

// rankBoxes fills boxOrder with the population ranked, box by box, by the
// box-local costs, earlier grids first among equals (a counting sort per
// box).
func (e *engine) rankBoxes() {
	n, p := e.n, len(e.cost)
	b := e.buckets
	for box := range n {
		clear(b)
		for j := range p {
			b[e.boxCost[j*n+box]+1]++
		}
		for c := 1; c < len(b); c++ {
			b[c] += b[c-1]
		}
		order := e.boxOrder[box*p : (box+1)*p]
		for j := range p {
			c := e.boxCost[j*n+box]
			order[b[c]] = j
			b[c]++
		}
	}
}

// rank fills order with the population sorted by cost, earlier grids first
// among equals (a counting sort: costs are small), and with credit=box
// boxOrder too.
func (e *engine) rank() {
	if e.set.boxCredit {
		e.rankBoxes()
	}
	b := e.buckets
	clear(b)
	for _, c := range e.cost {
		b[c+1]++
	}
	for c := 1; c < len(b); c++ {
		b[c] += b[c-1]
	}
	for j, c := range e.cost {
		e.order[b[c]] = j
		b[c]++
	}
}

// update rewards the best group and punishes the worst group of the ranked
// population (eq. 4 and 5), then bounds each free cell's column as the
// package doc says. It returns the convergence measure.
func (e *engine) update() float64 {
	n, size, set := e.n, e.size, e.set
	g := set.group
	kl := set.step / float64(n)
	w := 1.0
	if set.mean {
		w = 1 / float64(g)
	}
	if set.boxCredit {
		e.updateBoxes(kl * w)
		return e.convergence()
	}
	for _, j := range e.order[:g] {
		s := e.pop[j*size : j*size+size]
		for _, i := range e.free {
			e.m[int(i)*n+int(s[i])-1] += kl * w
		}
	}
	for _, j := range e.order[len(e.order)-g:] {
		s := e.pop[j*size : j*size+size]
		for _, i := range e.free {
			e.m[int(i)*n+int(s[i])-1] -= kl * w
		}
	}
	// The k/L^2 terms of eq. 4 and 5 add -k/L^2 * g*w (reward) and
	// +k/L^2 * g*w (punishment) to every entry: they cancel, the groups
	// having the same size.
	for _, i := range e.free {
		e.bound(int(i))
	}
	return e.convergence()
}

// updateBoxes is update with credit=box: each box's model is rewarded by
// the g grids best for that box's rows and columns and punished by the g
// worst, each moving an entry by step; then every free cell is bounded.
func (e *engine) updateBoxes(step float64) {
	n, size, p, g := e.n, e.size, len(e.cost), e.set.group
	for b := range n {
		cells := e.boxFree[e.boxStart[b]:e.boxStart[b+1]]
		order := e.boxOrder[b*p : (b+1)*p]
		for _, j := range order[:g] {
			s := e.pop[j*size : j*size+size]
			for _, i := range cells {
				e.m[int(i)*n+int(s[i])-1] += step
			}
		}
		for _, j := range order[p-g:] {
			s := e.pop[j*size : j*size+size]
			for _, i := range cells {
				e.m[int(i)*n+int(s[i])-1] -= step
			}
		}
	}
	for _, i := range e.free {
		e.bound(int(i))
	}
}

// bound clips cell i's entries to 0, rescales them to sum 1 and caps the
// largest at the upper bound, sharing the rest among the others.
func (e *engine) bound(i int) {
	n := e.n
	row := e.m[i*n : i*n+n]
	sum, top := 0.0, 0
	for k := range row {
		x := max(row[k], 0)
		row[k] = x
		sum += x
		if x > row[top] {
			top = k
		}
	}
	allowed := e.allowed[i]
	if sum == 0 {
		q := 1 / float64(bits.OnesCount32(allowed))
		for k := range row {
			row[k] = 0
			if allowed&(1<<k) != 0 {
				row[k] = q
			}
		}
		return
	}
	for k := range row {
		row[k] /= sum
	}
	ub := e.set.upper
	if row[top] <= ub {
		return
	}
	others := 1 - row[top]
	if others > 0 {
		f := (1 - ub) / others
		for k := range row {
			row[k] *= f
		}
		row[top] = ub
		return
	}
	alt := allowed &^ (1 << top)
	if alt == 0 {
		return // a single candidate keeps probability 1
	}
	q := (1 - ub) / float64(bits.OnesCount32(alt))
	row[top] = ub
	for k := range row {
		if alt&(1<<k) != 0 {
			row[k] = q
		}
	}
}

// convergence returns the smallest, over free cells, of the largest model
// entry.
func (e *engine) convergence() float64 {
	n := e.n
	r := 1.0
	for _, i := range e.free {
		m := 0.0
		for _, x := range e.m[int(i)*n : int(i)*n+n] {
			m = max(m, x)
		}
		r = min(r, m)
	}
	return r
}

// Solve implements sudokulab.Solver: generations of sampling, ranking and
// learning until a grid is solved, the budget is spent or ctx is done.
func (s *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	d, pst, infeasible, err := model.Start("nb-coin", s.set.prefilter, puzzle, rng)
	switch {
	case err != nil:
		return sudokulab.Result{}, err
	case infeasible != nil:
		return *infeasible, nil
	}
	e := &s.e
	e.prepare(puzzle.Shape, s.set)
	givens := puzzle.Cells
	if s.set.prefilter != ac3.None {
		// Cells the prefilter fixed count as givens.
		e.d = d
		givens = d.Grid().Cells
	}
	conv := e.init(givens)
	if s.set.propagate != ac3.PropagateNone {
		// Propagation from the givens; givens that contradict each other
		// leave the puzzle without solution, and sampling without it.
		p, err := ac3.NewPropagator(puzzle.Shape, s.set.propagate)
		if err != nil {
			return sudokulab.Result{}, err
		}
		if p.Reset(givens) {
			e.prop, e.fill = p, e.d
			if e.fill == nil {
				e.fill = ac3.Unfiltered(puzzle)
			}
		}
	}
	size := e.size
	var gens, evals, restarts, improvedAt int64
	bestCost, attemptBest := math.MaxInt, math.MaxInt
	status := sudokulab.StatusUnsolved
	for {
		if gens > 0 {
			if err := ctx.Err(); err != nil {
				status = sudokulab.StatusOf(err)
				break
			}
		}
		gens++
		sum, done, solved := 0, 0, false
		for j := range e.cost {
			if budget.MaxEvaluations > 0 && evals >= budget.MaxEvaluations {
				break
			}
			g := e.pop[j*size : j*size+size]
			e.sample(rng, g)
			c := e.evaluate(j)
			e.cost[j] = c
			evals++
			sum += c
			done++
			if c < bestCost {
				bestCost = c
				copy(e.best, g)
			}
			if c < attemptBest {
				attemptBest, improvedAt = c, gens
			}
			if c == 0 {
				solved = true
				break
			}
		}
		full := done == len(e.cost)
		if full && !solved {
			if r := s.set.restart.Patience(restarts + 1); r > 0 && gens-improvedAt >= r {
				// A new attempt from the initial models (ours, parameter
				// restart): the last population teaches nothing.
				conv = e.init(givens)
				restarts++
				attemptBest, improvedAt = math.MaxInt, gens
			} else {
				e.rank()
				conv = e.update()
			}
		}
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: gens, Evaluations: evals, Restarts: restarts, BestCost: bestCost,
				CurrentCost: float64(sum) / float64(max(done, 1)), Convergence: conv})
		}
		if solved {
			status = sudokulab.StatusSolved
			break
		}
		if !full || budget.Spent(evals, gens) {
			break
		}
	}
	return sudokulab.Result{
		Grid:        sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), e.best...)},
		Cost:        bestCost,
		Status:      status,
		Evaluations: evals,
		Generations: gens,
		Restarts:    restarts,

		PrefilterRevisions: int64(pst.Revisions),
	}, nil
}
