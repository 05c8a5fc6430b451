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
				if !a.try(g, cells[:2], excluders[c0].and(excluders[c1]), exList[c0], acc) {
					return false
				}
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
					if !a.try(g, cells[:3], excluders[c0].and(excluders[c1]).and(excluders[e]), exList[c0], acc) {
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
func (a alignedExclusion) try(g *grid, cells []int, common cellSet, order []int, acc accumulator) bool {
	if common.size() < 2 {
		return true
	}
	var ex [20]uint16
	n := 0
	for _, e := range order {
		if common.has(e) {
			ex[n] = g.cand[e]
			n++
		}
	}
	// allowed[i] collects the values of cells[i] that some allowed
	// combination uses.
	var allowed [3]uint16
	var vals [3]int
	k := len(cells)
	var walk func(i int, used uint16)
	walk = func(i int, used uint16) {
		if i == k {
			for x := 0; x < k; x++ {
				for y := x + 1; y < k; y++ {
					if vals[x] == vals[y] && isPeer[cells[x]][cells[y]] {
						return
					}
				}
			}
			for _, e := range ex[:n] {
				if e&^used == 0 {
					return
				}
			}
			for x := 0; x < k; x++ {
				allowed[x] |= bit(vals[x])
			}
			return
		}
		for m := g.cand[cells[i]]; m != 0; m &= m - 1 {
			vals[i] = first(m)
			walk(i+1, used|bit(vals[i]))
		}
	}
	walk(0, 0)
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
