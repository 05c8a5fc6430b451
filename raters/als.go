package raters

import (
	"math/bits"
	"slices"

	"sudokulab"
)

// cellSet is a set of cells of a grid, one bit per cell.
type cellSet []uint64

func newCellSet(cells int) cellSet { return make(cellSet, (cells+63)/64) }

func (s cellSet) add(c int)            { s[c/64] |= 1 << (c % 64) }
func (s cellSet) has(c int) bool       { return s[c/64]&(1<<(c%64)) != 0 }
func (s cellSet) clone() cellSet       { return slices.Clone(s) }
func (s cellSet) equal(t cellSet) bool { return slices.Equal(s, t) }

// and keeps in s the cells of t.
func (s cellSet) and(t cellSet) {
	for i := range s {
		s[i] &= t[i]
	}
}

// disjoint says whether s and t have no cell in common.
func (s cellSet) disjoint(t cellSet) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return false
		}
	}
	return true
}

// subset says whether every cell of s is in t.
func (s cellSet) subset(t cellSet) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

// each calls f with every cell of s, in increasing order.
func (s cellSet) each(f func(c int)) {
	for i, w := range s {
		for ; w != 0; w &= w - 1 {
			f(i*64 + bits.TrailingZeros64(w))
		}
	}
}

// als is an almost locked set: k empty cells of one unit whose candidates
// are k+1 digits. Were one of its digits taken out, the rest would be a
// locked set (naked subset): so of any two of its digits one is in it.
type als struct {
	cells  cellSet
	list   []int
	digits uint32
	// where[d-1] holds the ALS's cells having digit d; seesAll[d-1] the
	// cells outside the ALS that see all of them (nil for the digits the
	// ALS does not have).
	where, seesAll []cellSet
}

// maxALSCells bounds the cells of an ALS; HoDoKu enumerates every size,
// which on 9x9 is at most 8.
const maxALSCells = 8

// alsCache keeps the ALSs of a position and the restricted common
// candidates between them, for as long as the candidates stay the same:
// ALS-XZ and ALS-XY-wing look at the same position one after the other.
type alsCache struct {
	cands []uint32
	sets  []*als
	// rc[i] lists the ALSs that ALS i has restricted common candidates
	// with (neither overlapping the other), and which.
	rc [][]alsEdge
}

type alsEdge struct {
	j  int
	rc uint32
}

// alsGraph returns the ALSs of p and their restricted common candidates,
// from the cache when p's candidates have not changed. It returns nil if
// the solve was cancelled meanwhile.
func alsGraph(p *Position) *alsCache {
	if c := p.als; c != nil && slices.Equal(c.cands, p.cands) {
		return c
	}
	sets := findALSs(p)
	if sets == nil && p.stopped() {
		return nil
	}
	c := &alsCache{cands: slices.Clone(p.cands), sets: sets, rc: make([][]alsEdge, len(sets))}
	for i, a := range sets {
		if i%64 == 0 && p.stopped() {
			return nil
		}
		for j := i + 1; j < len(sets); j++ {
			b := sets[j]
			if a.digits&b.digits == 0 || !a.cells.disjoint(b.cells) {
				continue
			}
			if r := rccs(a, b); r != 0 {
				c.rc[i] = append(c.rc[i], alsEdge{j, r})
				c.rc[j] = append(c.rc[j], alsEdge{i, r})
			}
		}
	}
	p.als = c
	return c
}

// findALSs lists the distinct ALSs of p: for each unit, every set of up
// to maxALSCells empty cells whose candidates are one more digit than
// cells. A set found in two units is listed once: a single cell from its
// row only, and a set of a box only when its cells are not all in one
// row or one column. It returns nil if the solve was cancelled
// meanwhile.
func findALSs(p *Position) []*als {
	var out []*als
	ncells := len(p.cands)
	words := (ncells + 63) / 64
	var arena []uint64
	alloc := func() cellSet {
		if len(arena) < words {
			arena = make([]uint64, 256*words)
		}
		s := cellSet(arena[:words:words])
		arena = arena[words:]
		return s
	}
	peerSet := make([]cellSet, ncells) // built on demand
	peers := func(c int) cellSet {
		if peerSet[c] == nil {
			s := alloc()
			for _, q := range p.geo.Peers[c] {
				s.add(q)
			}
			peerSet[c] = s
		}
		return peerSet[c]
	}
	geo := p.geo
	visited := 0
	for u, unit := range geo.Units {
		if p.stopped() {
			return nil
		}
		kind := u / p.n // 0 rows, 1 columns, 2 boxes
		var empty []int
		for _, c := range unit {
			if p.values[c] == 0 {
				empty = append(empty, c)
			}
		}
		limit := min(maxALSCells, len(empty)-1) // all empty cells of a unit are a locked set
		if limit < 1 {
			continue
		}
		pick := make([]int, 0, limit)
		var rec func(start int, union uint32)
		rec = func(start int, union uint32) {
			if visited++; visited%1024 == 0 && p.stopped() {
				return
			}
			if k := len(pick); k > 0 && bits.OnesCount32(union) == k+1 && !foundElsewhere(geo, kind, pick) {
				a := &als{cells: alloc(), list: slices.Clone(pick), digits: union,
					where: make([]cellSet, p.n), seesAll: make([]cellSet, p.n)}
				for _, c := range pick {
					a.cells.add(c)
				}
				for m := union; m != 0; m &= m - 1 {
					d := bits.TrailingZeros32(m)
					w, all := alloc(), alloc()
					first := true
					for _, c := range pick {
						if p.cands[c]&(1<<d) != 0 {
							w.add(c)
							if first {
								copy(all, peers(c))
								first = false
							} else {
								all.and(peers(c))
							}
						}
					}
					a.where[d], a.seesAll[d] = w, all
				}
				out = append(out, a)
			}
			if len(pick) == limit {
				return
			}
			for i := start; i < len(empty); i++ {
				u := union | p.cands[empty[i]]
				if bits.OnesCount32(u) > limit+1 {
					continue
				}
				pick = append(pick, empty[i])
				rec(i+1, u)
				pick = pick[:len(pick)-1]
			}
		}
		rec(0, 0)
	}
	if p.stopped() {
		return nil
	}
	return out
}

// foundElsewhere says whether the cells, picked from a unit of the given
// kind, are listed from another unit: a single cell from its row, cells
// of a box all in one row or one column from that line.
func foundElsewhere(g *sudokulab.Geometry, kind int, cells []int) bool {
	switch kind {
	case 0:
		return false
	case 1:
		return len(cells) == 1
	}
	sameRow, sameCol := true, true
	for _, c := range cells[1:] {
		sameRow = sameRow && g.Row[c] == g.Row[cells[0]]
		sameCol = sameCol && g.Col[c] == g.Col[cells[0]]
	}
	return sameRow || sameCol
}

// rccs returns the restricted common candidates of two disjoint ALSs: the
// digits both have such that every cell of a having the digit sees every
// cell of b having it, so that the digit is in at most one of them.
func rccs(a, b *als) uint32 {
	var out uint32
	for m := a.digits & b.digits; m != 0; m &= m - 1 {
		d := bits.TrailingZeros32(m)
		if b.where[d].subset(a.seesAll[d]) {
			out |= 1 << d
		}
	}
	return out
}

// commonElims returns the eliminations of digit d (0-based) from the
// cells, outside the given ALSs, that see every cell of those ALSs having
// d.
func commonElims(p *Position, out []Candidate, d int, sets ...*als) []Candidate {
	target := sets[0].seesAll[d].clone()
	for _, s := range sets[1:] {
		target.and(s.seesAll[d])
	}
	target.each(func(c int) {
		for _, s := range sets {
			if s.cells.has(c) {
				return
			}
		}
		if p.cands[c]&(1<<d) != 0 && !slices.Contains(out, Candidate{c, d + 1}) {
			out = append(out, Candidate{c, d + 1})
		}
	})
	return out
}

// findALSXZ: two ALSs A and B that do not overlap, with a restricted
// common candidate x (every x of A sees every x of B, so x is in at most
// one of them). Then one of them is a locked set without x: any other
// digit z both have is in A or in B, and z leaves every cell that sees
// all z of A and B. With two restricted common candidates (doubly
// linked), both ALSs are locked sets: the candidates x leave every cell
// that sees all x of A and B, and every other digit of A (of B) leaves
// the cells that see all of that digit in A (in B).
func findALSXZ(p *Position) (Step, bool) {
	g := alsGraph(p)
	if g == nil {
		return Step{}, false
	}
	for i, a := range g.sets {
		for _, e := range g.rc[i] {
			if e.j < i {
				continue // the pair was tried from the other end
			}
			b, rc := g.sets[e.j], e.rc
			var el []Candidate
			for m := (a.digits & b.digits) &^ rc; m != 0; m &= m - 1 {
				el = commonElims(p, el, bits.TrailingZeros32(m), a, b)
			}
			if bits.OnesCount32(rc) >= 2 {
				for m := rc; m != 0; m &= m - 1 {
					el = commonElims(p, el, bits.TrailingZeros32(m), a, b)
				}
				for _, s := range []*als{a, b} {
					for m := s.digits &^ rc; m != 0; m &= m - 1 {
						el = commonElims(p, el, bits.TrailingZeros32(m), s)
					}
				}
			}
			if len(el) > 0 {
				return Step{Technique: ALSXZ, Eliminations: el}, true
			}
		}
	}
	return Step{}, false
}

// findALSXYWing: three ALSs A, B and C, none overlapping another, where
// A and C have a restricted common candidate x and B and C one y, x and y
// different. If A is not locked without z then x is in A, so not in C, so
// C is locked without x and holds y, so B is locked without y: any digit
// z of A and B other than x and y is in A or in B, and leaves every cell
// that sees all z of A and B.
func findALSXYWing(p *Position) (Step, bool) {
	g := alsGraph(p)
	if g == nil {
		return Step{}, false
	}
	for ci := range g.sets {
		if ci%64 == 0 && p.stopped() {
			return Step{}, false
		}
		for ei, ea := range g.rc[ci] {
			a := g.sets[ea.j]
			for _, eb := range g.rc[ci][ei+1:] {
				b := g.sets[eb.j]
				if !a.cells.disjoint(b.cells) || a.digits&b.digits == 0 {
					continue
				}
				// Some x of ea.rc and some different y of eb.rc.
				for mx := ea.rc; mx != 0; mx &= mx - 1 {
					x := mx & -mx
					for my := eb.rc &^ x; my != 0; my &= my - 1 {
						y := my & -my
						var el []Candidate
						for mz := (a.digits & b.digits) &^ (x | y); mz != 0; mz &= mz - 1 {
							el = commonElims(p, el, bits.TrailingZeros32(mz), a, b)
						}
						if len(el) > 0 {
							return Step{Technique: ALSXYWing, Eliminations: el}, true
						}
					}
				}
			}
		}
	}
	return Step{}, false
}
