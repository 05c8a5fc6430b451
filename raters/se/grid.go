// Package se computes Sudoku Explainer 1.2.1 ratings: ER (the hardest step
// of the solution), EP (the hardest step up to the first placement) and ED
// (the hardest step up to the first step). It is a Go rewrite of the rating
// path of Sudoku Explainer 1.2.1 (Nicolas Juillerat, LGPL) as kept in
// SukakuExplainer's serate with the SE121 technique set
// (--techs=1111111111010111011011011011000010100010111111): the same
// techniques, tried in the same order, with the same difficulty for each
// and the same rule for picking the step, so that its ratings can be
// compared with serate's puzzle by puzzle. Source files are cited on each
// technique as diuf/sudoku/... paths of that repository.
//
// The package works on 9x9 grids only: SE's scale is defined for them.
package se

import "math/bits"

// Region types, in Grid.getRegionAt's numbering (diuf/sudoku/Grid.java).
const (
	box = 0
	row = 1
	col = 2
)

var (
	// regionCells[t][r] lists the cells of region r of type t in SE's
	// order: boxes row-major, rows left to right, columns top to bottom.
	regionCells [3][9][9]int
	// cellRegion[c][t] is the index of the region of type t holding c.
	cellRegion [81][3]int
	// peers[c] lists the 20 cells that see c, ascending, as
	// Grid.visibleCellIndex does.
	peers [81][20]int
	// isPeer[a][b] says a and b share a region (a != b).
	isPeer [81][81]bool
)

func init() {
	for c := 0; c < 81; c++ {
		r, k := c/9, c%9
		b := (r/3)*3 + k/3
		cellRegion[c] = [3]int{b, r, k}
		regionCells[row][r][k] = c
		regionCells[col][k][r] = c
		regionCells[box][b][(r%3)*3+k%3] = c
		cellPos[c] = [3]uint8{uint8((r%3)*3 + k%3), uint8(k), uint8(r)}
	}
	for t1 := 0; t1 < 3; t1++ {
		for r1 := 0; r1 < 9; r1++ {
			for _, c := range regionCells[t1][r1] {
				for t2 := 0; t2 < 3; t2++ {
					crossTable[t1][r1][t2][cellRegion[c][t2]] = true
				}
			}
		}
	}
	for a := 0; a < 81; a++ {
		n := 0
		for b := 0; b < 81; b++ {
			if a == b {
				continue
			}
			for t := 0; t < 3; t++ {
				if cellRegion[a][t] == cellRegion[b][t] {
					isPeer[a][b] = true
				}
			}
			if isPeer[a][b] {
				peers[a][n] = b
				n++
			}
		}
	}
}

// grid is SE's Grid: cell values and the potential values (candidates) of
// the empty cells, bit v set for value v.
type grid struct {
	val  [81]int8
	cand [81]uint16
	// pos[t][r][v] mirrors cand: the positions in region r of type t
	// whose cell has candidate v. Every change of cand goes through
	// remove, place or rebuild, which keep it.
	pos [3][9][10]uint16
}

// cellPos[c][t] is c's position within its region of type t.
var cellPos [81][3]uint8

// remove removes the candidates m from cell c.
func (g *grid) remove(c int, m uint16) {
	m &= g.cand[c]
	if m == 0 {
		return
	}
	g.cand[c] &^= m
	for ; m != 0; m &= m - 1 {
		v := bits.TrailingZeros16(m)
		for t := 0; t < 3; t++ {
			g.pos[t][cellRegion[c][t]][v] &^= 1 << cellPos[c][t]
		}
	}
}

const allValues = 0x3FE

func bit(v int) uint16 { return 1 << uint(v) }

func count(m uint16) int { return bits.OnesCount16(m) }

// first returns the lowest set bit of m (a value or a position), or -1.
func first(m uint16) int {
	if m == 0 {
		return -1
	}
	return bits.TrailingZeros16(m)
}

func (g *grid) has(c, v int) bool { return g.cand[c]&bit(v) != 0 }

// rebuild recomputes every candidate from the values, as
// Solver.rebuildPotentialValues does.
func (g *grid) rebuild() {
	for c := 0; c < 81; c++ {
		if g.val[c] == 0 {
			g.cand[c] = allValues
		} else {
			g.cand[c] = 0
		}
	}
	for c := 0; c < 81; c++ {
		if v := int(g.val[c]); v != 0 {
			for _, p := range peers[c] {
				g.cand[p] &^= bit(v)
			}
		}
	}
	g.pos = [3][9][10]uint16{}
	for c := 0; c < 81; c++ {
		for m := g.cand[c]; m != 0; m &= m - 1 {
			v := bits.TrailingZeros16(m)
			for t := 0; t < 3; t++ {
				g.pos[t][cellRegion[c][t]][v] |= 1 << cellPos[c][t]
			}
		}
	}
}

// place sets c to v and removes v from its peers (Cell.setValueAndCancel).
func (g *grid) place(c, v int) {
	g.val[c] = int8(v)
	g.remove(c, g.cand[c])
	for _, p := range peers[c] {
		g.remove(p, bit(v))
	}
}

// positions returns the positions (0..8) of region r of type t whose cell
// has candidate v (Region.getPotentialPositions).
func (g *grid) positions(t, r, v int) uint16 { return g.pos[t][r][v] }

// emptyCount counts the empty cells of a region (Region.getEmptyCellCount).
func (g *grid) emptyCount(t, r int) int {
	n := 0
	for _, c := range regionCells[t][r] {
		if g.val[c] == 0 {
			n++
		}
	}
	return n
}

func (g *grid) occurrences(v int) int {
	n := 0
	for c := 0; c < 81; c++ {
		if int(g.val[c]) == v {
			n++
		}
	}
	return n
}

func (g *grid) solved() bool {
	for c := 0; c < 81; c++ {
		if g.val[c] == 0 {
			return false
		}
	}
	return true
}

// combinations calls f with each k-subset of 0..n-1 in the order of
// diuf/sudoku/tools/Permutations.java (Gosper's hack: ascending as bit
// masks), the members ascending; f returns false to stop. n is at most 16.
func combinations(k, n int, buf []int, f func(idx []int) bool) bool {
	return subsets(k, uint16(1)<<uint(n)-1, buf, f)
}

// subsets is combinations(k, 9, ...) restricted to the k-subsets of the
// positions in elig: it calls f with them in the order combinations would,
// skipping the subsets that hold a position outside elig. (Restricting
// Gosper's order, which is colexicographic, to a subset of positions keeps
// it colexicographic.)
func subsets(k int, elig uint16, buf []int, f func(idx []int) bool) bool {
	var pos [16]int
	n := 0
	for m := elig; m != 0; m &= m - 1 {
		pos[n] = bits.TrailingZeros16(m)
		n++
	}
	if k > n || k <= 0 {
		return k != 0 || f(buf[:0])
	}
	v := uint32(1)<<uint(k) - 1
	limit := uint32(1) << uint(n)
	for v < limit {
		idx := buf[:0]
		for m := v; m != 0; m &= m - 1 {
			idx = append(idx, pos[bits.TrailingZeros32(m)])
		}
		if !f(idx) {
			return false
		}
		s := v & -v
		r := v + s
		v = (((r ^ v) >> 2) / s) | r
	}
	return true
}

// commonTuple is CommonTuples.searchCommonTuple: the union of the sets if
// each has at least two members and the union has exactly degree members.
func commonTuple(sets []uint16, degree int) (uint16, bool) {
	var u uint16
	for _, s := range sets {
		if count(s) <= 1 {
			return 0, false
		}
		u |= s
	}
	return u, count(u) == degree
}

// commonTupleLight is CommonTuples.searchCommonTupleLight: as commonTuple
// but each set needs only one member.
func commonTupleLight(sets []uint16, degree int) (uint16, bool) {
	var u uint16
	for _, s := range sets {
		u |= s
		if s == 0 {
			return 0, false
		}
	}
	return u, count(u) == degree
}
