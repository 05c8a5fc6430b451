// Package lewissa is the simulated annealing for Sudoku of R. Lewis,
// "Metaheuristics can solve sudoku puzzles" (Journal of Heuristics 13(4),
// 387-401, 2007), registered as "lewis-sa".
//
// Representation and cost (the paper's section on its search space and
// evaluation function): every box holds each symbol once, its givens and,
// in its other cells, the symbols it misses in a random order, so that
// boxes never repeat a symbol; the cost is the number of symbols missing
// from each row and each column, summed (the lab's sudokulab.Missing.Total,
// whose box term stays 0). A grid of cost 0 is a solution.
//
// Neighbourhood: a box is drawn uniformly among the boxes with at least two
// cells that are not given, and two of its non-given cells are drawn
// uniformly and swapped. Only the two rows and two columns of the cells can
// change, so a move's cost change comes from the row and column counts
// (sudokulab.Tally.SwapDelta), not a recount.
//
// Annealing (the paper's cooling schedule): a worse move, of cost change
// delta > 0, is accepted with probability exp(-delta/t); others always. The
// initial temperature t0 is the standard deviation of the costs of a small
// sample of neighbours of the initial grid (after van Laarhoven and Aarts,
// as the paper says; the sample size is t0-sample, 10 by default: the
// paper asks for "a small number" of moves). The temperature falls
// geometrically, t <- alpha t with alpha = 0.99, after each Markov chain of
// ml moves, where ml is the square of the number of non-given cells. When
// reheat chains in a row (20 by default) end at no lower cost than the
// chain before, the search is frozen and the temperature is reset to t0 (a
// reheat). We read "no improvement" as chain against chain: against the
// run's best cost, a search stuck a few conflicts short would reheat every
// 20 chains, and at 0.99 per chain the temperature would never fall below
// 0.82 t0, too hot to finish (on sato-no1 it stayed at cost 6 or more for
// 400 chains); against the lowest cost since the last reheat, it still
// reheated while hot. Reheating (reheat=0 turns it off, our ablation) is what lets the
// search leave the local optima where a frozen temperature keeps it; the
// run ends when it finds a solution or spends its budget.
//
// Counting: a generation is one Markov chain (a temperature); an
// evaluation is one move valued (a cost delta), plus one for the full
// evaluation of the initial grid; the t0 sample's moves count as
// evaluations too; Restarts counts the reheats. Budgets are checked after
// every move, so a run never exceeds MaxEvaluations; a run stops as soon as
// a move reaches cost 0. Solve reports a step for the initial grid
// (generation 0) and one after each Markov chain, with CurrentCost the
// cost of the current grid.
//
// Everything generalises to any box shape: rows, columns and boxes are
// taken from sudokulab.Geometry.
package lewissa

import (
	"context"
	"math"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Name is the solver's registry name.
const Name = "lewis-sa"

// Parameter names.
const (
	ParamAlpha    = "alpha"
	ParamChain    = "chain-factor"
	ParamReheat   = "reheat"
	ParamT0Sample = "t0-sample"
)

// The paper cited by Info.
const paper = "R. Lewis, \"Metaheuristics can solve sudoku puzzles\", Journal of Heuristics 13(4):387-401, 2007: simulated annealing over box permutations"

// Info describes the simulated annealing for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     Name,
		Summary:  "simulated annealing over grids whose boxes are permutations: swaps of two non-given cells of a box, geometric cooling per Markov chain, reheats",
		Counting: "evaluation: one swap valued (a cost delta), plus the full evaluation of the initial grid (the t0 sample's swaps included); generation: a Markov chain (one temperature); restarts: reheats to t0",
		Paper:    paper,
		Params: []sudokulab.ParamSpec{
			{Name: ParamAlpha, Kind: sudokulab.ParamFloat, Default: 0.99, Min: 0.5, Max: 0.999999,
				Doc: "cooling rate alpha: t <- alpha t after each Markov chain", Section: "cooling schedule (alpha = 0.99)"},
			{Name: ParamChain, Kind: sudokulab.ParamFloat, Default: 1.0, Min: 0.000001, Max: 1000,
				Doc: "Markov chain length as a multiple of the square of the number of non-given cells (1: the paper's ml)", Section: "cooling schedule (ml = square of the non-fixed cells)"},
			{Name: ParamReheat, Kind: sudokulab.ParamInt, Default: int64(20), Min: 0, Max: 1e9,
				Doc: "Markov chains in a row without a better best cost after which the temperature is reset to t0 (0: never)", Section: "reheating"},
			{Name: ParamT0Sample, Kind: sudokulab.ParamInt, Default: int64(10), Min: 2, Max: 1e6,
				Doc: "neighbours of the initial grid whose cost's standard deviation is t0", Section: "initial temperature (a small sample of moves, after van Laarhoven and Aarts)"},
			ac3.PropagateParam("when the initial grid is built (its one constructive step): each box's cells take its missing symbols one by one, each propagated (ac3.Propagator.Fill); the annealing then swaps as without it"),
		},
		Presets: []sudokulab.Preset{
			{Name: "lewis-sa-2007", Description: "Lewis's simulated annealing with the published schedule (alpha 0.99, chains of (non-given cells)^2 moves, reheat after 20 chains without improvement)"},
			{Name: "lewis-sa-no-reheat", Description: "the published schedule without reheating (our ablation: the temperature only falls)", Set: map[string]string{ParamReheat: "0"}},
		},
		New: newSolver,
	}
}

type config struct {
	alpha, chain float64
	reheat       int64
	sample       int
	propagate    string
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	return &solver{cfg: config{
		alpha:     p.Float(ParamAlpha),
		chain:     p.Float(ParamChain),
		reheat:    p.Int(ParamReheat),
		sample:    int(p.Int(ParamT0Sample)),
		propagate: p.String(ac3.PropagateParamName),
	}}, nil
}

type solver struct{ cfg config }

var _ sudokulab.Solver = (*solver)(nil)

// Solve implements sudokulab.Solver.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	a := NewAnnealer(puzzle, sv.cfg.alpha, sv.cfg.chain, sv.cfg.reheat, sv.cfg.sample, rng)
	if sv.cfg.propagate != ac3.PropagateNone {
		if err := a.Propagate(sv.cfg.propagate); err != nil {
			return sudokulab.Result{}, err
		}
	}
	a.budget = budget
	a.done = ctx.Done()
	report := func() {
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: a.chains, Evaluations: a.evals, Restarts: a.reheats,
				BestCost: a.bestCost, CurrentCost: float64(a.tally.Cost())})
		}
	}
	a.Start()
	report()
	res := sudokulab.Result{Status: sudokulab.StatusUnsolved}
	for {
		if a.bestCost == 0 {
			res.Status = sudokulab.StatusSolved
			break
		}
		if budget.Spent(a.evals, a.chains) {
			break
		}
		if err := ctx.Err(); err != nil {
			res.Status = sudokulab.StatusOf(err)
			break
		}
		a.Chain()
		report()
	}
	res.Grid = sudokulab.Grid{Shape: puzzle.Shape, Cells: a.best}
	res.Cost = a.bestCost
	res.Evaluations, res.Generations, res.Restarts = a.evals, a.chains, a.reheats
	return res, nil
}

// Annealer is the state of one run. Everything it needs is allocated by
// NewAnnealer; Start and Chain allocate nothing.
type Annealer struct {
	rng    *rand.Rand
	geo    *sudokulab.Geometry
	givens []uint8
	cells  []uint8
	tally  *sudokulab.Tally
	// boxes lists the boxes with at least two non-given cells; free[b]
	// the non-given cells of box b.
	boxes []int
	free  [][]int

	alpha  float64
	ml     int64 // moves per Markov chain
	reheat int64
	sample int
	t0, t  float64
	// lastEnd is the cost at the end of the last chain; sinceBetter
	// counts the chains in a row that ended no lower than the one before.
	lastEnd     int
	sinceBetter int64

	budget sudokulab.Budget
	done   <-chan struct{}

	// prop, when set by Propagate, builds the initial grid (Fill over the
	// boxes, unit indexes in units, within the puzzle's domains dom).
	prop  *ac3.Propagator
	dom   *ac3.Domains
	units []int

	evals, chains, reheats int64
	bestCost               int
	best                   []uint8
}

// NewAnnealer returns the search of puzzle with the given schedule (see the
// package doc): cooling rate alpha, chains of chain x (non-given cells)^2
// moves, a reheat after reheat chains without improvement (0: never), and
// t0 from sample neighbours.
func NewAnnealer(puzzle sudokulab.Grid, alpha, chain float64, reheat int64, sample int, rng *rand.Rand) *Annealer {
	geo := puzzle.Geometry()
	n := geo.N
	a := &Annealer{
		rng: rng, geo: geo,
		givens: puzzle.Cells,
		cells:  make([]uint8, len(puzzle.Cells)),
		tally:  sudokulab.NewTally(puzzle.Shape),
		free:   make([][]int, n),
		alpha:  alpha, reheat: reheat, sample: sample,
		best: make([]uint8, len(puzzle.Cells)),
	}
	open := 0
	for b := range n {
		for _, c := range geo.Units[2*n+b] {
			if puzzle.Cells[c] == 0 {
				a.free[b] = append(a.free[b], c)
			}
		}
		open += len(a.free[b])
		if len(a.free[b]) >= 2 {
			a.boxes = append(a.boxes, b)
		}
	}
	a.ml = max(int64(math.Round(chain*float64(open)*float64(open))), 1)
	return a
}

// Start fills each box with its missing symbols in a random order, values
// the grid, and sets t0 from the costs of a sample of its neighbours.
func (a *Annealer) Start() {
	copy(a.cells, a.givens)
	if a.prop != nil {
		a.prop.Fill(a.cells, a.units, a.dom, a.rng)
	} else {
		a.fillBoxes()
	}
	a.tally.Reset(a.cells)
	a.evals = 1
	a.bestCost = a.tally.Cost()
	a.lastEnd, a.sinceBetter = a.bestCost, 0
	copy(a.best, a.cells)
	a.t0 = a.initialTemperature()
	a.t = a.t0
}

// fillBoxes fills each box with its missing symbols in a random order (the
// paper's initial grid).
func (a *Annealer) fillBoxes() {
	n := a.geo.N
	for b := range n {
		free := a.free[b]
		var have uint64
		for _, c := range a.geo.Units[2*n+b] {
			if v := a.givens[c]; v != 0 {
				have |= 1 << v
			}
		}
		// The missing symbols in order, then shuffled into the free cells;
		// a box whose givens repeat a symbol has more free cells than
		// missing symbols, and the rest take symbol 1 (it cannot be solved).
		k := 0
		for v := 1; v <= n && k < len(free); v++ {
			if have&(1<<v) == 0 {
				a.cells[free[k]] = uint8(v)
				k++
			}
		}
		for ; k < len(free); k++ {
			a.cells[free[k]] = 1
		}
		for i := len(free) - 1; i > 0; i-- {
			j := a.rng.IntN(i + 1)
			a.cells[free[i]], a.cells[free[j]] = a.cells[free[j]], a.cells[free[i]]
		}
	}
}

// initialTemperature returns the standard deviation of the costs of
// a.sample neighbours of the current grid (each move valued and not made).
func (a *Annealer) initialTemperature() float64 {
	if len(a.boxes) == 0 {
		return 0
	}
	base := float64(a.tally.Cost())
	var sum, sumSq float64
	for range a.sample {
		i, j := a.pick()
		c := base + float64(a.tally.SwapDelta(a.cells, i, j).Total())
		a.evals++
		sum += c
		sumSq += c * c
	}
	m := float64(a.sample)
	v := sumSq/m - (sum/m)*(sum/m)
	return math.Sqrt(max(v, 0))
}

// pick draws a move: two distinct non-given cells of a box with two or
// more of them.
func (a *Annealer) pick() (i, j int) {
	free := a.free[a.boxes[a.rng.IntN(len(a.boxes))]]
	x := a.rng.IntN(len(free))
	y := a.rng.IntN(len(free) - 1)
	if y >= x {
		y++
	}
	return free[x], free[y]
}

// Chain runs one Markov chain of ml moves at the current temperature, or
// fewer when a move reaches cost 0, the evaluation budget is spent or the
// run is cancelled (checked every 1,024 moves), then cools (or reheats).
func (a *Annealer) Chain() {
	a.chains++
	if len(a.boxes) > 0 {
		// A swap changes two rows and two columns by at most one missing
		// symbol each, so its delta is at most 4: the acceptance
		// probabilities of the chain's temperature are a table.
		var accept [5]float64
		for d := 1; d < len(accept); d++ {
			if a.t > 0 {
				accept[d] = math.Exp(-float64(d) / a.t)
			}
		}
		cost := a.tally.Cost()
		for m := int64(0); m < a.ml; m++ {
			if a.budget.MaxEvaluations > 0 && a.evals >= a.budget.MaxEvaluations {
				break
			}
			if m&1023 == 1023 && a.cancelled() {
				break
			}
			i, j := a.pick()
			d := a.tally.SwapDelta(a.cells, i, j).Total()
			a.evals++
			if d > 0 && (d >= len(accept) || a.rng.Float64() >= accept[d]) {
				continue
			}
			a.tally.Swap(a.cells, i, j)
			cost += d
			if cost < a.bestCost {
				a.bestCost = cost
				copy(a.best, a.cells)
				if cost == 0 {
					break
				}
			}
		}
	}
	if end := a.tally.Cost(); end < a.lastEnd {
		a.sinceBetter = 0
	} else {
		a.sinceBetter++
	}
	a.lastEnd = a.tally.Cost()
	a.t *= a.alpha
	if a.reheat > 0 && a.sinceBetter >= a.reheat {
		a.t = a.t0
		a.sinceBetter = 0
		a.reheats++
	}
}

func (a *Annealer) cancelled() bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

// Propagate makes Start build the initial grid with propagation at level
// (ac3.PropagateSingles or ac3.PropagateHidden; see ac3.Propagator.Fill).
// Givens that contradict each other leave Start to fill as without it.
func (a *Annealer) Propagate(level string) error {
	g := sudokulab.Grid{Shape: a.geo.Shape, Cells: a.givens}
	p, err := ac3.NewPropagator(g.Shape, level)
	if err != nil {
		return err
	}
	p.Reset(a.givens)
	a.prop, a.dom = p, ac3.Unfiltered(g)
	for b := range a.geo.N {
		a.units = append(a.units, 2*a.geo.N+b)
	}
	return nil
}

// Cost returns the cost of the current grid.
func (a *Annealer) Cost() int { return a.tally.Cost() }

// BestCost returns the lowest cost found.
func (a *Annealer) BestCost() int { return a.bestCost }

// Temperatures returns t0 and the current temperature.
func (a *Annealer) Temperatures() (t0, t float64) { return a.t0, a.t }

// ChainLength returns the moves per Markov chain.
func (a *Annealer) ChainLength() int64 { return a.ml }

// Cells returns the current grid (not a copy).
func (a *Annealer) Cells() []uint8 { return a.cells }
