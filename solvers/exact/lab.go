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
		Name:     "exact",
		Summary:  "constraint propagation (naked and hidden singles, locked candidates) with binary branching on the fewest-candidates cell",
		Counting: "a tree search: nodes (guesses + 1) and guesses in their own columns, 0 evaluations; generations = nodes; restarts: none",
		Paper:    "none: the lab's reference solver (solvers/exact)",
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
// counts its work as a tree search does: Nodes (guesses plus the root) and
// Guesses, with Generations equal to Nodes and no Evaluations (it never
// evaluates a cost), and it reports one step, at the end.
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
		Generations: res.Effort.Guesses + 1,
		Nodes:       res.Effort.Guesses + 1,
		Guesses:     res.Effort.Guesses,
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
