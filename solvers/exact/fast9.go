package exact

import (
	"context"
	"math/bits"

	"sudokulab"
)

// The 9x9 engine keeps, for each digit, the board of the cells where the
// digit may still go, and the board of the cells not yet fixed. A board is
// 81 bits in two words: bands 0 and 1 (rows 0-5) in the first word, band 2
// (rows 6-8) in the second, cell r*9+c at bit (r%6)*9+c of word r/6. A
// fixed cell stays on the board of its digit only. Naked singles come from
// counting the boards bit-parallel, hidden singles from the boards masked to
// units, the branching cell from the counts.

// board is a set of cells of the 9x9 grid.
type board [2]uint64

// state9 is the search state: where each digit may go and what is open.
type state9 struct {
	p     [9]board
	open  board
	fixed [9]uint32 // per digit, the units where it is fixed
}

const allUnits9 = 1<<27 - 1

var (
	cellWord9  [81]uint8     // word of a cell
	cellBit9   [81]uint64    // bit of a cell in its word
	peers9     [81]board     // the 20 peers of each cell
	units9     [32]board     // rows, columns, boxes; padded for bounds-check elimination
	cellUnits9 [81]uint32    // the three units of each cell, as unit bits
	wordUnits9 [2][64]uint32 // cellUnits9 by word and bit
	wordCell9  = [2]int{0, 54}
)

func init() {
	geo := sudokulab.GeometryOf(sudokulab.Classic)
	for c := 0; c < 81; c++ {
		cellWord9[c] = uint8(c / 54)
		cellBit9[c] = 1 << (c % 54)
		for _, p := range geo.Peers[c] {
			peers9[c][p/54] |= 1 << (p % 54)
		}
		cellUnits9[c] = 1<<geo.Row[c] | 1<<(9+geo.Col[c]) | 1<<(18+geo.Box[c])
		wordUnits9[c/54][c%54] = cellUnits9[c]
	}
	for u, cells := range geo.Units {
		for _, c := range cells {
			units9[u][c/54] |= 1 << (c % 54)
		}
	}
}

// fast9 is the engine for the classic shape.
type fast9 struct {
	st    state9
	dirty [9]uint32 // per digit, the units whose hidden-single status may have changed
	stack [81]state9
	props int // cells fixed by singles in the current node

	limit    int
	count    int
	effort   Effort
	solution [81]uint8
	ctx      context.Context
	done     <-chan struct{}
	err      error
	nodes    int
}

func newFast9() *fast9 { return &fast9{} }

func (f *fast9) solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	f.limit, f.count, f.effort = limit, 0, Effort{}
	f.err, f.nodes = nil, 0
	f.ctx, f.done = ctx, ctx.Done()
	defer func() { f.ctx, f.done = nil, nil }()

	// Givens that repeat a symbol in a unit have no solution: count 0
	// with zero effort, before any search.
	var used [27]uint16
	for c, v := range puzzle.Cells {
		if v == 0 {
			continue
		}
		bit := uint16(1) << (v - 1)
		for m := cellUnits9[c]; m != 0; m &= m - 1 {
			u := bits.TrailingZeros32(m)
			if used[u]&bit != 0 {
				return Result{}, nil
			}
			used[u] |= bit
		}
	}

	st := &f.st
	for d := range st.p {
		st.p[d] = board{1<<54 - 1, 1<<27 - 1}
	}
	st.open = board{1<<54 - 1, 1<<27 - 1}
	st.fixed = [9]uint32{}
	f.dirty = [9]uint32{}
	for c, v := range puzzle.Cells {
		if v != 0 {
			f.place(c, int(v-1))
		}
	}
	for d := range f.dirty {
		f.dirty[d] = allUnits9
	}
	f.props = 0
	if !f.propagate() {
		f.effort.Backtracks++
		return f.result(), nil
	}
	f.effort.Propagations += int64(f.props)
	if st.open == (board{}) {
		f.record()
	} else {
		f.search(0)
	}
	return f.result(), f.err
}

func (f *fast9) result() Result {
	r := Result{Count: f.count, Effort: f.effort}
	if f.count > 0 {
		r.Solution = newSolution(sudokulab.Classic, f.solution[:])
	}
	return r
}

// record notes the solved state; the first solution is kept.
func (f *fast9) record() {
	if f.count == 0 {
		for d := range f.st.p {
			p := f.st.p[d]
			for w := 0; w < 2; w++ {
				for m := p[w]; m != 0; m &= m - 1 {
					f.solution[wordCell9[w]+bits.TrailingZeros64(m)] = uint8(d + 1)
				}
			}
		}
	}
	f.count++
}

// place fixes cell c to digit d (0-based): d leaves the peers, the other
// digits leave c, and c is no longer open. It marks the units where a
// hidden single may have appeared.
func (f *fast9) place(c, d int) {
	st := &f.st
	w, b := cellWord9[c], cellBit9[c]
	cu := cellUnits9[c]
	i := uint(bits.TrailingZeros64(b))
	for e := range st.p {
		x := st.p[e][w]
		f.dirty[e] |= cu & -uint32(x>>i&1)
		st.p[e][w] = x &^ b
	}
	st.p[d][w] |= b
	f.placeDigit(c, d)
}

// placeDigit fixes cell c, whose only candidate is digit d: d leaves the
// peers and c is no longer open. It marks the units of the peers that lost
// d, where d may now be a hidden single.
func (f *fast9) placeDigit(c, d int) {
	st := &f.st
	pm := &peers9[c]
	x0, x1 := st.p[d][0], st.p[d][1]
	st.p[d][0], st.p[d][1] = x0&^pm[0], x1&^pm[1]
	f.dirty[d] |= touchedUnits(x0&pm[0], x1&pm[1])
	st.open[cellWord9[c]] &^= cellBit9[c]
	st.fixed[d] |= cellUnits9[c]
}

// propagate applies naked and hidden singles until neither applies,
// counting the cells it fixes in f.props. It returns false on a
// contradiction.
func (f *fast9) propagate() bool {
	st := &f.st
	for {
		// Naked singles: count the candidates of the open cells.
		var a0, a1, b0, b1 uint64 // at least one, at least two
		for d := range st.p {
			p := st.p[d]
			b0 |= a0 & p[0]
			a0 |= p[0]
			b1 |= a1 & p[1]
			a1 |= p[1]
		}
		o0, o1 := st.open[0], st.open[1]
		if o0&^a0|o1&^a1 != 0 {
			return false
		}
		s0, s1 := o0&a0&^b0, o1&a1&^b1
		if s0|s1 != 0 {
			// The digit of each single, as four bit planes.
			var i0, i1, i2, i3 board
			for w, s := range [2]uint64{s0, s1} {
				p := &st.p
				i0[w] = s & (p[1][w] | p[3][w] | p[5][w] | p[7][w])
				i1[w] = s & (p[2][w] | p[3][w] | p[6][w] | p[7][w])
				i2[w] = s & (p[4][w] | p[5][w] | p[6][w] | p[7][w])
				i3[w] = s & p[8][w]
			}
			for w, s := range [2]uint64{s0, s1} {
				for m := s; m != 0; m &= m - 1 {
					i := uint(bits.TrailingZeros64(m))
					d := int(i0[w]>>i&1 | (i1[w]>>i&1)<<1 | (i2[w]>>i&1)<<2 | (i3[w]>>i&1)<<3)
					if st.p[d][w]>>i&1 == 0 {
						return false // a peer took the digit
					}
					f.placeDigit(wordCell9[w]+int(i), d)
					f.props++
				}
			}
			if st.open == (board{}) {
				return true
			}
			continue
		}
		// Hidden singles in the units that changed.
		found := false
	digits:
		for d := 0; d < 9; d++ {
			du := f.dirty[d] &^ st.fixed[d]
			f.dirty[d] = 0
			for du != 0 {
				u := bits.TrailingZeros32(du)
				du &= du - 1
				x0 := st.p[d][0] & units9[u][0]
				x1 := st.p[d][1] & units9[u][1]
				// The places of d in u on one word: x1 shifted by 4 meets
				// no bit of x0, whose bits are 9 apart in a column.
				y := x0 | x1<<4
				if y&(y-1) != 0 {
					continue // two places or more
				}
				if y == 0 {
					return false
				}
				if x0&st.open[0]|x1&st.open[1] == 0 {
					continue // the digit is fixed in this unit
				}
				c := bits.TrailingZeros64(x0)
				if x0 == 0 {
					c = 54 + bits.TrailingZeros64(x1)
				}
				f.place(c, d)
				f.props++
				f.dirty[d] |= du // place marked all units of d anyway
				found = true
				break digits
			}
		}
		if !found {
			return true
		}
	}
}

// search explores the consistent, unsolved state in f.st. It returns true
// when the search must stop: the limit is reached or the context is done.
func (f *fast9) search(depth int) bool {
	st := &f.st
	c := f.branchCell()
	w, b := cellWord9[c], cellBit9[c]
	saved := &f.stack[depth]
	*saved = *st
	first := true
	for d := 0; d < 9; d++ {
		if saved.p[d][w]&b == 0 {
			continue
		}
		f.nodes++
		if f.nodes&(cancelEvery-1) == 0 && f.done != nil {
			select {
			case <-f.done:
				f.err = f.ctx.Err()
				return true
			default:
			}
		}
		f.effort.Guesses++
		if !first {
			*st = *saved
		}
		first = false
		f.dirty = [9]uint32{}
		f.place(c, d)
		f.props = 0
		if !f.propagate() {
			f.effort.Backtracks++
			continue
		}
		f.effort.Propagations += int64(f.props)
		if st.open == (board{}) {
			f.record()
			if f.count >= f.limit {
				return true
			}
			continue
		}
		if f.search(depth + 1) {
			return true
		}
	}
	return false
}

// branchCell returns the open cell with the fewest candidates, the first
// in row-major order on a tie.
func (f *fast9) branchCell() int {
	st := &f.st
	var a0, a1, b0, b1, c0, c1 uint64 // at least one, two, three
	for d := range st.p {
		p := st.p[d]
		c0 |= b0 & p[0]
		b0 |= a0 & p[0]
		a0 |= p[0]
		c1 |= b1 & p[1]
		b1 |= a1 & p[1]
		a1 |= p[1]
	}
	if m := b0 &^ c0 & st.open[0]; m != 0 {
		return bits.TrailingZeros64(m)
	}
	if m := b1 &^ c1 & st.open[1]; m != 0 {
		return 54 + bits.TrailingZeros64(m)
	}
	best, bestCount := -1, 10
	for w := 0; w < 2; w++ {
		for m := st.open[w]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			k := 0
			for d := range st.p {
				k += int(st.p[d][w] >> i & 1)
			}
			if k < bestCount {
				best, bestCount = wordCell9[w]+i, k
			}
		}
	}
	return best
}

// Constants of touchedUnits: the even and odd rows of a word, and the multiplier that gathers bits 9k
// (k < 6) into bits 54+k (the products of distinct bits are distinct bits,
// so nothing carries).
const (
	evenRows   = 0x1FF * (1 | 1<<18 | 1<<36)
	oddRows    = 0x1FF * (1<<9 | 1<<27 | 1<<45)
	gatherRows = 1<<54 | 1<<46 | 1<<38 | 1<<30 | 1<<22 | 1<<14
)

// touchedUnits returns the units, as unit bits, that hold a cell of the
// board (b0, b1). It has no branches: it runs for every fixed cell.
func touchedUnits(b0, b1 uint64) uint32 {
	// Columns: fold the rows onto the first.
	t := b0 | b0>>27 | b1
	t |= t>>9 | t>>18
	cols := uint32(t) & 0x1FF
	// Rows: adding 0x1FF to a row carries into the bit above it when the
	// row is not empty. Even and odd rows are added apart so that every
	// carry lands in a zero; then the carry bits are gathered.
	e0 := b0&evenRows + evenRows
	o0 := b0&oddRows + oddRows
	c0 := (e0&(evenRows<<1)&^evenRows | o0&(oddRows<<1)&^oddRows) >> 9
	e1 := b1&(evenRows&(1<<27-1)) + evenRows&(1<<27-1)
	o1 := b1&(oddRows&(1<<27-1)) + oddRows&(1<<27-1)
	c1 := (e1&(evenRows<<1)&^evenRows | o1&(oddRows<<1)&^oddRows) >> 9
	rows := uint32((c0*gatherRows)>>54&63 | (c1*gatherRows)>>54<<6&(7<<6))
	// Boxes: fold each band onto its first row, then the three columns
	// of each box onto its first.
	g0 := b0 | b0>>9 | b0>>18
	g0 = (g0 | g0>>1 | g0>>2) & (0x49 | 0x49<<27)
	g1 := b1 | b1>>9 | b1>>18
	g1 = (g1 | g1>>1 | g1>>2) & 0x49
	boxes := uint32((g0|g0>>2|g0>>4)&7 | (g0>>27|g0>>29|g0>>31)&7<<3 | (g1|g1>>2|g1>>4)&7<<6)
	return rows | cols<<9 | boxes<<18
}
