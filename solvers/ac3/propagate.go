package ac3

import (
	"math/rand/v2"

	"sudokulab"
)

// The values of the propagate parameter: how much constraint propagation
// a stochastic solver applies inside its search, after each constructive
// step (each cell a sampling or construction fixes).
const (
	// PropagateNone propagates nothing: the solver as its paper has it.
	PropagateNone = "none"
	// PropagateSingles removes a fixed cell's symbol from its peers and
	// fixes every cell left with one candidate (naked singles), to a
	// fixpoint: forward checking.
	PropagateSingles = "singles"
	// PropagateHidden adds hidden singles: a symbol with one place left in
	// a row, column or box is fixed there, to a fixpoint.
	PropagateHidden = "hidden"
)

// PropagateChoices lists the values of the propagate parameter.
var PropagateChoices = []string{PropagateNone, PropagateSingles, PropagateHidden}

// PropagateParamName is the name every solver gives its propagate
// parameter.
const PropagateParamName = "propagate"

// PropagateParam returns the declaration of a solver's propagate
// parameter; where says where the solver propagates (its constructive
// steps), for the documentation.
func PropagateParam(where string) sudokulab.ParamSpec {
	return sudokulab.ParamSpec{
		Name: PropagateParamName, Kind: sudokulab.ParamChoice, Default: PropagateNone, Choices: PropagateChoices,
		Doc:     "constraint propagation inside the search (not in the paper): none; singles (a fixed cell's symbol leaves its peers, cells left with one candidate are fixed, to a fixpoint); hidden (also a symbol with one place left in a unit is fixed there). Applied " + where,
		Section: "extension (Lloyd and Amos 2019 §3.1 propagate inside their ants; here shared by every solver, package ac3)",
	}
}

// Propagator keeps a candidate set per cell of a grid being built and
// propagates each cell fixed on it, at the level it was made with. Every
// change is recorded on a trail, so Mark and Undo take the state back to
// an earlier point cheaply (a sampler undoes a dead end, or starts the next
// grid from the givens' state). It allocates nothing after NewPropagator.
// One Propagator must not be used by two goroutines at once.
type Propagator struct {
	geo    *sudokulab.Geometry
	n      int
	hidden bool
	full   Set

	cand  []Set
	value []uint8
	trail []trailEntry
	queue []int32 // cells fixed and not yet propagated
	// dirty marks the units to scan for hidden singles; dirtyList holds
	// them.
	dirty     []bool
	dirtyList []int32
	bad       bool
	// ready says the last Reset succeeded: Fill and Draw start from it.
	ready bool
	// free is Fill's scratch: a unit's cells left to fill.
	free []int
}

// trailEntry is a cell's state before a change.
type trailEntry struct {
	cell  int32
	cand  Set
	value uint8
}

// NewPropagator returns a Propagator for grids of shape at level
// PropagateSingles or PropagateHidden (PropagateNone is accepted and then
// fixes only what it is told to, with no propagation). An unknown level is
// an EINVALID error.
func NewPropagator(shape sudokulab.Shape, level string) (*Propagator, error) {
	if level != PropagateNone && level != PropagateSingles && level != PropagateHidden {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "unknown propagate %q (want none, singles or hidden)", level)
	}
	geo := sudokulab.GeometryOf(shape)
	n, nn := geo.N, geo.N*geo.N
	return &Propagator{
		geo: geo, n: n, hidden: level == PropagateHidden, full: Full(n),
		cand: make([]Set, nn), value: make([]uint8, nn),
		trail: make([]trailEntry, 0, nn*(n+1)),
		queue: make([]int32, 0, nn),
		dirty: make([]bool, 3*n), dirtyList: make([]int32, 0, 3*n),
		free: make([]int, 0, n),
	}, nil
}

// Reset starts from puzzle's givens (a cell of 0 is empty), propagates
// them, and clears the trail. It reports false when the givens lead to a
// contradiction (a cell with no candidate, or, with hidden singles, a
// symbol with no place in a unit).
func (p *Propagator) Reset(puzzle []uint8) bool {
	p.trail, p.queue, p.bad = p.trail[:0], p.queue[:0], false
	for i := range p.cand {
		p.cand[i], p.value[i] = p.full, 0
	}
	for i, v := range puzzle {
		if v != 0 && !p.fix(i, v) {
			p.bad = true
			break
		}
	}
	ok := !p.bad && p.run()
	p.trail = p.trail[:0]
	p.ready = ok
	return ok
}

// Assign fixes cell i to v and propagates. It reports false on a
// contradiction; the state is then inconsistent until Undo takes it back
// to a Mark made before.
func (p *Propagator) Assign(i int, v uint8) bool {
	if p.bad {
		return false
	}
	if p.value[i] == v {
		return true
	}
	if !p.fix(i, v) {
		p.bad = true
		return false
	}
	return p.run()
}

// Mark returns the current point of the trail, for Undo.
func (p *Propagator) Mark() int { return len(p.trail) }

// Undo takes the state back to mark (a Mark made since the last Reset).
func (p *Propagator) Undo(mark int) {
	for k := len(p.trail) - 1; k >= mark; k-- {
		e := p.trail[k]
		p.cand[e.cell], p.value[e.cell] = e.cand, e.value
	}
	p.trail = p.trail[:mark]
	p.queue = p.queue[:0]
	for _, u := range p.dirtyList {
		p.dirty[u] = false
	}
	p.dirtyList = p.dirtyList[:0]
	p.bad = false
}

// Candidates returns the symbols cell i may still take (one, its value,
// when fixed).
func (p *Propagator) Candidates(i int) Set { return p.cand[i] }

// Value returns cell i's fixed symbol, or 0.
func (p *Propagator) Value(i int) uint8 { return p.value[i] }

// save records cell i's state on the trail before a change.
func (p *Propagator) save(i int) {
	p.trail = append(p.trail, trailEntry{int32(i), p.cand[i], p.value[i]})
}

// fix sets cell i to v, unpropagated, and queues it. It fails when v is
// not a candidate of i.
func (p *Propagator) fix(i int, v uint8) bool {
	if !p.cand[i].Has(v) || p.value[i] != 0 {
		return false
	}
	p.save(i)
	p.cand[i], p.value[i] = Single(v), v
	p.queue = append(p.queue, int32(i))
	if p.hidden {
		p.markUnits(i) // its other candidates left its units
	}
	return true
}

// remove takes v from the candidates of unfixed cell i; a cell left with
// one is fixed (queued). It fails when i has none left.
func (p *Propagator) remove(i int, v uint8) bool {
	s := p.cand[i]
	if p.value[i] != 0 || !s.Has(v) {
		return true
	}
	p.save(i)
	s &^= Single(v)
	p.cand[i] = s
	if p.hidden {
		p.markUnits(i)
	}
	switch {
	case s == 0:
		return false
	case s&(s-1) == 0:
		w, _ := s.Only()
		p.value[i] = w
		p.queue = append(p.queue, int32(i))
	}
	return true
}

// markUnits marks the units of cell i for the hidden-single scan.
func (p *Propagator) markUnits(i int) {
	for _, u := range [3]int{p.geo.Row[i], p.n + p.geo.Col[i], 2*p.n + p.geo.Box[i]} {
		if !p.dirty[u] {
			p.dirty[u] = true
			p.dirtyList = append(p.dirtyList, int32(u))
		}
	}
}

// run propagates the queued cells, then (with hidden singles) scans the
// marked units, until nothing changes.
func (p *Propagator) run() bool {
	for {
		for len(p.queue) > 0 {
			i := int(p.queue[len(p.queue)-1])
			p.queue = p.queue[:len(p.queue)-1]
			v := p.value[i]
			for _, j := range p.geo.Peers[i] {
				if p.value[j] == v {
					p.bad = true
					return false
				}
				if !p.remove(j, v) {
					p.bad = true
					return false
				}
			}
		}
		if !p.hidden || len(p.dirtyList) == 0 {
			return true
		}
		u := int(p.dirtyList[len(p.dirtyList)-1])
		p.dirtyList = p.dirtyList[:len(p.dirtyList)-1]
		p.dirty[u] = false
		if !p.hiddenSingles(u) {
			p.bad = true
			return false
		}
	}
}

// hiddenSingles fixes each symbol with one place left in unit u, and fails
// when a symbol has none.
func (p *Propagator) hiddenSingles(u int) bool {
	var once, twice, placed Set
	cells := p.geo.Units[u]
	for _, c := range cells {
		if v := p.value[c]; v != 0 {
			placed |= Single(v)
			continue
		}
		s := p.cand[c]
		twice |= once & s
		once |= s
	}
	if once|placed != p.full {
		return false // a symbol with no place left
	}
	for single := once &^ twice &^ placed; single != 0; single &= single - 1 {
		v := Set(single & -single).Min()
		for _, c := range cells {
			if p.value[c] == 0 && p.cand[c].Has(v) {
				if !p.fix(c, v) {
					return false
				}
				break
			}
		}
	}
	return true
}

// fillRetries is how many times Fill draws a unit again after a dead end
// before it fills it without propagation.
const fillRetries = 8

// Fill builds a grid as the solvers that start from units filled with
// permutations do (rows, columns or boxes; units, each a unit index of
// Geometry.Units, must not share a cell), with propagation: it writes the
// givens of the units into cells, as FillUnit does, and from the state
// of the last Reset, unit after unit, each cell that d does not hold as a
// given takes a symbol its unit still lacks, among its candidates and its
// domain in d, drawn uniformly, and is assigned and propagated; the cell
// with the fewest such symbols goes first (ties in a random order). A unit
// that reaches a cell with none is drawn again, and after fillRetries dead
// ends filled by d.FillUnit without propagation; the later units still
// propagate what the others drew (the unit filled without it is left out
// of the propagated state). Fill reports whether every unit was filled
// with propagation. After a Reset that failed it fills every unit by
// d.FillUnit.
func (p *Propagator) Fill(cells []uint8, units []int, d *Domains, rng *rand.Rand) bool {
	if !p.ready {
		for _, u := range units {
			d.FillUnit(cells, u, rng)
		}
		return false
	}
	p.Undo(0)
	all := true
	for _, u := range units {
		ok := false
		for try := 0; try < fillRetries && !ok; try++ {
			mark := p.Mark()
			if ok = p.fillUnit(cells, u, d, rng); !ok {
				p.Undo(mark)
			}
		}
		if !ok {
			d.FillUnit(cells, u, rng)
			all = false
		}
	}
	return all
}

// fillUnit draws unit u's free cells as Fill says, and reports false at a
// dead end.
func (p *Propagator) fillUnit(cells []uint8, u int, d *Domains, rng *rand.Rand) bool {
	lack := p.full
	free := p.free[:0]
	for _, c := range p.geo.Units[u] {
		if d.Given(c) {
			lack &^= Single(d.given[c])
			cells[c] = d.given[c] // as FillUnit does: cells may start empty
		} else {
			free = append(free, c)
		}
	}
	for j := len(free) - 1; j > 0; j-- {
		r := rng.IntN(j + 1)
		free[j], free[r] = free[r], free[j]
	}
	for len(free) > 0 {
		best, bestLen := -1, 0
		for j, c := range free {
			k := (lack & p.cand[c] & d.sets[c]).Len()
			if k == 0 {
				return false
			}
			if best < 0 || k < bestLen {
				best, bestLen = j, k
			}
		}
		c := free[best]
		v := (lack & p.cand[c] & d.sets[c]).Draw(rng)
		cells[c] = v
		lack &^= Single(v)
		free[best] = free[len(free)-1]
		free = free[:len(free)-1]
		if !p.Assign(c, v) {
			return false
		}
	}
	return true
}

// Draw gives each cell of free, in order, a symbol drawn uniformly among
// its candidates and its domain in d, assigned and propagated, as the
// solvers whose grids start with a random symbol per cell build them; a
// cell with no such symbol, or whose symbol leads to a contradiction, draws
// from its domain alone (d.Draw) and is left out of the propagated state,
// which the later cells keep using. It starts from the state of the last
// Reset (after a Reset that failed every cell draws from its domain) and
// reports whether every cell was drawn with propagation.
func (p *Propagator) Draw(cells []uint8, free []int, d *Domains, rng *rand.Rand) bool {
	if p.ready {
		p.Undo(0)
	}
	all := p.ready
	for _, c := range free {
		if p.ready {
			if opts := p.cand[c] & d.sets[c]; opts != 0 {
				cells[c] = opts.Draw(rng)
				mark := p.Mark()
				if p.Assign(c, cells[c]) {
					continue
				}
				p.Undo(mark) // keep the symbol, drop its propagation
				all = false
				continue
			}
			all = false
		}
		cells[c] = d.Draw(c, rng)
	}
	return all
}
