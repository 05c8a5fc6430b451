// Package ac3 is the constraint network of a Sudoku puzzle (one variable
// per cell whose domain is a Set of symbols; all-different on every row,
// column and box) and the filtering that prunes it before a stochastic
// search, as the prefiltering phase of Soto et al. 2014 (section 5):
//
//   - Prune enforces arc consistency with AC3 (Algorithms 6 and 7, Revise3
//     and AC3/GAC3) on the binary not-equal constraints between peers,
//     the network of the paper's Example 6. On Sudoku this removes from
//     each cell the values fixed in its peers, to a fixpoint.
//   - PruneGAC enforces generalized arc consistency on each all-different
//     constraint as a whole (a value stays only if some assignment of the
//     whole unit uses it, found with a matching as in Régin's filtering).
//     It is stronger: it also finds hidden singles and naked or hidden
//     subsets.
//
// Both report what they removed (Stats, Domains.Removed) and detect a
// wiped-out domain, which proves that the puzzle has no solution
// (ErrNoSolution).
//
// Other solvers adopt the prefilter through Param (the "prefilter"
// parameter: none, ac3 or gac) and Apply, then draw initial values and
// moves from the returned Domains: Draw for one cell, FillUnit for a unit
// filled as a permutation, Fixed for cells that must not move, SwapOK for
// a swap that keeps both cells in their domains, Within for a whole grid.
// With prefilter none the domains are the givens and every symbol
// elsewhere, so the same code runs unfiltered.
//
// Everything works for any box shape up to sudokulab.MaxN.
package ac3

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"sudokulab"
)

// ErrNoSolution is the error Prune and PruneGAC return, wrapped in a
// *WipeoutError, when filtering proves that the puzzle has no solution.
var ErrNoSolution = errors.New("the puzzle has no solution")

// WipeoutError says where filtering proved the puzzle unsolvable: a cell
// whose domain became empty (AC3), or a unit whose cells cannot all take
// different values of their domains (GAC).
type WipeoutError struct {
	// Cell is the cell whose domain was wiped out, or -1.
	Cell int
	// Unit is the unit with no valid assignment (rows 0..N-1, columns
	// N..2N-1, boxes 2N..3N-1), or -1.
	Unit int
	geo  *sudokulab.Geometry
}

func (e *WipeoutError) Error() string {
	if e.Cell >= 0 {
		return fmt.Sprintf("ac3: %s has no value left: %v", e.geo.CellName(e.Cell), ErrNoSolution)
	}
	return fmt.Sprintf("ac3: %s cannot hold all different values: %v", e.geo.UnitName(e.Unit), ErrNoSolution)
}

// Is makes errors.Is(err, ErrNoSolution) true.
func (e *WipeoutError) Is(target error) bool { return target == ErrNoSolution }

// Stats says what a filtering did.
type Stats struct {
	// Revisions counts calls to Revise (AC3: one per arc revised; GAC: one
	// per unit filtered).
	Revisions int
	// Empty is the number of empty cells of the puzzle.
	Empty int
	// Removed counts the values removed from the domains of the empty
	// cells, which start with all N symbols.
	Removed int
	// Remaining counts the values left in the domains of the empty cells.
	Remaining int
	// Fixed counts the empty cells left with a single value.
	Fixed int
}

// Domains holds a domain for every cell of a puzzle: a given's domain is
// the given, an empty cell's the values filtering left. It also keeps
// scratch space for FillUnit, so one Domains must not be used by two
// goroutines at once (Clone gives another).
type Domains struct {
	geo   *sudokulab.Geometry
	n     int
	given []uint8 // the puzzle's cells
	sets  []Set

	// FillUnit scratch.
	free   []int
	order  []int
	cand   []Set
	val    []uint8
	owner  []int // owner[v]: index into free of the cell holding v, or -1
	budget int

	// revisions is the work of the filtering that made these domains
	// (Stats.Revisions), 0 for Unfiltered.
	revisions int
}

// Unfiltered returns the domains before any filtering: each given alone,
// every symbol in each empty cell. They are the domains of prefilter none.
func Unfiltered(puzzle sudokulab.Grid) *Domains {
	geo := puzzle.Geometry()
	n := geo.N
	d := &Domains{
		geo: geo, n: n,
		given: append([]uint8(nil), puzzle.Cells...),
		sets:  make([]Set, len(puzzle.Cells)),
		free:  make([]int, 0, n), order: make([]int, n), cand: make([]Set, n),
		val: make([]uint8, n), owner: make([]int, n+1),
	}
	for i, v := range puzzle.Cells {
		if v != 0 {
			d.sets[i] = Single(v)
		} else {
			d.sets[i] = Full(n)
		}
	}
	return d
}

// Clone returns an independent copy of d.
func (d *Domains) Clone() *Domains {
	c := *d
	c.given = append([]uint8(nil), d.given...)
	c.sets = append([]Set(nil), d.sets...)
	c.free, c.order, c.cand = make([]int, 0, d.n), make([]int, d.n), make([]Set, d.n)
	c.val, c.owner = make([]uint8, d.n), make([]int, d.n+1)
	return &c
}

// Revisions returns the work of the filtering that made d (its
// Stats.Revisions): 0 for Unfiltered domains. Solvers report it as
// sudokulab.Result.PrefilterRevisions.
func (d *Domains) Revisions() int { return d.revisions }

// Geometry returns the unit structure of the puzzle's shape.
func (d *Domains) Geometry() *sudokulab.Geometry { return d.geo }

// Domain returns the domain of cell i.
func (d *Domains) Domain(i int) Set { return d.sets[i] }

// Has reports whether v is in the domain of cell i.
func (d *Domains) Has(i int, v uint8) bool { return d.sets[i].Has(v) }

// Given reports whether cell i is a given of the puzzle.
func (d *Domains) Given(i int) bool { return d.given[i] != 0 }

// Fixed reports whether cell i can hold one value only: a given, or an
// empty cell that filtering reduced to a single value. A search should
// treat fixed cells as givens.
func (d *Domains) Fixed(i int) bool { return d.sets[i]&(d.sets[i]-1) == 0 }

// Removed returns the values filtering removed from cell i: none for a
// given.
func (d *Domains) Removed(i int) Set {
	if d.given[i] != 0 {
		return 0
	}
	return Full(d.n) &^ d.sets[i]
}

// Draw returns a value of cell i's domain drawn uniformly with rng (0 for
// an empty domain).
func (d *Domains) Draw(i int, rng *rand.Rand) uint8 { return d.sets[i].Draw(rng) }

// SwapOK reports whether exchanging the values of cells i and j keeps both
// in their domains. It is false for a fixed cell unless both values are
// equal.
func (d *Domains) SwapOK(cells []uint8, i, j int) bool {
	return d.sets[i].Has(cells[j]) && d.sets[j].Has(cells[i])
}

// Within reports whether every cell of cells holds a value of its domain.
func (d *Domains) Within(cells []uint8) bool {
	for i, v := range cells {
		if !d.sets[i].Has(v) {
			return false
		}
	}
	return true
}

// Grid returns the puzzle with every fixed cell filled in: the givens that
// filtering leaves. It is solved when filtering fixed every cell.
func (d *Domains) Grid() sudokulab.Grid {
	g := sudokulab.Grid{Shape: d.geo.Shape, Cells: make([]uint8, len(d.sets))}
	for i, s := range d.sets {
		g.Cells[i], _ = s.Only()
	}
	return g
}

// Stats counts what filtering removed from the empty cells.
func (d *Domains) Stats() Stats {
	var st Stats
	for i, s := range d.sets {
		if d.given[i] != 0 {
			continue
		}
		st.Empty++
		st.Remaining += s.Len()
		st.Removed += d.n - s.Len()
		if s.Len() == 1 {
			st.Fixed++
		}
	}
	return st
}

// Prune builds the constraint network of puzzle and enforces arc
// consistency with AC3 on its binary not-equal constraints (Soto et al.
// 2014, section 5, Algorithm 7): every arc (xi, xj) between peers starts
// in the queue; Revise removes from xi's domain the values with no support
// in xj (a value a has none when xj's domain is {a}); when xi's domain
// shrinks, the arcs (xk, xi) of its other peers go back into the queue.
// It stops at the fixpoint, or with a *WipeoutError (errors.Is
// ErrNoSolution) when a domain becomes empty; the Domains are then those at
// the wipe-out. Givens that break the rules wipe out too.
func Prune(puzzle sudokulab.Grid) (*Domains, Stats, error) {
	d := Unfiltered(puzzle)
	geo, nn := d.geo, len(d.sets)
	// The queue holds arcs (i, j) encoded as i*nn+j, each at most once.
	queued := make([]bool, nn*nn)
	queue := make([]int32, 0, nn*len(geo.Peers[0]))
	for i := range nn {
		for _, j := range geo.Peers[i] {
			queue = append(queue, int32(i*nn+j))
			queued[i*nn+j] = true
		}
	}
	var st Stats
	for head := 0; head < len(queue); head++ {
		arc := int(queue[head])
		queued[arc] = false
		i, j := arc/nn, arc%nn
		st.Revisions++
		if !d.revise(i, j) {
			continue
		}
		if d.sets[i] == 0 {
			s := d.Stats()
			s.Revisions = st.Revisions
			d.revisions = st.Revisions
			return d, s, &WipeoutError{Cell: i, Unit: -1, geo: geo}
		}
		for _, k := range geo.Peers[i] {
			if k != j && !queued[k*nn+i] {
				queued[k*nn+i] = true
				queue = append(queue, int32(k*nn+i))
			}
		}
		// Compact the queue now and then so it stays small.
		if head > 4*nn && head*2 > len(queue) {
			queue = append(queue[:0], queue[head+1:]...)
			head = -1
		}
	}
	s := d.Stats()
	s.Revisions = st.Revisions
	d.revisions = st.Revisions
	return d, s, nil
}

// revise is Revise3 (Soto et al., Algorithm 6) for the constraint xi != xj:
// it removes from xi's domain every value a with no support b != a in xj's
// domain, and reports whether it removed anything.
func (d *Domains) revise(i, j int) bool {
	di, dj := d.sets[i], d.sets[j]
	changed := false
	for rest := di; rest != 0; rest &= rest - 1 {
		a := rest & -rest
		if dj&^a == 0 { // no b in Dj with b != a
			di &^= a
			changed = true
		}
	}
	d.sets[i] = di
	return changed
}

// PruneGAC enforces generalized arc consistency on the all-different
// constraint of every row, column and box, to a fixpoint: a value stays in
// a cell's domain only if the unit has an assignment of different values,
// each from its cell's domain, that gives the cell that value. Each
// revision finds a maximum matching of the unit's cells to symbols and keeps
// the edges on an alternating cycle (Régin 1994). A unit whose cells cannot
// be matched is a *WipeoutError naming the unit.
func PruneGAC(puzzle sudokulab.Grid) (*Domains, Stats, error) {
	d := Unfiltered(puzzle)
	geo, n := d.geo, d.n
	queued := make([]bool, 3*n)
	queue := make([]int, 0, 3*n)
	for u := range 3 * n {
		queue = append(queue, u)
		queued[u] = true
	}
	g := newMatcher(n)
	revisions := 0
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		queued[u] = false
		revisions++
		cells := geo.Units[u]
		for k, c := range cells {
			g.dom[k] = d.sets[c]
		}
		if !g.filter() {
			s := d.Stats()
			s.Revisions = revisions
			d.revisions = revisions
			return d, s, &WipeoutError{Cell: -1, Unit: u, geo: geo}
		}
		for k, c := range cells {
			if g.dom[k] == d.sets[c] {
				continue
			}
			d.sets[c] = g.dom[k]
			for _, w := range [3]int{geo.Row[c], n + geo.Col[c], 2*n + geo.Box[c]} {
				if w != u && !queued[w] {
					queued[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	s := d.Stats()
	s.Revisions = revisions
	d.revisions = revisions
	return d, s, nil
}

// matcher filters one all-different constraint over n variables and n
// symbols, with bitsets.
type matcher struct {
	n     int
	dom   []Set // the variables' domains, filtered in place
	mate  []int // mate[k]: the symbol (1..n) matched to variable k, or 0
	owner []int // owner[v]: the variable matched to symbol v, or -1
	seen  Set
	reach []uint32 // reach[k]: variables reachable from k by alternating paths
}

func newMatcher(n int) *matcher {
	return &matcher{n: n, dom: make([]Set, n), mate: make([]int, n), owner: make([]int, n+1), reach: make([]uint32, n)}
}

// augment looks for an alternating path from variable k to a free symbol
// (Kuhn's algorithm).
func (m *matcher) augment(k int) bool {
	for rest := m.dom[k] &^ m.seen; rest != 0; rest &= rest - 1 {
		v := rest.Min()
		m.seen |= Single(v)
		if m.owner[v] < 0 || m.augment(m.owner[v]) {
			m.mate[k], m.owner[v] = int(v), k
			return true
		}
	}
	return false
}

// filter matches every variable to a distinct symbol, then keeps in each
// domain the matched symbol and the symbols v whose owner reaches the
// variable through alternating edges (so that the edge lies on an even
// cycle). With n variables and n symbols a perfect matching leaves no free
// symbol, so no edge is kept for an even path to one. It reports false when
// no perfect matching exists.
func (m *matcher) filter() bool {
	n := m.n
	for v := range m.owner {
		m.owner[v] = -1
	}
	for k := range n {
		m.mate[k] = 0
		m.seen = 0
		if !m.augment(k) {
			return false
		}
	}
	// Variable graph: k -> owner(v) for every v in dom[k] other than its
	// mate. The edge (k, v) lies on an alternating cycle when owner(v)
	// reaches k.
	for k := range n {
		var r uint32
		for rest := m.dom[k] &^ Single(uint8(m.mate[k])); rest != 0; rest &= rest - 1 {
			r |= 1 << m.owner[rest.Min()]
		}
		m.reach[k] = r
	}
	for via := range n { // transitive closure (Warshall)
		bit := uint32(1) << via
		for k := range n {
			if m.reach[k]&bit != 0 {
				m.reach[k] |= m.reach[via]
			}
		}
	}
	for k := range n {
		keep := Single(uint8(m.mate[k]))
		for rest := m.dom[k] &^ keep; rest != 0; rest &= rest - 1 {
			v := rest.Min()
			if m.reach[m.owner[v]]&(1<<k) != 0 {
				keep |= Single(v)
			}
		}
		m.dom[k] = keep
	}
	return true
}
