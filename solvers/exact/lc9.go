package exact

import (
	"context"
	"math/bits"
	"time"

	"sudokulab"
)

// lc9 is the engine for the classic shape. It keeps one board of places
// per digit and the board of the open cells (see state9), and adds locked
// candidates to the singles: a digit whose places in a box lie on one line
// leaves the rest of the line (pointing), and a digit whose places on a
// line lie in one box leaves the rest of the box (claiming). It branches in
// two: the branching cell takes its smallest candidate, or it loses it.
//
// Locked candidates work on triads, the three cells where a row or column
// meets a box. For one digit and one band, the triads of its three rows in
// its three boxes form a 3x3 pattern; pointing and claiming inside the band
// act on that pattern alone, so a table of the 512 patterns gives their
// fixpoint at once. Columns and stacks work the same way on the transposed
// pattern. The locked candidates of a digit depend on its board alone, so
// the engine remembers, per digit, the last board on which they changed
// nothing and skips the digit while its board stays the same.
type lc9 struct {
	st    state9
	dirty [9]uint32 // per digit, the units whose hidden-single status may have changed
	// removed holds, per digit, the cells that lost it since its units
	// were last marked dirty; the hidden singles turn them into units
	// once per digit rather than once per placement.
	removed [9]board
	stable  [9]board // per digit, a board on which locked candidates change nothing
	stack   [82]state9
	props   int // cells fixed by singles in the current node

	limit    int
	count    int
	effort   Effort
	solution [81]uint8
	ctx      context.Context
	done     <-chan struct{}
	deadline time.Time // of the search under way, when not zero (see CountWithin)
	err      error
	nodes    int
}

// Tables of the locked candidates. A triad pattern has bit 3*i+j set when
// line i of a band (or stack) meets box j of it on a possible place.
var (
	// lockedFix is the fixpoint of pointing and claiming on a pattern.
	lockedFix [512]uint16
	// rowTriads maps the 9 cells of a row to its three triads.
	rowTriads [512]uint16
	// triadCells maps a row pattern of a band to its 27 cells.
	triadCells [512]uint32
	// spread3 maps bits 0, 1, 2 to bits 0, 3, 6.
	spread3 [8]uint16
)

func init() {
	for v := 0; v < 512; v++ {
		for j := 0; j < 3; j++ {
			if v>>(3*j)&7 != 0 {
				rowTriads[v] |= 1 << j
			}
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if v>>(3*i+j)&1 != 0 {
					triadCells[v] |= 7 << (9*i + 3*j)
				}
			}
		}
		lockedFix[v] = lockedFixpoint(uint16(v))
	}
	for v := 0; v < 8; v++ {
		spread3[v] = uint16(v&1 | v&2<<2 | v&4<<4)
	}
}

// lockedFixpoint applies pointing and claiming to a triad pattern until
// neither changes it.
func lockedFixpoint(p uint16) uint16 {
	const line, box = 7, 0x49 // the triads of line 0 and of box 0
	for {
		q := p
		for k := 0; k < 3; k++ {
			// Line k confined to one box j: box j leaves the other lines.
			if l := q >> (3 * k) & line; l != 0 && l&(l-1) == 0 {
				q &^= box << bits.TrailingZeros16(l) &^ (l << (3 * k))
			}
			// Box k confined to one line i: line i leaves the other boxes.
			if b := q >> k & box; b != 0 && b&(b-1) == 0 {
				q &^= line << bits.TrailingZeros16(b) &^ (b << k)
			}
		}
		if q == p {
			return p
		}
		p = q
	}
}

func newLC9() *lc9 { return &lc9{} }

func (f *lc9) solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	f.limit, f.count, f.effort = limit, 0, Effort{}
	f.err, f.nodes = nil, 0
	f.ctx, f.done = ctx, ctx.Done()
	defer func() { f.ctx, f.done = nil, nil }()

	// The givens at once: each digit leaves the given cells and the peers
	// of its own givens. Givens that repeat a symbol in a unit have no
	// solution: count 0 with zero effort, before any search.
	st := &f.st
	var given board
	var own, seen [9]board // per digit: its givens, and their peers
	st.fixed = [9]uint32{}
	for c, v := range puzzle.Cells {
		if v == 0 {
			continue
		}
		d := v - 1
		if st.fixed[d]&cellUnits9[c] != 0 {
			return Result{}, nil
		}
		st.fixed[d] |= cellUnits9[c]
		w, b := cellWord9[c], cellBit9[c]
		given[w] |= b
		own[d][w] |= b
		pm := &peers9[c]
		seen[d][0] |= pm[0]
		seen[d][1] |= pm[1]
	}
	st.open = board{(1<<54 - 1) &^ given[0], (1<<27 - 1) &^ given[1]}
	for d := range st.p {
		st.p[d] = board{(st.open[0] | own[d][0]) &^ seen[d][0], (st.open[1] | own[d][1]) &^ seen[d][1]}
		f.dirty[d] = allUnits9
		f.removed[d] = board{}
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

func (f *lc9) result() Result {
	r := Result{Count: f.count, Effort: f.effort}
	if f.count > 0 {
		r.Solution = newSolution(sudokulab.Classic, f.solution[:])
	}
	return r
}

// record notes the solved state; the first solution is kept.
func (f *lc9) record() {
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
func (f *lc9) place(c, d int) {
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
func (f *lc9) placeDigit(c, d int) {
	st := &f.st
	pm := &peers9[c]
	x0, x1 := st.p[d][0], st.p[d][1]
	st.p[d][0], st.p[d][1] = x0&^pm[0], x1&^pm[1]
	f.removed[d][0] |= x0 & pm[0]
	f.removed[d][1] |= x1 & pm[1]
	st.open[cellWord9[c]] &^= cellBit9[c]
	st.fixed[d] |= cellUnits9[c]
}

// propagate applies naked singles, hidden singles and locked candidates
// until none applies, counting the cells it fixes in f.props. It returns
// false on a contradiction.
func (f *lc9) propagate() bool {
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
			du := f.dirty[d]
			if r := f.removed[d]; r[0]|r[1] != 0 {
				du |= touchedUnits(r[0], r[1])
				f.removed[d] = board{}
			}
			du &^= st.fixed[d]
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
		if found {
			continue
		}
		if !f.locked() {
			return true
		}
	}
}

// locked applies pointing and claiming once to each digit whose board
// changed since they last changed nothing on it. It reports whether it
// removed a candidate, marking the units that lost one.
func (f *lc9) locked() bool {
	st := &f.st
	changed := false
	for d := range st.p {
		p := st.p[d]
		if p == f.stable[d] {
			continue
		}
		x := [3]uint32{uint32(p[0]) & (1<<27 - 1), uint32(p[0] >> 27), uint32(p[1])}
		// Rows and boxes, band by band.
		for i, v := range x {
			pat := rowTriads[v&0x1FF] | rowTriads[v>>9&0x1FF]<<3 | rowTriads[v>>18]<<6
			if fix := lockedFix[pat]; fix != pat {
				x[i] = v & triadCells[fix]
			}
		}
		// Columns and boxes, stack by stack: line i of the pattern is
		// column i of the stack, box j its box in band j.
		var cols [3]uint32
		for i, v := range x {
			cols[i] = (v | v>>9 | v>>18) & 0x1FF
		}
		keep := [3]uint32{0x1FF, 0x1FF, 0x1FF}
		for s := 0; s < 3; s++ {
			sh := 3 * s
			pat := spread3[cols[0]>>sh&7] | spread3[cols[1]>>sh&7]<<1 | spread3[cols[2]>>sh&7]<<2
			if fix := lockedFix[pat]; fix != pat {
				for j := 0; j < 3; j++ {
					k := fix >> j & 0x49
					keep[j] &^= uint32(7&^(k&1|k>>2&2|k>>4&4)) << sh
				}
			}
		}
		for j := range x {
			x[j] &= keep[j] * (1 | 1<<9 | 1<<18)
		}
		q := board{uint64(x[0]) | uint64(x[1])<<27, uint64(x[2])}
		if q == p {
			f.stable[d] = p
			continue
		}
		st.p[d] = q
		f.removed[d][0] |= p[0] &^ q[0]
		f.removed[d][1] |= p[1] &^ q[1]
		changed = true
	}
	return changed
}

// search explores the consistent, unsolved state in f.st. It returns true
// when the search must stop: the limit is reached or the context is done.
// At each node it takes the cell branchCell picks and its smallest
// candidate d: first the cell takes d, then the cell loses d and the
// search goes on from there at the same depth.
func (f *lc9) search(depth int) bool {
	st := &f.st
	saved := &f.stack[depth]
	for {
		c := f.branchCell()
		w, b := cellWord9[c], cellBit9[c]
		i := uint(bits.TrailingZeros64(b))
		var cands uint32
		for d := range st.p {
			cands |= uint32(st.p[d][w]>>i&1) << d
		}
		d := bits.TrailingZeros32(cands)
		*saved = *st
		if f.tick() {
			return true
		}
		f.dirty = [9]uint32{}
		f.removed = [9]board{}
		f.place(c, d)
		if f.node() {
			if st.open == (board{}) {
				f.record()
				if f.count >= f.limit {
					return true
				}
			} else if f.search(depth + 1) {
				return true
			}
		}
		if f.tick() {
			return true
		}
		*st = *saved
		f.dirty = [9]uint32{}
		f.removed = [9]board{}
		if rest := cands &^ (1 << d); rest&(rest-1) == 0 {
			f.place(c, bits.TrailingZeros32(rest))
		} else {
			st.p[d][w] &^= b
			f.dirty[d] |= cellUnits9[c]
		}
		if !f.node() {
			return false
		}
		if st.open == (board{}) {
			f.record()
			return f.count >= f.limit
		}
	}
}

// tick counts a branch as a guess and a search node, and looks at the
// context every cancelEvery nodes. It reports whether the context is done.
func (f *lc9) tick() bool {
	f.nodes++
	f.effort.Guesses++
	if f.nodes&(cancelEvery-1) == 0 {
		select {
		case <-f.done:
			f.err = f.ctx.Err()
			return true
		default:
		}
		if !f.deadline.IsZero() && time.Now().After(f.deadline) {
			f.err = context.DeadlineExceeded
			return true
		}
	}
	return false
}

// node propagates the branch just taken, counting its effort. It reports
// whether the state is consistent.
func (f *lc9) node() bool {
	f.props = 0
	if !f.propagate() {
		f.effort.Backtracks++
		return false
	}
	f.effort.Propagations += int64(f.props)
	return true
}

// branchCell returns the open cell with the fewest candidates; on a tie,
// the one that sees the most open cells (the branch that fixes it removes
// a candidate from the most cells, so both branches propagate furthest),
// then the first in row-major order. The tie-break halves the decisions on
// hard puzzles (docs/performance.md).
func (f *lc9) branchCell() int {
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
	o0, o1 := st.open[0], st.open[1]
	if m0, m1 := b0&^c0&o0, b1&^c1&o1; m0|m1 != 0 {
		best, most := -1, -1
		for w, m := range [2]uint64{m0, m1} {
			for ; m != 0; m &= m - 1 {
				c := wordCell9[w] + bits.TrailingZeros64(m)
				if k := f.openPeers(c); k > most {
					best, most = c, k
				}
			}
		}
		return best
	}
	best, bestCount, most := -1, 10, -1
	for w := 0; w < 2; w++ {
		for m := st.open[w]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			k := 0
			for d := range st.p {
				k += int(st.p[d][w] >> i & 1)
			}
			if k > bestCount {
				continue
			}
			c := wordCell9[w] + i
			seen := f.openPeers(c)
			if k < bestCount || seen > most {
				best, bestCount, most = c, k, seen
			}
		}
	}
	return best
}

// openPeers returns the number of open cells among the peers of cell c.
func (f *lc9) openPeers(c int) int {
	pm, o := &peers9[c], &f.st.open
	return bits.OnesCount64(pm[0]&o[0]) + bits.OnesCount64(pm[1]&o[1])
}
