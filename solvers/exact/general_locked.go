package exact

// locked applies pointing and claiming once: a symbol whose places in a box
// lie on one row or column leaves the rest of that line, and a symbol whose
// places on a line lie in one box leaves the rest of that box. It reports
// whether it removed a candidate, and false for ok when a cell lost its
// last one. The cells it leaves with one candidate wait in the queue.
//
// The segments (where a line meets a box) are gathered once, before any
// removal; a removal only shrinks them, so a symbol found confined to one
// segment stays confined to it (or is gone, which propagation finds), and
// every removal is sound.
func (g *general) locked() (changed, ok bool) {
	n, br, bc := g.n, g.shape.BoxRows, g.shape.BoxCols
	stacks, bands := n/bc, n/br
	cand := g.cand
	// The symbols fixed in each unit: propagation took them from the rest
	// of the unit already, so they are left out of the removals.
	fixed := g.used
	clear(fixed)
	for r := 0; r < n; r++ {
		row := cand[r*n : r*n+n]
		for s := 0; s < stacks; s++ {
			var m uint32
			for _, x := range row[s*bc : s*bc+bc] {
				m |= x
			}
			g.rowSeg[r*stacks+s] = m
		}
		for c, x := range row {
			if x&(x-1) == 0 {
				fixed[r] |= x
				fixed[n+c] |= x
				fixed[2*n+r/br*stacks+c/bc] |= x
			}
		}
	}
	rowFixed, colFixed, boxFixed := fixed[:n], fixed[n:2*n], fixed[2*n:]
	for c := 0; c < n; c++ {
		for b := 0; b < bands; b++ {
			var m uint32
			for i := b * br; i < b*br+br; i++ {
				m |= cand[i*n+c]
			}
			g.colSeg[c*bands+b] = m
		}
	}
	// remove takes the symbols m from the cell, reporting false when it
	// empties it.
	remove := func(cell int, m uint32) bool {
		x := cand[cell]
		if x&m == 0 {
			return true
		}
		x &^= m
		if x == 0 {
			_, _, g.failUnit = g.unitsOf(cell)
			return false
		}
		cand[cell] = x
		changed = true
		if x&(x-1) == 0 {
			g.solved++
			g.queue = append(g.queue, int32(cell))
		}
		return true
	}
	for b := 0; b < bands; b++ {
		for s := 0; s < stacks; s++ {
			// Pointing along rows: the box's symbols on one of its rows.
			var once, twice uint32
			for r := b * br; r < b*br+br; r++ {
				m := g.rowSeg[r*stacks+s]
				twice |= once & m
				once |= m
			}
			for r := b * br; r < b*br+br; r++ {
				if m := g.rowSeg[r*stacks+s] & once &^ twice &^ rowFixed[r]; m != 0 {
					for c := 0; c < n; c++ {
						if c/bc != s && !remove(r*n+c, m) {
							return changed, false
						}
					}
				}
			}
			// Pointing along columns.
			once, twice = 0, 0
			for c := s * bc; c < s*bc+bc; c++ {
				m := g.colSeg[c*bands+b]
				twice |= once & m
				once |= m
			}
			for c := s * bc; c < s*bc+bc; c++ {
				if m := g.colSeg[c*bands+b] & once &^ twice &^ colFixed[c]; m != 0 {
					for r := 0; r < n; r++ {
						if r/br != b && !remove(r*n+c, m) {
							return changed, false
						}
					}
				}
			}
		}
	}
	// Claiming: a row's symbols in one of its boxes.
	for r := 0; r < n; r++ {
		var once, twice uint32
		for s := 0; s < stacks; s++ {
			m := g.rowSeg[r*stacks+s]
			twice |= once & m
			once |= m
		}
		b := r / br
		for s := 0; s < stacks; s++ {
			if m := g.rowSeg[r*stacks+s] & once &^ twice &^ boxFixed[b*stacks+s]; m != 0 {
				for i := b * br; i < b*br+br; i++ {
					if i == r {
						continue
					}
					for c := s * bc; c < s*bc+bc; c++ {
						if !remove(i*n+c, m) {
							return changed, false
						}
					}
				}
			}
		}
	}
	// Claiming: a column's symbols in one of its boxes.
	for c := 0; c < n; c++ {
		var once, twice uint32
		for b := 0; b < bands; b++ {
			m := g.colSeg[c*bands+b]
			twice |= once & m
			once |= m
		}
		s := c / bc
		for b := 0; b < bands; b++ {
			if m := g.colSeg[c*bands+b] & once &^ twice &^ boxFixed[b*stacks+s]; m != 0 {
				for i := b * br; i < b*br+br; i++ {
					for j := s * bc; j < s*bc+bc; j++ {
						if j != c && !remove(i*n+j, m) {
							return changed, false
						}
					}
				}
			}
		}
	}
	return changed, true
}
