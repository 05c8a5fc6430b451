package generator

import (
	"math/bits"
	"math/rand/v2"

	"sudokulab"
)

// filler draws random solution grids of one shape. It keeps its buffers
// between grids; it must not be used by several goroutines at once.
//
// A grid is drawn in two steps:
//
//  1. a randomized depth-first fill: the next cell is an empty cell with
//     the fewest candidates (ties broken uniformly at random), its
//     candidates are tried in a uniformly random order, and placing a
//     digit removes it from the peers' candidates (forward checking). A
//     fill that visits more than restartNodes nodes per cell starts again
//     (this only happens on large grids);
//  2. mixSteps*N*N moves of a Markov chain whose stationary distribution
//     is uniform (see mix);
//  3. a transformation drawn uniformly from the shape's group of
//     validity-preserving transformations: a relabelling of the N digits,
//     a permutation of the bands and of the rows within each band, of the
//     stacks and of the columns within each stack, and, for square boxes,
//     a transposition with probability 1/2.
//
// Step 3 makes the distribution invariant under that group: two grids that
// are transformations of one another are drawn with the same probability,
// and every statistic that is not invariant (the digit in a cell, where a
// pattern lies) has exactly the distribution it has under the uniform
// distribution of grids. Step 3 cannot change the probability of each
// class of equivalent grids: that is step 2's work, which takes step 1's
// strongly biased grids to a distribution that more moves no longer
// change; docs/generate.md gives the measurements.
type filler struct {
	shape sudokulab.Shape
	geo   *sudokulab.Geometry
	n     int
	full  uint32
	peers [][]int32
	cells []uint8
	cand  []uint32 // one frame of n*n candidate sets per depth
	order []uint8  // scratch: candidates in the order tried, per depth
	nodes int
	limit int
	tmp   []uint8
}

// restartNodes bounds the search nodes of one fill, per cell.
const restartNodes = 64

// mixSteps is the number of moves of mix per cell of the grid.
var mixSteps = 16

func newFiller(shape sudokulab.Shape) *filler {
	geo := sudokulab.GeometryOf(shape)
	n := geo.N
	f := &filler{shape: shape, geo: geo, n: n, full: uint32(1)<<n - 1, cells: make([]uint8, n*n), tmp: make([]uint8, n*n),
		cand: make([]uint32, (n*n+1)*n*n), order: make([]uint8, (n*n+1)*n), limit: restartNodes * n * n}
	f.peers = make([][]int32, n*n)
	for i, ps := range geo.Peers {
		for _, p := range ps {
			f.peers[i] = append(f.peers[i], int32(p))
		}
	}
	return f
}

// grid draws a solution grid with rng and returns it as a new Grid.
func (f *filler) grid(rng *rand.Rand) sudokulab.Grid {
	nc := f.n * f.n
	for {
		clear(f.cells)
		for i := range nc {
			f.cand[i] = f.full
		}
		f.nodes = 0
		if f.search(rng, 0, nc) {
			break
		}
	}
	f.mix(rng, mixSteps*f.n*f.n)
	f.transform(rng)
	return sudokulab.Grid{Shape: f.shape, Cells: append([]uint8(nil), f.cells...)}
}

// search fills the remaining empty cells from the candidate frame at
// depth; it reports false on a dead end or when the node budget is spent
// (then f.nodes > f.limit).
func (f *filler) search(rng *rand.Rand, depth, remaining int) bool {
	if remaining == 0 {
		return true
	}
	f.nodes++
	if f.nodes > f.limit {
		return false
	}
	nc := f.n * f.n
	cand := f.cand[depth*nc : (depth+1)*nc]
	best, bestCount, ties := -1, 33, 0
	for i, v := range f.cells {
		if v != 0 {
			continue
		}
		k := bits.OnesCount32(cand[i])
		switch {
		case k < bestCount:
			best, bestCount, ties = i, k, 1
		case k == bestCount:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
		if k == 0 {
			return false
		}
	}
	order := f.order[depth*f.n : depth*f.n+bestCount]
	k := 0
	for m := cand[best]; m != 0; m &= m - 1 {
		order[k] = uint8(bits.TrailingZeros32(m) + 1)
		k++
	}
	for i := len(order) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	next := f.cand[(depth+1)*nc : (depth+2)*nc]
	for _, d := range order {
		copy(next, cand)
		bit := uint32(1) << (d - 1)
		next[best] = bit
		ok := true
		for _, p := range f.peers[best] {
			if f.cells[p] == 0 {
				next[p] &^= bit
				if next[p] == 0 {
					ok = false
					break
				}
			}
		}
		if !ok {
			continue
		}
		f.cells[best] = d
		if f.search(rng, depth+1, remaining-1) {
			return true
		}
		f.cells[best] = 0
		if f.nodes > f.limit {
			return false
		}
	}
	return false
}

// transform applies a uniformly random validity-preserving transformation
// to f.cells (see filler).
func (f *filler) transform(rng *rand.Rand) {
	n, br, bc := f.n, f.shape.BoxRows, f.shape.BoxCols
	// rows[i] is the source row of row i: bands of br rows, bc bands.
	rows := lines(rng, bc, br)
	cols := lines(rng, br, bc)
	relabel := rng.Perm(n)
	transpose := br == bc && rng.IntN(2) == 1
	for i := range n {
		for j := range n {
			r, c := rows[i], cols[j]
			if transpose {
				r, c = c, r
			}
			v := f.cells[r*n+c]
			f.tmp[i*n+j] = uint8(relabel[v-1] + 1)
		}
	}
	copy(f.cells, f.tmp)
}

// lines returns a random permutation of groups*size lines that keeps each
// group of size consecutive lines together: the groups permuted, and the
// lines within each group.
func lines(rng *rand.Rand, groups, size int) []int {
	out := make([]int, 0, groups*size)
	for _, g := range rng.Perm(groups) {
		for _, l := range rng.Perm(size) {
			out = append(out, g*size+l)
		}
	}
	return out
}

// RandomSolution draws a solution grid of the shape with rng, as the
// generator draws the grid each puzzle starts from (see docs/generate.md
// for what its distribution is). The shape must be valid.
func RandomSolution(shape sudokulab.Shape, rng *rand.Rand) sudokulab.Grid {
	return newFiller(shape).grid(rng)
}

// mix applies steps moves of a Markov chain on solution grids whose
// stationary distribution is uniform. A move picks two rows of one band
// (or, with probability 1/2, two columns of one stack) and, with
// probability 1/2, does nothing (which makes the chain aperiodic);
// otherwise it takes the permutation that maps the digit of each position
// on the first line to the digit at the same position on the second,
// picks one of its cycles uniformly and exchanges the two lines' digits at
// the positions of that cycle. The lines keep their digits (a cycle holds
// the same digits on both lines), each column (row) and box keeps its own,
// so the grid stays valid; and the move back picks the same cycle with the
// same probability, so the chain is symmetric and keeps the uniform
// distribution uniform while it pulls any other toward it.
func (f *filler) mix(rng *rand.Rand, steps int) {
	n, br, bc := f.n, f.shape.BoxRows, f.shape.BoxCols
	var pos [sudokulab.MaxN + 1]int // position of each digit on the first line
	var cycle [sudokulab.MaxN]int   // cycle number of each position
	for range steps {
		if rng.IntN(2) == 0 {
			continue
		}
		kind := rng.IntN(3)
		if kind == 2 {
			f.swapDigits(rng)
			continue
		}
		byRows := kind == 0
		size := br // lines per band
		if !byRows {
			size = bc
		}
		group := rng.IntN(n / size)
		a := rng.IntN(size)
		b := rng.IntN(size - 1)
		if b >= a {
			b++
		}
		l1, l2 := group*size+a, group*size+b
		at := func(line, p int) int {
			if byRows {
				return line*n + p
			}
			return p*n + line
		}
		for p := range n {
			pos[f.cells[at(l1, p)]] = p
			cycle[p] = -1
		}
		cycles := 0
		for p := range n {
			if cycle[p] >= 0 {
				continue
			}
			for q := p; cycle[q] < 0; q = pos[f.cells[at(l2, q)]] {
				cycle[q] = cycles
			}
			cycles++
		}
		pick := rng.IntN(cycles)
		for p := range n {
			if cycle[p] == pick {
				i, j := at(l1, p), at(l2, p)
				f.cells[i], f.cells[j] = f.cells[j], f.cells[i]
			}
		}
	}
}

// swapDigits is the third move of mix: it picks two digits a and b, splits
// the cells holding them into the components of the graph joining an a
// and a b that share a unit, picks one component uniformly and exchanges
// a and b in it. Every unit holds one a and one b, both in the same
// component, so each keeps them; and the components are the same after
// the exchange, so the move back has the same probability.
func (f *filler) swapDigits(rng *rand.Rand) {
	n := f.n
	geo := f.geo
	a := uint8(rng.IntN(n) + 1)
	b := uint8(rng.IntN(n-1) + 1)
	if b >= a {
		b++
	}
	// The a of row r is item r, the b of row r item n+r; byCol and byBox
	// give the item of the a or b of each column and box.
	var byCol, byBox [2][sudokulab.MaxN]int
	var cellOf [2 * sudokulab.MaxN]int
	for i, v := range f.cells {
		k := 0
		switch v {
		case a:
		case b:
			k = 1
		default:
			continue
		}
		item := k*n + geo.Row[i]
		cellOf[item] = i
		byCol[k][geo.Col[i]] = item
		byBox[k][geo.Box[i]] = item
	}
	var parent [2 * sudokulab.MaxN]int
	for i := range 2 * n {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(x, y int) { parent[find(x)] = find(y) }
	for r := range n {
		i := cellOf[r]
		union(r, n+r)
		union(r, byCol[1][geo.Col[i]])
		union(r, byBox[1][geo.Box[i]])
	}
	var roots [2 * sudokulab.MaxN]int
	k := 0
	for x := range 2 * n {
		if find(x) == x {
			roots[k] = x
			k++
		}
	}
	pick := roots[rng.IntN(k)]
	for x := range 2 * n {
		if find(x) == pick {
			i := cellOf[x]
			f.cells[i] = a + b - f.cells[i]
		}
	}
}
