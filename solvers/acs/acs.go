// Package acs is the ant colony system with constraint propagation of
// Lloyd and Amos ("Solving Sudoku with Ant Colony Optimization", IEEE
// Transactions on Games, 2019; arXiv 1805.03545), registered as "acs", as
// their public code (github.com/huwlloyd-mmu/sudoku_acs, files board.cpp,
// sudokuant.cpp and sudokuantsystem.cpp) runs it.
//
// Constraint propagation (section 3.1; board.cpp). A grid is a value set per
// cell. Fixing a cell constrains each of its peers in turn (its box, column
// and row, cell by cell): a peer loses the values fixed in its units; if
// one value is left it is fixed, else if one of its values is possible
// nowhere else in its row, column or box (checked in that order) it is
// fixed; every fixing propagates recursively. This is the elimination and
// unique-possibility pair of the paper, applied when a peer changes (not
// to a fixpoint), exactly as sudoku_acs does it. The puzzle is read by
// fixing its givens one by one in cell order (Algorithm 1, lines 1-4).
//
// The colony (Algorithm 1; section 3.2). Pheromone tau[i][v] for each cell
// i and value v starts at tau0 = 1/c, c the number of cells. In each
// iteration each of the m ants takes a copy of the propagated puzzle and a
// start cell drawn uniformly (each ant independently), and the ants visit
// c cells in turn, interleaved: at step s every ant, one after another,
// moves on to its next cell (wrapping around the grid). At a cell with an
// empty value set the ant counts a failure; at a cell with two or more
// values it chooses one by the ACS rule (Eqs. 1 and 2): greedily, the value
// of highest pheromone (the lowest such value on a tie), or by a roulette
// wheel proportional to pheromone; it fixes the value, propagates, and
// applies the local update tau <- (1-xi) tau + xi tau0 (Eq. 3, xi = 0.1).
// An ant's score is the cells it fixed, c minus its failures.
//
// The global update (Eqs. 4-6) and best value evaporation (Eq. 7; section
// 3.3). The iteration's best ant (the first of the highest score f) gives
// delta = c/(c-f); if delta exceeds the best value delta_best, its grid
// becomes the best solution and delta_best = delta. Then every value of the
// best solution gets tau <- (1-rho) tau + rho delta_best, and delta_best <-
// delta_best (1 - rho_BVE): the best value evaporates, so that a later,
// even worse, iteration-best grid replaces the best solution once it has
// decayed enough, which is the paper's anti-stagnation device.
//
// The choice rule. Eq. 1 of the paper chooses greedily with probability q0
// (0.9). The public code (sudokuant.cpp, StepSolution) does the opposite: it
// chooses greedily when a uniform draw exceeds q0, that is with
// probability 1 - q0, and by roulette otherwise. The published results come
// from that code, and this lab measures acs against it, so the default
// (greedy = sudoku-acs) does what the code does; greedy = eq1 is the
// equation as printed (preset acs-eq1).
//
// Where this implementation departs from sudoku_acs: it computes in
// float64 where sudoku_acs uses float32 and std::mt19937, so it repeats the
// search of a seed but not sudoku_acs's; a roulette draw that rounding puts
// past the last value takes the last value (sudoku_acs would fix nothing);
// a puzzle whose propagated givens leave an empty cell or change a given has
// no solution, and Solve returns at once, unsolved, after no iteration; a
// puzzle the propagation of the givens solves is solved after 0 iterations
// (sudoku_acs reports it after its first iteration). sudoku_acs looks at
// its clock every 100 iterations; Solve looks at ctx after every
// iteration.
//
// Counting: a generation is an iteration of the colony (every ant builds a
// grid); an evaluation is one ant's grid scored (m per iteration), plus one
// for the propagated puzzle the search starts from, so Evaluations = 1 +
// m x Generations. Budgets are checked between iterations, so a run may
// exceed MaxEvaluations by less than one iteration's m. Restarts are always
// 0. Solve reports a step for the propagated puzzle (generation 0) and one
// per iteration, with BestCost the cost of the best grid so far (the grids
// hold no conflicts, only unfixed cells, each missing from its row, column
// and box, so a grid with u unfixed cells costs 3u) and CurrentCost the
// mean cost of the iteration's ants; Convergence is delta_best, the best
// value after evaporation. The result is the grid with the most fixed cells
// of the run (unfixed cells 0), not the colony's current best solution,
// which best value evaporation may have replaced by a worse one.
//
// Everything works for any box shape: units come from sudokulab.Geometry.
package acs

import (
	"context"
	"math/rand/v2"

	"sudokulab"
)

// Name is the solver's registry name.
const Name = "acs"

// Parameter names.
const (
	ParamAnts   = "ants"
	ParamQ0     = "q0"
	ParamRho    = "rho"
	ParamBVE    = "bve"
	ParamXi     = "xi"
	ParamGreedy = "greedy"
	// ParamAntPropagation names how an ant propagates a value it fixes.
	ParamAntPropagation = "ant-propagation"
)

// Readings of the choice rule (see the package doc).
const (
	// GreedyCode chooses greedily when a uniform draw exceeds q0, as
	// sudoku_acs does.
	GreedyCode = "sudoku-acs"
	// GreedyEq1 chooses greedily with probability q0, as Eq. 1 says.
	GreedyEq1 = "eq1"
)

// Values of the ant-propagation parameter.
const (
	PropagatePeers    = "peers"
	PropagateFixpoint = "fixpoint"
)

// The paper cited by Info.
const paper = "H. Lloyd and M. Amos, \"Solving Sudoku with Ant Colony Optimization\", IEEE Transactions on Games, 2019 (arXiv 1805.03545): ant colony system with constraint propagation and best value evaporation, Algorithm 1, sections 3.1-3.3, Eqs. 1-7; public code github.com/huwlloyd-mmu/sudoku_acs"

// Info describes the ant colony system for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     Name,
		Summary:  "ant colony system: ants fix cells one by one from pheromone, with constraint propagation after each choice; local and global pheromone updates; best value evaporation",
		Counting: "evaluation: one ant's constructed grid scored (ants per iteration), plus one for the propagated puzzle; generation: an iteration of the colony; restarts: none",
		Paper:    paper,
		Params: []sudokulab.ParamSpec{
			{Name: ParamAnts, Kind: sudokulab.ParamInt, Default: int64(10), Min: 1, Max: 10000,
				Doc: "number of ants m, each building one grid per iteration", Section: "§4 parameters (m = 10); sudoku_acs --ants"},
			{Name: ParamQ0, Kind: sudokulab.ParamFloat, Default: 0.9, Min: 0, Max: 1,
				Doc: "greediness q0 of the ACS choice rule (see greedy for which side of q0 is greedy)", Section: "§3.2 Eq. 1; sudoku_acs --q0"},
			{Name: ParamRho, Kind: sudokulab.ParamFloat, Default: 0.9, Min: 0, Max: 1,
				Doc: "global pheromone update rate rho: tau <- (1-rho) tau + rho delta_best on the best solution's values", Section: "§3.2 Eq. 6; sudoku_acs --rho"},
			{Name: ParamBVE, Kind: sudokulab.ParamFloat, Default: 0.005, Min: 0, Max: 1,
				Doc: "best value evaporation rho_BVE: delta_best <- delta_best (1 - rho_BVE) every iteration (0: none)", Section: "§3.3 Eq. 7; sudoku_acs --evap"},
			{Name: ParamXi, Kind: sudokulab.ParamFloat, Default: 0.1, Min: 0, Max: 1,
				Doc: "local pheromone update xi: tau <- (1-xi) tau + xi tau0 on each value an ant fixes", Section: "§3.2 Eq. 3 (fixed at 0.1 in sudoku_acs)"},
			{Name: ParamAntPropagation, Kind: sudokulab.ParamChoice, Default: PropagatePeers, Choices: []string{PropagatePeers, PropagateFixpoint},
				Doc: "peers: the rules of section 3.1 on the peers of each cell fixed, as sudoku_acs applies them; fixpoint (ours): naked and hidden singles to a fixpoint over the whole grid (ac3.Propagator), a value whose propagation meets a contradiction undone and the cell counted as a failure", Section: "§3.1; fixpoint is our extension"},
			{Name: ParamGreedy, Kind: sudokulab.ParamChoice, Default: GreedyCode, Choices: []string{GreedyCode, GreedyEq1},
				Doc: "sudoku-acs: greedy choice when a uniform draw exceeds q0 (probability 1-q0), as the public code does; eq1: greedy with probability q0, as Eq. 1 is printed", Section: "§3.2 Eqs. 1-2; sudokuant.cpp StepSolution"},
		},
		Presets: []sudokulab.Preset{
			{Name: "acs-lloyd-amos", Description: "Lloyd and Amos's ACS with the paper's parameters (10 ants, q0 0.9, rho 0.9, rho_BVE 0.005, xi 0.1), choosing as sudoku_acs does"},
			{Name: "acs-eq1", Description: "the paper's parameters with the choice rule as Eq. 1 is printed (greedy with probability q0)", Set: map[string]string{ParamGreedy: GreedyEq1}},
			{Name: "acs-fixpoint", Description: "ours: the paper's parameters with ants that propagate each value they fix to a fixpoint of naked and hidden singles (ant-propagation fixpoint)", Set: map[string]string{ParamAntPropagation: PropagateFixpoint}},
			{Name: "acs-no-bve", Description: "the paper's parameters without best value evaporation (rho_BVE = 0), the ablation of section 3.3", Set: map[string]string{ParamBVE: "0"}},
		},
		New: newSolver,
	}
}

// config holds the resolved parameters.
type config struct {
	ants         int
	q0, rho, bve float64
	xi           float64
	greedyAbove  bool // greedy when u > q0 (sudoku_acs); else when u < q0
	fixpoint     bool // ants propagate with ac3.Propagator (ant-propagation fixpoint)
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	return &solver{cfg: config{
		ants:        int(p.Int(ParamAnts)),
		q0:          p.Float(ParamQ0),
		rho:         p.Float(ParamRho),
		bve:         p.Float(ParamBVE),
		xi:          p.Float(ParamXi),
		greedyAbove: p.String(ParamGreedy) == GreedyCode,
		fixpoint:    p.String(ParamAntPropagation) == PropagateFixpoint,
	}}, nil
}

type solver struct {
	cfg config
}

var _ sudokulab.Solver = (*solver)(nil)

// Solve implements sudokulab.Solver.
func (sv *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	col := newColony(puzzle.Shape, sv.cfg, rng)
	feasible := col.start(puzzle.Cells)
	res := sudokulab.Result{Status: sudokulab.StatusUnsolved}
	report := func() {
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: col.iter, Evaluations: col.evals, BestCost: col.bestCost(),
				CurrentCost: col.meanCost, Convergence: col.bestPher})
		}
	}
	report()
	for feasible {
		if col.solved() {
			res.Status = sudokulab.StatusSolved
			break
		}
		if budget.Spent(col.evals, col.iter) {
			break
		}
		if err := ctx.Err(); err != nil {
			res.Status = sudokulab.StatusOf(err)
			break
		}
		col.iterate()
		report()
	}
	res.Grid = sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), puzzle.Cells...)}
	if feasible {
		copy(res.Grid.Cells, col.bestCells)
	}
	res.Cost = res.Grid.Cost()
	res.Evaluations, res.Generations = col.evals, col.iter
	return res, nil
}
