package sudokulab

// Missing counts the symbols missing from the rows, the columns and the
// boxes of a grid: a row holding 2 2 3 3 3 5 6 7 8 misses 1, 4 and 9 and
// adds 3 to Rows. Empty cells hold no symbol. A solved grid misses nothing.
type Missing struct {
	Rows, Cols, Boxes int
}

// Total is the cost function of RESEDA (Maire and Prissette, section 2.1),
// Franco et al. (section 3) and Soto et al.: the number of missing symbols
// summed over rows, columns and boxes. It is 0 exactly when the grid is
// solved.
func (m Missing) Total() int { return m.Rows + m.Cols + m.Boxes }

// Add returns the sum of m and d, used to apply a delta.
func (m Missing) Add(d Missing) Missing {
	return Missing{Rows: m.Rows + d.Rows, Cols: m.Cols + d.Cols, Boxes: m.Boxes + d.Boxes}
}

// SatoInoueFitness is the fitness of Sato and Inoue (section 3.1): the
// number of distinct symbols per row plus per column, N*N*2 (162 for 9x9)
// when solved. Their solvers keep every box a permutation, so boxes do not
// count. It equals 2N^2 minus the missing symbols of rows and columns.
func (m Missing) SatoInoueFitness(n int) int { return 2*n*n - m.Rows - m.Cols }

// Missing returns the missing-symbol counts of g, computed from scratch.
func (g Grid) Missing() Missing {
	t := NewTally(g.Shape)
	t.Reset(g.Cells)
	return t.Missing()
}

// Cost returns g.Missing().Total().
func (g Grid) Cost() int { return g.Missing().Total() }

// Tally keeps, for one grid, how often each symbol occurs in each unit, so
// that the cost of changing one cell or swapping two is computed in constant
// time and applied without a recount. The cells themselves stay with the
// caller (a solver's population may be one flat slice); every call takes the
// cells the Tally was Reset with, and the caller changes them only through
// Set and Swap.
type Tally struct {
	geo     *Geometry
	n       int
	counts  []uint8 // counts[u*n+v-1]: occurrences of v in unit u
	unit    []int8  // missing symbols of each unit
	missing Missing
}

// NewTally returns an empty Tally for grids of shape s.
func NewTally(s Shape) *Tally {
	geo := GeometryOf(s)
	n := geo.N
	return &Tally{geo: geo, n: n, counts: make([]uint8, 3*n*n), unit: make([]int8, 3*n)}
}

// Reset recounts everything from cells.
func (t *Tally) Reset(cells []uint8) {
	clear(t.counts)
	n, geo := t.n, t.geo
	for i, v := range cells {
		if v == 0 {
			continue
		}
		t.counts[geo.Row[i]*n+int(v)-1]++
		t.counts[(n+geo.Col[i])*n+int(v)-1]++
		t.counts[(2*n+geo.Box[i])*n+int(v)-1]++
	}
	t.missing = Missing{}
	for u := 0; u < 3*n; u++ {
		m := 0
		for _, c := range t.counts[u*n : u*n+n] {
			if c == 0 {
				m++
			}
		}
		t.unit[u] = int8(m)
		switch {
		case u < n:
			t.missing.Rows += m
		case u < 2*n:
			t.missing.Cols += m
		default:
			t.missing.Boxes += m
		}
	}
}

// CopyFrom makes t a copy of o, which must have the same shape.
func (t *Tally) CopyFrom(o *Tally) {
	copy(t.counts, o.counts)
	copy(t.unit, o.unit)
	t.missing = o.missing
}

// Missing returns the current missing-symbol counts.
func (t *Tally) Missing() Missing { return t.missing }

// Cost returns the current Missing().Total().
func (t *Tally) Cost() int { return t.missing.Total() }

// UnitMissing returns the symbols missing from unit u (rows 0..N-1, columns
// N..2N-1, boxes 2N..3N-1, as in Geometry.Units).
func (t *Tally) UnitMissing(u int) int { return int(t.unit[u]) }

// Count returns how often symbol v occurs in unit u.
func (t *Tally) Count(u, v int) int { return int(t.counts[u*t.n+v-1]) }

// delta is the change in unit u's missing count when one rm leaves it and
// one add enters it (0 stands for no symbol).
func (t *Tally) delta(u int, rm, add uint8) int {
	if rm == add {
		return 0
	}
	d := 0
	base := u * t.n
	if rm != 0 && t.counts[base+int(rm)-1] == 1 {
		d++
	}
	if add != 0 && t.counts[base+int(add)-1] == 0 {
		d--
	}
	return d
}

func (t *Tally) apply(u int, rm, add uint8) {
	if rm == add {
		return
	}
	base := u * t.n
	if rm != 0 {
		t.counts[base+int(rm)-1]--
		if t.counts[base+int(rm)-1] == 0 {
			t.unit[u]++
		}
	}
	if add != 0 {
		if t.counts[base+int(add)-1] == 0 {
			t.unit[u]--
		}
		t.counts[base+int(add)-1]++
	}
}

// SetDelta returns the change in the missing counts if cell i were set to v.
// It changes nothing.
func (t *Tally) SetDelta(cells []uint8, i int, v uint8) Missing {
	old, n, geo := cells[i], t.n, t.geo
	return Missing{
		Rows:  t.delta(geo.Row[i], old, v),
		Cols:  t.delta(n+geo.Col[i], old, v),
		Boxes: t.delta(2*n+geo.Box[i], old, v),
	}
}

// Set sets cell i to v and updates the counts.
func (t *Tally) Set(cells []uint8, i int, v uint8) {
	d := t.SetDelta(cells, i, v)
	old, n, geo := cells[i], t.n, t.geo
	t.apply(geo.Row[i], old, v)
	t.apply(n+geo.Col[i], old, v)
	t.apply(2*n+geo.Box[i], old, v)
	cells[i] = v
	t.missing = t.missing.Add(d)
}

// SwapDelta returns the change in the missing counts if cells i and j
// exchanged their values. Units holding both cells do not change. It changes
// nothing.
func (t *Tally) SwapDelta(cells []uint8, i, j int) Missing {
	a, b := cells[i], cells[j]
	var d Missing
	if a == b {
		return d
	}
	n, geo := t.n, t.geo
	if ri, rj := geo.Row[i], geo.Row[j]; ri != rj {
		d.Rows = t.delta(ri, a, b) + t.delta(rj, b, a)
	}
	if ci, cj := geo.Col[i], geo.Col[j]; ci != cj {
		d.Cols = t.delta(n+ci, a, b) + t.delta(n+cj, b, a)
	}
	if bi, bj := geo.Box[i], geo.Box[j]; bi != bj {
		d.Boxes = t.delta(2*n+bi, a, b) + t.delta(2*n+bj, b, a)
	}
	return d
}

// Swap exchanges the values of cells i and j and updates the counts.
func (t *Tally) Swap(cells []uint8, i, j int) {
	a, b := cells[i], cells[j]
	if a == b {
		return
	}
	d := t.SwapDelta(cells, i, j)
	n, geo := t.n, t.geo
	if ri, rj := geo.Row[i], geo.Row[j]; ri != rj {
		t.apply(ri, a, b)
		t.apply(rj, b, a)
	}
	if ci, cj := geo.Col[i], geo.Col[j]; ci != cj {
		t.apply(n+ci, a, b)
		t.apply(n+cj, b, a)
	}
	if bi, bj := geo.Box[i], geo.Box[j]; bi != bj {
		t.apply(2*n+bi, a, b)
		t.apply(2*n+bj, b, a)
	}
	cells[i], cells[j] = b, a
	t.missing = t.missing.Add(d)
}
