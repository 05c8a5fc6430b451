package satoinoue

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/restart"
)

// pop is a population stored flat: the cells of individual k are
// cells[k*nn:(k+1)*nn], its symbol counts per row and column
// counts[k*2nn:(k+1)*2nn] (unit u, symbol v at u*n+v-1; rows are units
// 0..n-1, columns n..2n-1), the missing symbols of each row and column
// miss[k*2n:(k+1)*2n], and its cost (the missing symbols of all rows and
// columns, 2N^2 minus the fitness) cost[k].
type pop struct {
	n, nn  int
	cells  []uint8
	counts []uint8
	miss   []int8
	cost   []int32
}

func newPop(size, n int) *pop {
	nn := n * n
	return &pop{n: n, nn: nn,
		cells:  make([]uint8, size*nn),
		counts: make([]uint8, size*2*nn),
		miss:   make([]int8, size*2*n),
		cost:   make([]int32, size),
	}
}

func (p *pop) size() int { return len(p.cost) }

func (p *pop) ind(k int) (cells, counts []uint8, miss []int8) {
	nn, n := p.nn, p.n
	return p.cells[k*nn : (k+1)*nn], p.counts[k*2*nn : (k+1)*2*nn], p.miss[k*2*n : (k+1)*2*n]
}

// copyFrom makes individual dst of p a copy of individual src of q.
func (p *pop) copyFrom(dst int, q *pop, src int) {
	nn, n := p.nn, p.n
	copy(p.cells[dst*nn:(dst+1)*nn], q.cells[src*nn:(src+1)*nn])
	copy(p.counts[dst*2*nn:(dst+1)*2*nn], q.counts[src*2*nn:(src+1)*2*nn])
	copy(p.miss[dst*2*n:(dst+1)*2*n], q.miss[src*2*n:(src+1)*2*n])
	p.cost[dst] = q.cost[src]
}

// engine holds one run's state, all allocated before the first generation.
type engine struct {
	s        Settings
	puzzle   sudokulab.Grid
	n, nn    int
	row, col []int
	bandRows int // rows per band (BoxRows)
	stackCol int // columns per stack (BoxCols)
	// free cells of box b: free[freeAt[b]:freeAt[b+1]].
	free   []int32
	freeAt []int32
	// forbid[i], with Settings.AvoidGivens, has bit v set when symbol v
	// would repeat a given of cell i's row or column; tries is how many
	// pairs a box mutation draws before it gives up (1 without it).
	forbid []uint64
	tries  int
	// mboxes lists the boxes with at least two free cells.
	mboxes []int
	// boxCells lists the cells of every box, box b's at
	// boxCells[b*n:(b+1)*n], for Settings.MutationDraw DrawAny.
	boxCells []int32
	drawAny  bool
	// lowThr and highThr are the mutation and disparity mutation rates as
	// 16-bit thresholds.
	lowThr, highThr uint32
	// d holds the cells' domains (see package ac3): the givens and every
	// symbol elsewhere with prefilter none. filtered says the prefilter
	// pruned them, so that mutation swaps only within them.
	d        *ac3.Domains
	filtered bool

	cur, mid, kids *pop
	elite          *pop    // the best individuals of the previous generation
	order          []int32 // kids sorted by cost
	bucket         []int32 // counting-sort buckets, one per cost value
	best           []uint8
	bestCost       int
	// attemptBest is the best cost of the current attempt (since the last
	// restart), reached at generation improvedAt; restarts counts them.
	attemptBest int
	improvedAt  int64
	restarts    int64
	sched       restart.Schedule
	crossRate   float64
	perParent   int // children per parent: low-rate then high-rate ones
	lowKids     int
	// prop, with Propagate above none, builds individuals (Fill over the
	// boxes, unit indexes in boxes).
	prop  *ac3.Propagator
	boxes []int
}

// newEngine makes the engine for puzzle with the domains d. The cells d
// fixes (the givens, and with a prefilter the cells it reduced to one
// value) are the engine's givens: filtered is true when d comes from a
// prefilter, and mutation then keeps every cell within its domain.
func newEngine(s Settings, puzzle sudokulab.Grid, d *ac3.Domains, filtered bool) (*engine, error) {
	geo := puzzle.Geometry()
	n, nn := geo.N, geo.N*geo.N
	puzzle = d.Grid() // the givens, and the cells the prefilter fixed
	e := &engine{s: s, puzzle: puzzle, n: n, nn: nn, row: geo.Row, col: geo.Col,
		bandRows: puzzle.Shape.BoxRows, stackCol: puzzle.Shape.BoxCols,
		freeAt: make([]int32, n+1), d: d, filtered: filtered, sched: s.schedule()}
	for b := 0; b < n; b++ {
		var seen uint64
		for _, i := range geo.Units[2*n+b] {
			if v := puzzle.Cells[i]; v != 0 {
				if seen&(1<<v) != 0 {
					return nil, sudokulab.Errorf(sudokulab.EINVALID, "sato-inoue-ga: the givens repeat %c in %s", sudokulab.Symbols[v-1], geo.UnitName(2*n+b))
				}
				seen |= 1 << v
			} else {
				e.free = append(e.free, int32(i))
			}
		}
		e.freeAt[b+1] = int32(len(e.free))
		for _, i := range geo.Units[2*n+b] {
			e.boxCells = append(e.boxCells, int32(i))
		}
		if e.freeAt[b+1]-e.freeAt[b] >= 2 {
			e.mboxes = append(e.mboxes, b)
		}
	}
	e.lowThr, e.highThr = threshold(s.Mutation), threshold(s.DisparityMutation)
	e.drawAny = s.MutationDraw == DrawAny
	e.tries = 1
	if s.AvoidGivens {
		e.tries = 10
		e.forbid = make([]uint64, nn)
		for i, v := range puzzle.Cells {
			if v == 0 {
				continue
			}
			for j := 0; j < nn; j++ {
				if geo.Row[j] == geo.Row[i] || geo.Col[j] == geo.Col[i] {
					e.forbid[j] |= 1 << v
				}
			}
		}
	}
	e.lowKids = 1
	if s.Variant == VariantMutCrossLS {
		e.lowKids = s.Children
	}
	e.perParent = e.lowKids
	if s.Disparity {
		e.perParent += s.DisparityChildren
	}
	if s.Variant != VariantMutation {
		e.crossRate = s.Crossover
	}
	p := s.Population
	e.cur, e.mid, e.kids = newPop(p, n), newPop(p, n), newPop(p*e.perParent, n)
	if s.Selection == SelectionPool {
		e.cur = newPop(p*e.perParent, n)
	}
	e.elite = newPop(min(max(s.Elitism, 0), p), n)
	e.order = make([]int32, p*(e.perParent+1))
	e.bucket = make([]int32, 2*nn+2)
	e.best = make([]uint8, nn)
	return e, nil
}

// recount recomputes individual k's counts, missing symbols and cost from
// its cells.
func (e *engine) recount(p *pop, k int) {
	cells, counts, miss := p.ind(k)
	n := e.n
	clear(counts)
	for i, v := range cells {
		counts[e.row[i]*n+int(v)-1]++
		counts[(n+e.col[i])*n+int(v)-1]++
	}
	cost := 0
	for u := 0; u < 2*n; u++ {
		m := 0
		for _, c := range counts[u*n : u*n+n] {
			if c == 0 {
				m++
			}
		}
		miss[u] = int8(m)
		cost += m
	}
	p.cost[k] = int32(cost)
}

// randomFill sets individual k to the puzzle with every box's missing
// symbols placed in its free cells in random order (section III.A.1), by
// ac3.Domains.FillUnit: a uniformly random permutation with prefilter
// none (the paper's initialization, drawn exactly as a Fisher-Yates
// shuffle of the missing symbols in increasing order), a random one within
// the domains otherwise. With Propagate above none, ac3.Propagator.Fill
// places them cell by cell, each propagated.
func (e *engine) randomFill(p *pop, k int, rng *rand.Rand) {
	cells, _, _ := p.ind(k)
	if e.prop != nil {
		e.prop.Fill(cells, e.boxes, e.d, rng)
	} else {
		for b := 0; b < e.n; b++ {
			e.d.FillUnit(cells, 2*e.n+b, rng)
		}
	}
	e.recount(p, k)
}

// move updates unit u of an individual for one rm leaving and one add
// entering (rm != add) and returns the change in its missing symbols.
func move(counts []uint8, miss []int8, n, u int, rm, add uint8) int32 {
	d := int32(0)
	base := u * n
	if counts[base+int(rm)-1]--; counts[base+int(rm)-1] == 0 {
		miss[u]++
		d++
	}
	if counts[base+int(add)-1] == 0 {
		miss[u]--
		d--
	}
	counts[base+int(add)-1]++
	return d
}

// swap exchanges cells i and j of individual k (two free cells of one box)
// and updates its counts and cost incrementally.
func (e *engine) swap(p *pop, k, i, j int) {
	cells, counts, miss := p.ind(k)
	a, b := cells[i], cells[j]
	if a == b {
		return
	}
	n := e.n
	d := int32(0)
	if ri, rj := e.row[i], e.row[j]; ri != rj {
		d += move(counts, miss, n, ri, a, b) + move(counts, miss, n, rj, b, a)
	}
	if ci, cj := e.col[i], e.col[j]; ci != cj {
		d += move(counts, miss, n, n+ci, a, b) + move(counts, miss, n, n+cj, b, a)
	}
	cells[i], cells[j] = b, a
	p.cost[k] += d
}

// mutate visits every box of individual k and, with probability rate/2^16
// (see threshold), swaps two of its free cells (section III.A.3).
//
// For speed the random draws are cut from 64-bit words: four 16-bit
// Bernoulli draws per word decide which boxes mutate (a mask, without a
// branch per box), and one word gives both cells of a swap by Lemire's
// multiply-shift (bias below N/2^32).
func (e *engine) mutate(p *pop, k int, thr uint32, rng *rand.Rand) {
	var mask uint64
	nb := len(e.mboxes)
	if nb == 0 {
		return
	}
	if e.s.MutationScope == ScopeIndividual {
		r := rng.Uint64()
		if uint32(r&0xffff) >= thr {
			return
		}
		mask = 1 << ((r >> 32) * uint64(nb) >> 32)
	}
	for i := 0; i < nb && e.s.MutationScope == ScopeBox; i += 4 {
		r := rng.Uint64()
		for j := 0; j < 4 && i+j < nb; j++ {
			chunk := uint32(r>>(16*j)) & 0xffff
			mask |= uint64((chunk-thr)>>31) << (i + j)
		}
	}
	for mask != 0 {
		b := e.mboxes[bits.TrailingZeros64(mask)]
		mask &= mask - 1
		if e.drawAny && !e.anyFree(b, rng) {
			continue
		}
		if e.filtered {
			e.domainSwap(p, k, b, rng)
			continue
		}
		lo := uint64(e.freeAt[b])
		nf := uint64(e.freeAt[b+1]) - lo
		for try := 0; try < e.tries; try++ {
			r := rng.Uint64()
			x := (r & 0xffffffff) * nf >> 32
			y := (r >> 32) * (nf - 1) >> 32
			if y >= x {
				y++
			}
			i, j := int(e.free[lo+x]), int(e.free[lo+y])
			if e.forbid != nil {
				cells, _, _ := p.ind(k)
				if e.forbid[i]&(1<<cells[j]) != 0 || e.forbid[j]&(1<<cells[i]) != 0 {
					continue
				}
			}
			e.swap(p, k, i, j)
			break
		}
	}
}

// anyFree draws two distinct cells of box b among all its cells and
// reports whether both are free (Settings.MutationDraw DrawAny: a draw
// that hits a given is an illegal attempt and the box is not mutated).
// The swap itself is then drawn as for DrawFree, which gives the same
// distribution over pairs of free cells.
func (e *engine) anyFree(b int, rng *rand.Rand) bool {
	n := uint64(e.n)
	r := rng.Uint64()
	x := (r & 0xffffffff) * n >> 32
	y := (r >> 32) * (n - 1) >> 32
	if y >= x {
		y++
	}
	cells := e.boxCells[b*e.n : (b+1)*e.n]
	return e.puzzle.Cells[cells[x]] == 0 && e.puzzle.Cells[cells[y]] == 0
}

// domainSwap swaps two free cells of box b of individual k, drawn
// uniformly among the pairs whose swap keeps both cells within their
// domains (and, with Settings.AvoidGivens, repeats no given); a box with no
// such pair is left alone. It is mutate's draw when a prefilter pruned the
// domains: with prefilter none every pair qualifies, and mutate's draw
// gives the same distribution.
func (e *engine) domainSwap(p *pop, k, b int, rng *rand.Rand) {
	cells, _, _ := p.ind(k)
	free := e.free[e.freeAt[b]:e.freeAt[b+1]]
	ok := func(i, j int) bool {
		return e.d.SwapOK(cells, i, j) &&
			(e.forbid == nil || e.forbid[i]&(1<<cells[j]) == 0 && e.forbid[j]&(1<<cells[i]) == 0)
	}
	count := 0
	for x, i := range free {
		for _, j := range free[x+1:] {
			if ok(int(i), int(j)) {
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
			if ok(int(i), int(j)) {
				if r == 0 {
					e.swap(p, k, int(i), int(j))
					return
				}
				r--
			}
		}
	}
}

// threshold converts a probability to the 16-bit threshold of mutate:
// a draw of 16 bits below it happens with probability round(rate*2^16)/2^16.
func threshold(rate float64) uint32 {
	return uint32(math.Round(rate * 65536))
}

// crossover writes into individuals c1 and c1+1 of dst the two children of
// individuals a and b of src (section III.A.2, Fig. 3): child 1 takes each
// band of rows from the parent whose rows in that band have more distinct
// symbols (fewer missing), child 2 each stack of columns likewise. Ties go
// to a parent drawn at random. The inherited units keep their counts;
// only the crossing units are recounted.
func (e *engine) crossover(dst *pop, c1 int, src *pop, a, b int, rng *rand.Rand) {
	n := e.n
	_, _, ma := src.ind(a)
	_, _, mb := src.ind(b)
	child1, counts1, miss1 := dst.ind(c1)
	for r0 := 0; r0 < n; r0 += e.bandRows {
		sa, sb := 0, 0
		for r := r0; r < r0+e.bandRows; r++ {
			sa += int(ma[r])
			sb += int(mb[r])
		}
		from, fcounts, fmiss := src.ind(pick(a, b, sa, sb, rng))
		r1 := r0 + e.bandRows
		copy(child1[r0*n:r1*n], from[r0*n:r1*n])
		copy(counts1[r0*n:r1*n], fcounts[r0*n:r1*n])
		copy(miss1[r0:r1], fmiss[r0:r1])
	}
	child2, counts2, miss2 := dst.ind(c1 + 1)
	for c0 := 0; c0 < n; c0 += e.stackCol {
		sa, sb := 0, 0
		for c := c0; c < c0+e.stackCol; c++ {
			sa += int(ma[n+c])
			sb += int(mb[n+c])
		}
		from, fcounts, fmiss := src.ind(pick(a, b, sa, sb, rng))
		cEnd := c0 + e.stackCol
		for r := 0; r < n; r++ {
			copy(child2[r*n+c0:r*n+cEnd], from[r*n+c0:r*n+cEnd])
		}
		copy(counts2[(n+c0)*n:(n+cEnd)*n], fcounts[(n+c0)*n:(n+cEnd)*n])
		copy(miss2[n+c0:n+cEnd], fmiss[n+c0:n+cEnd])
	}
	e.recountHalf(dst, c1, false)
	e.recountHalf(dst, c1+1, true)
}

// recountHalf recomputes individual k's row counts (rows true) or column
// counts from its cells, then its cost, the other half being up to date.
func (e *engine) recountHalf(p *pop, k int, rows bool) {
	cells, counts, miss := p.ind(k)
	n := e.n
	lo, unit := n, e.col // the units recounted: columns ...
	if rows {
		lo, unit = 0, e.row // ... or rows
	}
	clear(counts[lo*n : (lo+n)*n])
	for i, v := range cells {
		counts[(lo+unit[i])*n+int(v)-1]++
	}
	for u := lo; u < lo+n; u++ {
		m := 0
		for _, c := range counts[u*n : u*n+n] {
			if c == 0 {
				m++
			}
		}
		miss[u] = int8(m)
	}
	cost := int32(0)
	for _, m := range miss {
		cost += int32(m)
	}
	p.cost[k] = cost
}

// pick returns the parent (a or b) with fewer missing symbols (missA,
// missB) in the compared units, a random one on a tie.
func pick(a, b int, missA, missB int, rng *rand.Rand) int {
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

// tournament returns the best of Tournament individuals of the current
// population drawn with replacement; the first drawn wins ties.
func (e *engine) tournament(rng *rand.Rand) int {
	p := e.cur.size()
	best := rng.IntN(p)
	for t := 1; t < e.s.Tournament; t++ {
		if c := rng.IntN(p); e.cur.cost[c] < e.cur.cost[best] {
			best = c
		}
	}
	return best
}

// generation makes the next population from e.cur and returns the number
// of children evaluated.
func (e *engine) generation(rng *rand.Rand) int64 {
	p := e.mid.size()
	e.saveElite()
	defer e.restoreElite()
	// Selection and crossover into mid.
	for i := 0; i < p; i += 2 {
		a := e.tournament(rng)
		if i+1 == p {
			e.mid.copyFrom(i, e.cur, a)
			break
		}
		b := e.tournament(rng)
		if e.crossRate > 0 && rng.Float64() < e.crossRate {
			e.crossover(e.mid, i, e.cur, a, b, rng)
		} else {
			e.mid.copyFrom(i, e.cur, a)
			e.mid.copyFrom(i+1, e.cur, b)
		}
	}
	// Mutated children, parent by parent: the low-rate ones, then the
	// high-rate ones of the disparity correction.
	k := 0
	for i := 0; i < p; i++ {
		for c := 0; c < e.perParent; c++ {
			e.kids.copyFrom(k, e.mid, i)
			thr := e.lowThr
			if c >= e.lowKids {
				thr = e.highThr
			}
			e.mutate(e.kids, k, thr, rng)
			k++
		}
	}
	if e.s.Selection == SelectionPlus {
		e.plusSelect()
		return int64(k)
	}
	if e.perParent == 1 || e.s.Selection == SelectionPool {
		e.cur, e.kids = e.kids, e.cur
		return int64(k)
	}
	if e.s.Selection == SelectionPerParent {
		// The best child of each parent (the first on a tie).
		for i := 0; i < p; i++ {
			base := i * e.perParent
			b := base
			for c := base + 1; c < base+e.perParent; c++ {
				if e.kids.cost[c] < e.kids.cost[b] {
					b = c
				}
			}
			e.cur.copyFrom(i, e.kids, b)
		}
		return int64(k)
	}
	// The P best children, by a stable counting sort on cost.
	clear(e.bucket)
	for _, c := range e.kids.cost {
		e.bucket[c+1]++
	}
	for c := 1; c < len(e.bucket); c++ {
		e.bucket[c] += e.bucket[c-1]
	}
	for j, c := range e.kids.cost {
		e.order[e.bucket[c]] = int32(j)
		e.bucket[c]++
	}
	for i := 0; i < p; i++ {
		e.cur.copyFrom(i, e.kids, int(e.order[i]))
	}
	return int64(k)
}

// plusSelect makes the next generation the P best of the parents and the
// children together (parents first among equals), by a stable counting
// sort on cost.
func (e *engine) plusSelect() {
	p, nk := e.cur.size(), e.kids.size()
	clear(e.bucket)
	for _, c := range e.cur.cost {
		e.bucket[c+1]++
	}
	for _, c := range e.kids.cost {
		e.bucket[c+1]++
	}
	for c := 1; c < len(e.bucket); c++ {
		e.bucket[c] += e.bucket[c-1]
	}
	for j, c := range e.cur.cost {
		e.order[e.bucket[c]] = int32(j)
		e.bucket[c]++
	}
	for j, c := range e.kids.cost {
		e.order[e.bucket[c]] = int32(p + j)
		e.bucket[c]++
	}
	_ = nk
	for i := 0; i < p; i++ {
		if o := int(e.order[i]); o < p {
			e.mid.copyFrom(i, e.cur, o)
		} else {
			e.mid.copyFrom(i, e.kids, o-p)
		}
	}
	e.cur, e.mid = e.mid, e.cur
}

// saveElite copies the best individuals of e.cur into e.elite (the
// first of equals).
func (e *engine) saveElite() {
	for j := 0; j < e.elite.size(); j++ {
		bi := -1
		for i, c := range e.cur.cost {
			if (bi < 0 || c < e.cur.cost[bi]) && !e.taken(i, j) {
				bi = i
			}
		}
		e.order[j] = int32(bi)
		e.elite.copyFrom(j, e.cur, bi)
	}
}

// taken reports whether individual i is among the first j saved elites.
func (e *engine) taken(i, j int) bool {
	for _, o := range e.order[:j] {
		if int(o) == i {
			return true
		}
	}
	return false
}

// restoreElite puts the saved elites in place of the worst individuals of
// the new e.cur.
func (e *engine) restoreElite() {
	for j := 0; j < e.elite.size(); j++ {
		wi := 0
		for i, c := range e.cur.cost {
			if c > e.cur.cost[wi] {
				wi = i
			}
		}
		e.cur.copyFrom(wi, e.elite, j)
	}
}

// observe updates the best grid from the current population and reports a
// step.
func (e *engine) observe(gens, evals int64, obs sudokulab.Observer) {
	sum, bi := int64(0), 0
	for i, c := range e.cur.cost {
		sum += int64(c)
		if c < e.cur.cost[bi] {
			bi = i
		}
	}
	c := int(e.cur.cost[bi])
	if c < e.bestCost {
		e.bestCost = c
		cells, _, _ := e.cur.ind(bi)
		copy(e.best, cells)
	}
	if c < e.attemptBest {
		e.attemptBest, e.improvedAt = c, gens
	}
	if obs != nil {
		obs.Observe(sudokulab.Step{Generation: gens, Evaluations: evals, Restarts: e.restarts, BestCost: e.bestCost,
			CurrentCost: float64(sum) / float64(len(e.cur.cost))})
	}
}

// run fills the first population and evolves it until it holds a
// solution, the budget is spent or ctx ends. With infeasible (the
// prefilter proved that the puzzle has no solution) it stops after the
// first population, unsolved.
func (e *engine) run(ctx context.Context, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer, infeasible bool) sudokulab.Result {
	p := e.cur.size()
	for k := 0; k < p; k++ {
		e.randomFill(e.cur, k, rng)
	}
	evals, gens := int64(p), int64(0)
	e.bestCost, e.attemptBest, e.restarts = 1<<30, 1<<30, 0
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
		if r := e.sched.Patience(e.restarts + 1); r > 0 && gens-e.improvedAt >= r {
			// A new attempt: a fresh first population (ours, see
			// Settings.Restart); it counts as one generation.
			for k := 0; k < p; k++ {
				e.randomFill(e.cur, k, rng)
			}
			evals += int64(p)
			e.restarts++
			e.attemptBest, e.improvedAt = 1<<30, gens+1
		} else {
			evals += e.generation(rng)
		}
		gens++
		e.observe(gens, evals, obs)
	}
	g := sudokulab.Grid{Shape: e.puzzle.Shape, Cells: append([]uint8(nil), e.best...)}
	return sudokulab.Result{Grid: g, Cost: g.Cost(), Status: status, Evaluations: evals, Generations: gens, Restarts: e.restarts}
}

// String describes the settings, for debugging.
func (s Settings) String() string {
	return fmt.Sprintf("%s pop=%d children=%d pc=%g pm=%g t=%d selection=%s elitism=%d scope=%s draw=%s restart=%v disparity=%v(%g x%d)",
		s.Variant, s.Population, s.Children, s.Crossover, s.Mutation, s.Tournament, s.Selection, s.Elitism, s.MutationScope, s.MutationDraw, s.schedule(), s.Disparity, s.DisparityMutation, s.DisparityChildren)
}
