// Package triad is a 9x9 exact solver after Tom Dillon's tdoku
// (github.com/t-dillon/tdoku, src/solver_dpll_triad_simd.cc, BSD 2-Clause
// licence in LICENSE-tdoku), ported to Go: a DPLL search over boxes and
// bands whose propagation is vector arithmetic on 16-bit lanes.
//
// Each box is sixteen lanes, a 4x4 matrix of candidate sets: its nine
// cells in the top-left 3x3, and in the right column and bottom row the
// negative horizontal and vertical triads (a triad is the three cells
// where a row or column meets the box; its negative literal says the digit
// is not there). Each row and column of the matrix is an exactly-one
// clause per digit. Each band (three boxes in a row, or in a column) keeps,
// per digit, which of the six ways the digit can cross its three boxes are
// still possible. Boxes send eliminations to their two bands and bands
// restrict their three boxes until nothing changes. The search branches on
// the band and digit with the fewest configurations: one configuration,
// then its negation.
//
// The package has two builds of the same engine. With GOEXPERIMENT=simd on
// amd64 the lanes are simd/archsimd vectors (AVX2 and AVX-512 instructions,
// as tdoku compiled with -march=native uses); otherwise they are arrays
// with the same meaning lane by lane, a portable twin that is slow but
// gives the same results, decision counts included, so the engine's logic
// is tested on every machine. Available says whether the fast build runs
// here; the exact package uses the engine only then.
package triad

import (
	"context"
	"math/bits"
	"time"
)

// Available reports whether this binary has the vector build of the engine
// and the processor runs it (AVX2).
func Available() bool { return simd && cpuOK() }

// VectorBuild reports whether this binary has the vector build of the
// engine (GOEXPERIMENT=simd on amd64), whether or not the processor runs
// it.
func VectorBuild() bool { return simd }

// Runs reports whether the engine runs here: always in the portable
// build, only with AVX2 in the vector build. Nothing else in the package
// may be used when it is false; not even its tables are built.
func Runs() bool { return !simd || cpuOK() }

// Result is the outcome of a count.
type Result struct {
	// Count is the number of solutions found, at most the limit.
	Count int
	// Decisions counts branching points; Branches counts the branches
	// tried, one or two per decision.
	Decisions, Branches int64
}

// Solver counts the solutions of 9x9 puzzles. The zero Solver is ready to
// use; it must not be used by several goroutines at once.
type Solver struct {
	limit int
	res   Result
	first state // the state of the first solution
	// states holds the state of each depth of the search, kept between
	// counts: a state declared in a function is zeroed first, with legacy
	// SSE stores (see v08), and would escape anyway.
	states  []*state
	lanes   [16]uint16 // scratch of extract
	nodes   int
	ctx     context.Context // of the count under way
	done    <-chan struct{}
	stopped bool
	err     error // why the search stopped
	// Deadline, when not zero, stops a count once it has passed, as a
	// context with that deadline would, but without the context's timer:
	// Count then returns context.DeadlineExceeded.
	Deadline time.Time
}

// cancelEvery is the number of decisions between two looks at the context;
// it is a power of two.
const cancelEvery = 1 << 12

// Count counts the solutions of the puzzle given as 81 cells in row-major
// order (0 empty, 1-9 a given; the caller has checked the values) up to
// limit (at least 1) and writes the first solution found into solution
// when the count is not zero. Givens that repeat a digit in a unit give a
// count of zero. Count looks at ctx every few thousand decisions and, once
// it is done, returns ctx.Err() with the count so far. It may be called
// only where Runs is true.
func (s *Solver) Count(ctx context.Context, givens *[81]uint8, limit int, solution *[81]uint8) (Result, error) {
	s.limit, s.res, s.nodes, s.stopped, s.err = limit, Result{}, 0, false, nil
	s.ctx, s.done = ctx, ctx.Done()
	defer func() { s.ctx, s.done = nil, nil }()
	// The caller's code may use legacy SSE instructions, which dirty upper
	// halves of vector registers would slow down (see v08).
	defer clearUpper()
	if limit < 1 {
		s.limit = 1
	}
	st := s.at(0)
	st.copyFrom(&initial)
	if initGivens(givens, st) {
		s.search(st, 1)
	}
	if s.res.Count > 0 {
		s.extract(solution)
	}
	if s.stopped {
		return s.res, s.err
	}
	return s.res, nil
}

const kAll = 0x1ff

// box is a box's 4x4 matrix of candidate sets: cells at 4*i+j for i, j < 3,
// negative horizontal triads at 4*i+3, negative vertical triads at 12+j.
type box = v16

// band is a band's possible configurations, lanes 0-5 (a bit per digit),
// and the eliminations waiting to be applied to them.
type band struct {
	configs, elims v08
}

// state is the whole search state; a branch copies it.
type state struct {
	bands [2][3]band // horizontal bands, then vertical ones (stacks)
	boxen [9]box
}

var initial state

// Shuffle controls address 16-bit lanes by byte pairs; 0xffff gives zero.
const (
	s00 = 0x0100
	s01 = 0x0302
	s02 = 0x0504
	s03 = 0x0706
	s04 = 0x0908
	s05 = 0x0b0a
	s06 = 0x0d0c
	s07 = 0x0f0e
	sZZ = 0xffff
)

// The configurations of a digit in a band, by which element (line) of each
// of the three box peers holds it:
//
//	config   0      1      2      3      4      5
//	peer0  X . .  . X .  . . X  . . X  X . .  . X .
//	peer1  . X .  . . X  X . .  . X .  . . X  X . .
//	peer2  . . X  X . .  . X .  X . .  . X .  . . X
var (
	// peerElemToConfigMask eliminates the configurations inconsistent
	// with a digit placed in element e of box peer p.
	peerElemToConfigMask [3][4]v08
	// shift0, shift1, shift2 turn triads held in lanes 4-6 into band
	// eliminations, one control per box peer, for the three rotations.
	shift0, shift1, shift2 [3]v08
	// shift0x16 ... pair the controls for the horizontal (low half) and
	// vertical (high half) bands of a box, indexed box_j*3+box_i.
	shift0x16, shift1x16, shift2x16 [9]v16
	// configsToTriads turns configurations, repeated in both halves,
	// into the 3x3 matrix of positive triads (two shuffles or'ed).
	configsToTriads [2]v16
	// posTriadsToCandidates turns positive triads in lanes 0-2 (and kAll
	// in lane 3) into box candidates, by orientation (two shuffles).
	posTriadsToCandidates  [2][2]v16
	cell3x3                v16
	rowRotate1, rowRotate2 v16
	horizontalSplit        v16
	boxMinimums, threes    v16
	kAllAt3                v08
	configRotate           v08
	// assignElims[d][e] eliminates, inside a box, what placing digit d in
	// element e rules out.
	assignElims [9][16]v16
	boxIndex    [81]struct{ i, j, box, elemI, elemJ, elem uint8 }
	boxPeers    = [2][3][3]int{{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, {{0, 3, 6}, {1, 4, 7}, {2, 5, 8}}}
	div3        = [9]int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	mod3        = [9]int{0, 1, 2, 0, 1, 2, 0, 1, 2}
)

func init() {
	if !Runs() {
		return
	}
	initVectors()
	const A = kAll
	peerElemToConfigMask = [3][4]v08{
		{mk08([8]uint16{0, A, A, A, 0, A, 0, 0}), mk08([8]uint16{A, 0, A, A, A, 0, 0, 0}), mk08([8]uint16{A, A, 0, 0, A, A, 0, 0}), {}},
		{mk08([8]uint16{A, A, 0, A, A, 0, 0, 0}), mk08([8]uint16{0, A, A, 0, A, A, 0, 0}), mk08([8]uint16{A, 0, A, A, 0, A, 0, 0}), {}},
		{mk08([8]uint16{A, 0, A, 0, A, A, 0, 0}), mk08([8]uint16{A, A, 0, A, 0, A, 0, 0}), mk08([8]uint16{0, A, A, A, A, 0, 0, 0}), {}},
	}
	shift0 = [3]v08{
		mk08([8]uint16{s04, s05, s06, s06, s04, s05, sZZ, sZZ}),
		mk08([8]uint16{s05, s06, s04, s05, s06, s04, sZZ, sZZ}),
		mk08([8]uint16{s06, s04, s05, s04, s05, s06, sZZ, sZZ}),
	}
	shift1 = [3]v08{
		mk08([8]uint16{s05, s06, s04, s04, s05, s06, sZZ, sZZ}),
		mk08([8]uint16{s06, s04, s05, s06, s04, s05, sZZ, sZZ}),
		mk08([8]uint16{s04, s05, s06, s05, s06, s04, sZZ, sZZ}),
	}
	shift2 = [3]v08{
		mk08([8]uint16{s06, s04, s05, s05, s06, s04, sZZ, sZZ}),
		mk08([8]uint16{s04, s05, s06, s04, s05, s06, sZZ, sZZ}),
		mk08([8]uint16{s05, s06, s04, s06, s04, s05, sZZ, sZZ}),
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			shift0x16[i*3+j] = join(shift0[i], shift0[j])
			shift1x16[i*3+j] = join(shift1[i], shift1[j])
			shift2x16[i*3+j] = join(shift2[i], shift2[j])
		}
	}
	configsToTriads = [2]v16{
		mk16([16]uint16{s00, s01, s02, sZZ, s02, s00, s01, sZZ, s01, s02, s00, sZZ, sZZ, sZZ, sZZ, sZZ}),
		mk16([16]uint16{s04, s05, s03, sZZ, s05, s03, s04, sZZ, s03, s04, s05, sZZ, sZZ, sZZ, sZZ, sZZ}),
	}
	posTriadsToCandidates = [2][2]v16{
		{ // horizontal
			mk16([16]uint16{s00, s00, s00, s01, s01, s01, s01, s02, s02, s02, s02, s00, s03, s03, s03, s03}),
			mk16([16]uint16{s00, s00, s00, s02, s01, s01, s01, s00, s02, s02, s02, s01, s03, s03, s03, s03}),
		},
		{ // vertical
			mk16([16]uint16{s00, s01, s02, s03, s00, s01, s02, s03, s00, s01, s02, s03, s01, s02, s00, s03}),
			mk16([16]uint16{s00, s01, s02, s03, s00, s01, s02, s03, s00, s01, s02, s03, s02, s00, s01, s03}),
		},
	}
	cell3x3 = mk16([16]uint16{A, A, A, 0, A, A, A, 0, A, A, A, 0, 0, 0, 0, 0})
	rowRotate1 = mk16([16]uint16{s01, s02, s00, s03, s05, s06, s04, s07, s01, s02, s00, s03, s04, s05, s06, s07})
	rowRotate2 = mk16([16]uint16{s02, s00, s01, s03, s06, s04, s05, s07, s02, s00, s01, s03, s04, s05, s06, s07})
	horizontalSplit = mk16([16]uint16{sZZ, sZZ, sZZ, sZZ, s03, s07, sZZ, sZZ, sZZ, sZZ, sZZ, sZZ, sZZ, sZZ, s03, sZZ})
	boxMinimums = mk16([16]uint16{1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6, 6, 6, 0})
	threes = all16(3)
	kAllAt3 = mk08([8]uint16{0, 0, 0, A, 0, 0, 0, 0})
	configRotate = mk08([8]uint16{s01, s02, s03, s04, s05, s00, sZZ, sZZ})

	for _, i := range []int{0, 1, 2, 4, 5, 6, 8, 9, 10} {
		for d := 0; d < 9; d++ {
			var m [16]uint16
			for j := 0; j < 15; j++ {
				switch {
				case j == i: // the cell keeps only d
					m[j] = A ^ 1<<d
				case j/4 < 3 && j%4 < 3: // the other cells lose d
					m[j] = 1 << d
				case j/4 == i/4 || j%4 == i%4: // the two negative triads of the cell lose d
					m[j] = 1 << d
				}
			}
			assignElims[d][i] = mk16(m)
		}
	}
	for c := 0; c < 81; c++ {
		bi, bj := c/27, c%9/3
		ei, ej := c/9%3, c%3
		boxIndex[c] = struct{ i, j, box, elemI, elemJ, elem uint8 }{uint8(bi), uint8(bj), uint8(bi*3 + bj), uint8(ei), uint8(ej), uint8(ei*4 + ej)}
	}
	full := mk08([8]uint16{A, A, A, A, A, A, 0, 0})
	for v := range initial.bands {
		for b := range initial.bands[v] {
			initial.bands[v][b].configs = full
		}
	}
	for b := range initial.boxen {
		initial.boxen[b] = all16(A)
	}
}

// boxRestrict restricts box bx to the candidates given and propagates:
// cells and triads left with one candidate assert it, the eliminations go
// to the box itself until it is stable, then to its two bands. It reports
// false on a contradiction.
func boxRestrict(st *state, bx int, candidates v16, fromVertical bool) bool {
	b := &st.boxen[bx]
	cells := *b
	if cells.subsetOf(candidates) {
		return true
	}
	eliminating := cells.andNot(candidates)
	bi, bj := div3[bx], mod3[bx]
	h, v := &st.bands[0][bi], &st.bands[1][bj]
	k := bj*3 + bi
	s0, s1, s2 := shift0x16[k], shift1x16[k], shift2x16[k]
	// The box and the bands' eliminations live in registers until the
	// box is stable; on a contradiction the caller drops the state.
	hElims, vElims := h.elims, v.elims
	for {
		cells = cells.andNot(eliminating)
		counts := cells.popcounts()
		if counts.anyLess(boxMinimums) {
			return false
		}
		// Literals asserted by cell clauses at their minimum, then by
		// the triad definitions: a digit once in a row or column of the
		// matrix. (tdoku's GatherTriadClauseAssertions, twice, and
		// AssertionsToEliminations are written out here: the compiler
		// would not inline them, and a call spills every vector.)
		assertions := andWhereEqual(cells, counts, boxMinimums)
		// Once in a row.
		one := cells
		rot := cells.rotRows()
		two := one.and(rot)
		one = one.or(rot)
		rot = rot.rotRows()
		two = one.and(rot).or(two)
		one = one.or(rot)
		rot = rot.rotRows()
		two = one.and(rot).or(two)
		assertions = cells.andNot(two).or(assertions)
		// Once in a column.
		one = cells
		rot = cells.rotCols()
		two = one.and(rot)
		one = one.or(rot)
		rot = rot.rotCols()
		two = one.and(rot).or(two)
		one = one.or(rot)
		rot = rot.rotCols()
		two = one.and(rot).or(two)
		assertions = cells.andNot(two).or(assertions)

		// Asserted cells eliminate their digit from the box and, in
		// the cell, every other digit. Asserted negative triads
		// eliminate the positive triads at shift 0; asserted cells
		// assert their shift-0 triads, eliminating shifts 1 and 2.
		cellAssertions := assertions.and(cell3x3)
		acrossRows := cellAssertions
		acrossRows = acrossRows.or(acrossRows.rotRows())
		acrossRows = acrossRows.or(acrossRows.rotRows2())
		acrossCols := cellAssertions
		acrossCols = acrossCols.or(acrossCols.rotCols())
		acrossCols = acrossCols.or(acrossCols.rotCols2())
		newElims := acrossCols.or(acrossCols.shuffle(rowRotate1)).or(acrossCols.shuffle(rowRotate2))
		newElims = newElims.or(acrossRows).or(cellAssertions.nonZero())
		eliminating = newElims.xor(cellAssertions).or(eliminating)
		negTriads := withHi(horizontalTriads(assertions), assertions)
		posTriads := withHi(horizontalTriads(newElims), newElims)
		elims := negTriads.shuffle(s0).or(posTriads.shuffle(s1)).or(posTriads.shuffle(s2))
		hElims = hElims.or(elims.lo())
		vElims = vElims.or(elims.hi())
		if !eliminating.intersects(cells) {
			break
		}
	}
	*b = cells
	h.elims, v.elims = hElims, vElims
	// The band opposite to the caller's orientation first.
	if fromVertical {
		return bandEliminate(st, 0, bi, bj) && bandEliminate(st, 1, bj, bi)
	}
	return bandEliminate(st, 1, bj, bi) && bandEliminate(st, 0, bi, bj)
}

// horizontalTriads moves the horizontal triad lanes 3, 7 and 11 to lanes
// 4, 5 and 6, where the vertical ones are in the high half.
func horizontalTriads(x v16) v08 {
	split := x.shuffle(horizontalSplit)
	return split.lo().or(split.hi())
}

// bandEliminate applies the band's pending eliminations, the triad rules
// they trigger, and restricts its three boxes, the one it was called from
// last. It reports false on a contradiction.
func bandEliminate(st *state, vertical, bd, fromPeer int) bool {
	b := &st.bands[vertical][bd]
	if !b.configs.intersects(b.elims) {
		return true
	}
	configs := b.configs.andNot(b.elims)
	triads := configsToPositiveTriads(configs)
	counts := triads.popcounts()
	// A line with three digits left in one box's triad asserts them.
	asserting := andWhereEqual(triads, counts, threes)
	lo, hi := asserting.lo(), asserting.hi()
	loRot, hiRot := lo.rotCols(), hi.rotCols()
	configs = configs.andNot(loRot.shuffle(shift1[0]).or(loRot.shuffle(shift2[0])).or(lo.shuffle(shift1[1])))
	configs = configs.andNot(lo.shuffle(shift2[1]).or(hiRot.shuffle(shift1[2])).or(hiRot.shuffle(shift2[2])))
	b.configs = configs
	triads = configsToPositiveTriads(configs)

	// Positive triads to box candidates for the three peers (tdoku's
	// PositiveTriadsToBoxCandidates, written out), the peer it was called
	// from last.
	c0, c1 := posTriadsToCandidates[vertical][0], posTriadsToCandidates[vertical][1]
	tlo := triads.lo()
	t0, t1, t2 := tlo.or(kAllAt3), tlo.rotCols().or(kAllAt3), triads.hi().or(kAllAt3)
	tt0, tt1, tt2 := join(t0, t0), join(t1, t1), join(t2, t2)
	m0 := tt0.shuffle(c0).or(tt0.shuffle(c1))
	m1 := tt1.shuffle(c0).or(tt1.shuffle(c1))
	m2 := tt2.shuffle(c0).or(tt2.shuffle(c1))
	peers := &boxPeers[vertical][bd]
	v := vertical == 1
	switch fromPeer {
	case 0:
		return boxRestrict(st, peers[1], m1, v) && boxRestrict(st, peers[2], m2, v) && boxRestrict(st, peers[0], m0, v)
	case 1:
		return boxRestrict(st, peers[2], m2, v) && boxRestrict(st, peers[0], m0, v) && boxRestrict(st, peers[1], m1, v)
	default:
		return boxRestrict(st, peers[0], m0, v) && boxRestrict(st, peers[1], m1, v) && boxRestrict(st, peers[2], m2, v)
	}
}

func configsToPositiveTriads(configs v08) v16 {
	t := join(configs, configs)
	return t.shuffle(configsToTriads[0]).or(t.shuffle(configsToTriads[1]))
}

// chooseBranch picks the unfixed band with the fewest configurations and
// in it a digit with the fewest configurations (2, else 3, else 4 or
// more). It reports false when every band is fixed: a solution.
func chooseBranch(st *state) (bandIdx int, value v08, ok bool) {
	best, bestCount := -1, uint16(0xffff)
	for i := 0; i < 6; i++ {
		// A fixed band has 9 configurations; count-10 wraps above 0xff00.
		c := uint16(st.bands[i/3][i%3].configs.popcount() - 10)
		if c < bestCount {
			best, bestCount = i, c
		}
	}
	if bestCount&0xff00 != 0 {
		return 0, v08{}, false
	}
	one := st.bands[best/3][best%3].configs
	rot := one.shuffle(configRotate) // 1
	two := one.and(rot)
	one = one.or(rot)
	rot = rot.shuffle(configRotate) // 2
	three := two.and(rot)
	two = two.or(one.and(rot))
	one = one.or(rot)
	rot = rot.shuffle(configRotate) // 3
	four := three.and(rot)
	three = three.or(two.and(rot))
	two = two.or(one.and(rot))
	one = one.or(rot)
	rot = rot.shuffle(configRotate) // 4
	four = four.or(three.and(rot))
	three = three.or(two.and(rot))
	two = two.or(one.and(rot))
	one = one.or(rot)
	rot = rot.shuffle(configRotate) // 5
	four = four.or(three.and(rot))
	three = three.or(two.and(rot))
	two = two.or(one.and(rot))

	if onlyTwo := two.andNot(three); !onlyTwo.isZero() {
		return best, onlyTwo.lowBit(), true
	}
	if onlyThree := three.andNot(four); !onlyThree.isZero() {
		return best, onlyThree.lowBit(), true
	}
	return best, four.lowBit(), true
}

// expired reports whether the count must stop: the context is done or the
// deadline has passed. It records why.
func (s *Solver) expired() bool {
	select {
	case <-s.done:
		s.stopped, s.err = true, s.ctx.Err()
		return true
	default:
	}
	if !s.Deadline.IsZero() && time.Now().After(s.Deadline) {
		s.stopped, s.err = true, context.DeadlineExceeded
		return true
	}
	return false
}

// at returns the state kept for depth d.
func (s *Solver) at(d int) *state {
	for len(s.states) <= d {
		s.states = append(s.states, new(state))
	}
	return s.states[d]
}

// search counts the solutions consistent with a propagated state at
// depth d-1; deeper states go to s.at(d) and on. It may change the state.
func (s *Solver) search(st *state, d int) {
	bd, value, ok := chooseBranch(st)
	if !ok {
		s.res.Count++
		if s.res.Count == 1 {
			s.first.copyFrom(st)
		}
		return
	}
	s.nodes++
	if s.nodes&(cancelEvery-1) == 0 && s.expired() {
		return
	}
	vertical, idx := bd/3, bd%3
	b := &st.bands[vertical][idx]
	configs := b.configs.and(value)
	s.res.Decisions++
	s.res.Branches++
	// First the lowest configuration of the digit: the others go.
	cp := s.at(d)
	cp.copyFrom(st)
	assign := configs.clearLowBit()
	cp.bands[vertical][idx].elims = cp.bands[vertical][idx].elims.or(assign)
	if bandEliminate(cp, vertical, idx, 0) {
		s.search(cp, d+1)
		if s.res.Count == s.limit || s.stopped {
			return
		}
	}
	// Then its negation.
	s.res.Branches++
	b.elims = b.elims.or(configs.xor(assign))
	if bandEliminate(st, vertical, idx, 0) {
		s.search(st, d)
	}
}

// initGivens places the givens: each in its own box without propagation,
// their band eliminations merged, then six band updates propagate them.
// It reports false on a contradiction.
func initGivens(givens *[81]uint8, st *state) bool {
	var rows, cols, boxes [9]uint16
	for c, g := range givens {
		if g == 0 {
			continue
		}
		ix := &boxIndex[c]
		d := g - 1
		// A digit twice in a unit: no solution. (Propagation would not
		// always see it, as a box it never restricts is never checked.)
		bit := uint16(1) << d
		r, col := c/9, c%9
		if (rows[r]|cols[col]|boxes[ix.box])&bit != 0 {
			return false
		}
		rows[r] |= bit
		cols[col] |= bit
		boxes[ix.box] |= bit
		st.boxen[ix.box] = st.boxen[ix.box].andNot(assignElims[d][ix.elem])
		cand := all08(1 << d)
		h := &st.bands[0][ix.i]
		h.elims = peerElemToConfigMask[ix.j][ix.elemI].and(cand).or(h.elims)
		v := &st.bands[1][ix.j]
		v.elims = peerElemToConfigMask[ix.i][ix.elemJ].and(cand).or(v.elims)
	}
	return bandEliminate(st, 0, 0, 1) && bandEliminate(st, 1, 0, 1) &&
		bandEliminate(st, 0, 1, 2) && bandEliminate(st, 1, 1, 2) &&
		bandEliminate(st, 0, 2, 0) && bandEliminate(st, 1, 2, 0)
}

// copyFrom makes st a copy of src, vector by vector: a plain struct copy
// is compiled to legacy SSE moves (see v08).
func (st *state) copyFrom(src *state) {
	for v := range st.bands {
		for b := range st.bands[v] {
			st.bands[v][b].configs = src.bands[v][b].configs
			st.bands[v][b].elims = src.bands[v][b].elims
		}
	}
	for b := range st.boxen {
		st.boxen[b] = src.boxen[b]
	}
}

// extract writes the first solution found.
func (s *Solver) extract(out *[81]uint8) {
	l := &s.lanes
	for bx := 0; bx < 9; bx++ {
		s.first.boxen[bx].store(l)
		base := div3[bx]*27 + mod3[bx]*3
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				out[base+9*i+j] = uint8(bits.TrailingZeros16(l[4*i+j]) + 1)
			}
		}
	}
}
