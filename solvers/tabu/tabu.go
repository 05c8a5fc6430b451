// Package tabu is the tabu search for Sudoku of Franco, Gómez and Gallego
// (section 4.1 and 6.1 of "Aplicación de técnicas de optimización
// combinatorial a la solución del Sudoku"), registered as "franco-tabu".
//
// The search starts from a grid whose columns are filled with their missing
// numbers (section 4.1), so that only rows and boxes repeat numbers, and
// minimises the number of symbols missing from the rows, columns and boxes
// (sudokulab.Missing.Total, the paper's section 3 cost counted as in its
// Figure 3). Its neighbourhoods (section 4.1) are: replace a number repeated
// in a row, column or box by a number that unit misses; swap two cells of a
// column; swap two cells of a row. Givens never move. Each move is valued by
// its change of cost computed from the current counts (sudokulab.Tally), not
// by a recount (section 4.1, last paragraph).
//
// Each iteration moves to the best neighbour that is not tabu, even when it
// is worse (ties are broken uniformly at random). The short-term memory
// (section 6.1) forbids moves that change a recently changed cell: a
// changed cell enters a list of at most tabu-list-size entries and stays
// tabu for tabu-tenure iterations or until the list pushes it out (Table 2:
// 30 and 20). With tabu-attribute move the list holds moves instead, and
// a move that undoes one of them is tabu: putting back a value a cell
// recently lost, or swapping a recently swapped pair again. This reading is
// ours: the literal one (cells) never solved Caso 1 in our runs with the
// Table 2 values (docs/reproduction-tabu-cuckoo.md). Under the schedule "phases" the neighbourhood cycles as in
// section 6.1: repeated-iterations iterations of repeated-number moves,
// then column-swap-iterations of column swaps, then row-swap-iterations of
// row swaps (Table 2: 1, 10, 10); "union" uses all three in every
// iteration, the alternative that section 6.1 reports as worse. An
// aspiration rule (a tabu move that reaches a new best cost is allowed) is
// an option, off by default as in the paper, which has none.
//
// With prefilter ac3 or gac (not in the paper; see package ac3) the columns
// are filled within the pruned domains, cells reduced to one value do not
// move, a replacement draws only values of the cell's domain and a swap is
// made only when both cells stay within their domains. If filtering proves
// the puzzle unsolvable, Solve returns at once with StatusUnsolved and no
// iteration.
//
// Counting: a generation is an iteration (one move, or none when every
// neighbour is tabu); an evaluation is one move valued (a delta of the
// cost), so Evaluations counts neighbour evaluations, plus one for the
// full evaluation of the starting grid (so a run the prefilter solves
// reports 1, and the prefilter's own work is in PrefilterRevisions). Budgets are checked
// between iterations, so a run may exceed MaxEvaluations by one
// iteration's neighbourhood. Restarts are always 0. Solve reports a step
// for the starting grid (generation 0) and one per iteration, with
// CurrentCost the cost of the current grid and no convergence measure.
//
// Everything generalises to any box shape: rows, columns and boxes are
// taken from sudokulab.Geometry.
package tabu

import (
	"context"
	"math"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Name is the solver's registry name.
const Name = "franco-tabu"

// Schedules of the neighbourhoods.
const (
	Phases = "phases"
	Union  = "union"
)

// Tabu attributes.
const (
	Cell = "cell"
	Move = "move"
)

// The paper cited by Info.
const paper = "J. F. Franco B., O. Gómez Carmona, R. A. Gallego R., \"Aplicación de técnicas de optimización combinatorial a la solución del Sudoku\" (Combinatorial optimization techniques applied to Sudoku's solution), Scientia et Technica, Universidad Tecnológica de Pereira, 2008: tabu search, sections 4 and 6.1"

// Info describes the tabu search for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     Name,
		Summary:  "tabu search from column-filled grids: repeated-number replacements, column swaps and row swaps in phases, short-term memory on changed cells",
		Counting: "evaluation: one move valued (a cost delta), plus the full evaluation of the starting grid; generation: an iteration; restarts: none; prefilter work in prefilter_revisions",
		Paper:    paper,
		Params: []sudokulab.ParamSpec{
			{Name: "tabu-list-size", Kind: sudokulab.ParamInt, Default: int64(30), Min: 0, Max: 100000,
				Doc: "most changed cells held tabu at once (0: no tabu memory)", Section: "§6.1 Table 2 (tamaño lista tabú)"},
			{Name: "tabu-tenure", Kind: sudokulab.ParamInt, Default: int64(20), Min: 0, Max: 1e9,
				Doc: "iterations a changed cell stays tabu (0: no tabu memory)", Section: "§6.1 Table 2 (valor tabú)"},
			{Name: "repeated-iterations", Kind: sudokulab.ParamInt, Default: int64(1), Min: 0, Max: 1e6,
				Doc: "iterations of repeated-number replacement moves per cycle of phases", Section: "§6.1 Table 2 (iter. # repetidos)"},
			{Name: "column-swap-iterations", Kind: sudokulab.ParamInt, Default: int64(10), Min: 0, Max: 1e6,
				Doc: "iterations of column swaps per cycle of phases", Section: "§6.1 Table 2 (iter. intercambios columnas)"},
			{Name: "row-swap-iterations", Kind: sudokulab.ParamInt, Default: int64(10), Min: 0, Max: 1e6,
				Doc: "iterations of row swaps per cycle of phases", Section: "§6.1 Table 2 (iter. intercambios filas)"},
			{Name: "tabu-attribute", Kind: sudokulab.ParamChoice, Default: Cell, Choices: []string{Cell, Move},
				Doc: "what the tabu list holds: cell (a move that changes a recently changed cell is tabu) or move (a move that undoes a recent move is tabu)", Section: "§6.1 (memoria de corto plazo; move is an alternative reading)"},
			{Name: "schedule", Kind: sudokulab.ParamChoice, Default: Phases, Choices: []string{Phases, Union},
				Doc: "phases: cycle the neighbourhoods as Table 2 says; union: every neighbourhood in every iteration", Section: "§6.1 (vecindario por fases)"},
			{Name: "aspiration", Kind: sudokulab.ParamBool, Default: false,
				Doc: "allow a tabu move that reaches a new best cost (not in the paper)", Section: "§6.1 (extension; the paper has no aspiration)"},
			ac3.Param(ac3.None, "§4.1 initial configuration and moves (extension: Soto et al. 2014 §5)"),
			ac3.PropagateParam("when the starting grid is built (§4.1, its one constructive step): each column's cells take their missing numbers one by one, each propagated (ac3.Propagator.Fill); the moves then search as without it"),
		},
		Presets: []sudokulab.Preset{
			{Name: "franco-tabu-table2", Description: "Franco et al. tabu search with the Table 2 parameters (Caso 1 solved in 637 iterations)"},
			{Name: "franco-tabu-table2-ac3", Description: "Table 2 parameters after the AC3 prefilter of Soto et al. 2014", Set: map[string]string{"prefilter": ac3.AC3}},
			{Name: "franco-tabu-table2-gac", Description: "Table 2 parameters after generalized arc consistency on each all-different", Set: map[string]string{"prefilter": ac3.GAC}},
			{Name: "franco-tabu-table2-aspiration", Description: "Table 2 parameters with the aspiration rule", Set: map[string]string{"aspiration": "true"}},
			{Name: "franco-tabu-union", Description: "every neighbourhood in every iteration instead of the phases of Table 2", Set: map[string]string{"schedule": Union}},
			{Name: "franco-tabu-table2-move", Description: "Table 2 parameters, the tabu list holding moves (their reverse is tabu) instead of cells", Set: map[string]string{"tabu-attribute": Move}},
			{Name: "franco-tabu-union-move", Description: "every neighbourhood in every iteration, the tabu list holding moves", Set: map[string]string{"schedule": Union, "tabu-attribute": Move}},
			{Name: "franco-tabu-union-move-ac3", Description: "franco-tabu-union-move after the AC3 prefilter", Set: map[string]string{"schedule": Union, "tabu-attribute": Move, "prefilter": ac3.AC3}},
			{Name: "franco-tabu-union-move-gac", Description: "franco-tabu-union-move after generalized arc consistency", Set: map[string]string{"schedule": Union, "tabu-attribute": Move, "prefilter": ac3.GAC}},
			{Name: "franco-tabu-no-memory", Description: "the phases of Table 2 without a tabu list (a forced best-neighbour descent)", Set: map[string]string{"tabu-list-size": "0"}},
		},
		New: newSolver,
	}
}

type config struct {
	listSize, tenure                 int
	repeatedIters, colIters, rowIter int64
	union, aspiration, moveTabu      bool
	prefilter, propagate             string
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	c := config{
		listSize:      int(p.Int("tabu-list-size")),
		tenure:        int(p.Int("tabu-tenure")),
		repeatedIters: p.Int("repeated-iterations"),
		colIters:      p.Int("column-swap-iterations"),
		rowIter:       p.Int("row-swap-iterations"),
		union:         p.String("schedule") == Union,
		aspiration:    p.Bool("aspiration"),
		moveTabu:      p.String("tabu-attribute") == Move,
		prefilter:     p.String(ac3.ParamName),
		propagate:     p.String(ac3.PropagateParamName),
	}
	if !c.union && c.repeatedIters+c.colIters+c.rowIter == 0 {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "%s: the phases schedule needs at least one phase with iterations", Name)
	}
	return &solver{cfg: c}, nil
}

type solver struct {
	cfg config
}

var _ sudokulab.Solver = (*solver)(nil)

// Neighbourhoods.
const (
	repeated = 1 << iota
	colSwaps
	rowSwaps
)

// Solve implements sudokulab.Solver.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	d, infeasible, err := ac3.ForSolver(sv.cfg.prefilter, puzzle)
	if err != nil {
		return sudokulab.Result{}, err
	}
	s := newSearch(puzzle, d, sv.cfg, rng)
	if sv.cfg.propagate != ac3.PropagateNone {
		if s.prop, err = ac3.NewPropagator(puzzle.Shape, sv.cfg.propagate); err != nil {
			return sudokulab.Result{}, err
		}
		s.prop.Reset(d.Grid().Cells) // a failure leaves Fill to FillUnit
	}
	s.start()
	res := sudokulab.Result{Status: sudokulab.StatusUnsolved}
	report := func() {
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: s.iter, Evaluations: s.evals, BestCost: s.bestCost, CurrentCost: float64(s.tally.Cost())})
		}
	}
	report()
	cycle := sv.cfg.repeatedIters + sv.cfg.colIters + sv.cfg.rowIter
	for !infeasible {
		if s.bestCost == 0 {
			res.Status = sudokulab.StatusSolved
			break
		}
		if budget.Spent(s.evals, s.iter) {
			break
		}
		if err := ctx.Err(); err != nil {
			res.Status = sudokulab.StatusOf(err)
			break
		}
		s.iter++
		hood := repeated | colSwaps | rowSwaps
		if !sv.cfg.union {
			switch pos := (s.iter - 1) % cycle; {
			case pos < sv.cfg.repeatedIters:
				hood = repeated
			case pos < sv.cfg.repeatedIters+sv.cfg.colIters:
				hood = colSwaps
			default:
				hood = rowSwaps
			}
		}
		s.step(hood)
		report()
	}
	res.Grid = sudokulab.Grid{Shape: puzzle.Shape, Cells: s.bestCells}
	res.Cost = s.bestCost
	res.Evaluations, res.Generations = s.evals, s.iter
	res.PrefilterRevisions = int64(d.Revisions())
	return res, nil
}

// move is a neighbour: set cell i to v (j < 0) or swap cells i and j.
type move struct {
	i, j  int
	v     uint8
	delta int
}

// tabuEntry is an attribute in the tabu list (a cell, or a move's
// reverse; see search.until) and the last iteration it is tabu.
type tabuEntry struct {
	key   int
	until int64
}

// search is the state of one run. Everything is allocated in newSearch.
type search struct {
	cfg   config
	rng   *rand.Rand
	geo   *sudokulab.Geometry
	n     int
	d     *ac3.Domains
	cells []uint8
	tally *sudokulab.Tally
	// free lists, for each unit, its cells that may change.
	free [][]int

	// until[k]: the last iteration attribute k is tabu (0: not tabu). With
	// tabu-attribute cell, k is a cell. With move, k = c*N+v-1 forbids
	// setting cell c to v (a value it lost), and k = pairs+i*N*N+j forbids
	// swapping cells i < j again.
	until []int64
	pairs int
	ring  []tabuEntry
	head  int
	used  int

	stamp []int64 // stamp[c*n+v-1] == iter: replacement (c, v) already valued

	best move
	ties int

	iter, evals int64
	bestCost    int
	bestCells   []uint8

	// prop, with propagate above none, builds the starting grid (Fill over
	// the columns listed in cols).
	prop *ac3.Propagator
	cols []int
}

func newSearch(puzzle sudokulab.Grid, d *ac3.Domains, cfg config, rng *rand.Rand) *search {
	geo := puzzle.Geometry()
	n, nn := geo.N, len(puzzle.Cells)
	s := &search{
		cfg: cfg, rng: rng, geo: geo, n: n, d: d,
		cells: append([]uint8(nil), puzzle.Cells...),
		tally: sudokulab.NewTally(puzzle.Shape),
		free:  make([][]int, 3*n),
		until: make([]int64, nn),
		pairs: nn * n,
		ring:  make([]tabuEntry, cfg.listSize),
		stamp: make([]int64, nn*n),
	}
	if cfg.moveTabu {
		s.until = make([]int64, nn*n+nn*nn)
	}
	for u, unit := range geo.Units {
		for _, c := range unit {
			if !d.Fixed(c) {
				s.free[u] = append(s.free[u], c)
			}
		}
	}
	return s
}

// start fills every column with its missing numbers (section 4.1), within
// the domains, and takes the result as the best so far.
func (s *search) start() {
	if s.prop != nil {
		s.cols = s.cols[:0]
		for c := range s.n {
			s.cols = append(s.cols, s.n+c)
		}
		s.prop.Fill(s.cells, s.cols, s.d, s.rng)
	} else {
		for c := range s.n {
			s.d.FillUnit(s.cells, s.n+c, s.rng)
		}
	}
	s.tally.Reset(s.cells)
	s.evals++ // the full evaluation of the starting grid
	s.bestCost = s.tally.Cost()
	s.bestCells = append([]uint8(nil), s.cells...)
}

// step makes one iteration: the best admissible neighbour in the given
// neighbourhoods, applied even if it is worse, and its cells made tabu.
func (s *search) step(hood int) {
	s.ties = 0
	s.best = move{delta: math.MaxInt}
	if hood&repeated != 0 {
		s.scanRepeated()
	}
	if hood&colSwaps != 0 {
		s.scanSwaps(s.n, 2*s.n)
	}
	if hood&rowSwaps != 0 {
		s.scanSwaps(0, s.n)
	}
	if s.ties == 0 {
		return // every neighbour is tabu
	}
	m := s.best
	switch {
	case m.j < 0 && s.cfg.moveTabu:
		s.makeTabu(m.i*s.n + int(s.cells[m.i]) - 1)
		s.tally.Set(s.cells, m.i, m.v)
	case m.j < 0:
		s.makeTabu(m.i)
		s.tally.Set(s.cells, m.i, m.v)
	case s.cfg.moveTabu:
		s.makeTabu(s.pairs + m.i*len(s.cells) + m.j)
		s.tally.Swap(s.cells, m.i, m.j)
	default:
		s.makeTabu(m.i)
		s.makeTabu(m.j)
		s.tally.Swap(s.cells, m.i, m.j)
	}
	if c := s.tally.Cost(); c < s.bestCost {
		s.bestCost = c
		copy(s.bestCells, s.cells)
	}
}

// scanRepeated values every replacement of a number repeated in a unit by
// a number the unit misses (and the cell's domain allows). A replacement
// found through two units is valued once.
func (s *search) scanRepeated() {
	n, t := s.n, s.tally
	for u := range 3 * n {
		if t.UnitMissing(u) == 0 {
			continue
		}
		var miss ac3.Set
		for v := 1; v <= n; v++ {
			if t.Count(u, v) == 0 {
				miss |= ac3.Single(uint8(v))
			}
		}
		for _, c := range s.free[u] {
			if t.Count(u, int(s.cells[c])) < 2 {
				continue
			}
			for rest := miss & s.d.Domain(c); rest != 0; rest &= rest - 1 {
				v := rest.Min()
				if k := c*n + int(v) - 1; s.stamp[k] != s.iter {
					s.stamp[k] = s.iter
					s.consider(c, -1, v)
				}
			}
		}
	}
}

// scanSwaps values every swap of two free cells with different values in
// units from..to-1 that keeps both within their domains.
func (s *search) scanSwaps(from, to int) {
	for u := from; u < to; u++ {
		f := s.free[u]
		for a := 0; a < len(f); a++ {
			i := f[a]
			for _, j := range f[a+1:] {
				if s.cells[i] != s.cells[j] && s.d.SwapOK(s.cells, i, j) {
					s.consider(i, j, 0)
				}
			}
		}
	}
}

// consider values a move unless it is tabu (and not aspirated) and keeps
// it if it is the best so far, breaking ties uniformly at random.
func (s *search) consider(i, j int, v uint8) {
	var tabu bool
	switch {
	case !s.cfg.moveTabu:
		tabu = s.until[i] >= s.iter || (j >= 0 && s.until[j] >= s.iter)
	case j < 0:
		tabu = s.until[i*s.n+int(v)-1] >= s.iter
	default:
		tabu = s.until[s.pairs+i*len(s.cells)+j] >= s.iter
	}
	if tabu && !s.cfg.aspiration {
		return
	}
	var delta int
	if j < 0 {
		delta = s.tally.SetDelta(s.cells, i, v).Total()
	} else {
		delta = s.tally.SwapDelta(s.cells, i, j).Total()
	}
	s.evals++
	if tabu && s.tally.Cost()+delta >= s.bestCost {
		return
	}
	switch {
	case delta < s.best.delta:
		s.best, s.ties = move{i: i, j: j, v: v, delta: delta}, 1
	case delta == s.best.delta:
		s.ties++
		if s.rng.IntN(s.ties) == 0 {
			s.best = move{i: i, j: j, v: v, delta: delta}
		}
	}
}

// makeTabu puts attribute k in the tabu list for the next tenure
// iterations, pushing the oldest entry out of a full list.
func (s *search) makeTabu(k int) {
	if len(s.ring) == 0 || s.cfg.tenure == 0 {
		return
	}
	if s.used == len(s.ring) {
		old := s.ring[s.head]
		if s.until[old.key] == old.until {
			s.until[old.key] = 0
		}
		s.head = (s.head + 1) % len(s.ring)
		s.used--
	}
	e := tabuEntry{key: k, until: s.iter + int64(s.cfg.tenure)}
	s.ring[(s.head+s.used)%len(s.ring)] = e
	s.used++
	s.until[k] = e.until
}
