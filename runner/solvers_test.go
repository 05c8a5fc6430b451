package runner_test

// Test solvers for the run engine: an honest stochastic local search, and
// deliberately broken solvers for the engine's error paths.

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"sudokulab"
)

// localSearch is a small but real stochastic local search: every box is
// filled with a random permutation of its missing symbols, then random
// swaps of two free cells of one box are proposed and accepted when they do
// not raise the cost (the missing symbols of rows and columns, computed in
// constant time by a sudokulab.Tally). After restartAfter proposals without
// an improvement of the current cost the boxes are filled afresh.
//
// Counting: one evaluation per fill (the initial one and each restart) and
// per proposed swap; one generation per proposed swap. It reports a Step
// after every generation, with the share of its patience used up
// (stall/restartAfter) as its convergence measure, and returns the best
// grid found.
type localSearch struct {
	restartAfter int64
	// delay, if positive, is slept every 1,024 generations, to make runs
	// slow enough to interrupt (the search itself is unchanged).
	delay time.Duration
}

var _ sudokulab.Solver = (*localSearch)(nil)

func (ls *localSearch) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	geo := puzzle.Geometry()
	n := geo.N
	cells := append([]uint8(nil), puzzle.Cells...)
	free := make([][]int, n)
	var boxes []int // boxes with at least two free cells: where moves are
	for b := 0; b < n; b++ {
		for _, i := range geo.Units[2*n+b] {
			if puzzle.Cells[i] == 0 {
				free[b] = append(free[b], i)
			}
		}
		if len(free[b]) >= 2 {
			boxes = append(boxes, b)
		}
	}
	missing := make([]uint8, 0, n)
	fill := func() error {
		for b := 0; b < n; b++ {
			var seen uint64
			for _, i := range geo.Units[2*n+b] {
				if v := puzzle.Cells[i]; v != 0 {
					if seen&(1<<v) != 0 {
						return errors.New("local search: a box repeats a given")
					}
					seen |= 1 << v
				}
			}
			missing = missing[:0]
			for v := 1; v <= n; v++ {
				if seen&(1<<v) == 0 {
					missing = append(missing, uint8(v))
				}
			}
			rng.Shuffle(len(missing), func(i, j int) { missing[i], missing[j] = missing[j], missing[i] })
			for k, i := range free[b] {
				cells[i] = missing[k]
			}
		}
		return nil
	}
	if err := fill(); err != nil {
		return sudokulab.Result{}, err
	}
	tally := sudokulab.NewTally(puzzle.Shape)
	tally.Reset(cells)
	best := append([]uint8(nil), cells...)
	bestCost, cost := tally.Cost(), tally.Cost()
	var evals, gens, restarts, stall int64 = 1, 0, 0, 0
	result := func(st sudokulab.RunStatus) (sudokulab.Result, error) {
		return sudokulab.Result{
			Grid: sudokulab.Grid{Shape: puzzle.Shape, Cells: best}, Cost: bestCost, Status: st,
			Evaluations: evals, Generations: gens, Restarts: restarts,
		}, nil
	}
	for {
		if bestCost == 0 {
			return result(sudokulab.StatusSolved)
		}
		if budget.Spent(evals, gens) {
			return result(sudokulab.StatusUnsolved)
		}
		if gens&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return result(sudokulab.StatusOf(err))
			}
			if ls.delay > 0 && gens > 0 {
				time.Sleep(ls.delay)
			}
		}
		if len(boxes) == 0 {
			return sudokulab.Result{}, errors.New("local search: no free cells to swap, and the givens are no solution")
		}
		gens++
		b := boxes[rng.IntN(len(boxes))]
		f := free[b]
		x := rng.IntN(len(f))
		y := rng.IntN(len(f) - 1)
		if y >= x {
			y++
		}
		i, j := f[x], f[y]
		evals++
		if tally.SwapDelta(cells, i, j).Total() <= 0 {
			tally.Swap(cells, i, j)
		}
		if c := tally.Cost(); c < cost {
			cost, stall = c, 0
		} else {
			stall++
		}
		// A restart costs an evaluation, so it waits for budget.
		if ls.restartAfter > 0 && stall >= ls.restartAfter && !budget.Spent(evals+1, gens) {
			if err := fill(); err != nil {
				return sudokulab.Result{}, err
			}
			tally.Reset(cells)
			cost, stall = tally.Cost(), 0
			restarts++
			evals++
		}
		if cost < bestCost {
			bestCost = cost
			copy(best, cells)
		}
		if obs != nil {
			var conv float64
			if ls.restartAfter > 0 {
				conv = float64(stall) / float64(ls.restartAfter)
			}
			obs.Observe(sudokulab.Step{Generation: gens, Evaluations: evals, Restarts: restarts, BestCost: bestCost, CurrentCost: float64(cost), Convergence: conv})
		}
	}
}

// localSearchInfo registers localSearch.
func localSearchInfo() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:    "test-local-search",
		Summary: "box-permutation hill climbing with sideways moves and restarts (runner tests)",
		Paper:   "none: a test solver of package runner",
		Params: []sudokulab.ParamSpec{
			{Name: "restart", Kind: sudokulab.ParamInt, Default: int64(3000), Min: 0, Max: 1e9,
				Doc: "proposals without improvement before a restart; 0 never restarts", Section: "runner tests"},
			{Name: "delay_us", Kind: sudokulab.ParamInt, Default: int64(0), Min: 0, Max: 1e6,
				Doc: "microseconds slept every 1,024 generations", Section: "runner tests"},
		},
		New: func(p sudokulab.Params) (sudokulab.Solver, error) {
			return &localSearch{restartAfter: p.Int("restart"), delay: time.Duration(p.Int("delay_us")) * time.Microsecond}, nil
		},
	}
}

// brokenSolver misbehaves in one of several ways.
type brokenSolver struct{ how string }

func (s *brokenSolver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	geo := puzzle.Geometry()
	n := geo.N
	g := puzzle.Clone()
	step := func() {
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: 1, Evaluations: 1, BestCost: g.Cost(), CurrentCost: float64(g.Cost())})
		}
	}
	switch s.how {
	case "wrong-solution":
		// Fill every box with its missing symbols in order: a full grid
		// that keeps the givens and the box rule but breaks rows or
		// columns. It claims to be solved.
		for b := 0; b < n; b++ {
			var seen [33]bool
			for _, i := range geo.Units[2*n+b] {
				seen[g.Cells[i]] = true
			}
			v := 1
			for _, i := range geo.Units[2*n+b] {
				if g.Cells[i] != 0 {
					continue
				}
				for seen[v] {
					v++
				}
				g.Cells[i] = uint8(v)
				seen[v] = true
			}
		}
		step()
		return sudokulab.Result{Grid: g, Cost: g.Cost(), Status: sudokulab.StatusSolved, Evaluations: 1, Generations: 1}, nil
	case "changed-given":
		for i, v := range g.Cells {
			if v != 0 {
				g.Cells[i] = v%uint8(n) + 1
				break
			}
		}
		step()
		return sudokulab.Result{Grid: g, Cost: g.Cost(), Status: sudokulab.StatusUnsolved, Evaluations: 1, Generations: 1}, nil
	case "bad-status":
		step()
		return sudokulab.Result{Grid: g, Cost: g.Cost(), Status: "finished", Evaluations: 1, Generations: 1}, nil
	case "short-grid":
		step()
		return sudokulab.Result{Grid: sudokulab.Grid{Shape: puzzle.Shape, Cells: g.Cells[:10]}, Status: sudokulab.StatusUnsolved, Evaluations: 1, Generations: 1}, nil
	case "panic":
		step()
		panic("boom: index out of range in the test solver")
	case "error":
		return sudokulab.Result{}, errors.New("test solver cannot work on this puzzle")
	}
	panic("unknown broken solver " + s.how)
}

// brokenInfo registers a brokenSolver.
func brokenInfo(how string) sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:    "test-broken-" + how,
		Summary: "a deliberately broken solver (" + how + ") for the runner tests",
		Paper:   "none: a test solver of package runner",
		New:     func(sudokulab.Params) (sudokulab.Solver, error) { return &brokenSolver{how: how}, nil },
	}
}

// failingNewInfo is a solver whose constructor fails.
func failingNewInfo() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:    "test-broken-new",
		Summary: "a solver that cannot be made",
		Paper:   "none: a test solver of package runner",
		New: func(sudokulab.Params) (sudokulab.Solver, error) {
			return nil, errors.New("test constructor refuses")
		},
	}
}
