package reseda

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/model"
)

// engine holds the probabilities and the sample buffers of one resolution.
// Its buffers are sized at the first Solve for a shape and reused, so that
// the steps allocate nothing.
type engine struct {
	set   settings
	shape sudokulab.Shape
	geo   *sudokulab.Geometry
	n     int // symbols, N
	size  int // cells, N*N

	// fixed holds the cells fixed in the current resolution (givens, a
	// brute-force permutation, a restart zone); 0 is a free cell.
	fixed []uint8
	// free lists the free cells; boxFree lists them box by box, box b's
	// being boxFree[boxStart[b]:boxStart[b+1]], and boxUsed holds the
	// symbols fixed in each box as bits (bit k-1 for symbol k).
	free     []int32
	boxFree  []int32
	boxStart []int32
	boxUsed  []uint32
	// dom holds each cell's domain as bits (bit k-1 for symbol k): every
	// symbol unless a prefilter pruned it (filtered); the probabilities
	// stay 0 outside it.
	dom      []uint32
	filtered bool
	// p holds the probabilities, p[i*n+k-1] for symbol k in cell i.
	p []float64
	// pop holds the Q samples of a step, one after another; cost their
	// costs.
	pop  []uint8
	cost []int
	// sel holds the indices of the Q1 selected samples, selCost their
	// costs (sorted ascending when selecting by sort).
	sel     []int
	selCost []int
	// prop propagates each cell sampled (propagate above none), from the
	// fixed cells' state at its mark 0 (set by init); propOK says the
	// fixed cells propagate without contradiction; propOn that it is in
	// use for the grid being sampled (a cell left with no candidate turns
	// it off for the rest of that grid).
	prop           *ac3.Propagator
	propOK, propOn bool
	// Scratch space.
	masks []uint32  // 3N unit masks
	rem   []int32   // remaining cells of a box
	sum   []float64 // their mass on the unused symbols
	top   []float64 // their largest probability among the unused symbols
	syms  []uint8   // remaining symbols of a box
}

// prepare sizes the buffers for shape, reusing them when they fit.
func (e *engine) prepare(shape sudokulab.Shape, set settings) {
	e.set = set
	e.prop, e.propOK, e.propOn = nil, false, false
	if e.shape != shape || len(e.pop) != set.samples*shape.Cells() || len(e.sel) != set.best {
		e.resize(shape, set)
	}
	e.filtered = false
	all := uint32(1)<<e.n - 1
	for i := range e.dom {
		e.dom[i] = all
	}
}

// restrict makes the pruned domains of d the cells' domains (after
// prepare, before init).
func (e *engine) restrict(d *ac3.Domains) {
	e.filtered = true
	for i := range e.dom {
		e.dom[i] = uint32(d.Domain(i))
	}
}

// resize allocates the buffers for shape.
func (e *engine) resize(shape sudokulab.Shape, set settings) {
	e.shape, e.geo = shape, sudokulab.GeometryOf(shape)
	e.n, e.size = shape.N(), shape.Cells()
	n, size := e.n, e.size
	e.fixed = make([]uint8, size)
	e.free = make([]int32, 0, size)
	e.boxFree = make([]int32, 0, size)
	e.boxStart = make([]int32, n+1)
	e.boxUsed = make([]uint32, n)
	e.dom = make([]uint32, size)
	e.p = make([]float64, size*n)
	e.pop = make([]uint8, set.samples*size)
	e.cost = make([]int, set.samples)
	e.sel = make([]int, set.best)
	e.selCost = make([]int, set.best)
	e.masks = make([]uint32, 3*n)
	e.rem = make([]int32, 0, n)
	e.sum = make([]float64, n)
	e.top = make([]float64, n)
	e.syms = make([]uint8, 0, n)
}

// init starts a resolution with the given fixed cells: fixed cells get
// probability 1 for their symbol; a free cell is uniform over the symbols
// of its domain that no fixed cell of its row, column or box holds (the
// pre-computation of section 2.1), or over its whole domain without
// pre-computation or when the fixed cells exclude every symbol. The domain
// is every symbol without a prefilter. It returns rho of the new model.
func (e *engine) init(fixed []uint8) float64 {
	n, geo := e.n, e.geo
	copy(e.fixed, fixed)
	clear(e.p)
	masks := e.masks
	geo.UnitMasks(fixed, masks)
	e.free = e.free[:0]
	for i, v := range fixed {
		row := e.p[i*n : i*n+n]
		if v != 0 {
			row[v-1] = 1
			continue
		}
		e.free = append(e.free, int32(i))
		allowed := e.dom[i]
		if e.set.precompute {
			allowed = model.Candidates(geo, masks, i, allowed)
		}
		model.Uniform(row, allowed)
	}
	e.boxFree = model.BoxFree(geo, fixed, e.boxFree, e.boxStart)
	copy(e.boxUsed, masks[2*n:3*n])
	if e.prop != nil {
		e.propOK = e.prop.Reset(fixed)
	}
	return e.rho()
}

// rho returns min over cells of max over symbols of p (section 2.3); fixed
// cells have 1.
func (e *engine) rho() float64 {
	n := e.n
	r := 1.0
	for _, i := range e.free {
		m := 0.0
		for _, x := range e.p[int(i)*n : int(i)*n+n] {
			m = max(m, x)
		}
		r = min(r, m)
	}
	return r
}

// sample draws one grid from p into dst.
func (e *engine) sample(rng *rand.Rand, dst []uint8) {
	copy(dst, e.fixed)
	e.propOn = e.prop != nil && e.propOK
	if e.propOn {
		e.prop.Undo(0)
	}
	if !e.set.permutations {
		for _, i := range e.free {
			avail := e.dom[i]
			if e.propOn {
				if c := avail & uint32(e.prop.Candidates(int(i))); c != 0 {
					avail = c
				} else {
					e.propOn = false
				}
			}
			dst[i] = e.draw(rng, int(i), avail) + 1
			if e.propOn && !e.prop.Assign(int(i), dst[i]) {
				e.propOn = false
			}
		}
		return
	}
	for b := range e.n {
		e.sampleBox(rng, dst, b)
	}
}

// sampleBox draws box b as a permutation, as section 3.1 describes: the
// free cell whose largest probability over the unused symbols, renormalised,
// is highest draws its symbol first from that renormalised distribution;
// the symbol leaves the other cells; repeat. Cells left with no
// probability on any unused symbol are filled as the package doc says.
//
// Each remaining cell's mass on the unused symbols (sum) and largest
// probability among them (top) are kept up to date as symbols are used,
// and recounted only when the used symbol was the cell's largest or the
// mass nearly vanished, so that a box costs O(m*N) rather than O(m*m*N).
func (e *engine) sampleBox(rng *rand.Rand, dst []uint8, b int) {
	n := e.n
	used := e.boxUsed[b]
	rem := append(e.rem[:0], e.boxFree[e.boxStart[b]:e.boxStart[b+1]]...)
	sum, top := e.sum[:len(rem)], e.top[:len(rem)]
	for j, i := range rem {
		sum[j], top[j] = massOf(e.p[int(i)*n:int(i)*n+n], e.excluded(int(i), used))
	}
	for len(rem) > 0 {
		// The cell with the highest top/sum, the first among equals;
		// compared as products to spare divisions.
		best := -1
		for j := range rem {
			if sum[j] > 0 && (best < 0 || top[j]*sum[best] > top[best]*sum[j]) {
				best = j
			}
		}
		if best < 0 {
			break
		}
		i := int(rem[best])
		k := pick(rng, e.p[i*n:i*n+n], ^e.excluded(i, used), sum[best])
		dst[i] = uint8(k + 1)
		used |= 1 << k
		rem = append(rem[:best], rem[best+1:]...)
		sum = append(sum[:best], sum[best+1:]...)
		top = append(top[:best], top[best+1:]...)
		if e.propOn {
			// Propagation may take any symbol from any remaining cell:
			// recount each cell's mass on what it has left.
			if !e.prop.Assign(i, uint8(k+1)) {
				e.propOn = false
			}
			for j, c := range rem {
				sum[j], top[j] = massOf(e.p[int(c)*n:int(c)*n+n], e.excluded(int(c), used))
			}
			continue
		}
		for j, c := range rem {
			x := e.p[int(c)*n+k]
			if x <= 0 {
				continue
			}
			sum[j] -= x
			if x >= top[j] || sum[j] < 1e-9 {
				sum[j], top[j] = massOf(e.p[int(c)*n:int(c)*n+n], used)
			}
		}
	}
	if len(rem) == 0 {
		return
	}
	e.propOn = false // the cells left are filled without propagation
	if e.set.precompute {
		// Both optimizations: the constraints of the givens come first, so
		// each cell draws from its own distribution and the box may repeat
		// a symbol.
		for _, i := range rem {
			dst[i] = e.draw(rng, int(i), e.dom[i]) + 1
		}
		return
	}
	if e.filtered {
		// Permutations alone within the domains: each remaining cell draws
		// uniformly an unused symbol of its domain, or any symbol of its
		// domain when none is left (the box then repeats a symbol).
		for _, i := range rem {
			avail := e.dom[i] &^ used
			if avail == 0 {
				avail = e.dom[i]
			}
			k := nthBit(avail, rng.IntN(bits.OnesCount32(avail)))
			dst[i] = uint8(k + 1)
			used |= 1 << k
		}
		return
	}
	// Permutations alone: deal the unused symbols in a random order.
	syms := e.syms[:0]
	for k := range n {
		if used&(1<<k) == 0 {
			syms = append(syms, uint8(k+1))
		}
	}
	for j := len(syms) - 1; j > 0; j-- {
		r := rng.IntN(j + 1)
		syms[j], syms[r] = syms[r], syms[j]
	}
	for j, i := range rem {
		dst[i] = syms[j]
	}
}

// excluded returns the symbols cell i may not draw: those used in its box,
// and with propagation in use those it has lost.
func (e *engine) excluded(i int, used uint32) uint32 {
	if e.propOn {
		return used | ^uint32(e.prop.Candidates(i))
	}
	return used
}

// massOf returns the total and the largest of row over the symbols not in
// used.
func massOf(row []float64, used uint32) (sum, top float64) {
	for k, x := range row {
		if used&(1<<k) == 0 {
			sum += x
			top = max(top, x)
		}
	}
	return sum, top
}

// draw returns a symbol index drawn from cell i's probabilities restricted
// to the symbols in avail, or a uniform one of avail if they have no
// probability.
func (e *engine) draw(rng *rand.Rand, i int, avail uint32) uint8 {
	n := e.n
	row := e.p[i*n : i*n+n]
	s := 0.0
	for k, x := range row {
		if avail&(1<<k) != 0 {
			s += x
		}
	}
	if s > 0 {
		return uint8(pick(rng, row, avail, s))
	}
	avail &= uint32(1)<<n - 1
	return uint8(nthBit(avail, rng.IntN(bits.OnesCount32(avail))))
}

// nthBit returns the index of the j-th (0-based) set bit of x.
func nthBit(x uint32, j int) int {
	for ; j > 0; j-- {
		x &= x - 1
	}
	return bits.TrailingZeros32(x)
}

// pick draws an index k with avail's bit k set, with probability
// proportional to row[k]; sum is the total of those weights, positive.
func pick(rng *rand.Rand, row []float64, avail uint32, sum float64) int {
	u := rng.Float64() * sum
	last := -1
	for k, x := range row {
		if avail&(1<<k) == 0 || x <= 0 {
			continue
		}
		last = k
		if u -= x; u < 0 {
			return k
		}
	}
	return last // rounding left u just above 0
}

// costOf returns the cost of a full grid: the symbols missing from its rows,
// columns and boxes (sudokulab.Missing.Total), from unit bit masks.
func (e *engine) costOf(g []uint8) int { return model.Cost(e.geo, e.masks, g) }

// selectBest fills sel with the indices of the Q1 samples kept (section
// 2.2): the lowest costs, earlier samples first among equals, or the best
// of each of Q1 consecutive groups of Q/Q1 samples.
func (e *engine) selectBest() {
	q, q1 := len(e.cost), len(e.sel)
	if e.set.groups {
		for g := range q1 {
			lo, hi := g*q/q1, (g+1)*q/q1
			best := lo
			for j := lo + 1; j < hi; j++ {
				if e.cost[j] < e.cost[best] {
					best = j
				}
			}
			e.sel[g], e.selCost[g] = best, e.cost[best]
		}
		return
	}
	k := 0
	for j, c := range e.cost {
		if k == q1 && c >= e.selCost[q1-1] {
			continue
		}
		pos := k
		if k < q1 {
			k++
		} else {
			pos = q1 - 1
		}
		for pos > 0 && e.selCost[pos-1] > c {
			e.sel[pos], e.selCost[pos] = e.sel[pos-1], e.selCost[pos-1]
			pos--
		}
		e.sel[pos], e.selCost[pos] = j, c
	}
}

// update moves p towards the empirical distribution r of the selected
// samples, p <- alpha*p + (1-alpha)*r (section 2.2), and returns the new
// rho.
func (e *engine) update() float64 {
	n, size := e.n, e.size
	a := e.set.alpha
	w := (1 - a) / float64(len(e.sel))
	for _, i := range e.free {
		row := e.p[int(i)*n : int(i)*n+n]
		for k := range row {
			row[k] *= a
		}
	}
	for _, s := range e.sel {
		g := e.pop[s*size : s*size+size]
		for _, i := range e.free {
			e.p[int(i)*n+int(g[i])-1] += w
		}
	}
	return e.rho()
}

// maxCost is above any cost.
const maxCost = math.MaxInt
