package sudokulab

import (
	"context"
	"errors"
	"math/rand/v2"
)

// Solver is a search algorithm with its parameters fixed. Solve searches
// for a solution of puzzle until it finds one, the budget is spent, or ctx
// is done (a deadline is the run's time budget). The rng is its only source
// of randomness, so a solver given the same puzzle, parameters, budget and
// seed repeats the same search. It reports progress to obs, which may be
// nil, once per generation or iteration.
//
// Solve returns the best grid it found, never changing a given, with a
// Status: StatusSolved, StatusUnsolved (budget spent), StatusTimeout (ctx
// deadline) or StatusCanceled (ctx cancelled). An error is returned only
// when the solver cannot work on the puzzle at all.
type Solver interface {
	Solve(ctx context.Context, puzzle Grid, budget Budget, rng *rand.Rand, obs Observer) (Result, error)
}

// Budget limits a search. A zero field means no limit. Time is limited
// through the context's deadline.
type Budget struct {
	// MaxEvaluations limits the cost-function evaluations (for a population
	// method, the individuals evaluated).
	MaxEvaluations int64
	// MaxGenerations limits the generations or iterations.
	MaxGenerations int64
}

// Spent reports whether a search that has made evals evaluations over gens
// generations has used up the budget.
func (b Budget) Spent(evals, gens int64) bool {
	return (b.MaxEvaluations > 0 && evals >= b.MaxEvaluations) ||
		(b.MaxGenerations > 0 && gens >= b.MaxGenerations)
}

// Result is what a search ends with.
type Result struct {
	// Grid is the best grid found: the givens unchanged, every other cell
	// filled where the solver fills cells.
	Grid Grid
	// Cost is Grid's cost (0 = solved); see Missing.Total.
	Cost int
	// Status is how the search ended.
	Status RunStatus
	// Evaluations, Generations and Restarts count the work done, as the
	// solver defines them in its doc comment and SolverInfo.Counting.
	// An evaluation is one full evaluation of a candidate grid's cost, or
	// the incremental evaluation that replaces one (the cost change of a
	// move); the cost of the starting grid or population counts too, so a
	// stochastic run reports at least one evaluation.
	Evaluations, Generations, Restarts int64
	// PrefilterRevisions is the work of the AC3/GAC prefilter before the
	// search (ac3.Stats.Revisions), 0 for a search without prefilter. It is
	// never folded into Evaluations.
	PrefilterRevisions int64
	// Nodes and Guesses are the work of a tree search (the exact solver):
	// the nodes visited (guesses plus the root) and the guesses made. A
	// tree search counts no evaluations; both are 0 for the stochastic
	// solvers.
	Nodes, Guesses int64
}

// Step is the progress a solver reports after each generation or
// iteration. The run engine adds the elapsed time and decides which steps
// become stored TrajectoryPoints.
type Step struct {
	Generation  int64
	Evaluations int64
	Restarts    int64
	// BestCost is the lowest cost found so far in the run; it never
	// increases from one step to the next.
	BestCost int
	// CurrentCost is the cost of the current solution or the mean cost of
	// the population.
	CurrentCost float64
	// Convergence is the solver's own measure of convergence, such as
	// RESEDA's rho (section 2.3); 0 means the solver reports none.
	Convergence float64
}

// Observer receives a solver's steps. Observe must be fast and must not
// keep or change anything it is given.
type Observer interface {
	Observe(Step)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Step)

// Observe calls f(s).
func (f ObserverFunc) Observe(s Step) { f(s) }

// StatusOf returns the status of a search stopped by ctx's error: timeout
// for a deadline, canceled otherwise. Solvers call it when ctx.Err() != nil.
func StatusOf(ctxErr error) RunStatus {
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		return StatusTimeout
	}
	return StatusCanceled
}

// NewRand returns the random source for a run with the given seed: a PCG
// generator, the same on every platform, so a seed names one search.
func NewRand(seed int64) *rand.Rand {
	s := uint64(seed)
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}
