package se

import (
	"sort"
	"strconv"
	"strings"
)

// cause says why a chain's potential follows from its parents
// (diuf/sudoku/solver/rules/chaining/Potential.java, Potential.Cause).
type cause int8

const (
	causeNone cause = iota
	causeNakedSingle
	causeHiddenBox
	causeHiddenRow
	causeHiddenCol
	causeAdvanced
)

var regionCause = [3]cause{causeHiddenBox, causeHiddenRow, causeHiddenCol}

func causeRegionType(c cause) int {
	switch c {
	case causeHiddenBox:
		return box
	case causeHiddenRow:
		return row
	}
	return col
}

// pot is SE's Potential: "cell holds value" (on) or its negation (off),
// with the potentials it follows from. Two pots are equal when cell, value
// and on are; parents do not count.
//
// The fields are ordered so that a pot takes 64 bytes, one cache line:
// chains make millions of them.
type pot struct {
	cell, value int
	parents     []*pot
	nested      *hint
	one         [1]*pot // backing store for a single parent
	k           int32   // key, cached
	on          bool
	cause       cause
}

const potKeys = 81 * 10 * 2

func (p *pot) key() int { return int(p.k) }

// mkpot returns the parentless potential (cell, value, on).
func mkpot(cell, value int, on bool) pot {
	return pot{cell: cell, value: value, on: on, k: int32(potKey(cell, value, on))}
}

func potKey(cell, value int, on bool) int {
	k := (cell*10 + value) * 2
	if on {
		k++
	}
	return k
}

// potSet is diuf/sudoku/tools/LinkedSet.java: a set of potentials in the
// order they were first added. LinkedSet.get returns the instance added
// last, which differs from the first only in doCycles, where get is never
// called; so get returns the first here.
type potSet struct {
	keys []*pot
	ks   []int32 // the keys of keys, kept apart: pots are reused
	// in has a bit per key held; idx[k] is 1 + the index of key k in keys
	// where in has k. Most lookups miss, and in (200 bytes) answers them
	// without touching idx (3 kilobytes, of which a step uses hundreds).
	in  [(potKeys + 63) / 64]uint64
	idx [potKeys]uint16
}

func (s *potSet) add(p *pot) {
	k := p.key()
	if s.has(k) {
		return
	}
	s.keys = append(s.keys, p)
	s.ks = append(s.ks, int32(k))
	s.idx[k] = uint16(len(s.keys))
	s.in[k>>6] |= 1 << uint(k&63)
}

func (s *potSet) has(k int) bool { return s.in[k>>6]&(1<<uint(k&63)) != 0 }

func (s *potSet) get(k int) *pot {
	if s.has(k) {
		return s.keys[s.idx[k]-1]
	}
	return nil
}

func (s *potSet) retain(o *potSet) {
	keys, ks := s.keys[:0], s.ks[:0]
	for i, p := range s.keys {
		k := int(s.ks[i])
		if o.has(k) {
			keys = append(keys, p)
			ks = append(ks, int32(k))
			s.idx[k] = uint16(len(keys))
		} else {
			s.in[k>>6] &^= 1 << uint(k&63)
		}
	}
	s.keys, s.ks = keys, ks
}

// Chain hint kinds.
const (
	kindCycle = iota + 1
	kindForcing
	kindBinary
	kindCell
	kindRegion
)

// chainHint holds what the chaining hints of
// diuf/sudoku/solver/rules/chaining/*Hint.java keep.
type chainHint struct {
	rule    *chaining
	kind    int
	targets []*pot // getChainsTargets, in order
	result  *pot   // getResult
	x, y    bool   // X- and Y-links allowed (cycles and forcing chains)
	absurd  bool
	region  [2]int // region chains: type and index
	// complexity is getComplexity: flat plus nested.
	complexity int
	sortKey    int
}

// chaining is diuf/sudoku/solver/rules/chaining/Chaining.java: cycles and
// forcing chains (6.5-7.x), Nishio (7.5), multiple (8.0), dynamic (8.5),
// dynamic with singles, intersections, pairs and X-wings nested (level 1,
// 9.0), and with forcing chains (level 2, 9.5), multiple forcing chains
// (level 3, 10.0) and dynamic forcing chains (level 4, 10.5) nested.
type chaining struct {
	multiple, dynamic, nishio bool
	level, nestingLimit       int
	other                     []producer

	// Scratch, reset by each hintList: pots are handed out of chunks,
	// sets come from a pool, and chain results are memoized by their
	// starting potential (the grid does not change within one call).
	chunks  [][]pot
	ci, pi  int
	sets    []*potSet
	nsets   int
	memo    [potKeys]*chainResult // valid where memoGen is mcur
	memoGen [potKeys]int32
	mcur    int32
	results []*chainResult // pool of memo entries, nres in use
	nres    int
	scratch grid // the copy of the grid a dynamic chain reduces
	links   []link
	links2  []link
	qOn     []*pot
	qOff    []*pot

	// Scratch of the cycle and forcing chain searches (cyclesFrom,
	// forcingFrom).
	recs            []rec
	mat             []*pot
	found           []int32
	qiOn, qiOff     []int32
	gen             int32
	seenOn, seenOff [potKeys]int32

	// The link graph of one loops pass (reachability): the strongly
	// connected component of each potential present, and for each
	// component the components it reaches, as a bitset of words words.
	scc      [potKeys]int32
	sccIndex [potKeys]int32
	sccLow   [potKeys]int32
	sccOn    [potKeys]bool
	sccSize  []int32
	sccStack []int32
	sccOrder []int32 // the potentials by component, in the order found
	sccCall  []sccFrame
	sccReach []uint64
	sccWords int

	// Scratch of bfs.
	aseen [potKeys]int32
	agen  int32
	aout  []*pot

	// Link cache of one loops call, whose grid and link kinds are fixed:
	// the links of key k are lbuf[lstart[k]:][:llen[k]] when lgen[k] is
	// lcur.
	lbuf         []link
	lstart, llen [potKeys]int32
	lgen         [potKeys]int32
	lcur         int32

	// cache holds, for a nested rule, its hints on each grid it was asked
	// about during the current step (a hint list depends on the grid
	// only), as Chaining.getHints keeps its last grid's.
	cache map[[81]uint16][]*hint

	// done is the rating's ctx.Done(): the searches stop between cells
	// once it is closed, and Rate then discards what they found.
	done <-chan struct{}
}

// stopped says whether the rating was cancelled.
func (c *chaining) stopped() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// setDone hands done to c and its nested rules.
func (c *chaining) setDone(done <-chan struct{}) {
	c.done = done
	for _, o := range c.other {
		if n, ok := o.(*chaining); ok {
			n.setDone(done)
		}
	}
}

// chainResult is what chain computed from one starting potential.
type chainResult struct {
	toOn, toOff *potSet
	a, b        *pot
}

// newPot returns a fresh potential with at most one parent.
// The pots of a step are dead once the step is applied, so reset lets the
// next step reuse their memory.
func (c *chaining) newPot(cell, value int, on bool, parent *pot, cs cause) *pot {
	if c.ci == len(c.chunks) {
		c.chunks = append(c.chunks, make([]pot, 4096))
	}
	p := &c.chunks[c.ci][c.pi]
	if c.pi++; c.pi == len(c.chunks[c.ci]) {
		c.ci, c.pi = c.ci+1, 0
	}
	*p = pot{cell: cell, value: value, on: on, cause: cs, k: int32(potKey(cell, value, on))}
	if parent != nil {
		p.one[0] = parent
		p.parents = p.one[:1:1]
	}
	return p
}

// reset frees every pot this rule and its nested rules made: Rate calls
// it between steps, when no hint of the last step is referenced any more.
func (c *chaining) reset() {
	c.ci, c.pi = 0, 0
	c.cache = nil
	for _, o := range c.other {
		if n, ok := o.(*chaining); ok {
			n.reset()
		}
	}
}

// set returns an empty set from the pool, holding ps.
func (c *chaining) set(ps ...*pot) *potSet {
	var s *potSet
	if c.nsets < len(c.sets) {
		s = c.sets[c.nsets]
		s.in = [len(s.in)]uint64{}
		s.keys, s.ks = s.keys[:0], s.ks[:0]
	} else {
		s = &potSet{}
		c.sets = append(c.sets, s)
	}
	c.nsets++
	for _, p := range ps {
		s.add(p)
	}
	return s
}

// cloneSet returns a pooled copy of s.
func (c *chaining) cloneSet(s *potSet) *potSet {
	d := c.set()
	d.keys = append(d.keys, s.keys...)
	d.ks = append(d.ks, s.ks...)
	d.in = s.in
	for i, k := range d.ks {
		d.idx[k] = uint16(i + 1)
	}
	return d
}

// chainFrom is chain from one starting potential, memoized.
func (c *chaining) chainFrom(g *grid, start *pot) *chainResult {
	k := start.key()
	if c.memoGen[k] == c.mcur {
		return c.memo[k]
	}
	if c.nres == len(c.results) {
		c.results = append(c.results, &chainResult{})
	}
	r := c.results[c.nres]
	c.nres++
	*r = chainResult{toOn: c.set(), toOff: c.set()}
	if start.on {
		r.toOn.add(start)
	} else {
		r.toOff.add(start)
	}
	r.a, r.b = c.chain(g, r.toOn, r.toOff)
	c.memo[k], c.memoGen[k] = r, c.mcur
	return r
}

// clearMemo forgets the memoized chains (the grid changed).
func (c *chaining) clearMemo() {
	c.nres = 0
	if c.mcur++; c.mcur == 0 {
		c.memoGen = [potKeys]int32{}
		c.mcur = 1
	}
}

func newChaining(multiple, dynamic, nishio bool, level, nestingLimit int) *chaining {
	c := &chaining{multiple: multiple, dynamic: dynamic, nishio: nishio, level: level, nestingLimit: nestingLimit}
	if level > 0 {
		// Chaining.getAdvancedPotentials, for the standard grid.
		c.other = []producer{locking{}, hiddenSet{degree: 2}, nakedSet{degree: 2}, fisherman{degree: 2}}
		if level < 4 {
			if level >= 2 {
				c.other = append(c.other, newChaining(false, false, false, 0, 0))
			}
			if level >= 3 {
				c.other = append(c.other, newChaining(true, false, false, 0, 0))
			}
		} else {
			c.other = append(c.other, newChaining(true, true, false, nestingLimit, 0))
		}
	}
	return c
}

func (c *chaining) difficulty() float64 {
	switch {
	case c.level > 0:
		return 8.5 + 0.5*float64(c.level)
	case c.nishio:
		return 7.5
	case c.dynamic:
		return 8.5
	}
	return 8.0
}

func (c *chaining) hints(g *grid, acc accumulator) bool {
	for _, h := range c.hintList(g) {
		if !acc(h) {
			return false
		}
	}
	return true
}

// cachedHints offers a nested rule's hints on g from its cache.
func (c *chaining) cachedHints(g *grid, acc accumulator) bool {
	list, ok := c.cache[g.cand]
	if !ok {
		list = c.hintList(g)
		if c.cache == nil {
			c.cache = map[[81]uint16][]*hint{}
		}
		c.cache[g.cand] = list
	}
	for _, h := range list {
		if !acc(h) {
			return false
		}
	}
	return true
}

// hintList is Chaining.getHintList: every hint, easiest first.
func (c *chaining) hintList(g *grid) []*hint {
	c.nsets = 0
	c.clearMemo()
	var result []*hint
	if c.multiple || c.dynamic {
		result = c.multipleChains(g)
	} else {
		result = c.loops(g, false, true)
		result = append(result, c.loops(g, true, false)...)
		result = append(result, c.loops(g, true, true)...)
	}
	sort.SliceStable(result, func(i, j int) bool {
		a, b := result[i], result[j]
		if a.diff != b.diff {
			return a.diff < b.diff
		}
		if a.chain.complexity != b.chain.complexity {
			return a.chain.complexity < b.chain.complexity
		}
		return a.chain.sortKey < b.chain.sortKey
	})
	return result
}

func (c *chaining) loops(g *grid, y, x bool) []*hint {
	c.lcur++
	if c.lcur == 0 {
		c.lgen = [potKeys]int32{}
		c.lcur = 1
	}
	c.lbuf = c.lbuf[:0]
	c.reachability(g, y, x)
	var result []*hint
	for cell := 0; cell < 81; cell++ {
		if g.val[cell] != 0 || count(g.cand[cell]) <= 1 || c.stopped() {
			continue
		}
		for v := 1; v <= 9; v++ {
			if g.has(cell, v) {
				result = c.unary(g, c.newPot(cell, v, true, nil, causeNone), result, y, x)
			}
		}
	}
	return result
}

func (c *chaining) unary(g *grid, pOn *pot, result []*hint, y, x bool) []*hint {
	if !x && count(g.cand[pOn.cell]) > 2 {
		return result
	}
	c.recs = c.recs[:0]
	c.mat = c.mat[:0]
	src := int32(pOn.key())
	// The searches find paths of the link graph: a cycle through src, or
	// a path from a potential to its negation. Where reachability says
	// there is none, a search would find nothing, and it is skipped.
	chains := c.found[:0]
	if c.sccSize[c.scc[src]] > 1 {
		chains = c.cyclesFrom(g, src, y, x, chains)
	}
	nCycles := len(chains)
	if x {
		if c.reaches(src, src^1) {
			chains = c.forcingFrom(g, src, true, y, chains, nCycles)
		}
		if c.reaches(src^1, src) {
			chains = c.forcingFrom(g, src^1, false, y, chains, nCycles)
		}
	}
	c.found = chains[:0]
	for _, i := range chains[:nCycles] {
		dstOn := c.materialize(i)
		dstOff := reversedCycle(dstOn)
		if h := c.cycleHint(g, dstOn, dstOff, y, x); h.worth() {
			result = append(result, h)
		}
	}
	for _, i := range chains[nCycles:] {
		if h := c.forcingChainHint(g, c.materialize(i), y, x); h.worth() {
			result = append(result, h)
		}
	}
	return result
}

// sccFrame is a call of Tarjan's depth-first search: the potential and
// how many of its links have been followed.
type sccFrame struct {
	k    int32
	next int32
}

// reachability computes the strongly connected components of the link
// graph of a loops pass (the potentials of g's candidates, linked as
// linksOf links them; Tarjan's algorithm, iteratively) and which
// components each reaches. It only tells which searches can find
// something (reaches, sccSize), never what they find.
func (c *chaining) reachability(g *grid, y, x bool) {
	for k := range c.sccIndex {
		c.sccIndex[k] = -1
	}
	c.sccSize = c.sccSize[:0]
	c.sccStack = c.sccStack[:0]
	c.sccOrder = c.sccOrder[:0]
	index := int32(0)
	for cell := 0; cell < 81; cell++ {
		for m := g.cand[cell]; m != 0 && g.val[cell] == 0; m &= m - 1 {
			v := first(m)
			for _, on := range [2]bool{false, true} {
				if k := potKey(cell, v, on); c.sccIndex[k] < 0 {
					index = c.strongConnect(g, int32(k), index, y, x)
				}
			}
		}
	}
	// Components come out of Tarjan's algorithm after every component
	// they reach, so one pass in that order fills the reach sets.
	n := len(c.sccSize)
	c.sccWords = (n + 63) / 64
	need := n * c.sccWords
	if cap(c.sccReach) < need {
		c.sccReach = make([]uint64, need)
	}
	c.sccReach = c.sccReach[:need]
	clear(c.sccReach)
	for i := range n {
		c.sccReach[i*c.sccWords+i/64] |= 1 << uint(i%64)
	}
	for _, k := range c.sccOrder {
		s := int(c.scc[k])
		for _, l := range c.linksOf(g, int(k), y, x) {
			t := int(c.scc[potKey(l.cell, l.value, k&1 == 0)])
			if t != s {
				dst, src := c.sccReach[s*c.sccWords:(s+1)*c.sccWords], c.sccReach[t*c.sccWords:(t+1)*c.sccWords]
				for w := range dst {
					dst[w] |= src[w]
				}
			}
		}
	}
}

// strongConnect is Tarjan's depth-first search from k.
func (c *chaining) strongConnect(g *grid, k, index int32, y, x bool) int32 {
	c.sccIndex[k], c.sccLow[k] = index, index
	index++
	c.sccStack = append(c.sccStack, k)
	c.sccOn[k] = true
	call := append(c.sccCall[:0], sccFrame{k: k})
	for len(call) > 0 {
		f := &call[len(call)-1]
		links := c.linksOf(g, int(f.k), y, x)
		if int(f.next) < len(links) {
			l := links[f.next]
			f.next++
			w := int32(potKey(l.cell, l.value, f.k&1 == 0))
			if c.sccIndex[w] < 0 {
				c.sccIndex[w], c.sccLow[w] = index, index
				index++
				c.sccStack = append(c.sccStack, w)
				c.sccOn[w] = true
				call = append(call, sccFrame{k: w})
			} else if c.sccOn[w] {
				c.sccLow[f.k] = min(c.sccLow[f.k], c.sccIndex[w])
			}
			continue
		}
		v := f.k
		call = call[:len(call)-1]
		if len(call) > 0 {
			u := call[len(call)-1].k
			c.sccLow[u] = min(c.sccLow[u], c.sccLow[v])
		}
		if c.sccLow[v] == c.sccIndex[v] {
			id := int32(len(c.sccSize))
			size := int32(0)
			for {
				w := c.sccStack[len(c.sccStack)-1]
				c.sccStack = c.sccStack[:len(c.sccStack)-1]
				c.sccOn[w] = false
				c.scc[w] = id
				c.sccOrder = append(c.sccOrder, w)
				size++
				if w == v {
					break
				}
			}
			c.sccSize = append(c.sccSize, size)
		}
	}
	c.sccCall = call
	return index
}

// reaches says whether potential b can be reached from potential a in the
// graph of the last reachability call.
func (c *chaining) reaches(a, b int32) bool {
	s, t := int(c.scc[a]), int(c.scc[b])
	return c.sccReach[s*c.sccWords+t/64]&(1<<uint(t%64)) != 0
}

// rec is a potential of a cycle or forcing chain search. These run on a
// fixed grid, and their Chaining never ran doChaining, so its saveGrid is
// fresh and empty and getOffToOn adds no hidden parents: each potential
// has one parent, and the searches keep records (key, parent record,
// cause), making pots only for the chains they find.
type rec struct {
	k      int32
	parent int32 // index in recs, -1 for the start
	cs     cause
}

func (c *chaining) addRec(k, parent int32, cs cause) int32 {
	c.recs = append(c.recs, rec{k, parent, cs})
	return int32(len(c.recs) - 1)
}

// materialize makes the pots of record i's chain.
func (c *chaining) materialize(i int32) *pot {
	for len(c.mat) < len(c.recs) {
		c.mat = append(c.mat, nil)
	}
	if p := c.mat[i]; p != nil {
		return p
	}
	r := c.recs[i]
	k := int(r.k)
	var parent *pot
	if r.parent >= 0 {
		parent = c.materialize(r.parent)
	}
	p := c.newPot(k/20, (k/2)%10, k&1 == 1, parent, r.cs)
	c.mat[i] = p
	return p
}

// stamp starts a new search: the seen marks of earlier ones lapse.
func (c *chaining) stamp() int32 {
	c.gen++
	if c.gen == 0 {
		c.seenOn, c.seenOff = [potKeys]int32{}, [potKeys]int32{}
		c.gen = 1
	}
	return c.gen
}

// cyclesFrom is Chaining.doCycles from the on potential src: it appends
// the records of the chains that come back to src after four or more
// links. As in doCycles, an off potential is queued again each time it is
// reached (through another parent), and an on potential once.
func (c *chaining) cyclesFrom(g *grid, src int32, y, x bool, out []int32) []int32 {
	gen := c.stamp()
	root := c.addRec(src, -1, causeNone)
	c.seenOn[src] = gen
	pendingOn := append(c.qiOn[:0], root)
	pendingOff := c.qiOff[:0]
	hOn, hOff := 0, 0
	length := 0
	for hOn < len(pendingOn) || hOff < len(pendingOff) {
		length++
		for ; hOn < len(pendingOn); hOn++ {
			i := pendingOn[hOn]
			k := int(c.recs[i].k)
			for _, l := range c.linksOf(g, k, y, x) {
				off := int32(potKey(l.cell, l.value, false))
				if !c.recIsParent(i, off) {
					pendingOff = append(pendingOff, c.addRec(off, i, l.cs))
				}
			}
		}
		length++
		for ; hOff < len(pendingOff); hOff++ {
			j := pendingOff[hOff]
			k := int(c.recs[j].k)
			for _, l := range c.linksOf(g, k, y, x) {
				on := int32(potKey(l.cell, l.value, true))
				if length >= 4 && on == src {
					out = append(out, c.addRec(on, j, l.cs))
				}
				if c.seenOn[on] != gen {
					c.seenOn[on] = gen
					pendingOn = append(pendingOn, c.addRec(on, j, l.cs))
				}
			}
		}
	}
	c.qiOn, c.qiOff = pendingOn[:0], pendingOff[:0]
	return out
}

// linksOf returns the links from key k (on: what it turns off; off: what
// it turns on), cached for the loops call.
func (c *chaining) linksOf(g *grid, k int, y, x bool) []link {
	if c.lgen[k] != c.lcur {
		var ls []link
		if k&1 == 1 {
			ls = c.onLinksAt(g, k/20, (k/2)%10, y)
		} else {
			ls = c.offLinksAt(g, k/20, (k/2)%10, y, x)
		}
		c.lgen[k], c.lstart[k], c.llen[k] = c.lcur, int32(len(c.lbuf)), int32(len(ls))
		c.lbuf = append(c.lbuf, ls...)
	}
	return c.lbuf[c.lstart[k] : c.lstart[k]+c.llen[k]]
}

// recIsParent is Chaining.isParent: whether key k occurs among record i's
// ancestors (i excluded).
func (c *chaining) recIsParent(i, k int32) bool {
	for p := c.recs[i].parent; p >= 0; p = c.recs[p].parent {
		if c.recs[p].k == k {
			return true
		}
	}
	return false
}

// forcingFrom is Chaining.doForcingChains from src (on or off): it
// appends the records of the chains reaching src's negation.
func (c *chaining) forcingFrom(g *grid, src int32, on bool, y bool, out []int32, base int) []int32 {
	gen := c.stamp()
	root := c.addRec(src, -1, causeNone)
	pendingOn, pendingOff := c.qiOn[:0], c.qiOff[:0]
	if on {
		c.seenOn[src] = gen
		pendingOn = append(pendingOn, root)
	} else {
		c.seenOff[src] = gen
		pendingOff = append(pendingOff, root)
	}
	has := func(k int32) bool {
		for _, i := range out[base:] {
			if c.recs[i].k == k {
				return true
			}
		}
		return false
	}
	hOn, hOff := 0, 0
	for hOn < len(pendingOn) || hOff < len(pendingOff) {
		for ; hOn < len(pendingOn); hOn++ {
			i := pendingOn[hOn]
			k := int(c.recs[i].k)
			for _, l := range c.linksOf(g, k, y, true) {
				off := int32(potKey(l.cell, l.value, false))
				target := off^1 == src && !has(off)
				seen := c.seenOff[off] == gen
				if !target && seen {
					continue
				}
				j := c.addRec(off, i, l.cs)
				if target {
					out = append(out, j)
				}
				if !seen {
					c.seenOff[off] = gen
					pendingOff = append(pendingOff, j)
				}
			}
		}
		for ; hOff < len(pendingOff); hOff++ {
			j := pendingOff[hOff]
			k := int(c.recs[j].k)
			for _, l := range c.linksOf(g, k, y, true) {
				onk := int32(potKey(l.cell, l.value, true))
				target := onk^1 == src && !has(onk)
				seen := c.seenOn[onk] == gen
				if !target && seen {
					continue
				}
				r := c.addRec(onk, j, l.cs)
				if target {
					out = append(out, r)
				}
				if !seen {
					c.seenOn[onk] = gen
					pendingOn = append(pendingOn, r)
				}
			}
		}
	}
	c.qiOn, c.qiOff = pendingOn[:0], pendingOff[:0]
	return out
}

func reversedCycle(org *pot) *pot {
	var list []*pot
	for org != nil {
		rev := &pot{cell: org.cell, value: org.value, on: !org.on, cause: org.cause, k: int32(potKey(org.cell, org.value, !org.on))}
		list = append([]*pot{rev}, list...)
		if len(org.parents) > 0 {
			org = org.parents[0]
		} else {
			org = nil
		}
	}
	for i := 0; i+1 < len(list); i++ {
		list[i].parents = append(list[i].parents, list[i+1])
	}
	return list[0]
}

// link is one implication: the candidate (cell, value) and why.
type link struct {
	cell, value int
	cs          cause
	t           int // the region type of a hidden single, -1 for the cell
}

// onLinks is Chaining.getOnToOff: what p being on turns off, in SE's
// order. The potentials are made only when a caller keeps them (offPot).
func (ch *chaining) onLinks(g *grid, p *pot, y bool) []link {
	return ch.onLinksAt(g, p.cell, p.value, y)
}

func (ch *chaining) onLinksAt(g *grid, cell, value int, y bool) []link {
	out := ch.links[:0]
	if y {
		for v := 1; v <= 9; v++ {
			if v != value && g.has(cell, v) {
				out = append(out, link{cell, v, causeNakedSingle, -1})
			}
		}
	}
	var added cellSet
	added.add(cell)
	for t := box; t <= col; t++ {
		r := cellRegion[cell][t]
		for m := g.pos[t][r][value]; m != 0; m &= m - 1 {
			if c := regionCells[t][r][first(m)]; !added.has(c) {
				out = append(out, link{c, value, regionCause[t], t})
				added.add(c)
			}
		}
	}
	ch.links = out
	return out
}

func (ch *chaining) offPot(p *pot, l link) *pot {
	return ch.newPot(l.cell, l.value, false, p, l.cs)
}

// offLinks is Chaining.getOffToOn: what p being off turns on.
func (ch *chaining) offLinks(g *grid, p *pot, y, x bool) []link {
	return ch.offLinksAt(g, p.cell, p.value, y, x)
}

func (ch *chaining) offLinksAt(g *grid, cell, value int, y, x bool) []link {
	out := ch.links2[:0]
	if y && count(g.cand[cell]) == 2 {
		out = append(out, link{cell, first(g.cand[cell] &^ bit(value)), causeNakedSingle, -1})
	}
	if x {
		for t := box; t <= col; t++ {
			r := cellRegion[cell][t]
			if m := g.pos[t][r][value] &^ (1 << cellPos[cell][t]); m != 0 && m&(m-1) == 0 {
				out = append(out, link{regionCells[t][r][first(m)], value, regionCause[t], t})
			}
		}
	}
	ch.links2 = out
	return out
}

// onPot makes the potential of an off-to-on link, with the candidates
// removed since source as extra parents (addHiddenParentsOfCell and
// addHiddenParentsOfRegion); g must be the grid the link was found on.
func (ch *chaining) onPot(g *grid, p *pot, source *grid, offs *potSet, l link) *pot {
	on := ch.newPot(l.cell, l.value, true, p, l.cs)
	if l.t < 0 {
		for v := 1; v <= 9; v++ {
			if source.has(p.cell, v) && !g.has(p.cell, v) {
				if parent := offs.get(potKey(p.cell, v, false)); parent != nil {
					on.parents = append(on.parents, parent)
				}
			}
		}
		return on
	}
	for _, c := range regionCells[l.t][cellRegion[p.cell][l.t]] {
		if source.has(c, p.value) && !g.has(c, p.value) {
			if parent := offs.get(potKey(c, p.value, false)); parent != nil {
				on.parents = append(on.parents, parent)
			}
		}
	}
	return on
}

// chain is Chaining.doChaining: it follows the implications of toOn and
// toOff, turning candidates off in a copy of g when dynamic, and returns
// the two potentials of a contradiction, or nils.
func (c *chaining) chain(g0 *grid, toOn, toOff *potSet) (*pot, *pot) {
	save := g0 // the grid as it was: g0 is not changed
	g := g0
	if c.dynamic {
		// Only a dynamic chain removes candidates as it goes; it works
		// on a copy (the rule's own: a chain never runs inside another
		// of the same rule).
		c.scratch = *g0
		g = &c.scratch
	}
	pendingOn := append(c.qOn[:0], toOn.keys...)
	pendingOff := append(c.qOff[:0], toOff.keys...)
	hOn, hOff := 0, 0 // queue heads
	defer func() { c.qOn, c.qOff = pendingOn[:0], pendingOff[:0] }()
	for {
		if hOn < len(pendingOn) {
			p := pendingOn[hOn]
			hOn++
			for _, l := range c.onLinks(g, p, !c.nishio) {
				if on := toOn.get(potKey(l.cell, l.value, true)); on != nil {
					return on, c.offPot(p, l)
				}
				if !toOff.has(potKey(l.cell, l.value, false)) {
					off := c.offPot(p, l)
					toOff.add(off)
					pendingOff = append(pendingOff, off)
				}
			}
			continue
		}
		if hOff < len(pendingOff) {
			p := pendingOff[hOff]
			hOff++
			// The potentials are made before p goes off the grid, as
			// getOffToOn runs before Potential.off in doChaining.
			for _, l := range c.offLinks(g, p, !c.nishio, true) {
				if off := toOff.get(potKey(l.cell, l.value, false)); off != nil {
					return c.onPot(g, p, save, toOff, l), off
				}
				if !toOn.has(potKey(l.cell, l.value, true)) {
					on := c.onPot(g, p, save, toOff, l)
					toOn.add(on)
					pendingOn = append(pendingOn, on)
				}
			}
			if c.dynamic {
				g.remove(p.cell, bit(p.value))
			}
			continue
		}
		if c.level == 0 {
			return nil, nil
		}
		more := false
		for _, off := range c.advanced(g, save, toOff) {
			if !toOff.has(off.key()) {
				toOff.add(off)
				pendingOff = append(pendingOff, off)
				more = true
			}
		}
		if !more {
			return nil, nil
		}
	}
}

// advanced is Chaining.getAdvancedPotentials: the candidates the first
// nested rule that finds anything removes on the reduced grid, each with
// the off potentials the rule needed as parents.
func (c *chaining) advanced(g, source *grid, offs *potSet) []*pot {
	var result []*pot
	for _, rule := range c.other {
		if n, ok := rule.(*chaining); ok {
			rule = producerFunc(n.cachedHints)
		}
		rule.hints(g, func(h *hint) bool {
			parents := h.parents(source, g)
			if len(parents) == 0 {
				return true
			}
			var real []*pot
			for _, p := range parents {
				if r := offs.get(p.key()); r != nil {
					real = append(real, r)
				}
			}
			var nested *hint
			if h.chain != nil {
				nested = h
			}
			for _, e := range hashOrder(h.elims) {
				for m := e.mask; m != 0; m &= m - 1 {
					result = append(result, &pot{cell: e.cell, value: first(m), cause: causeAdvanced, nested: nested, parents: real, k: int32(potKey(e.cell, first(m), false))})
				}
			}
			return true
		})
		if len(result) > 0 {
			break
		}
	}
	return result
}

// hashOrder orders a hint's eliminations as Java iterates a
// HashMap<Cell, BitSet> whose cells hash to their index: by index modulo
// the table size, then in insertion order.
func hashOrder(es []elim) []elim {
	size := 16
	for float64(len(es)) > 0.75*float64(size) {
		size *= 2
	}
	out := append([]elim(nil), es...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].cell%size < out[j].cell%size })
	return out
}

// ancestors is Potential.getAncestorCount: the distinct potentials p
// follows from, p included.
func (c *chaining) ancestors(p *pot) int {
	return len(c.bfs(p))
}

// bfs is chainOf on c's scratch: the slice is valid until the next call.
func (c *chaining) bfs(p *pot) []*pot {
	c.agen++
	if c.agen == 0 {
		c.aseen = [potKeys]int32{}
		c.agen = 1
	}
	out := append(c.aout[:0], p)
	c.aseen[p.key()] = c.agen
	for i := 0; i < len(out); i++ {
		for _, q := range out[i].parents {
			if k := q.key(); c.aseen[k] != c.agen {
				c.aseen[k] = c.agen
				out = append(out, q)
			}
		}
	}
	c.aout = out
	return out
}

// chainOf is ChainingHint.getChain: p and its ancestors, breadth first,
// each potential once.
func chainOf(p *pot) []*pot {
	var done [potKeys]bool
	var out []*pot
	todo := []*pot{p}
	for len(todo) > 0 {
		var next []*pot
		for _, q := range todo {
			if k := q.key(); !done[k] {
				done[k] = true
				out = append(out, q)
				next = append(next, q.parents...)
			}
		}
		todo = next
	}
	return out
}

// fullChainKey identifies a nested chain as FullChain.equals does: by its
// targets and their chains.
func fullChainKey(h *hint) string {
	var b strings.Builder
	for _, t := range h.chain.targets {
		for _, p := range chainOf(t) {
			b.WriteString(strconv.Itoa(p.key()))
			b.WriteByte(',')
		}
		b.WriteByte(';')
	}
	return b.String()
}

// finish computes a chain hint's complexity and difficulty
// (ChainingHint.getComplexity and getLengthDifficulty).
func finish(h *hint, flat int, base float64) *hint {
	ch := h.chain
	nested := 0
	var seen map[string]bool
	for _, t := range ch.targets {
		var hs []*hint
		for _, p := range ch.rule.bfs(t) {
			if p.nested != nil {
				hs = append(hs, p.nested)
			}
		}
		for _, n := range hs {
			if seen == nil {
				seen = map[string]bool{}
			}
			if k := fullChainKey(n); !seen[k] {
				seen[k] = true
				nested += n.chain.complexity
			}
		}
	}
	ch.complexity = flat + nested
	added, ceil, odd := 0.0, 4, false
	for length := ch.complexity - 2; length > ceil; {
		added += 0.1
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	h.diff = base + added
	if r := ch.result; r != nil && r.on {
		h.cell, h.value = r.cell, r.value
	}
	h.parents = ch.ruleParents
	return h
}

// ruleParents is ChainingHint.getRuleParents.
func (ch *chainHint) ruleParents(initial, current *grid) []pot {
	var out []pot
	var seen [potKeys]bool
	addPot := func(c, v int) {
		if k := potKey(c, v, false); !seen[k] {
			seen[k] = true
			out = append(out, mkpot(c, v, false))
		}
	}
	for _, t := range ch.targets {
		var done [potKeys]bool
		todo := []*pot{t}
		for len(todo) > 0 {
			var next []*pot
			for _, p := range todo {
				if done[p.key()] {
					continue
				}
				done[p.key()] = true
				cs := p.cause
				if cs == causeNone {
					switch ch.kind {
					case kindCell:
						cs = causeNakedSingle
					case kindRegion:
						cs = regionCause[ch.region[0]]
					}
				}
				if p.on && cs != causeNone {
					if cs == causeNakedSingle {
						for v := 1; v <= 9; v++ {
							if initial.has(p.cell, v) && !current.has(p.cell, v) {
								addPot(p.cell, v)
							}
						}
					} else {
						t := causeRegionType(cs)
						for _, c := range regionCells[t][cellRegion[p.cell][t]] {
							if initial.has(c, p.value) && !current.has(c, p.value) {
								addPot(c, p.value)
							}
						}
					}
				}
				next = append(next, p.parents...)
			}
			todo = next
		}
	}
	return out
}

func (c *chaining) cycleHint(g *grid, dstOn, dstOff *pot, y, x bool) *hint {
	var cells [81]bool
	var ncells int
	for p := dstOn; len(p.parents) > 0; p = p.parents[0] {
		if !cells[p.cell] {
			cells[p.cell] = true
			ncells++
		}
	}
	var forw, back []int // off potential keys, in order
	var inForw, inBack [potKeys]bool
	for p := dstOn; len(p.parents) > 0; p = p.parents[0] {
		for _, o := range peers[p.cell] {
			if cells[o] || !g.has(o, p.value) {
				continue
			}
			k := potKey(o, p.value, false)
			if p.on && !inForw[k] {
				inForw[k] = true
				forw = append(forw, k)
			} else if !p.on && !inBack[k] {
				inBack[k] = true
				back = append(back, k)
			}
		}
	}
	h := &hint{cell: -1}
	for _, k := range forw {
		if inBack[k] {
			h.elims = addElim(h.elims, k/20, (k/2)%10)
		}
	}
	h.chain = &chainHint{rule: c, kind: kindCycle, targets: []*pot{dstOn, dstOff}, x: x, y: y}
	base := 6.5
	switch {
	case x && y:
		h.name, base, h.chain.sortKey = "Bidirectional Cycle", 7.0, 4
	case y:
		h.name, h.chain.sortKey = "Bidirectional Y-Cycle", 3
	default:
		h.name, h.chain.sortKey = "Bidirectional X-Cycle", 2
		if ncells == 4 {
			h.name = "Generalized X-Wing"
		}
	}
	return finish(h, c.ancestors(dstOn), base)
}

func addElim(es []elim, c, v int) []elim {
	for i := range es {
		if es[i].cell == c {
			es[i].mask |= bit(v)
			return es
		}
	}
	return append(es, elim{c, bit(v)})
}

// removal is the candidates a chain's target removes: the target itself
// when off, the cell's other candidates when on.
func removal(g *grid, target *pot) []elim {
	if !target.on {
		return []elim{{target.cell, bit(target.value)}}
	}
	if m := g.cand[target.cell] &^ bit(target.value); m != 0 {
		return []elim{{target.cell, m}}
	}
	return nil
}

func (c *chaining) forcingChainHint(g *grid, target *pot, y, x bool) *hint {
	h := &hint{cell: -1, elims: removal(g, target)}
	h.chain = &chainHint{rule: c, kind: kindForcing, targets: []*pot{target}, result: target, x: x, y: y}
	base := 6.6
	switch {
	case x && y:
		h.name, base, h.chain.sortKey = "Forcing Chain", 7.0, 4
	case y:
		h.name, h.chain.sortKey = "Forcing Y-Chain", 3
	default:
		h.name, h.chain.sortKey = "Forcing X-Chain", 2
		if c.ancestors(target) == 6 {
			h.name = "Turbot Fish"
		}
	}
	return finish(h, c.ancestors(target), base)
}

func (c *chaining) namePrefix() string {
	switch {
	case c.level > 0:
		return "Dynamic "
	case c.nishio:
		return "Nishio "
	case c.dynamic:
		return "Dynamic "
	}
	return ""
}

func nestedSuffix(level int) string {
	switch {
	case level == 1:
		return " (+)"
	case level == 2:
		return " (+ Forcing Chains)"
	case level == 3:
		return " (+ Multiple Forcing Chains)"
	case level == 4:
		return " (+ Dynamic Forcing Chains)"
	case level >= 5:
		return " (+ Dynamic Forcing Chains" + nestedSuffix(level-3) + ")"
	}
	return ""
}

func (c *chaining) nameSuffix() string {
	return " Chains" + nestedSuffix(c.level)
}

// binaryHint is BinaryChainingHint: a contradiction or a double
// implication from one candidate being on and off.
func (c *chaining) binaryHint(dstOn, dstOff, source *pot, elims []elim, absurd bool) *hint {
	h := &hint{cell: -1, elims: elims}
	ch := &chainHint{rule: c, kind: kindBinary, targets: []*pot{dstOn, dstOff}, absurd: absurd, sortKey: 1}
	if absurd {
		ch.sortKey = 7
	}
	if c.nishio || absurd {
		ch.result = &pot{cell: source.cell, value: source.value, on: !source.on, k: int32(potKey(source.cell, source.value, !source.on))}
	} else {
		ch.result = dstOn
	}
	h.chain = ch
	switch {
	case c.nishio:
		h.name = c.namePrefix() + "Forcing" + c.nameSuffix()
	case absurd:
		h.name = c.namePrefix() + "Contradiction Forcing" + c.nameSuffix()
	default:
		h.name = c.namePrefix() + "Double Forcing" + c.nameSuffix()
	}
	return finish(h, c.ancestors(dstOn)+c.ancestors(dstOff), c.difficulty())
}

func (c *chaining) onHint(g *grid, dstOn, dstOff, source, target *pot, absurd bool) *hint {
	var es []elim
	if m := g.cand[target.cell] &^ bit(target.value); m != 0 {
		es = []elim{{target.cell, m}}
	}
	return c.binaryHint(dstOn, dstOff, source, es, absurd)
}

func (c *chaining) offHint(dstOn, dstOff, source, target *pot, absurd bool) *hint {
	return c.binaryHint(dstOn, dstOff, source, []elim{{target.cell, bit(target.value)}}, absurd)
}

func (c *chaining) multipleChains(g *grid) []*hint {
	var result []*hint
	for cell := 0; cell < 81; cell++ {
		if g.val[cell] != 0 || c.stopped() {
			continue
		}
		n := count(g.cand[cell])
		if n > 2 || (n > 1 && c.dynamic) {
			result = c.multipleForCell(g, cell, n, result)
		}
	}
	return result
}

func (c *chaining) multipleForCell(g *grid, cell, n int, result []*hint) []*hint {
	var valueToOn, valueToOff [10]*potSet
	var cellToOn, cellToOff *potSet
	for v := 1; v <= 9; v++ {
		if !g.has(cell, v) {
			continue
		}
		double := n >= 3 && !c.nishio && c.dynamic
		contradiction := c.dynamic || c.nishio
		var onToOn, onToOff *potSet
		result, onToOn, onToOff = c.binary(g, cell, v, result, double, contradiction)
		if !c.nishio {
			result = c.regionChains(g, result, cell, v, onToOn, onToOff)
		}
		valueToOn[v], valueToOff[v] = onToOn, onToOff
		if cellToOn == nil {
			cellToOn, cellToOff = c.cloneSet(onToOn), c.cloneSet(onToOff)
		} else {
			cellToOn.retain(onToOn)
			cellToOff.retain(onToOff)
		}
	}
	if !c.nishio && (n == 2 || (c.multiple && n > 2)) {
		for _, p := range cellToOn.keys {
			if h := c.cellHint(g, cell, p, valueToOn[:]); h.worth() {
				result = append(result, h)
			}
		}
		for _, p := range cellToOff.keys {
			if h := c.cellHint(g, cell, p, valueToOff[:]); h.worth() {
				result = append(result, h)
			}
		}
	}
	return result
}

// binary is Chaining.doBinaryChaining from cell holding v and not holding
// it; it returns the hints and what v being on implies.
func (c *chaining) binary(g *grid, cell, v int, result []*hint, reduction, contradiction bool) ([]*hint, *potSet, *potSet) {
	on := c.chainFrom(g, c.newPot(cell, v, true, nil, causeNone))
	pOn := on.toOn.keys[0]
	if contradiction && on.a != nil {
		if h := c.offHint(on.a, on.b, pOn, pOn, true); h.worth() {
			result = append(result, h)
		}
	}
	off := c.chainFrom(g, c.newPot(cell, v, false, nil, causeNone))
	pOff := off.toOff.keys[0]
	if contradiction && off.a != nil {
		if h := c.onHint(g, off.a, off.b, pOff, pOff, true); h.worth() {
			result = append(result, h)
		}
	}
	if reduction {
		for _, p := range on.toOn.keys {
			if q := off.toOn.get(p.key()); q != nil {
				if h := c.onHint(g, p, q, pOn, p, false); h.worth() {
					result = append(result, h)
				}
			}
		}
		for _, p := range on.toOff.keys {
			if q := off.toOff.get(p.key()); q != nil {
				if h := c.offHint(p, q, pOff, q, false); h.worth() {
					result = append(result, h)
				}
			}
		}
	}
	return result, on.toOn, on.toOff
}

func (c *chaining) regionChains(g *grid, result []*hint, cell, v int, onToOn, onToOff *potSet) []*hint {
	for _, t := range []int{box, row, col} {
		r := cellRegion[cell][t]
		pos := g.positions(t, r, v)
		n := count(pos)
		if !(n == 2 || (c.multiple && n > 2)) {
			continue
		}
		if regionCells[t][r][first(pos)] != cell {
			continue
		}
		var posToOn, posToOff [9]*potSet
		var regionToOn, regionToOff *potSet
		for m := pos; m != 0; m &= m - 1 {
			i := first(m)
			other := regionCells[t][r][i]
			if other == cell {
				posToOn[i], posToOff[i] = onToOn, onToOff
				regionToOn, regionToOff = c.cloneSet(onToOn), c.cloneSet(onToOff)
				continue
			}
			res := c.chainFrom(g, c.newPot(other, v, true, nil, causeNone))
			posToOn[i], posToOff[i] = res.toOn, res.toOff
			regionToOn.retain(res.toOn)
			regionToOff.retain(res.toOff)
		}
		for _, p := range regionToOn.keys {
			if h := c.regionHint(g, t, r, v, p, posToOn[:]); h.worth() {
				result = append(result, h)
			}
		}
		for _, p := range regionToOff.keys {
			if h := c.regionHint(g, t, r, v, p, posToOff[:]); h.worth() {
				result = append(result, h)
			}
		}
	}
	return result
}

func (c *chaining) cellHint(g *grid, cell int, target *pot, outcomes []*potSet) *hint {
	h := &hint{cell: -1, elims: removal(g, target)}
	ch := &chainHint{rule: c, kind: kindCell, sortKey: 5}
	flat := 0
	for v := 1; v <= 9; v++ {
		if g.has(cell, v) {
			p := outcomes[v].get(target.key())
			ch.targets = append(ch.targets, p)
			flat += c.ancestors(p)
		}
	}
	ch.result = ch.targets[0]
	h.chain = ch
	h.name = c.namePrefix() + "Cell Forcing" + c.nameSuffix()
	return finish(h, flat, c.difficulty())
}

func (c *chaining) regionHint(g *grid, t, r, v int, target *pot, outcomes []*potSet) *hint {
	h := &hint{cell: -1, elims: removal(g, target)}
	ch := &chainHint{rule: c, kind: kindRegion, sortKey: 6, region: [2]int{t, r}}
	flat := 0
	pos := g.positions(t, r, v)
	for m := pos; m != 0; m &= m - 1 {
		p := outcomes[first(m)].get(target.key())
		ch.targets = append(ch.targets, p)
		flat += c.ancestors(p)
	}
	ch.result = ch.targets[0]
	h.chain = ch
	h.name = c.namePrefix() + "Region Forcing" + c.nameSuffix()
	return finish(h, flat, c.difficulty())
}
