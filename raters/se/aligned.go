package se

import "math/bits"

// alignedExclusion is diuf/sudoku/solver/rules/AlignedPairExclusion.java
// (degree 2, 6.2) and AlignedExclusion.java (degree 3, 7.5): a candidate
// of an aligned set of cells goes when every combination of the set's
// values using it either repeats a value in two cells that see each other
// or empties a cell that sees all of them (a common excluder).
type alignedExclusion struct{ degree int }

func (a alignedExclusion) hints(g *grid, acc accumulator) bool {
	var cands []int
	var excluders [81]cellSet
	var exList [81][]int
	for c := 0; c < 81; c++ {
		if count(g.cand[c]) < 2 {
			continue
		}
		single := false
		var ex []int
		for _, p := range peers[c] {
			n := count(g.cand[p])
			if n == 1 {
				single = true
			} else if n >= 2 && n <= a.degree {
				ex = append(ex, p)
			}
		}
		if !single && len(ex) > 0 {
			cands = append(cands, c)
			exList[c] = ex
			for _, e := range ex {
				excluders[c].add(e)
			}
		}
	}
	if len(cands) < a.degree {
		return true
	}
	var isCand cellSet
	for _, c := range cands {
		isCand.add(c)
	}
	var cells [3]int
	// Twomutations order: (0,1), (0,2), (1,2), (0,3), ...
	for n2 := 1; n2 < len(cands); n2++ {
		for n1 := 0; n1 < n2; n1++ {
			c0, c1 := cands[n1], cands[n2]
			if a.degree == 2 {
				cells[0], cells[1] = c0, c1
				if common := excluders[c0].and(excluders[c1]); common.size() >= 2 && !a.try(g, cells[:2], common, exList[c0], acc) {
					return false
				}
				continue
			}
			c01 := excluders[c0].and(excluders[c1])
			if c01.size() < 2 {
				// Every triplet of c0 and c1 has fewer common excluders.
				continue
			}
			var in cellSet
			for _, list := range [2][]int{exList[c0], exList[c1]} {
				for _, e := range list {
					if in.has(e) || !isCand.has(e) || e == c0 || e == c1 {
						continue
					}
					in.add(e)
					cells[0], cells[1], cells[2] = c0, c1, e
					if common := c01.and(excluders[e]); common.size() >= 2 && !a.try(g, cells[:3], common, exList[c0], acc) {
						return false
					}
				}
			}
		}
	}
	return true
}

// cellSet is a set of cells as two words.
type cellSet [2]uint64

func (s *cellSet) add(c int)            { s[c>>6] |= 1 << uint(c&63) }
func (s cellSet) has(c int) bool        { return s[c>>6]&(1<<uint(c&63)) != 0 }
func (s cellSet) and(o cellSet) cellSet { return cellSet{s[0] & o[0], s[1] & o[1]} }
func (s cellSet) size() int             { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// try tests one aligned set; order lists the first cell's excluders in
// SE's order, of which common are those shared by every cell.
// The caller has checked that there are at least two.
func (a alignedExclusion) try(g *grid, cells []int, common cellSet, order []int, acc accumulator) bool {
	// A combination is allowed when no two cells that see each other share
	// a value and no common excluder loses all its candidates, that is
	// when its values hold no excluder's candidates. Excluders have two
	// candidates, or three for triplets: pair[v] holds the values w such
	// that {v, w} are an excluder's two, triple the excluders of three.
	var pair [10]uint16
	var triple [1 << 10 / 64]uint64
	for _, e := range order {
		if !common.has(e) {
			continue
		}
		m := g.cand[e]
		if count(m) == 2 {
			v, w := first(m), first(m&(m-1))
			pair[v] |= bit(w)
			pair[w] |= bit(v)
		} else {
			triple[m>>6] |= 1 << (m & 63)
		}
	}
	// allowed[i] collects the values of cells[i] that some allowed
	// combination uses. Once every value of every cell is allowed nothing
	// can go, and the search stops.
	var allowed, full [3]uint16
	k := len(cells)
	for i, c := range cells {
		full[i] = g.cand[c]
	}
	c0, c1 := cells[0], cells[1]
	p01 := isPeer[c0][c1]
	if k == 2 {
		for m0 := full[0]; m0 != 0; m0 &= m0 - 1 {
			b0 := m0 & -m0
			for m1 := full[1]; m1 != 0; m1 &= m1 - 1 {
				b1 := m1 & -m1
				if (b0 == b1 && p01) || pair[first(b0)]&b1 != 0 {
					continue
				}
				allowed[0] |= b0
				allowed[1] |= b1
			}
			if allowed == full {
				break
			}
		}
	} else {
		c2 := cells[2]
		p02, p12 := isPeer[c0][c2], isPeer[c1][c2]
	outer:
		for m0 := full[0]; m0 != 0; m0 &= m0 - 1 {
			b0 := m0 & -m0
			for m1 := full[1]; m1 != 0; m1 &= m1 - 1 {
				b1 := m1 & -m1
				if b0 == b1 && p01 {
					continue
				}
				v0, v1 := first(b0), first(b1)
				dead01 := pair[v0]&b1 != 0
				for m2 := full[2]; m2 != 0; m2 &= m2 - 1 {
					b2 := m2 & -m2
					if (b0 == b2 && p02) || (b1 == b2 && p12) {
						continue
					}
					if u := b0 | b1 | b2; dead01 || (pair[v0]|pair[v1])&b2 != 0 || triple[u>>6]&(1<<(u&63)) != 0 {
						continue
					}
					allowed[0] |= b0
					allowed[1] |= b1
					allowed[2] |= b2
					if allowed == full {
						break outer
					}
				}
			}
		}
	}
	var elims []elim
	for i, c := range cells {
		if m := g.cand[c] &^ allowed[i]; m != 0 {
			elims = append(elims, elim{c, m})
		}
	}
	if len(elims) == 0 {
		return true
	}
	h := &hint{cell: -1, name: "Aligned Pair Exclusion", diff: 6.2, elims: elims}
	if a.degree == 3 {
		h.name, h.diff = "Aligned Triplet Exclusion", 7.5
	}
	return acc(h)
}
