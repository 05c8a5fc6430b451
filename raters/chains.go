package raters

import (
	"math/bits"
	"slices"
)

// strongLinked says whether cells a and b are the only two places of digit
// d in some unit they share.
func (p *Position) strongLinked(a, b, d int) bool {
	g := p.geo
	n := p.n
	for _, u := range [3]int{g.Row[a], n + g.Col[a], 2*n + g.Box[a]} {
		m := p.unitMask(u, d)
		if bits.OnesCount32(m) != 2 {
			continue
		}
		for mm := m; mm != 0; mm &= mm - 1 {
			if g.Units[u][bits.TrailingZeros32(mm)] == b {
				return true
			}
		}
	}
	return false
}

// cellsWith lists the empty cells having digit d as a candidate.
func (p *Position) cellsWith(d int) []int {
	var out []int
	for c := range p.cands {
		if p.Has(c, d) {
			out = append(out, c)
		}
	}
	return out
}

// findSimpleColouring: for a digit, the cells joined by strong links
// (conjugate pairs) form chains whose cells alternate between two colours,
// one of which is true. Colour wrap: two cells of one colour see each
// other, so that colour is false everywhere. Colour trap: a cell outside
// the chain that sees both colours loses the digit.
func findSimpleColouring(p *Position) (Step, bool) {
	for d := 1; d <= p.n; d++ {
		cells := p.cellsWith(d)
		colour := map[int]int{}
		for _, start := range cells {
			if _, done := colour[start]; done {
				continue
			}
			if p.stopped() {
				return Step{}, false
			}
			comp := []int{start}
			colour[start] = 0
			for i := 0; i < len(comp); i++ {
				c := comp[i]
				for _, q := range cells {
					if _, seen := colour[q]; !seen && p.sees(c, q) && p.strongLinked(c, q, d) {
						colour[q] = 1 - colour[c]
						comp = append(comp, q)
					}
				}
			}
			if len(comp) < 3 {
				continue
			}
			// Colour wrap.
			for i, a := range comp {
				for _, b := range comp[i+1:] {
					if colour[a] == colour[b] && p.sees(a, b) {
						var el []Candidate
						for _, c := range comp {
							if colour[c] == colour[a] {
								el = append(el, Candidate{c, d})
							}
						}
						return Step{Technique: SimpleColouring, Eliminations: el}, true
					}
				}
			}
			// Colour trap.
			var el []Candidate
			for _, q := range cells {
				if slices.Contains(comp, q) {
					continue
				}
				var sees [2]bool
				for _, c := range comp {
					if p.sees(q, c) {
						sees[colour[c]] = true
					}
				}
				if sees[0] && sees[1] {
					el = append(el, Candidate{q, d})
				}
			}
			if len(el) > 0 {
				return Step{Technique: SimpleColouring, Eliminations: el}, true
			}
		}
	}
	return Step{}, false
}

// findXChain: for a digit, a chain from cell a to cell e of links that
// alternate strong (the only two places in a unit) and weak (two cells
// that see each other), starting and ending with a strong link: if a is
// not the digit then e is, so the digit leaves every cell that sees both.
// The search is breadth-first over (cell, link parity), so the chain
// found is a shortest one; chains of one link are locked candidates and
// are not reported.
func findXChain(p *Position) (Step, bool) {
	for d := 1; d <= p.n; d++ {
		cells := p.cellsWith(d)
		idx := make(map[int]int, len(cells))
		for i, c := range cells {
			idx[c] = i
		}
		// strong[i] lists the indexes of the cells strongly linked to
		// cells[i]: the other place of d in a unit where it has two.
		strong := make([][]int, len(cells))
		for u, ucells := range p.geo.Units {
			m := p.unitMask(u, d)
			if bits.OnesCount32(m) != 2 {
				continue
			}
			i := idx[ucells[bits.TrailingZeros32(m)]]
			j := idx[ucells[31-bits.LeadingZeros32(m)]]
			if !slices.Contains(strong[i], j) {
				strong[i] = append(strong[i], j)
				strong[j] = append(strong[j], i)
			}
		}
		// dist[i][0]: links to reach cells[i] "on" (after a strong link);
		// dist[i][1]: "off" (after a weak link).
		dist := make([][2]int, len(cells))
		for _, a := range cells {
			if p.stopped() {
				return Step{}, false
			}
			for i := range dist {
				dist[i] = [2]int{-1, -1}
			}
			type state struct{ i, off int }
			queue := []state{{idx[a], 1}}
			dist[idx[a]][1] = 0
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				c := cells[s.i]
				next := 1 - s.off // off -> strong -> on; on -> weak -> off
				if s.off == 1 {
					for _, j := range strong[s.i] {
						if dist[j][next] < 0 {
							dist[j][next] = dist[s.i][s.off] + 1
							queue = append(queue, state{j, next})
						}
					}
					continue
				}
				for j, q := range cells {
					if p.sees(c, q) && dist[j][next] < 0 {
						dist[j][next] = dist[s.i][s.off] + 1
						queue = append(queue, state{j, next})
					}
				}
			}
			for j, e := range cells {
				links := dist[j][0]
				if e == a || links < 3 {
					continue
				}
				if el := p.commonPeerElims(d, a, e); len(el) > 0 {
					return Step{Technique: XChain, Eliminations: el, Links: links}, true
				}
			}
		}
	}
	return Step{}, false
}

// findXYChain: a chain of bivalue cells, each seeing the next, from a cell
// {x,y} to a cell holding x, where if the first cell is not x each next
// cell is forced to the digit it does not share with the one before and
// the last cell is x: x leaves every cell that sees both ends. The search
// is breadth-first over (cell, forced digit); chains of two cells are
// naked pairs and are not reported.
func findXYChain(p *Position) (Step, bool) {
	bv := p.bivalue()
	idx := make(map[int]int, len(bv))
	for i, c := range bv {
		idx[c] = i
	}
	n := p.n
	dist := make([]int, len(bv)*n) // (cell index, forced digit-1) -> cells in chain
	for _, a := range bv {
		if p.stopped() {
			return Step{}, false
		}
		for _, x := range digits(p.cands[a]) {
			for i := range dist {
				dist[i] = -1
			}
			y := digits(p.cands[a] &^ (1 << (x - 1)))[0]
			type state struct{ i, d int }
			start := state{idx[a], y}
			dist[start.i*n+y-1] = 1
			queue := []state{start}
			for len(queue) > 0 {
				s := queue[0]
				queue = queue[1:]
				c := bv[s.i]
				for j, q := range bv {
					if q == c || !p.sees(c, q) || !p.Has(q, s.d) {
						continue
					}
					w := digits(p.cands[q] &^ (1 << (s.d - 1)))[0]
					if k := j*n + w - 1; dist[k] < 0 {
						dist[k] = dist[s.i*n+s.d-1] + 1
						queue = append(queue, state{j, w})
					}
				}
			}
			for j, e := range bv {
				length := dist[j*n+x-1]
				if e == a || length < 3 {
					continue
				}
				if el := p.commonPeerElims(x, a, e); len(el) > 0 {
					return Step{Technique: XYChain, Eliminations: el, Links: length - 1}, true
				}
			}
		}
	}
	return Step{}, false
}
