// Package restartsearch is the lab's own solver, registered as
// "restart-search": a complete tree search with constraint propagation whose
// branching choices are random and which restarts on a schedule, after C. P.
// Gomes, B. Selman and H. Kautz, "Boosting Combinatorial Search Through
// Randomization" (AAAI 1998), with the universal restart schedule of M. Luby,
// A. Sinclair and D. Zuckerman, "Optimal speedup of Las Vegas algorithms"
// (Information Processing Letters 47, 1993).
//
// Why this design: on the instance classes of the stochastic-solver
// literature (random solved grids with 40-50 % of the cells given), the time
// a deterministic backtracking search takes varies over orders of magnitude
// from one puzzle to the next: most are solved at once, a few take far
// longer than all the rest together (Gomes et al.'s heavy tails). A search
// whose choices are random has such tails from one run to the next on the
// same puzzle, and restarting it cuts them off: a try that has not finished
// within its node limit is abandoned and a new try, with new random choices,
// starts from the propagated givens.
//
// A try (section 2 of Gomes et al., "randomized backtrack search") is the
// exact solver's search (solvers/exact: naked and hidden singles and locked
// candidates propagated to a fixpoint at every node, binary branching: the
// cell takes a value, or loses it and the loss is propagated) with its
// choices randomized (exact.Randomized): the value is drawn uniformly among
// the branching cell's candidates, and the cell is chosen by one of two
// rules (branching):
//
//   - dom-wdeg (the default): dom/wdeg of F. Boussemart, F. Hemery, C.
//     Lecoutre and L. Sais, "Boosting systematic search by weighting
//     constraints" (ECAI 2004), with the units (rows, columns, boxes) as
//     its constraints: each unit's weight, 1 at the start, grows by one
//     each time a node's propagation ends in a contradiction there, and the
//     cell taken is the one with the fewest candidates per unit of the
//     summed weights of its three units, ties drawn uniformly. The weights
//     last across restarts, so each try learns from the failures of the
//     tries before it where the puzzle is hard (the combination
//     Boussemart et al. recommend);
//   - mrv: the fewest candidates, ties drawn uniformly (Gomes et al.'s
//     randomization of the first-fail heuristic), nothing learnt.
//
// On the 25x25 instances at 45 % given, dom-wdeg took a median 27 ms
// against 77 ms for mrv (docs/beyond-seeds.md has the measurements the
// defaults were chosen from).
//
// Restarts (section 4 of Gomes et al.): try a may visit at most L(a) nodes,
// L(a) = restart-unit x Luby(a) with the Luby sequence 1, 1, 2, 1, 1, 2, 4,
// 1, ... (restart-schedule=luby, the default: Luby et al. prove it within a
// logarithmic factor of the best fixed cutoff, without knowing the run-time
// distribution), restart-unit x restart-factor^(a-1) (geometric, the schedule
// of Walsh, "Search in a small world", IJCAI 1999), or restart-unit
// (fixed, Gomes et al.'s own cutoff). restart-unit = 0 means one try without
// a limit: the randomized search without restarts, an ablation.
//
// The search is complete within a try: a try that finishes within its
// limit without a solution has proved there is none, and the run ends
// unsolved at once.
//
// Counting: it is a tree search, counted as the exact solver's: Nodes
// (guesses plus one root per try) and Guesses, no evaluations. A generation
// is one try, Restarts the tries after the first; the budget's
// MaxGenerations bounds the tries, MaxEvaluations does not apply (the search
// evaluates no cost). The best grid is the consistent state with the most
// cells fixed that any try reached (the other cells empty), its cost the
// symbols missing from its units; Solve reports a step after each try.
//
// It works on every box shape (the general engine of solvers/exact).
package restartsearch

import (
	"context"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/exact"
	"sudokulab/solvers/internal/restart"
)

// Name is the solver's registry name.
const Name = "restart-search"

// Parameter names.
const (
	ParamUnit      = "restart-unit" // the node limit of the first try
	ParamBranching = "branching"    // mrv or dom-wdeg
)

// The branching rules.
const (
	BranchMRV     = "mrv"
	BranchDomWdeg = "dom-wdeg"
)

// The papers cited by Info.
const paper = "ours: randomized restarted tree search with propagation after C. P. Gomes, B. Selman, H. Kautz, \"Boosting Combinatorial Search Through Randomization\", AAAI 1998; restart schedule of M. Luby, A. Sinclair, D. Zuckerman, Information Processing Letters 47, 1993"

// Info describes the solver for the solver registry.
func Info() sudokulab.SolverInfo {
	params := []sudokulab.ParamSpec{
		{Name: ParamUnit, Kind: sudokulab.ParamInt, Default: int64(defaultUnit), Min: 0, Max: 1e12,
			Doc:     "node limit of the first try; try a may visit unit x Luby(a) nodes (luby), unit x factor^(a-1) (geometric) or unit (fixed); 0: one try without a limit",
			Section: "Gomes, Selman, Kautz 1998, section 4 (cutoff); ours: the unit (docs/beyond-seeds.md says on which instances it was chosen)"},
		{Name: ParamBranching, Kind: sudokulab.ParamChoice, Default: defaultBranching, Choices: []string{BranchDomWdeg, BranchMRV},
			Doc:     "branching cell: mrv (fewest candidates, random ties) or dom-wdeg (fewest candidates per unit weight, the weights raised where propagation fails and kept across restarts)",
			Section: "Gomes et al. 1998, section 2 (mrv with random ties); Boussemart, Hemery, Lecoutre, Sais, ECAI 2004 (dom/wdeg)"},
	}
	for _, p := range restart.Params("Luby, Sinclair, Zuckerman 1993 (luby); Walsh 1999 (geometric); Gomes et al. 1998 (fixed)") {
		if p.Name == restart.ParamSchedule {
			p.Default = restart.Luby
			p.Doc = "node limit of try a, in units of restart-unit: fixed (1 each), luby (1, 1, 2, 1, 1, 2, 4, ...) or geometric (restart-factor^(a-1))"
		}
		params = append(params, p)
	}
	return sudokulab.SolverInfo{
		Name:     Name,
		Summary:  "ours: tree search with propagation to a fixpoint (singles, hidden singles, locked candidates), dom/wdeg branching with random ties and values, restarts on the Luby schedule",
		Counting: "a tree search: nodes (guesses + 1 per try) and guesses in their own columns, 0 evaluations; generation: one try; restarts: the tries after the first",
		Paper:    paper,
		Params:   params,
		Presets: []sudokulab.Preset{
			{Name: "restart-search-luby", Description: "ours: randomized propagation search with dom/wdeg branching, restarted on the Luby schedule (the defaults)"},
			{Name: "restart-search-mrv", Description: "ours: the same search branching on the fewest candidates with random ties (Gomes et al.'s randomization, without weights)",
				Set: map[string]string{ParamBranching: BranchMRV}},
			{Name: "restart-search-geometric", Description: "ours: the same search restarted on a geometric schedule (node limit doubled at each try)",
				Set: map[string]string{restart.ParamSchedule: restart.Geometric}},
			{Name: "restart-search-no-restart", Description: "ours: the randomized search in one try without a limit (the ablation without restarts)",
				Set: map[string]string{ParamUnit: "0"}},
		},
		New: newSolver,
	}
}

// defaultUnit is the node limit of the first try (see docs/beyond-seeds.md
// for how it was chosen).
const defaultUnit = 100

// defaultBranching is the branching rule by default.
const defaultBranching = BranchDomWdeg

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	sched, err := restart.FromParams(p, p.Int(ParamUnit))
	if err != nil {
		return nil, err
	}
	return &solver{sched: sched, weighted: p.String(ParamBranching) == BranchDomWdeg}, nil
}

// solver is a restart-search configuration. It keeps an engine per shape
// between runs; a solver value serves one run at a time, as the run engine
// uses it (a New per worker).
type solver struct {
	sched    restart.Schedule
	weighted bool
	eng      *exact.Randomized
	tally    *sudokulab.Tally
}

var _ sudokulab.Solver = (*solver)(nil)

// Solve implements sudokulab.Solver.
func (s *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	if s.eng == nil || s.tally == nil || s.eng.Shape() != puzzle.Shape {
		eng, err := exact.NewRandomized(puzzle.Shape)
		if err != nil {
			return sudokulab.Result{}, err
		}
		s.eng, s.tally = eng, sudokulab.NewTally(puzzle.Shape)
	}
	s.eng.Weighted = s.weighted
	ok, err := s.eng.Start(puzzle)
	if err != nil {
		return sudokulab.Result{}, err
	}
	res := sudokulab.Result{
		Grid:   sudokulab.Grid{Shape: puzzle.Shape, Cells: make([]uint8, len(puzzle.Cells))},
		Status: sudokulab.StatusUnsolved,
	}
	deepest := s.eng.Deepest(res.Grid.Cells)
	s.tally.Reset(res.Grid.Cells)
	res.Cost = s.tally.Missing().Total()
	if !ok {
		return res, nil
	}
	for try := int64(1); ; try++ {
		if budget.MaxGenerations > 0 && try > budget.MaxGenerations {
			break
		}
		if err := ctx.Err(); err != nil {
			res.Status = sudokulab.StatusOf(err)
			break
		}
		limit := s.sched.Patience(try)
		t, err := s.eng.Try(ctx, rng, limit)
		res.Generations, res.Restarts = try, try-1
		res.Nodes += t.Nodes
		res.Guesses += t.Guesses
		if t.Solved {
			s.eng.Solution(res.Grid.Cells)
			res.Cost, res.Status = 0, sudokulab.StatusSolved
		} else if d := s.eng.Deepest(nil); d > deepest {
			deepest = s.eng.Deepest(res.Grid.Cells)
			s.tally.Reset(res.Grid.Cells)
			res.Cost = s.tally.Missing().Total()
		}
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: res.Generations, Restarts: res.Restarts, BestCost: res.Cost, CurrentCost: float64(res.Cost)})
		}
		if err != nil {
			res.Status = sudokulab.StatusOf(err)
			break
		}
		if !t.Cut {
			// Solved, or the try searched the whole tree within its limit.
			break
		}
	}
	return res, nil
}
