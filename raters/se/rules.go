package se

// elim is one cell's removable candidates.
type elim struct {
	cell int
	mask uint16
}

// hint is one step: SE's Hint with its Rule's difficulty and name.
type hint struct {
	name  string
	diff  float64
	elims []elim
	// cell and value are the placement the step makes, cell -1 for none
	// (Hint.getCell).
	cell, value int
	// parents returns the candidates that had to go, between initial and
	// current, for the step to exist (HasParentPotentialHint.getRuleParents);
	// nil for the techniques nested chains do not use.
	parents func(initial, current *grid) []pot
	// chain holds a chaining step's chains.
	chain *chainHint
}

func (h *hint) worth() bool { return len(h.elims) > 0 }

// apply performs the step on g (IndirectHint.apply, DirectHint.apply).
func (h *hint) apply(g *grid) {
	for _, e := range h.elims {
		g.remove(e.cell, e.mask)
	}
	if h.cell >= 0 {
		g.place(h.cell, h.value)
	}
}

// accumulator receives hints; it returns false to stop the search, as
// SingleHintAccumulator does by throwing after the first.
type accumulator func(h *hint) bool

// producer is a technique: it offers its hints on g in SE's order.
type producer interface {
	hints(g *grid, acc accumulator) bool
}

type producerFunc func(g *grid, acc accumulator) bool

func (f producerFunc) hints(g *grid, acc accumulator) bool { return f(g, acc) }

// hiddenSingle is diuf/sudoku/solver/rules/HiddenSingle.java: first the
// regions with one empty cell (1.0), then boxes (1.2), columns and rows
// (1.5).
func hiddenSingle(g *grid, acc accumulator) bool {
	for _, alone := range []bool{true, false} {
		for _, t := range []int{box, col, row} {
			for r := 0; r < 9; r++ {
				for v := 1; v <= 9; v++ {
					pos := g.positions(t, r, v)
					if count(pos) != 1 {
						continue
					}
					isAlone := g.emptyCount(t, r) == 1
					if isAlone != alone {
						continue
					}
					d := 1.5
					switch {
					case isAlone:
						d = 1.0
					case t == box:
						d = 1.2
					}
					if !acc(&hint{name: "Hidden Single", diff: d, cell: regionCells[t][r][first(pos)], value: v}) {
						return false
					}
				}
			}
		}
	}
	return true
}

// nakedSingle is diuf/sudoku/solver/rules/NakedSingle.java (2.3).
func nakedSingle(g *grid, acc accumulator) bool {
	for c := 0; c < 81; c++ {
		if g.val[c] == 0 && count(g.cand[c]) == 1 {
			if !acc(&hint{name: "Naked Single", diff: 2.3, cell: c, value: first(g.cand[c])}) {
				return false
			}
		}
	}
	return true
}

// inRegion says whether cell c belongs to region r of type t.
func inRegion(c, t, r int) bool { return cellRegion[c][t] == r }

// crosses says whether two regions share a cell (Region.crosses).
func crosses(t1, r1, t2, r2 int) bool { return crossTable[t1][r1][t2][r2] }

// crossTable[t1][r1][t2][r2] says whether the regions share a cell; init
// fills it.
var crossTable [3][9][3][9]bool

// locking is diuf/sudoku/solver/rules/Locking.java: pointing (2.6) and
// claiming (2.8), or in direct mode the intersections that leave a hidden
// single (DirectLockingHint.java: 1.7 pointing, 1.9 claiming).
type locking struct{ direct bool }

func (l locking) hints(g *grid, acc accumulator) bool {
	for _, p := range [][2]int{{box, col}, {box, row}, {col, box}, {row, box}} {
		if !l.pair(g, p[0], p[1], acc) {
			return false
		}
	}
	return true
}

func (l locking) pair(g *grid, t1, t2 int, acc accumulator) bool {
	for v := 1; v <= 9; v++ {
		for i1 := 0; i1 < 9; i1++ {
			pos := g.positions(t1, i1, v)
			if count(pos) < 2 {
				continue
			}
			for i2 := 0; i2 < 9; i2++ {
				if !crosses(t1, i1, t2, i2) {
					continue
				}
				common := true
				for m := pos; m != 0; m &= m - 1 {
					if !inRegion(regionCells[t1][i1][first(m)], t2, i2) {
						common = false
						break
					}
				}
				if !common {
					continue
				}
				if l.direct {
					if !l.followingSingles(g, t1, i1, t2, i2, v, acc) {
						return false
					}
				} else if h := l.hint(g, t1, i1, t2, i2, -1, v); h.worth() {
					if !acc(h) {
						return false
					}
				}
			}
		}
	}
	return true
}

func (l locking) followingSingles(g *grid, t1, i1, t2, i2, v int, acc accumulator) bool {
	for i3 := 0; i3 < 9; i3++ {
		if i3 == i1 || !crosses(t1, i3, t2, i2) {
			continue
		}
		pos3 := g.positions(t1, i3, v)
		if count(pos3) <= 1 {
			continue
		}
		remain, hcell := 0, -1
		for i := 0; i < 9; i++ {
			if pos3&(1<<uint(i)) != 0 {
				c := regionCells[t1][i3][i]
				if !inRegion(c, t2, i2) {
					remain++
					hcell = c
				}
			}
		}
		if remain == 1 {
			if !acc(l.hint(g, t1, i1, t2, i2, hcell, v)) {
				return false
			}
		}
	}
	return true
}

func (l locking) hint(g *grid, t1, i1, t2, i2, hcell, v int) *hint {
	h := &hint{cell: -1}
	for _, c := range regionCells[t2][i2] {
		if !inRegion(c, t1, i1) && g.has(c, v) {
			h.elims = append(h.elims, elim{c, bit(v)})
		}
	}
	if l.direct {
		// DirectLockingHint removes nothing: it only places the single.
		h.elims = nil
		h.cell, h.value = hcell, v
		if t1 == box {
			h.name, h.diff = "Direct Pointing", 1.7
		} else {
			h.name, h.diff = "Direct Claiming", 1.9
		}
		return h
	}
	if t2 == row || t2 == col {
		h.name, h.diff = "Pointing", 2.6
	} else {
		h.name, h.diff = "Claiming", 2.8
	}
	h.parents = lockingParents([][2]int{{t1, i1}, {t2, i2}}, v)
	return h
}

// lockingParents is LockingHint.getRuleParents: the candidates of the
// base regions (even positions of parts) outside the cover regions (odd
// positions) that were removed.
func lockingParents(parts [][2]int, v int) func(initial, current *grid) []pot {
	return func(initial, current *grid) []pot {
		var out []pot
		for i := 0; i < len(parts); i += 2 {
			for _, c := range regionCells[parts[i][0]][parts[i][1]] {
				if !initial.has(c, v) || current.has(c, v) {
					continue
				}
				covered := false
				for j := 1; j < len(parts); j += 2 {
					if inRegion(c, parts[j][0], parts[j][1]) {
						covered = true
					}
				}
				if !covered {
					out = append(out, mkpot(c, v, false))
				}
			}
		}
		return out
	}
}

var setNames = [...]string{"", "", "Pair", "Triplet", "Quad"}

// hiddenSet is diuf/sudoku/solver/rules/HiddenSet.java: hidden pairs
// (3.4), triplets (4.0) and quads (5.4), or in direct mode the pairs (2.0)
// and triplets (2.5) that leave a hidden single (DirectHiddenSetHint.java).
type hiddenSet struct {
	degree int
	direct bool
}

func (s hiddenSet) hints(g *grid, acc accumulator) bool {
	var buf [9]int
	sets := make([]uint16, s.degree)
	for _, t := range []int{box, col, row} {
		for r := 0; r < 9; r++ {
			n := g.emptyCount(t, r)
			if !(n > s.degree*2 || (s.direct && n > s.degree)) {
				continue
			}
			// Values with fewer than two places make no common tuple
			// (commonTuple): the subsets holding one are skipped.
			var elig uint16
			for x := 0; x < 9; x++ {
				if count(g.positions(t, r, x+1)) >= 2 {
					elig |= 1 << uint(x)
				}
			}
			ok := subsets(s.degree, elig, buf[:], func(idx []int) bool {
				var values uint16
				for i, x := range idx {
					values |= bit(x + 1)
					sets[i] = g.positions(t, r, x+1)
				}
				common, found := commonTuple(sets, s.degree)
				if !found {
					return true
				}
				h := s.hint(g, t, r, values, common)
				if h != nil && (s.direct || h.worth()) {
					return acc(h)
				}
				return true
			})
			if !ok {
				return false
			}
		}
	}
	return true
}

func (s hiddenSet) hint(g *grid, t, r int, values, common uint16) *hint {
	h := &hint{cell: -1}
	for i, c := range regionCells[t][r] {
		if common&(1<<uint(i)) != 0 {
			if m := g.cand[c] &^ values; m != 0 {
				h.elims = append(h.elims, elim{c, m})
			}
		}
	}
	if s.direct {
		for v := 1; v <= 9; v++ {
			if values&bit(v) != 0 {
				continue
			}
			pos := g.positions(t, r, v)
			if count(pos) > 1 {
				pos &^= common
				if count(pos) == 1 {
					// DirectHiddenSetHint removes nothing: it only
					// places the single.
					h.elims = nil
					h.cell, h.value = regionCells[t][r][first(pos)], v
					h.name = "Direct Hidden " + setNames[s.degree]
					h.diff = map[int]float64{2: 2.0, 3: 2.5, 4: 4.3}[s.degree]
					return h
				}
			}
		}
		return nil
	}
	h.name = "Hidden " + setNames[s.degree]
	h.diff = map[int]float64{2: 3.4, 3: 4.0, 4: 5.4}[s.degree]
	h.parents = func(initial, current *grid) []pot {
		// HiddenSetHint.getRuleParents: the set's values elsewhere in the
		// region, as they stood initially.
		var mine uint16
		for v := 1; v <= 9; v++ {
			if values&bit(v) != 0 {
				mine |= current.positions(t, r, v)
			}
		}
		var out []pot
		for i, c := range regionCells[t][r] {
			if mine&(1<<uint(i)) != 0 {
				continue
			}
			for v := 1; v <= 9; v++ {
				if values&bit(v) != 0 && initial.has(c, v) {
					out = append(out, mkpot(c, v, false))
				}
			}
		}
		return out
	}
	return h
}

// nakedSet is diuf/sudoku/solver/rules/NakedSet.java: naked pairs (3.0),
// triplets (3.6) and quads (5.0).
type nakedSet struct{ degree int }

func (s nakedSet) hints(g *grid, acc accumulator) bool {
	var buf [9]int
	sets := make([]uint16, s.degree)
	for _, t := range []int{box, col, row} {
		for r := 0; r < 9; r++ {
			if g.emptyCount(t, r) < s.degree*2 {
				continue
			}
			// Cells with fewer than two candidates make no common tuple
			// (commonTuple): the subsets holding one are skipped.
			var elig uint16
			for x, c := range regionCells[t][r] {
				if count(g.cand[c]) >= 2 {
					elig |= 1 << uint(x)
				}
			}
			ok := subsets(s.degree, elig, buf[:], func(idx []int) bool {
				var cellMask uint16
				for i, x := range idx {
					sets[i] = g.cand[regionCells[t][r][x]]
					cellMask |= 1 << uint(x)
				}
				common, found := commonTuple(sets, s.degree)
				if !found {
					return true
				}
				cells := make([]int, len(idx))
				for i, x := range idx {
					cells[i] = regionCells[t][r][x]
				}
				h := &hint{cell: -1, name: "Naked " + setNames[s.degree],
					diff: map[int]float64{2: 3.0, 3: 3.6, 4: 5.0}[s.degree]}
				for i, c := range regionCells[t][r] {
					if cellMask&(1<<uint(i)) == 0 {
						if m := common & g.cand[c]; m != 0 {
							h.elims = append(h.elims, elim{c, m})
						}
					}
				}
				if !h.worth() {
					return true
				}
				h.parents = func(initial, current *grid) []pot {
					// NakedSetHint.getRuleParents: the other values the
					// set's cells had initially.
					var out []pot
					for _, c := range cells {
						for v := 1; v <= 9; v++ {
							if initial.has(c, v) && common&bit(v) == 0 {
								out = append(out, mkpot(c, v, false))
							}
						}
					}
					return out
				}
				return acc(h)
			})
			if !ok {
				return false
			}
		}
	}
	return true
}

// fisherman is diuf/sudoku/solver/rules/Fisherman.java: X-wing (3.2),
// swordfish (3.8) and jellyfish (5.2), base columns first, then base rows.
type fisherman struct{ degree int }

func (f fisherman) hints(g *grid, acc accumulator) bool {
	return f.parts(g, col, row, acc) && f.parts(g, row, col, acc)
}

func (f fisherman) parts(g *grid, t1, t2 int, acc accumulator) bool {
	var occ [10]int
	for v := 1; v <= 9; v++ {
		occ[v] = g.occurrences(v)
	}
	var buf [9]int
	sets := make([]uint16, f.degree)
	return combinations(f.degree, 9, buf[:], func(idx []int) bool {
		var base uint16
		for _, x := range idx {
			base |= 1 << uint(x)
		}
		for v := 1; v <= 9; v++ {
			if occ[v]+f.degree*2 > 9 {
				continue
			}
			for i, x := range idx {
				sets[i] = g.positions(t1, x, v)
			}
			cover, found := commonTuple(sets, f.degree)
			if !found {
				continue
			}
			h := &hint{cell: -1}
			var parts [][2]int
			var covers []int
			for i := 0; i < 9; i++ {
				if cover&(1<<uint(i)) != 0 {
					covers = append(covers, i)
				}
			}
			for k, x := range idx {
				parts = append(parts, [2]int{t1, x}, [2]int{t2, covers[k]})
			}
			for _, i := range covers {
				pos := g.positions(t2, i, v) &^ base
				for m := pos; m != 0; m &= m - 1 {
					h.elims = append(h.elims, elim{regionCells[t2][i][first(m)], bit(v)})
				}
			}
			if !h.worth() {
				continue
			}
			switch f.degree {
			case 2:
				h.name, h.diff = "X-Wing", 3.2
			case 3:
				h.name, h.diff = "Swordfish", 3.8
			default:
				h.name, h.diff = "Jellyfish", 5.2
			}
			h.parents = lockingParents(parts, v)
			if !acc(h) {
				return false
			}
		}
		return true
	})
}

// xyWing is diuf/sudoku/solver/rules/XYWing.java: XY-wing (4.2) and
// XYZ-wing (4.4).
type xyWing struct{ xyz bool }

func (w xyWing) hints(g *grid, acc accumulator) bool {
	target := 2
	if w.xyz {
		target = 3
	}
	for xy := 0; xy < 81; xy++ {
		xyv := g.cand[xy]
		if count(xyv) != target {
			continue
		}
		for _, xz := range peers[xy] {
			xzv := g.cand[xz]
			if count(xzv) != 2 || count(xyv&^xzv) != 1 {
				continue
			}
			for _, yz := range peers[xy] {
				yzv := g.cand[yz]
				if count(yzv) != 2 {
					continue
				}
				u, in := xyv|xzv|yzv, xyv&xzv&yzv
				if count(u) != 3 {
					continue
				}
				if w.xyz && count(in) != 1 || !w.xyz && count(in) != 0 {
					continue
				}
				z := first(xzv & yzv)
				h := &hint{cell: -1, name: "XY-Wing", diff: 4.2}
				if w.xyz {
					h.name, h.diff = "XYZ-Wing", 4.4
				}
				for c := 0; c < 81; c++ {
					if c == xy || c == xz || c == yz || !isPeer[c][xz] || !isPeer[c][yz] {
						continue
					}
					if w.xyz && !isPeer[c][xy] {
						continue
					}
					if g.has(c, z) {
						h.elims = append(h.elims, elim{c, bit(z)})
					}
				}
				if h.worth() && !acc(h) {
					return false
				}
			}
		}
	}
	return true
}
