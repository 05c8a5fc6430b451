package raters

import "math/bits"

// netState is a scratch copy of a position's placed digits and candidates
// on which a forcing net follows the consequences of an assumption.
type netState struct {
	p      *Position
	values []uint8
	cands  []uint32
	queue  []Candidate
}

func newNetState(p *Position) *netState {
	return &netState{p: p, values: make([]uint8, len(p.values)), cands: make([]uint32, len(p.cands))}
}

// reset copies p's digits and candidates into s.
func (s *netState) reset() {
	copy(s.values, s.p.values)
	copy(s.cands, s.p.cands)
	s.queue = s.queue[:0]
}

// assume places digit d in cell and follows the naked and hidden singles
// that result until none is left. It returns false on a contradiction: a
// cell without candidates, a digit with no place in a unit, or a digit
// placed twice in a unit.
func (s *netState) assume(cell, d int) bool {
	s.queue = append(s.queue[:0], Candidate{cell, d})
	geo := s.p.geo
	for {
		for len(s.queue) > 0 {
			c := s.queue[len(s.queue)-1]
			s.queue = s.queue[:len(s.queue)-1]
			bit := uint32(1) << (c.Digit - 1)
			if s.values[c.Cell] != 0 {
				if int(s.values[c.Cell]) != c.Digit {
					return false
				}
				continue
			}
			if s.cands[c.Cell]&bit == 0 {
				return false
			}
			s.values[c.Cell] = uint8(c.Digit)
			s.cands[c.Cell] = 0
			for _, q := range geo.Peers[c.Cell] {
				if s.values[q] == uint8(c.Digit) {
					return false
				}
				if s.cands[q]&bit == 0 {
					continue
				}
				s.cands[q] &^= bit
				switch bits.OnesCount32(s.cands[q]) {
				case 0:
					return false
				case 1:
					s.queue = append(s.queue, Candidate{q, bits.TrailingZeros32(s.cands[q]) + 1})
				}
			}
		}
		// Hidden singles, and digits left without a place.
		for _, unit := range geo.Units {
			var placed, once, twice uint32
			for _, c := range unit {
				if v := s.values[c]; v != 0 {
					placed |= 1 << (v - 1)
					continue
				}
				m := s.cands[c]
				twice |= once & m
				once |= m
			}
			all := uint32(1)<<s.p.n - 1
			if (placed|once)&all != all {
				return false
			}
			for m := once &^ twice &^ placed; m != 0; m &= m - 1 {
				d := bits.TrailingZeros32(m)
				for _, c := range unit {
					if s.cands[c]&(1<<d) != 0 {
						s.queue = append(s.queue, Candidate{c, d + 1})
						break
					}
				}
			}
		}
		if len(s.queue) == 0 {
			return true
		}
	}
}

// findForcingNet finds a forcing net, as HoDoKu calls a forcing chain
// whose implications may need several premises at once: a candidate
// assumed true leads, by naked and hidden singles, to a contradiction, so
// it is false (contradiction net); or every candidate of a cell, or every
// place of a digit in a unit, leads to the same placement or elimination,
// which therefore holds (verity net; cells and units of two or three
// candidates). It is the rater's last resort: people use it where no
// pattern helps, and it is a form of trial and error.
func findForcingNet(p *Position) (Step, bool) {
	s := newNetState(p)
	// Contradiction: one assumption at a time.
	for c, m := range p.cands {
		if p.values[c] != 0 {
			continue
		}
		if p.stopped() {
			return Step{}, false
		}
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros32(m) + 1
			s.reset()
			if !s.assume(c, d) {
				return Step{Technique: ForcingNet, Eliminations: []Candidate{{c, d}}}, true
			}
		}
	}
	// Verity: the common consequences of every case.
	common := newNetState(p)
	verity := func(cases []Candidate) (Step, bool) {
		for i, k := range cases {
			s.reset()
			if !s.assume(k.Cell, k.Digit) {
				return Step{}, false // found above; the position changed meanwhile
			}
			if i == 0 {
				copy(common.values, s.values)
				for c := range common.cands {
					common.cands[c] = s.cands[c] | placedBit(s.values[c])
				}
				continue
			}
			for c := range common.values {
				if common.values[c] != s.values[c] {
					common.values[c] = 0
				}
				// A candidate is out in every case if it is out in this
				// one too (a placed digit is out of the candidates).
				common.cands[c] |= s.cands[c] | placedBit(s.values[c])
			}
		}
		var st Step
		for c := range common.values {
			if p.values[c] != 0 {
				continue
			}
			if v := common.values[c]; v != 0 {
				st.Placements = append(st.Placements, Candidate{c, int(v)})
				continue
			}
			st.Eliminations = p.elimsFrom(st.Eliminations, c, ^common.cands[c])
		}
		if len(st.Placements) == 0 && len(st.Eliminations) == 0 {
			return Step{}, false
		}
		st.Technique = ForcingNet
		return st, true
	}
	for c, m := range p.cands {
		if p.values[c] != 0 || bits.OnesCount32(m) > 3 {
			continue
		}
		if p.stopped() {
			return Step{}, false
		}
		var cases []Candidate
		for _, d := range digits(m) {
			cases = append(cases, Candidate{c, d})
		}
		if st, ok := verity(cases); ok {
			return st, true
		}
	}
	for u, unit := range p.geo.Units {
		if p.stopped() {
			return Step{}, false
		}
		for d := 1; d <= p.n; d++ {
			m := p.unitMask(u, d)
			if k := bits.OnesCount32(m); k < 2 || k > 3 {
				continue
			}
			var cases []Candidate
			for ; m != 0; m &= m - 1 {
				cases = append(cases, Candidate{unit[bits.TrailingZeros32(m)], d})
			}
			if st, ok := verity(cases); ok {
				return st, true
			}
		}
	}
	return Step{}, false
}

// placedBit returns the candidate bit of a placed digit, 0 for none.
func placedBit(v uint8) uint32 {
	if v == 0 {
		return 0
	}
	return 1 << (v - 1)
}
