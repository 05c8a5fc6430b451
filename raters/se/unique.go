package se

import (
	"sort"
	"strconv"
)

// uniqueLoops is diuf/sudoku/solver/rules/unique/UniqueLoops.java, with
// serate's default lkSudoku correction of the loop search: unique
// rectangles and loops of types 1, 2 and 3 (naked set), 4.5 for a
// rectangle, 4.6 for a loop of 6 cells, 4.7 for 8 and 5.0 for 10 or more,
// plus 0.1 per naked-set value beyond the first for type 3
// (UniqueLoopHint.java, UniqueLoopType3NakedHint.java). The hints are
// offered sorted by difficulty, then type.
func uniqueLoops(g *grid, acc accumulator) bool {
	type ulHint struct {
		h    *hint
		kind int
	}
	var found []ulHint
	seen := map[string]bool{}
	add := func(h *hint, kind int, loop []int, extra string) {
		if h == nil || !h.worth() {
			return
		}
		h.name = ulName(loop, kind)
		k := loopKey(kind, loop) + extra
		if seen[k] {
			return
		}
		seen[k] = true
		found = append(found, ulHint{h, kind})
	}
	for c := 0; c < 81; c++ {
		if count(g.cand[c]) != 2 {
			continue
		}
		v1 := first(g.cand[c])
		v2 := first(g.cand[c] &^ bit(v1))
		var loops [][]int
		checkLoops(g, c, v1, v2, nil, 2, 0, -1, &loops)
		for _, loop := range loops {
			if !validLoop(loop) {
				continue
			}
			base := 4.5
			if len(loop) >= 10 {
				base += 0.3
			}
			if len(loop) >= 8 {
				base += 0.2
			} else if len(loop) >= 6 {
				base += 0.1
			}
			var extra []int
			for _, x := range loop {
				if count(g.cand[x]) > 2 {
					extra = append(extra, x)
				}
			}
			pair := bit(v1) | bit(v2)
			switch {
			case len(extra) == 1:
				add(&hint{cell: -1, diff: base,
					elims: []elim{{extra[0], pair & g.cand[extra[0]]}}}, 1, loop, "")
			case len(extra) > 2:
				add(ulType2(g, loop, extra, pair, base), 2, loop, "")
			case len(extra) == 2:
				r := (g.cand[extra[0]] | g.cand[extra[1]]) &^ pair
				if count(r) == 1 {
					add(ulType2(g, loop, extra, pair, base), 2, loop, "")
				} else if count(r) >= 2 {
					for _, h := range ulType3(g, loop, extra[0], extra[1], pair, base) {
						add(h.h, 3, loop, h.key)
					}
				}
				add(ulType4(g, extra[0], extra[1], v1, v2, base), 4, loop, "")
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].h.diff != found[j].h.diff {
			return found[i].h.diff < found[j].h.diff
		}
		return found[i].kind < found[j].kind
	})
	for _, f := range found {
		if !acc(f.h) {
			return false
		}
	}
	return true
}

// loopKey identifies a hint as UniqueLoopHint.equals does: its class and
// the set of its loop's cells (type 3 adds its region and values).
func loopKey(kind int, loop []int) string {
	b := []byte{byte(kind)}
	cells := append([]int(nil), loop...)
	sort.Ints(cells)
	for _, c := range cells {
		b = append(b, byte(c))
	}
	return string(b)
}

// ulName is UniqueLoopHint.getName.
func ulName(loop []int, kind int) string {
	if len(loop) > 4 {
		return "Unique Loop " + strconv.Itoa(len(loop)) + " type " + strconv.Itoa(kind)
	}
	return "Unique Rectangle type " + strconv.Itoa(kind)
}

// ulType4 is UniqueLoops.createType4Hint: one of the loop's values is
// locked in the extra cells' shared region, so the other goes from both.
func ulType4(g *grid, c1, c2, v1, v2 int, base float64) *hint {
	r1, r2 := -1, -1
	for t := box; t <= col; t++ {
		r := cellRegion[c1][t]
		if cellRegion[c2][t] != r {
			continue
		}
		has1, has2 := false, false
		for _, c := range regionCells[t][r] {
			if c != c1 && c != c2 {
				has1 = has1 || g.has(c, v1)
				has2 = has2 || g.has(c, v2)
			}
		}
		if !has1 {
			r1 = r
		}
		if !has2 {
			r2 = r
		}
	}
	rem := 0
	switch {
	case r1 >= 0:
		rem = v2
	case r2 >= 0:
		rem = v1
	default:
		return nil
	}
	h := &hint{cell: -1, diff: base}
	for _, c := range []int{c1, c2} {
		if g.has(c, rem) {
			h.elims = append(h.elims, elim{c, bit(rem)})
		}
	}
	return h
}

// checkLoops is UniqueLoops.checkForLoops with lkSudoku's correction (the
// extra values are copied per branch).
func checkLoops(g *grid, c, v1, v2 int, loop []int, allowedEx int, exValues uint16, lastType int, results *[][]int) {
	loop = append(loop, c)
	for t := box; t <= col; t++ {
		if t == lastType {
			continue
		}
		for _, next := range regionCells[t][cellRegion[c][t]] {
			if loop[0] == next && len(loop) >= 4 {
				*results = append(*results, append([]int(nil), loop...))
				continue
			}
			if containsInt(loop, next) {
				continue
			}
			cand := g.cand[next]
			if cand&bit(v1) == 0 || cand&bit(v2) == 0 {
				continue
			}
			newEx := (exValues | cand) &^ (bit(v1) | bit(v2))
			n := count(cand)
			if n == 2 || count(newEx) == 1 || allowedEx > 0 {
				a := allowedEx
				if n > 2 {
					a--
				}
				checkLoops(g, next, v1, v2, loop, a, newEx, t, results)
			}
		}
	}
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// validLoop is UniqueLoops.isValidLoop: the regions visited at odd and at
// even positions are the same, and no region twice at either.
func validLoop(loop []int) bool {
	var odd, even [3][9]bool
	isOdd := false
	for _, c := range loop {
		for t := box; t <= col; t++ {
			r := cellRegion[c][t]
			if isOdd {
				if odd[t][r] {
					return false
				}
				odd[t][r] = true
			} else {
				if even[t][r] {
					return false
				}
				even[t][r] = true
			}
		}
		isOdd = !isOdd
	}
	return odd == even
}

func ulType2(g *grid, loop, extra []int, pair uint16, base float64) *hint {
	v := first(g.cand[extra[0]] &^ pair)
	h := &hint{cell: -1, name: "Unique Rectangle type 2", diff: base}
	for c := 0; c < 81; c++ {
		if containsInt(extra, c) || !g.has(c, v) {
			continue
		}
		all := true
		for _, x := range extra {
			if !isPeer[x][c] {
				all = false
			}
		}
		if all {
			h.elims = append(h.elims, elim{c, bit(v)})
		}
	}
	return h
}

type keyedHint struct {
	h   *hint
	key string
}

// ulType3 is UniqueLoops.createType3Hints (lkSudoku's variant): the extra
// values of the two extra cells with other cells of a shared region form
// a naked set, or the loop's values with others a hidden set.
func ulType3(g *grid, loop []int, c1, c2 int, pair uint16, base float64) []keyedHint {
	var out []keyedHint
	extra := (g.cand[c1] | g.cand[c2]) &^ pair
	var buf [9]int
	for degree := 2; degree <= 7; degree++ {
		for t := box; t <= col; t++ {
			r := cellRegion[c1][t]
			if cellRegion[c2][t] != r {
				continue
			}
			empty := g.emptyCount(t, r)
			i1, i2 := indexIn(t, r, c1), indexIn(t, r, c2)
			if degree*2 <= empty && degree >= count(extra) {
				combinations(degree, 9, buf[:], func(idx []int) bool {
					has1 := false
					for _, x := range idx {
						if x == i1 {
							has1 = true
						} else if x == i2 {
							return true
						}
					}
					if !has1 {
						return true
					}
					sets := make([]uint16, len(idx))
					naked := extra & g.cand[c1] & g.cand[c2]
					var others []int
					for i, x := range idx {
						if x == i1 {
							sets[i] = extra
							continue
						}
						o := regionCells[t][r][x]
						sets[i] = g.cand[o]
						naked |= sets[i]
						others = append(others, o)
					}
					if count(naked) != degree {
						return true
					}
					common, ok := commonTuple(sets, degree)
					if !ok {
						return true
					}
					h := &hint{cell: -1, diff: base + float64(count(common)-1)*0.1}
					for _, o := range regionCells[t][r] {
						if o == c1 || o == c2 || containsInt(others, o) {
							continue
						}
						if m := g.cand[o] & common; m != 0 {
							h.elims = append(h.elims, elim{o, m})
						}
					}
					out = append(out, keyedHint{h, "n" + string(rune(t*9+r)) + string(rune(common))})
					return true
				})
			}
			if degree*2 >= empty {
				continue
			}
			var rem []int
			for v := 1; v <= 9; v++ {
				if pair&bit(v) == 0 && extra&bit(v) == 0 {
					rem = append(rem, v)
				}
			}
			if degree-2 > len(rem) {
				continue
			}
			var buf2 [9]int
			combinations(degree-2, len(rem), buf2[:], func(idx []int) bool {
				values := pair
				for _, x := range idx {
					values |= bit(rem[x])
				}
				sets := make([]uint16, 0, degree)
				for _, x := range idx {
					sets = append(sets, g.positions(t, r, rem[x])&^(1<<uint(i2)))
				}
				for v := 1; v <= 9; v++ {
					if pair&bit(v) != 0 {
						sets = append(sets, g.positions(t, r, v)&^(1<<uint(i2)))
					}
				}
				common, ok := commonTupleLight(sets, degree)
				if !ok {
					return true
				}
				common &^= 1<<uint(i1) | 1<<uint(i2)
				h := &hint{cell: -1, diff: base + float64(count(common)-1)*0.1}
				for m := common; m != 0; m &= m - 1 {
					c := regionCells[t][r][first(m)]
					if x := g.cand[c] &^ values; x != 0 {
						h.elims = append(h.elims, elim{c, x})
					}
				}
				out = append(out, keyedHint{h, "h" + string(rune(t*9+r)) + string(rune(values)) + string(rune(common))})
				return true
			})
		}
	}
	return out
}

func indexIn(t, r, c int) int {
	for i, x := range regionCells[t][r] {
		if x == c {
			return i
		}
	}
	return -1
}

// bug is diuf/sudoku/solver/rules/unique/BivalueUniversalGrave.java with
// serate's default lkSudoku correction: BUG type 1 (5.6), type 2 (5.7) and
// type 3 (5.7 plus 0.1 per naked-set value beyond the first).
func bug(g *grid, acc accumulator) bool {
	temp := *g
	var bugCells []int
	var bugValues [81]uint16
	var allBug uint16
	var common []int
	commonSet := false
	var allExtra []int
	allExtraSet := false
	onlyValue, oneValue := 0, true
	restrict := func(c int) bool {
		if !commonSet {
			commonSet = true
			common = append([]int(nil), peers[c][:]...)
		} else {
			var k []int
			for _, x := range common {
				if isPeer[c][x] {
					k = append(k, x)
				}
			}
			common = k
		}
		var k []int
		for _, x := range common {
			if !containsInt(bugCells, x) {
				k = append(k, x)
			}
		}
		common = k
		return len(bugCells) > 1 && count(allBug) > 1 && len(common) == 0
	}
	for t := box; t <= col; t++ {
		for r := 0; r < 9; r++ {
			for v := 1; v <= 9; v++ {
				pos := g.positions(t, r, v)
				n := count(pos)
				if n == 0 || n == 2 {
					continue
				}
				var newBug []int
				for m := pos; m != 0; m &= m - 1 {
					c := regionCells[t][r][first(m)]
					if count(g.cand[c]) >= 3 {
						newBug = append(newBug, c)
					}
				}
				if !allExtraSet {
					allExtraSet = true
					allExtra = append([]int(nil), newBug...)
					onlyValue = v
				} else if oneValue {
					if onlyValue == v {
						for _, c := range newBug {
							if !containsInt(allExtra, c) {
								allExtra = append(allExtra, c)
							}
						}
					} else {
						oneValue = false
					}
				}
				if len(newBug) == 1 {
					c := newBug[0]
					if !containsInt(bugCells, c) {
						bugCells = append(bugCells, c)
					}
					bugValues[c] |= bit(v)
					allBug |= bit(v)
					temp.remove(c, bit(v))
					if restrict(c) {
						return true
					}
				}
				if len(newBug) == 0 {
					return true
				}
			}
		}
	}
	if oneValue && allExtraSet && len(allExtra) > len(bugCells) {
		for _, c := range allExtra {
			if containsInt(bugCells, c) {
				continue
			}
			bugCells = append(bugCells, c)
			bugValues[c] = bit(onlyValue)
			temp.remove(c, bit(onlyValue))
			if restrict(c) {
				return true
			}
		}
	}
	for c := 0; c < 81; c++ {
		if temp.val[c] == 0 && count(temp.cand[c]) != 2 {
			return true
		}
	}
	for t := box; t <= col; t++ {
		for r := 0; r < 9; r++ {
			for v := 1; v <= 9; v++ {
				if n := count(temp.positions(t, r, v)); n != 0 && n != 2 {
					return true
				}
			}
		}
	}
	switch {
	case len(bugCells) == 1:
		c := bugCells[0]
		return acc(&hint{cell: -1, name: "BUG type 1", diff: 5.6, elims: []elim{{c, g.cand[c] &^ allBug}}})
	case count(allBug) == 1:
		v := first(allBug)
		h := &hint{cell: -1, name: "BUG type 2", diff: 5.7}
		for _, c := range common {
			if g.has(c, v) {
				h.elims = append(h.elims, elim{c, bit(v)})
			}
		}
		if h.worth() && !acc(h) {
			return false
		}
		if len(bugCells) == 2 {
			return bugType4(g, bugCells, &bugValues, allBug, acc)
		}
	case len(common) > 0:
		if len(bugCells) == 2 && !bugType4(g, bugCells, &bugValues, allBug, acc) {
			return false
		}
		return bugType3(g, bugCells, allBug, common, acc)
	}
	return true
}

// bugType4 is BivalueUniversalGrave.addBug4Hint (5.7): two BUG cells in
// one region with one common value besides the BUG values.
func bugType4(g *grid, bugCells []int, bugValues *[81]uint16, allBug uint16, acc accumulator) bool {
	c1, c2 := bugCells[0], bugCells[1]
	common := g.cand[c1] & g.cand[c2] &^ allBug
	if count(common) != 1 {
		return true
	}
	v := first(common)
	for t := box; t <= col; t++ {
		if cellRegion[c1][t] != cellRegion[c2][t] {
			continue
		}
		h := &hint{cell: -1, name: "BUG type 4", diff: 5.7}
		for _, c := range []int{c1, c2} {
			if m := g.cand[c] &^ bugValues[c] &^ bit(v); m != 0 {
				h.elims = append(h.elims, elim{c, m})
			}
		}
		if !acc(h) {
			return false
		}
	}
	return true
}

func bugType3(g *grid, bugCells []int, allBug uint16, common []int, acc accumulator) bool {
	var buf [9]int
	for degree := 2; degree <= 6; degree++ {
		for t := box; t <= col; t++ {
			r := cellRegion[bugCells[0]][t]
			same := true
			for _, c := range bugCells {
				if cellRegion[c][t] != r {
					same = false
				}
			}
			if !same {
				continue
			}
			var rc []int
			for _, c := range common {
				if cellRegion[c][t] == r {
					rc = append(rc, c)
				}
			}
			if len(rc) < degree {
				continue
			}
			ok := combinations(degree-1, len(rc), buf[:], func(idx []int) bool {
				sets := make([]uint16, degree)
				var other uint16
				naked := make([]int, len(idx))
				for i, x := range idx {
					naked[i] = rc[x]
					sets[i] = g.cand[rc[x]]
					other |= sets[i]
				}
				sets[degree-1] = allBug
				if count(other) != degree {
					return true
				}
				set, found := commonTuple(sets, degree)
				if !found {
					return true
				}
				h := &hint{cell: -1, name: "BUG type 3", diff: 5.7 + float64(count(set)-1)*0.1}
				for _, c := range rc {
					if containsInt(naked, c) || containsInt(bugCells, c) {
						continue
					}
					if m := g.cand[c] & set; m != 0 {
						h.elims = append(h.elims, elim{c, m})
					}
				}
				if h.worth() {
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
