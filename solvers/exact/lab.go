package exact

import (
	"context"
	"math/rand/v2"

	"sudokulab"
)

// Info describes the exact solver for the solver registry, so that its runs
// are recorded like any other solver's. It has no parameters and no paper:
// it is the lab's reference.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:    "exact",
		Summary: "constraint propagation (naked and hidden singles) with backtracking on the fewest-candidates cell",
		Paper:   "none: the lab's reference solver (solvers/exact)",
		Presets: []sudokulab.Preset{{
			Name:        "exact",
			Description: "the exact solver, to verify puzzles and as a baseline",
		}},
		New: func(sudokulab.Params) (sudokulab.Solver, error) { return &labSolver{}, nil },
	}
}

// labSolver runs the exact search as a sudokulab.Solver: it finds the first
// solution, ignoring the rng (the search is deterministic) and the
// evaluation and generation budgets (a search cannot be stopped half way
// with a useful grid); the context's deadline still stops it. Its result
// counts search nodes (guesses plus the root) as generations and cells
// fixed by propagation as evaluations, and it reports one step, at the end.
type labSolver struct {
	s Solver
}

var _ sudokulab.Solver = (*labSolver)(nil)

// Solve implements sudokulab.Solver.
func (l *labSolver) Solve(ctx context.Context, puzzle sudokulab.Grid, _ sudokulab.Budget, _ *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	res, err := l.s.Solve(ctx, puzzle, 1)
	out := sudokulab.Result{
		Grid:        puzzle.Clone(),
		Status:      sudokulab.StatusUnsolved,
		Evaluations: res.Effort.Propagations,
		Generations: res.Effort.Guesses + 1,
	}
	switch {
	case err != nil && ctx.Err() != nil:
		out.Status = sudokulab.StatusOf(ctx.Err())
	case err != nil:
		return out, err
	case res.Count > 0:
		out.Grid, out.Status = res.Solution, sudokulab.StatusSolved
	}
	out.Cost = out.Grid.Cost()
	if obs != nil {
		obs.Observe(sudokulab.Step{Generation: out.Generations, Evaluations: out.Evaluations, BestCost: out.Cost, CurrentCost: float64(out.Cost)})
	}
	return out, nil
}
