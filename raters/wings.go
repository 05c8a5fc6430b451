package raters

import "math/bits"

// bivalue lists the empty cells with exactly two candidates.
func (p *Position) bivalue() []int {
	var out []int
	for c, m := range p.cands {
		if p.values[c] == 0 && bits.OnesCount32(m) == 2 {
			out = append(out, c)
		}
	}
	return out
}

// findXYWing: a pivot {x,y} sees two pincers {x,z} and {y,z}; z leaves
// every cell that sees both pincers.
func findXYWing(p *Position) (Step, bool) {
	bv := p.bivalue()
	for _, pivot := range bv {
		if p.stopped() {
			return Step{}, false
		}
		pm := p.cands[pivot]
		for _, a := range bv {
			am := p.cands[a]
			if a == pivot || !p.sees(pivot, a) || bits.OnesCount32(am&pm) != 1 {
				continue
			}
			z := am &^ pm
			for _, b := range bv {
				bm := p.cands[b]
				if b == pivot || b == a || !p.sees(pivot, b) || bm != (pm&^am)|z {
					continue
				}
				if el := p.commonPeerElims(bits.TrailingZeros32(z)+1, a, b); len(el) > 0 {
					return Step{Technique: XYWing, Eliminations: el}, true
				}
			}
		}
	}
	return Step{}, false
}

// findXYZWing: a pivot {x,y,z} sees two pincers {x,z} and {y,z}; z leaves
// every cell that sees all three.
func findXYZWing(p *Position) (Step, bool) {
	bv := p.bivalue()
	for pivot, pm := range p.cands {
		if p.values[pivot] != 0 || bits.OnesCount32(pm) != 3 {
			continue
		}
		if p.stopped() {
			return Step{}, false
		}
		for _, a := range bv {
			am := p.cands[a]
			if !p.sees(pivot, a) || am&^pm != 0 {
				continue
			}
			for _, b := range bv {
				bm := p.cands[b]
				if b <= a || !p.sees(pivot, b) || bm&^pm != 0 || am|bm != pm {
					continue
				}
				z := am & bm
				if el := p.commonPeerElims(bits.TrailingZeros32(z)+1, pivot, a, b); len(el) > 0 {
					return Step{Technique: XYZWing, Eliminations: el}, true
				}
			}
		}
	}
	return Step{}, false
}

// findWWing: two cells {x,y} that do not see each other, and a strong link
// on x (a unit where x has exactly two places) with one end seeing each
// cell; y leaves every cell that sees both.
func findWWing(p *Position) (Step, bool) {
	bv := p.bivalue()
	for i, a := range bv {
		if p.stopped() {
			return Step{}, false
		}
		for _, b := range bv[i+1:] {
			m := p.cands[a]
			if p.cands[b] != m || p.sees(a, b) {
				continue
			}
			for _, x := range digits(m) {
				y := digits(m &^ (1 << (x - 1)))[0]
				for u, cells := range p.geo.Units {
					um := p.unitMask(u, x)
					if bits.OnesCount32(um) != 2 {
						continue
					}
					c1 := cells[bits.TrailingZeros32(um)]
					c2 := cells[31-bits.LeadingZeros32(um)]
					if c1 == a || c1 == b || c2 == a || c2 == b {
						continue
					}
					if (p.sees(c1, a) && p.sees(c2, b)) || (p.sees(c1, b) && p.sees(c2, a)) {
						if el := p.commonPeerElims(y, a, b); len(el) > 0 {
							return Step{Technique: WWing, Eliminations: el}, true
						}
					}
				}
			}
		}
	}
	return Step{}, false
}

// findRemotePair: cells {x,y} linked one to the next by seeing each other
// hold x and y alternately, so two of them an odd number (3 or more) of
// links apart hold one x and one y: x and y leave every cell that sees
// both.
func findRemotePair(p *Position) (Step, bool) {
	bv := p.bivalue()
	dist := make(map[int]int, len(bv))
	for _, start := range bv {
		if p.stopped() {
			return Step{}, false
		}
		m := p.cands[start]
		clear(dist)
		dist[start] = 0
		queue := []int{start}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			for _, q := range bv {
				if _, seen := dist[q]; !seen && p.cands[q] == m && p.sees(c, q) {
					dist[q] = dist[c] + 1
					queue = append(queue, q)
				}
			}
		}
		for _, end := range bv {
			if d, ok := dist[end]; !ok || d < 3 || d%2 == 0 {
				continue
			}
			var el []Candidate
			for _, q := range p.geo.Peers[start] {
				if _, inChain := dist[q]; !inChain && p.sees(q, end) {
					el = p.elimsFrom(el, q, m)
				}
			}
			if len(el) > 0 {
				return Step{Technique: RemotePair, Eliminations: el, Links: dist[end]}, true
			}
		}
	}
	return Step{}, false
}

// findUniqueRectangle1: four non-given cells at the corners of a rectangle
// spanning two rows, two columns and two boxes; three are {x,y} and the
// fourth holds x, y and more. Were the fourth x or y, x and y could be
// swapped in the four cells and the puzzle would not be unique, so x and y
// leave the fourth cell. This assumes the puzzle has one solution.
func findUniqueRectangle1(p *Position) (Step, bool) {
	g := p.geo
	n := p.n
	for _, a := range p.bivalue() {
		if p.stopped() {
			return Step{}, false
		}
		m := p.cands[a]
		ra, ca := g.Row[a], g.Col[a]
		for r := ra + 1; r < n; r++ {
			for c := 0; c < n; c++ {
				if c == ca {
					continue
				}
				corners := [4]int{a, ra*n + c, r*n + ca, r*n + c}
				boxes := map[int]bool{}
				ok := true
				extra := -1
				for _, q := range corners {
					boxes[g.Box[q]] = true
					if p.values[q] != 0 || p.given[q] || p.cands[q]&m != m {
						ok = false
						break
					}
					if p.cands[q] != m {
						if extra >= 0 {
							ok = false
							break
						}
						extra = q
					}
				}
				if !ok || extra < 0 || len(boxes) != 2 {
					continue
				}
				return Step{Technique: UniqueRectangle1, Eliminations: p.elimsFrom(nil, extra, m)}, true
			}
		}
	}
	return Step{}, false
}
