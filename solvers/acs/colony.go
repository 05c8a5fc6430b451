package acs

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// colony is the state of one run. Everything is allocated in newColony, so
// that iterations allocate nothing.
type colony struct {
	cfg  config
	rng  *rand.Rand
	geo  *sudokulab.Geometry
	n, c int
	full ac3.Set
	tau0 float64

	// seq[i*3n+3j+k] is the j-th cell of cell i's box (k = 0), column
	// (k = 1) and row (k = 2): the order in which Board::SetCell constrains
	// the peers of a fixed cell.
	seq []int32

	// unitsOf[3i..3i+2] are the row, column and box of cell i (unit
	// numbers as in sudokulab.Geometry); unitCells[u*n..] the cells of
	// unit u.
	unitsOf, unitCells []int32

	initial   []ac3.Set // the propagated puzzle
	initialUF []ac3.Set // the values fixed in each of its units
	dom       []ac3.Set // the ants' grids, c cells each
	uf        []ac3.Set // the values fixed in each unit of each ant's grid, 3n each
	pos       []int     // each ant's current cell
	fail      []int     // each ant's failures in this iteration

	pher     []float64 // pher[i*n+v-1]: pheromone of value v in cell i
	roulette []float64 // cumulative pheromone of the candidate values
	values   []uint8   // the candidate values

	bestSol  []ac3.Set // the colony's best solution
	bestPher float64   // delta_best, the best value

	bestCells  []uint8 // the grid with the most fixed cells so far
	bestFilled int
	meanCost   float64

	iter, evals int64

	// props, with ant-propagation fixpoint, hold each ant's grid instead
	// of dom and uf: one propagator per ant, reset to the givens' state at
	// the start of each iteration.
	props []*ac3.Propagator
}

func newColony(shape sudokulab.Shape, cfg config, rng *rand.Rand) *colony {
	geo := sudokulab.GeometryOf(shape)
	n, c := geo.N, shape.Cells()
	col := &colony{
		cfg: cfg, rng: rng, geo: geo, n: n, c: c,
		full:      ac3.Full(n),
		tau0:      1 / float64(c),
		seq:       make([]int32, c*3*n),
		unitsOf:   make([]int32, 3*c),
		unitCells: make([]int32, 3*n*n),
		initial:   make([]ac3.Set, c),
		initialUF: make([]ac3.Set, 3*n),
		dom:       make([]ac3.Set, cfg.ants*c),
		uf:        make([]ac3.Set, cfg.ants*3*n),
		pos:       make([]int, cfg.ants),
		fail:      make([]int, cfg.ants),
		pher:      make([]float64, c*n),
		roulette:  make([]float64, n),
		values:    make([]uint8, n),
		bestSol:   make([]ac3.Set, c),
		bestCells: make([]uint8, c),
	}
	for i := range c {
		box, cl, row := geo.Units[2*n+geo.Box[i]], geo.Units[n+geo.Col[i]], geo.Units[geo.Row[i]]
		for j := range n {
			k := i*3*n + 3*j
			col.seq[k], col.seq[k+1], col.seq[k+2] = int32(box[j]), int32(cl[j]), int32(row[j])
		}
	}
	for i := range c {
		col.unitsOf[3*i], col.unitsOf[3*i+1], col.unitsOf[3*i+2] = int32(geo.Row[i]), int32(n+geo.Col[i]), int32(2*n+geo.Box[i])
	}
	for u, cells := range geo.Units {
		for j, k := range cells {
			col.unitCells[u*n+j] = int32(k)
		}
	}
	for k := range col.pher {
		col.pher[k] = col.tau0
	}
	if cfg.fixpoint {
		col.props = make([]*ac3.Propagator, cfg.ants)
		for a := range col.props {
			col.props[a], _ = ac3.NewPropagator(shape, ac3.PropagateHidden)
		}
	}
	return col
}

// fixed reports whether a value set holds exactly one value.
func fixed(s ac3.Set) bool { return s != 0 && s&(s-1) == 0 }

// value returns the value of a fixed set.
func value(s ac3.Set) uint8 { return uint8(bits.TrailingZeros32(uint32(s))) + 1 }

// start reads the puzzle as sudoku_acs does (Algorithm 1, lines 1-4): every
// cell may take every value, then the givens are fixed one by one in cell
// order, each propagated. It scores the result as the first evaluation and
// reports false if the propagation proved the puzzle unsolvable (a cell
// left with no value, a given changed, or a value fixed twice in a unit).
func (col *colony) start(puzzle []uint8) bool {
	d := col.initial
	for i := range d {
		d[i] = col.full
	}
	for i, v := range puzzle {
		if v != 0 {
			col.setCell(d, col.initialUF, i, ac3.Single(v))
		}
	}
	col.evals = 1
	feasible := true
	for i, s := range d {
		if s == 0 || (puzzle[i] != 0 && s != ac3.Single(puzzle[i])) {
			feasible = false
		}
	}
	// Conflicting givens are fixed without a check, as in sudoku_acs, so
	// a unit may repeat a value: no solution either.
	for u := range col.geo.Units {
		var seen ac3.Set
		for _, k := range col.unitCells[u*col.n : (u+1)*col.n] {
			if s := d[k]; fixed(s) {
				if seen&s != 0 {
					feasible = false
				}
				seen |= s
			}
		}
	}
	if feasible && col.props != nil {
		// The ants start from the fixpoint of the givens; a contradiction
		// there proves the puzzle unsolvable.
		for _, p := range col.props {
			feasible = feasible && p.Reset(puzzle)
		}
		if feasible {
			p := col.props[0]
			for i := range d {
				d[i] = ac3.Single(p.Value(i)) // 0 for an open cell
			}
		}
	}
	if !feasible {
		copy(col.bestCells, puzzle)
		col.bestFilled = 0
		for _, v := range puzzle {
			if v != 0 {
				col.bestFilled++
			}
		}
		col.meanCost = float64(col.bestCost())
		return false
	}
	col.bestFilled = col.record(d, -1)
	col.meanCost = float64(col.bestCost())
	return true
}

// record copies grid d into bestCells if it has more fixed cells than
// filled (always when filled < 0) and returns its fixed cells.
func (col *colony) record(d []ac3.Set, filled int) int {
	f := 0
	for _, s := range d {
		if fixed(s) {
			f++
		}
	}
	if f > filled {
		for i, s := range d {
			col.bestCells[i] = 0
			if fixed(s) {
				col.bestCells[i] = value(s)
			}
		}
	}
	return f
}

// bestCost is the cost of bestCells: each unfixed cell is missing from its
// row, column and box, and fixed cells never conflict.
func (col *colony) bestCost() int { return 3 * (col.c - col.bestFilled) }

// solved reports whether the best grid is complete.
func (col *colony) solved() bool { return col.bestFilled == col.c }

// setCell fixes cell i of grid d to the single value s unless it is fixed
// already, and constrains its box, column and row peers in sudoku_acs's
// order (Board::SetCell). uf holds the values fixed in each unit of d.
func (col *colony) setCell(d, uf []ac3.Set, i int, s ac3.Set) {
	if fixed(d[i]) {
		return
	}
	d[i] = s
	u := col.unitsOf[3*i : 3*i+3]
	uf[u[0]] |= s
	uf[u[1]] |= s
	uf[u[2]] |= s
	w := 3 * col.n
	for _, k := range col.seq[i*w : (i+1)*w] {
		if int(k) != i {
			col.constrain(d, uf, int(k))
		}
	}
}

// constrain applies the propagation rules of section 3.1 to cell i after a
// peer changed (Board::ConstrainCell): remove the values fixed in its
// units; fix the one value left, or else a value possible nowhere else in
// its row, column or box, looked for in that order.
func (col *colony) constrain(d, uf []ac3.Set, i int) {
	x := d[i]
	if x == 0 || fixed(x) {
		return
	}
	u := col.unitsOf[3*i : 3*i+3]
	open := col.full &^ (uf[u[0]] | uf[u[1]] | uf[u[2]])
	if fixed(open) {
		col.setCell(d, uf, i, open)
		return
	}
	x &= open
	d[i] = x
	for _, unit := range u {
		if only := col.unique(d, x, int(unit), i); fixed(only) {
			col.setCell(d, uf, i, only)
			return
		}
	}
}

// unique returns the values of x that no cell of unit u but i may take.
// It stops as soon as none is left, which gives the same answer as the
// full union of Board::ConstrainCell sooner.
func (col *colony) unique(d []ac3.Set, x ac3.Set, u, i int) ac3.Set {
	n := col.n
	for _, k := range col.unitCells[u*n : (u+1)*n] {
		if int(k) != i {
			if x &^= d[k]; x == 0 {
				return 0
			}
		}
	}
	return x
}

// iterate runs one iteration of Algorithm 1 (lines 6-22): every ant builds
// a grid, the iteration's best may become the best solution, the global
// update reinforces the best solution and the best value evaporates.
func (col *colony) iterate() {
	c, ants := col.c, col.cfg.ants
	for a := range ants {
		if col.props != nil {
			col.props[a].Undo(0)
		} else {
			copy(col.dom[a*c:(a+1)*c], col.initial)
			copy(col.uf[a*3*col.n:(a+1)*3*col.n], col.initialUF)
		}
		col.pos[a] = col.rng.IntN(c)
		col.fail[a] = 0
	}
	for range c {
		for a := range ants {
			if col.props != nil {
				col.stepFixpoint(a)
			} else {
				col.step(a)
			}
		}
	}
	if col.props != nil {
		// The ants' grids as value sets: fixed cells, and 0 for the cells
		// left open, each a failure.
		for a, p := range col.props {
			d := col.dom[a*c : (a+1)*c]
			col.fail[a] = 0
			for i := range d {
				if v := p.Value(i); v != 0 {
					d[i] = ac3.Single(v)
				} else {
					d[i] = 0
					col.fail[a]++
				}
			}
		}
	}
	col.iter++
	col.evals += int64(ants)

	best, bestVal, sum := 0, 0, 0
	for a := range ants {
		f := c - col.fail[a]
		sum += f
		if f > bestVal {
			best, bestVal = a, f
		}
	}
	col.meanCost = 3 * (float64(c) - float64(sum)/float64(ants))
	bestDom := col.dom[best*c : (best+1)*c]
	if f := col.record(bestDom, col.bestFilled); f > col.bestFilled {
		col.bestFilled = f
	}
	if bestVal == c {
		copy(col.bestSol, bestDom)
		return // solved: delta would be infinite, and the run ends
	}
	if delta := float64(c) / float64(c-bestVal); delta > col.bestPher {
		copy(col.bestSol, bestDom)
		col.bestPher = delta
	}
	n, rho := col.n, col.cfg.rho
	for i, s := range col.bestSol {
		if fixed(s) {
			k := i*n + int(value(s)) - 1
			col.pher[k] = col.pher[k]*(1-rho) + rho*col.bestPher
		}
	}
	col.bestPher *= 1 - col.cfg.bve
}

// step moves ant a to its next cell (SudokuAnt::StepSolution): a failure
// at an empty cell, nothing at a fixed one, else a value chosen by the ACS
// rule (Eqs. 1 and 2), fixed and propagated, and the local update (Eq. 3).
func (col *colony) step(a int) {
	c, n := col.c, col.n
	d := col.dom[a*c : (a+1)*c]
	i := col.pos[a]
	if col.pos[a]++; col.pos[a] == c {
		col.pos[a] = 0
	}
	x := d[i]
	if x == 0 {
		col.fail[a]++
		return
	}
	if fixed(x) {
		return
	}
	v := col.choose(i, x)
	col.setCell(d, col.uf[a*3*n:(a+1)*3*n], i, ac3.Single(v))
	tau := col.pher[i*n : (i+1)*n]
	tau[v-1] = tau[v-1]*(1-col.cfg.xi) + col.cfg.xi*col.tau0
}

// stepFixpoint is step with ant-propagation fixpoint: the ant's grid is its
// propagator; a value chosen is assigned and propagated to the fixpoint of
// naked and hidden singles, and one whose propagation meets a
// contradiction is undone, the cell left open (a failure, counted when the
// iteration ends). The local update applies to every value chosen.
func (col *colony) stepFixpoint(a int) {
	c, n := col.c, col.n
	p := col.props[a]
	i := col.pos[a]
	if col.pos[a]++; col.pos[a] == c {
		col.pos[a] = 0
	}
	if p.Value(i) != 0 {
		return
	}
	v := col.choose(i, p.Candidates(i))
	mark := p.Mark()
	if !p.Assign(i, v) {
		p.Undo(mark)
	}
	tau := col.pher[i*n : (i+1)*n]
	tau[v-1] = tau[v-1]*(1-col.cfg.xi) + col.cfg.xi*col.tau0
}

// choose picks a value of x (two or more) for cell i by the ACS rule (Eqs.
// 1 and 2): the value of most pheromone greedily, else by roulette.
func (col *colony) choose(i int, x ac3.Set) uint8 {
	n := col.n
	tau := col.pher[i*n : (i+1)*n]
	u := col.rng.Float64()
	var v uint8
	if greedy := u > col.cfg.q0; greedy == col.cfg.greedyAbove {
		maxTau := math.Inf(-1)
		for rest := x; rest != 0; rest &= rest - 1 {
			w := uint8(bits.TrailingZeros32(uint32(rest))) + 1
			if tau[w-1] > maxTau {
				maxTau, v = tau[w-1], w
			}
		}
	} else {
		total, m := 0.0, 0
		for rest := x; rest != 0; rest &= rest - 1 {
			w := uint8(bits.TrailingZeros32(uint32(rest))) + 1
			total += tau[w-1]
			col.roulette[m], col.values[m] = total, w
			m++
		}
		r := total * col.rng.Float64()
		v = col.values[m-1] // a draw rounded past the last value takes it
		for k := range m {
			if col.roulette[k] > r {
				v = col.values[k]
				break
			}
		}
	}
	return v
}
