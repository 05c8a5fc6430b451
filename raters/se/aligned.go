package se

// alignedExclusion is diuf/sudoku/solver/rules/AlignedPairExclusion.java
// (degree 2, 6.2) and AlignedExclusion.java (degree 3, 7.5): a candidate
// of an aligned set of cells goes when every combination of the set's
// values using it either repeats a value in two cells that see each other
// or empties a cell that sees all of them (a common excluder).
type alignedExclusion struct{ degree int }

func (a alignedExclusion) hints(g *grid, acc accumulator) bool {
	var cands []int
	var excluders [81][]int
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
			excluders[c] = ex
		}
	}
	if len(cands) < a.degree {
		return true
	}
	var isCand [81]bool
	for _, c := range cands {
		isCand[c] = true
	}
	// Twomutations order: (0,1), (0,2), (1,2), (0,3), ...
	for n2 := 1; n2 < len(cands); n2++ {
		for n1 := 0; n1 < n2; n1++ {
			c0, c1 := cands[n1], cands[n2]
			if a.degree == 2 {
				if !a.try(g, []int{c0, c1}, excluders[:], acc) {
					return false
				}
				continue
			}
			var twin []int
			var in [81]bool
			for _, e := range append(append([]int(nil), excluders[c0]...), excluders[c1]...) {
				if !in[e] && isCand[e] && e != c0 && e != c1 {
					in[e] = true
					twin = append(twin, e)
				}
			}
			for _, t := range twin {
				if !a.try(g, []int{c0, c1, t}, excluders[:], acc) {
					return false
				}
			}
		}
	}
	return true
}

func (a alignedExclusion) try(g *grid, cells []int, excluders [][]int, acc accumulator) bool {
	var common []int
	for _, e := range excluders[cells[0]] {
		all := true
		for _, c := range cells[1:] {
			found := false
			for _, f := range excluders[c] {
				if f == e {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if all {
			common = append(common, e)
		}
	}
	if len(common) < 2 {
		return true
	}
	// allowed[i] collects the values of cells[i] that some allowed
	// combination uses.
	allowed := make([]uint16, len(cells))
	vals := make([]int, len(cells))
	var walk func(i int)
	walk = func(i int) {
		if i == len(cells) {
			for x := 0; x < len(cells); x++ {
				for y := x + 1; y < len(cells); y++ {
					if vals[x] == vals[y] && isPeer[cells[x]][cells[y]] {
						return
					}
				}
			}
			var used uint16
			for _, v := range vals {
				used |= bit(v)
			}
			for _, e := range common {
				if g.cand[e]&^used == 0 {
					return
				}
			}
			for x, v := range vals {
				allowed[x] |= bit(v)
			}
			return
		}
		for m := g.cand[cells[i]]; m != 0; m &= m - 1 {
			vals[i] = first(m)
			walk(i + 1)
		}
	}
	walk(0)
	h := &hint{cell: -1, name: "Aligned Pair Exclusion", diff: 6.2}
	if a.degree == 3 {
		h.name, h.diff = "Aligned Triplet Exclusion", 7.5
	}
	for i, c := range cells {
		if m := g.cand[c] &^ allowed[i]; m != 0 {
			h.elims = append(h.elims, elim{c, m})
		}
	}
	if h.worth() {
		return acc(h)
	}
	return true
}
