package raters

import "math/bits"

// candGraph is the graph of the candidates of a position, numbered
// cell*n + digit-1, with their strong links: two candidates of which one
// must be true, because they are the only two candidates of a cell
// (bivalue) or the only two places of a digit in a unit (bilocal). Weak
// links (two candidates that cannot both be true: the same cell, or the
// same digit in two cells that see each other) are not stored; weakPeers
// walks them.
type candGraph struct {
	p      *Position
	n      int
	strong [][]int32
}

// newCandGraph collects the strong links of p.
func newCandGraph(p *Position) *candGraph {
	n := p.n
	g := &candGraph{p: p, n: n, strong: make([][]int32, len(p.cands)*n)}
	link := func(a, b int32) {
		for _, x := range g.strong[a] {
			if x == b {
				return // a cell pair in a row and a box is one link
			}
		}
		g.strong[a] = append(g.strong[a], b)
		g.strong[b] = append(g.strong[b], a)
	}
	for c, m := range p.cands {
		if p.values[c] == 0 && bits.OnesCount32(m) == 2 {
			d1 := bits.TrailingZeros32(m)
			d2 := 31 - bits.LeadingZeros32(m)
			link(int32(c*n+d1), int32(c*n+d2))
		}
	}
	for u, cells := range p.geo.Units {
		for d := 1; d <= n; d++ {
			m := p.unitMask(u, d)
			if bits.OnesCount32(m) != 2 {
				continue
			}
			a := cells[bits.TrailingZeros32(m)]
			b := cells[31-bits.LeadingZeros32(m)]
			link(int32(a*n+d-1), int32(b*n+d-1))
		}
	}
	return g
}

// weakPeers calls f with every candidate weakly linked to k: the other
// candidates of its cell and its digit in the cells that see it.
func (g *candGraph) weakPeers(k int, f func(j int)) {
	n := g.n
	c, d := k/n, k%n
	for m := g.p.cands[c] &^ (1 << d); m != 0; m &= m - 1 {
		f(c*n + bits.TrailingZeros32(m))
	}
	for _, q := range g.p.geo.Peers[c] {
		if g.p.cands[q]&(1<<d) != 0 {
			f(q*n + d)
		}
	}
}

// weak says whether candidates a and b (distinct) cannot both be true.
func (g *candGraph) weak(a, b int) bool {
	n := g.n
	ca, cb := a/n, b/n
	return a != b && (ca == cb || (a%n == b%n && g.p.sees(ca, cb)))
}

// candidate returns candidate k as a Candidate.
func (g *candGraph) candidate(k int) Candidate { return Candidate{k / g.n, k%g.n + 1} }

// findAIC finds an alternating inference chain (AIC), HoDoKu's "nice
// loop/AIC": a chain of candidates joined by links that alternate strong
// and weak, starting and ending with a strong link, over any digits and
// cells (bivalue cells and bilocal units are the strong links; a strong
// link may serve as a weak one). If its first candidate A is false, the
// first strong link makes the next true, the weak link after it makes the
// one after false, and so on, so its last candidate B is true: A or B is
// true, and every candidate weakly linked to both (the digit in a cell
// that sees both ends; the other digit in an end cell that sees the
// other end; the other digits of a cell holding both ends) is false. A
// chain that leads from A false back to A true is a discontinuous nice
// loop: A is placed.
//
// The search is breadth-first over (candidate, true/false) from every
// candidate, so the chain found is a shortest one; X-chains and
// XY-chains, which the rater tries first, are special cases.
func findAIC(p *Position) (Step, bool) {
	g := newCandGraph(p)
	n := g.n
	size := len(p.cands) * n
	// dist[2k] is the links to reach candidate k false, dist[2k+1] true;
	// stamp marks the entries set during the current start's search.
	dist := make([]int32, 2*size)
	stamp := make([]int32, 2*size)
	queue := make([]int32, 0, 2*size)
	var best Step
	bestLinks := int32(1 << 30)
	for a := range size {
		if len(g.strong[a]) == 0 {
			continue // a false implies nothing
		}
		if p.stopped() {
			return Step{}, false
		}
		gen := int32(a + 1)
		visit := func(s int32, d int32) {
			if stamp[s] != gen {
				stamp[s] = gen
				dist[s] = d
				queue = append(queue, s)
			}
		}
		queue = queue[:0]
		visit(int32(2*a), 0)
		for i := 0; i < len(queue); i++ {
			s := queue[i]
			k, on := int(s/2), s%2 == 1
			d := dist[s]
			if d+1 >= bestLinks {
				break // breadth-first: every later state is as far
			}
			if !on {
				for _, j := range g.strong[k] {
					visit(2*j+1, d+1)
				}
				continue
			}
			// k is true when a is false: a or k.
			if k == a {
				best = Step{Technique: AIC, Placements: []Candidate{g.candidate(a)}, Links: int(d)}
				bestLinks = d
				break
			}
			if d >= 3 { // one link is a strong link, nothing to eliminate
				var el []Candidate
				g.weakPeers(k, func(j int) {
					if j != a && g.weak(j, a) {
						el = append(el, g.candidate(j))
					}
				})
				if len(el) > 0 {
					best = Step{Technique: AIC, Eliminations: el, Links: int(d)}
					bestLinks = d
					break
				}
			}
			g.weakPeers(k, func(j int) { visit(int32(2*j), d+1) })
		}
	}
	return best, bestLinks < 1<<30
}
