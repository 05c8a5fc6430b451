package exact

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"time"

	"sudokulab"
)

// general is the engine for every shape. Its state is one candidate bitset
// per cell; a cell with a single candidate is fixed. Every fixed cell has
// either been propagated to its peers or waits in the queue, so a cell whose
// last candidate is removed, or a digit left without a place in a unit, is a
// contradiction.
type general struct {
	shape sudokulab.Shape
	n     int
	cells int
	deg   int    // peers per cell
	full  uint32 // the N candidate bits
	peers []int32
	units []int32 // 3N units of N cells, rows then columns then boxes

	cand   []uint32 // the current state
	solved int      // fixed cells in cand
	queue  []int32  // fixed cells not yet propagated
	frames []uint32 // saved states, one per depth
	saved  []int    // solved counts of the saved states
	used   []uint32 // scratch: symbols given in each unit
	rowSeg []uint32 // scratch: candidates of row r in stack s, at r*stacks+s
	colSeg []uint32 // scratch: candidates of column c in band b, at c*bands+b

	// search bookkeeping, reset by solve
	limit    int
	count    int
	effort   Effort
	solution []uint8
	ctx      context.Context
	done     <-chan struct{}
	deadline time.Time // of the search under way, when not zero (see CountWithin)
	err      error
	nodes    int

	// The randomized search (Randomized) sets these; the exact search
	// leaves them zero.
	rng      *rand.Rand // random branching choices when not nil
	maxNodes int        // stop with errNodeLimit after this many nodes; 0: no limit
	deepest  int        // most cells fixed in a consistent node since load
	deep     []uint32   // the state of that node, when track is set
	track    bool
	// wdeg, when not nil, holds a weight per unit (rows, columns, boxes),
	// raised by one each time the unit is where a node's propagation
	// ends in a contradiction, and the randomized search branches by
	// dom/wdeg (see Randomized); failUnit is the unit of the last
	// contradiction.
	wdeg     []int64
	failUnit int
}

func newGeneral(shape sudokulab.Shape) *general {
	geo := sudokulab.GeometryOf(shape)
	n := geo.N
	cells := n * n
	g := &general{
		shape:  shape,
		n:      n,
		cells:  cells,
		deg:    len(geo.Peers[0]),
		full:   uint32(1<<n - 1),
		cand:   make([]uint32, cells),
		queue:  make([]int32, 0, cells),
		used:   make([]uint32, 3*n),
		rowSeg: make([]uint32, n*(n/shape.BoxCols)),
		colSeg: make([]uint32, n*(n/shape.BoxRows)),
	}
	g.peers = make([]int32, 0, cells*g.deg)
	for _, p := range geo.Peers {
		for _, q := range p {
			g.peers = append(g.peers, int32(q))
		}
	}
	g.units = make([]int32, 0, 3*n*n)
	for _, u := range geo.Units {
		for _, c := range u {
			g.units = append(g.units, int32(c))
		}
	}
	return g
}

func (g *general) solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	g.limit, g.count, g.effort = limit, 0, Effort{}
	g.err, g.nodes = nil, 0
	g.ctx, g.done = ctx, ctx.Done()
	if !g.load(puzzle) {
		return g.result(), nil
	}
	if g.solved == g.cells {
		g.record()
	} else {
		g.search(0)
	}
	res, err := g.result(), g.err
	g.ctx, g.done, g.err = nil, nil, nil
	return res, err
}

// load sets cand to the givens of puzzle and propagates them. It reports
// false when the givens repeat a symbol in a unit (with zero effort) or
// propagate to a contradiction (one backtrack).
func (g *general) load(puzzle sudokulab.Grid) bool {
	g.queue = g.queue[:0]
	g.solved, g.deepest = 0, 0
	// Givens that repeat a symbol in a unit have no solution: count 0
	// with zero effort, before any search.
	used := g.used
	clear(used)
	for c, v := range puzzle.Cells {
		if v == 0 {
			g.cand[c] = g.full
			continue
		}
		bit := uint32(1) << (v - 1)
		g.cand[c] = bit
		r, col, b := g.unitsOf(c)
		for _, u := range [3]int{r, col, b} {
			if used[u]&bit != 0 {
				return false
			}
			used[u] |= bit
		}
		g.solved++
		g.queue = append(g.queue, int32(c))
	}
	start := g.solved
	if !g.propagate() {
		g.effort.Backtracks++
		return false
	}
	g.effort.Propagations += int64(g.solved - start)
	g.deepest = g.solved
	if g.track {
		copy(g.deep, g.cand)
	}
	return true
}

func (g *general) result() Result {
	r := Result{Count: g.count, Effort: g.effort}
	if g.count > 0 {
		r.Solution = newSolution(g.shape, g.solution)
	}
	return r
}

// record notes a solution in cand; the first one is kept.
func (g *general) record() {
	if g.count == 0 {
		if cap(g.solution) < g.cells {
			g.solution = make([]uint8, g.cells)
		}
		g.solution = g.solution[:g.cells]
		for c, m := range g.cand {
			g.solution[c] = uint8(bits.TrailingZeros32(m) + 1)
		}
	}
	g.count++
}

// frameBuf returns the saved-state buffer of a depth, growing the stack.
func (g *general) frameBuf(depth int) []uint32 {
	need := (depth + 1) * g.cells
	if len(g.frames) < need {
		g.frames = append(g.frames, make([]uint32, need-len(g.frames))...)
		for len(g.saved) <= depth {
			g.saved = append(g.saved, 0)
		}
	}
	return g.frames[depth*g.cells : need]
}

// search explores the consistent, unsolved state in cand. It returns true
// when the search must stop: the limit is reached or the context is done.
// At each node it takes the cell with the fewest candidates (the first in
// row-major order on a tie) and its smallest candidate: first the cell
// takes it, then the cell loses it and the search goes on from there at
// the same depth.
func (g *general) search(depth int) bool {
	for {
		var best int
		var bit uint32
		if g.rng == nil {
			best = g.branchCell()
			bit = g.cand[best] & -g.cand[best]
		} else if g.wdeg == nil {
			best, bit = g.randomBranch()
		} else {
			best, bit = g.wdegBranch()
		}
		frame := g.frameBuf(depth)
		copy(frame, g.cand)
		g.saved[depth] = g.solved
		m := frame[best]
		if g.tick() {
			return true
		}
		g.cand[best] = bit
		g.solved++
		g.queue = append(g.queue[:0], int32(best))
		if g.node() {
			if g.solved == g.cells {
				g.record()
				if g.count >= g.limit {
					return true
				}
			} else if g.search(depth + 1) {
				return true
			}
		}
		if g.tick() {
			return true
		}
		frame = g.frameBuf(depth)
		copy(g.cand, frame)
		g.solved = g.saved[depth]
		g.queue = g.queue[:0]
		rest := m &^ bit
		g.cand[best] = rest
		if rest&(rest-1) == 0 {
			g.solved++
			g.queue = append(g.queue, int32(best))
		}
		if !g.node() {
			return false
		}
		if g.solved == g.cells {
			g.record()
			return g.count >= g.limit
		}
	}
}

// tick counts a branch as a guess and a search node, and looks at the
// context every cancelEvery nodes. It reports whether the context is done.
func (g *general) tick() bool {
	g.nodes++
	g.effort.Guesses++
	if g.maxNodes > 0 && g.nodes > g.maxNodes {
		g.err = errNodeLimit
		return true
	}
	if g.nodes&(cancelEvery-1) == 0 {
		select {
		case <-g.done:
			g.err = g.ctx.Err()
			return true
		default:
		}
		if !g.deadline.IsZero() && time.Now().After(g.deadline) {
			g.err = context.DeadlineExceeded
			return true
		}
	}
	return false
}

// node propagates the branch just taken, counting its effort. It reports
// whether the state is consistent.
func (g *general) node() bool {
	start := g.solved
	if !g.propagate() {
		g.effort.Backtracks++
		if g.wdeg != nil {
			g.wdeg[g.failUnit]++
		}
		return false
	}
	g.effort.Propagations += int64(g.solved - start)
	if g.solved > g.deepest {
		g.deepest = g.solved
		if g.track {
			copy(g.deep, g.cand)
		}
	}
	return true
}

// branchCell returns the exact search's branching cell: the empty cell with
// the fewest candidates; on a tie, the one with the most empty peers; then
// the first in row-major order. It is the 9x9 engine's rule (lc9.branchCell).
func (g *general) branchCell() int {
	best, bestCount, most := -1, 99, -1
	for c, m := range g.cand {
		if m&(m-1) == 0 {
			continue
		}
		k := bits.OnesCount32(m)
		if k > bestCount {
			continue
		}
		seen := 0
		for _, p := range g.peers[c*g.deg : (c+1)*g.deg] {
			if x := g.cand[p]; x&(x-1) != 0 {
				seen++
			}
		}
		if k < bestCount || seen > most {
			best, bestCount, most = c, k, seen
		}
	}
	return best
}

// randomBranch returns the randomized search's choice: a cell drawn
// uniformly from the empty cells with the fewest candidates, and one of its
// candidates drawn uniformly. It draws two numbers from the rng.
func (g *general) randomBranch() (cell int, bit uint32) {
	bestCount, ties := 99, 0
	for _, m := range g.cand {
		if m&(m-1) == 0 {
			continue
		}
		switch k := bits.OnesCount32(m); {
		case k < bestCount:
			bestCount, ties = k, 1
		case k == bestCount:
			ties++
		}
	}
	pick := g.rng.IntN(ties)
	for c, m := range g.cand {
		if m&(m-1) == 0 || bits.OnesCount32(m) != bestCount {
			continue
		}
		if pick == 0 {
			cell = c
			break
		}
		pick--
	}
	return cell, g.randomCandidate(cell)
}

// randomCandidate returns one of cell's candidates, drawn uniformly.
func (g *general) randomCandidate(cell int) uint32 {
	m := g.cand[cell]
	for j := g.rng.IntN(bits.OnesCount32(m)); j > 0; j-- {
		m &= m - 1
	}
	return m & -m
}

// unitsOf returns the row, column and box units of cell c.
func (g *general) unitsOf(c int) (r, col, b int) {
	row, k := c/g.n, c%g.n
	return row, g.n + k, 2*g.n + (row/g.shape.BoxRows)*(g.n/g.shape.BoxCols) + k/g.shape.BoxCols
}

// sharedUnit returns a unit holding both peers a and b: their row, else
// their column, else their box.
func (g *general) sharedUnit(a, b int) int {
	ra, ca, ba := g.unitsOf(a)
	rb, cb, _ := g.unitsOf(b)
	switch {
	case ra == rb:
		return ra
	case ca == cb:
		return ca
	}
	return ba
}

// wdegBranch returns the dom/wdeg choice: the empty cell whose candidate
// count divided by the summed weights of its three units is smallest,
// drawn uniformly among ties, and one of its candidates drawn uniformly.
func (g *general) wdegBranch() (cell int, bit uint32) {
	var bestDom, bestW int64 = 1, 0 // the best ratio so far, dom/w
	ties := 0
	for c, m := range g.cand {
		if m&(m-1) == 0 {
			continue
		}
		r, col, b := g.unitsOf(c)
		w := g.wdeg[r] + g.wdeg[col] + g.wdeg[b]
		dom := int64(bits.OnesCount32(m))
		switch lhs, rhs := dom*bestW, bestDom*w; {
		case ties == 0 || lhs < rhs:
			bestDom, bestW, ties, cell = dom, w, 1, c
		case lhs == rhs:
			ties++
			if g.rng.IntN(ties) == 0 {
				cell = c
			}
		}
	}
	return cell, g.randomCandidate(cell)
}

// propagate applies naked singles, hidden singles and locked candidates
// until none applies. It returns false on a contradiction.
func (g *general) propagate() bool {
	for {
		if !g.drain() {
			return false
		}
		if g.solved == g.cells {
			return true
		}
		found, ok := g.hidden()
		if !ok {
			return false
		}
		if found {
			continue
		}
		if changed, ok := g.locked(); !ok {
			return false
		} else if !changed {
			return true
		}
	}
}

// drain propagates the queued fixed cells to their peers, queueing the
// naked singles that appear.
func (g *general) drain() bool {
	cand, deg := g.cand, g.deg
	for len(g.queue) > 0 {
		c := g.queue[len(g.queue)-1]
		g.queue = g.queue[:len(g.queue)-1]
		bit := cand[c]
		for _, p := range g.peers[int(c)*deg : int(c+1)*deg] {
			m := cand[p]
			if m&bit == 0 {
				continue
			}
			m &^= bit
			if m == 0 {
				g.failUnit = g.sharedUnit(int(c), int(p))
				return false
			}
			cand[p] = m
			if m&(m-1) == 0 {
				g.solved++
				g.queue = append(g.queue, p)
			}
		}
	}
	return true
}

// hidden fixes every hidden single: a symbol with one place left in a unit.
// It reports whether it fixed any, and false for ok when a unit has no place
// for a symbol or a cell is the only place for two.
func (g *general) hidden() (found, ok bool) {
	cand, n := g.cand, g.n
	for u := 0; u < 3*n; u++ {
		cells := g.units[u*n : u*n+n]
		var once, twice, fixed uint32
		for _, c := range cells {
			m := cand[c]
			if m&(m-1) == 0 {
				fixed |= m
				continue
			}
			twice |= once & m
			once |= m
		}
		if once|fixed != g.full {
			g.failUnit = u
			return false, false
		}
		for h := once &^ twice &^ fixed; h != 0; h &= h - 1 {
			bit := h & -h
			at := int32(-1)
			for _, c := range cells {
				if cand[c]&bit != 0 {
					at = c
					break
				}
			}
			if at < 0 {
				// Another hidden single of this unit took the cell.
				g.failUnit = u
				return false, false
			}
			cand[at] = bit
			g.solved++
			g.queue = append(g.queue, at)
			found = true
		}
	}
	return found, true
}
