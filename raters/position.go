package raters

import (
	"math/bits"

	"sudokulab"
)

// Candidate is one candidate: a digit (1..N) in a cell (row-major index).
type Candidate struct {
	Cell, Digit int
}

// Step is one deduction of the human rater: the technique, the digits it
// places and the candidates it eliminates.
type Step struct {
	Technique    Technique
	Placements   []Candidate
	Eliminations []Candidate
	// Links is the number of links of a chain (X-chain, XY-chain), 0 for
	// other techniques.
	Links int
}

// Position is a grid with pencil marks: the placed digits and, for each
// empty cell, its candidates as a bitset (bit d-1 for digit d). It is the
// human rater's working state; tests build positions by hand with
// NewPosition and Remove.
type Position struct {
	geo    *sudokulab.Geometry
	n      int
	values []uint8
	cands  []uint32
	// given marks the puzzle's givens (unique rectangles must avoid them).
	given []bool
	// bad is set when a placement or elimination emptied a cell or
	// placed a digit twice in a unit: the puzzle has no solution.
	bad bool
	// done, while SolveLogically works on the position, is its
	// context's Done channel (nil otherwise: never closed).
	done <-chan struct{}
	// als caches the ALSs of the current candidates (als.go).
	als *alsCache
}

// NewPosition returns the position of a puzzle: its givens placed and every
// empty cell's candidates the digits none of its peers holds.
func NewPosition(g sudokulab.Grid) *Position {
	geo := g.Geometry()
	n := geo.N
	p := &Position{geo: geo, n: n, values: make([]uint8, n*n), cands: make([]uint32, n*n), given: make([]bool, n*n)}
	all := uint32(1)<<n - 1
	for i := range p.cands {
		p.cands[i] = all
	}
	for i, v := range g.Cells {
		if v != 0 {
			p.given[i] = true
			p.place(i, int(v))
		}
	}
	return p
}

// Value returns the digit placed in cell, 0 if it is empty.
func (p *Position) Value(cell int) int { return int(p.values[cell]) }

// Candidates returns the candidate bitset of cell (0 once it is placed).
func (p *Position) Candidates(cell int) uint32 { return p.cands[cell] }

// Has says whether digit d is a candidate of cell.
func (p *Position) Has(cell, d int) bool { return p.cands[cell]&(1<<(d-1)) != 0 }

// Remove eliminates digit d from cell's candidates.
func (p *Position) Remove(cell, d int) {
	p.cands[cell] &^= 1 << (d - 1)
	if p.values[cell] == 0 && p.cands[cell] == 0 {
		p.bad = true
	}
}

// Keep restricts cell's candidates to the given digits.
func (p *Position) Keep(cell int, digits ...int) {
	var m uint32
	for _, d := range digits {
		m |= 1 << (d - 1)
	}
	p.cands[cell] &= m
	if p.values[cell] == 0 && p.cands[cell] == 0 {
		p.bad = true
	}
}

// Grid returns the placed digits as a grid.
func (p *Position) Grid() sudokulab.Grid {
	return sudokulab.Grid{Shape: p.geo.Shape, Cells: append([]uint8(nil), p.values...)}
}

// Solved says whether every cell holds a digit.
func (p *Position) Solved() bool {
	for _, v := range p.values {
		if v == 0 {
			return false
		}
	}
	return true
}

// place puts digit d in cell and removes it from the cell's peers.
func (p *Position) place(cell, d int) {
	if p.values[cell] != 0 || p.cands[cell]&(1<<(d-1)) == 0 {
		p.bad = true
	}
	p.values[cell] = uint8(d)
	p.cands[cell] = 0
	for _, q := range p.geo.Peers[cell] {
		if p.values[q] == uint8(d) {
			p.bad = true
		}
		p.Remove(q, d)
	}
}

// Apply carries out a step.
func (p *Position) Apply(s Step) {
	for _, c := range s.Placements {
		p.place(c.Cell, c.Digit)
	}
	for _, c := range s.Eliminations {
		p.Remove(c.Cell, c.Digit)
	}
}

// stopped says whether the solve working on p was cancelled. The costly
// finders check it between units, digits and chain starts and then give
// up, reporting nothing found; SolveLogically tells that apart from a
// stall by its context's error.
func (p *Position) stopped() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// sees says whether cells a and b share a unit (a cell does not see
// itself).
func (p *Position) sees(a, b int) bool {
	g := p.geo
	return a != b && (g.Row[a] == g.Row[b] || g.Col[a] == g.Col[b] || g.Box[a] == g.Box[b])
}

// unitMask returns the positions (indexes into the unit's cell list) of
// the cells of unit u having digit d as a candidate.
func (p *Position) unitMask(u, d int) uint32 {
	var m uint32
	bit := uint32(1) << (d - 1)
	for i, c := range p.geo.Units[u] {
		if p.cands[c]&bit != 0 {
			m |= 1 << i
		}
	}
	return m
}

// elimsFrom returns the eliminations of digits (a bitset) from cells,
// keeping only candidates that are there.
func (p *Position) elimsFrom(out []Candidate, cell int, digits uint32) []Candidate {
	m := p.cands[cell] & digits
	for m != 0 {
		d := bits.TrailingZeros32(m) + 1
		m &= m - 1
		out = append(out, Candidate{cell, d})
	}
	return out
}

// commonPeerElims returns the eliminations of digit d from every cell that
// sees all the given cells (the cells themselves excluded).
func (p *Position) commonPeerElims(d int, cells ...int) []Candidate {
	var out []Candidate
	for _, q := range p.geo.Peers[cells[0]] {
		if !p.Has(q, d) {
			continue
		}
		ok := true
		for _, c := range cells[1:] {
			if q == c || !p.sees(q, c) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, Candidate{q, d})
		}
	}
	return out
}

// digits lists the digits of a bitset in increasing order.
func digits(m uint32) []int {
	var out []int
	for m != 0 {
		out = append(out, bits.TrailingZeros32(m)+1)
		m &= m - 1
	}
	return out
}
