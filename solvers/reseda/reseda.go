package reseda

import (
	"context"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/model"
)

// solver is RESEDA with its parameters fixed. It keeps its buffers from one
// Solve to the next; like every sudokulab.Solver it runs one Solve at a
// time.
type solver struct {
	set settings
	e   engine
	// Grids of the current run: the givens of an attempt, of a partial
	// restart, the grid the zones come from, the best of the resolution
	// and of the run.
	attemptFixed, restartFixed, first, resBest, best []uint8
	order                                            []int
}

var _ sudokulab.Solver = (*solver)(nil)

// outcome is how a resolution ended.
type outcome int

const (
	converged outcome = iota // rho exceeded beta: try a restart
	solved                   // a sample costs 0
	stopped                  // budget spent or ctx done
)

// search is one run of Solve: its counters and where it reports.
type search struct {
	*solver
	budget sudokulab.Budget
	rng    *rand.Rand
	obs    sudokulab.Observer

	gens, evals, restarts, resolutions int64
	resBestCost, bestCost              int
	rho                                float64
	status                             sudokulab.RunStatus
}

// Solve implements sudokulab.Solver: attempts (a resolution and its
// partial restarts) follow one another until a sample solves the puzzle,
// the attempts or the budget run out, or ctx is done.
func (s *solver) Solve(ctx context.Context, puzzle sudokulab.Grid, budget sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	d, pst, infeasible, err := model.Start("reseda", s.set.prefilter, puzzle, rng)
	switch {
	case err != nil:
		return sudokulab.Result{}, err
	case infeasible != nil:
		return *infeasible, nil
	}
	// Cells the prefilter fixed count as givens; with prefilter none the
	// grid is the puzzle.
	givens := d.Grid()
	var block *blockPermutations
	if s.set.bruteForce {
		if block, err = admissiblePermutations(givens, 0, d); err != nil {
			return sudokulab.Result{}, err
		}
		if block != nil && s.set.blockPerm > block.count() {
			return sudokulab.Result{}, sudokulab.Errorf(sudokulab.EINVALID, "reseda: block-permutation %d, but the top-left box has %d admissible permutations", s.set.blockPerm, block.count())
		}
	}
	s.prepare(puzzle.Shape, block)
	if s.set.prefilter != ac3.None {
		s.e.restrict(d)
	}
	if s.set.propagate != ac3.PropagateNone {
		if s.e.prop, err = ac3.NewPropagator(puzzle.Shape, s.set.propagate); err != nil {
			return sudokulab.Result{}, err
		}
	}
	r := &search{solver: s, budget: budget, rng: rng, obs: obs, bestCost: maxCost}
	r.run(ctx, givens, block)
	res := sudokulab.Result{
		Grid:        sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), s.best...)},
		Cost:        r.bestCost,
		Status:      r.status,
		Evaluations: r.evals,
		Generations: r.gens,
		Restarts:    r.restarts,

		PrefilterRevisions: int64(pst.Revisions),
	}
	return res, nil
}

// prepare sizes the buffers.
func (s *solver) prepare(shape sudokulab.Shape, block *blockPermutations) {
	s.e.prepare(shape, s.set)
	size := shape.Cells()
	if len(s.best) != size {
		s.attemptFixed = make([]uint8, size)
		s.restartFixed = make([]uint8, size)
		s.first = make([]uint8, size)
		s.resBest = make([]uint8, size)
		s.best = make([]uint8, size)
	}
	if block != nil {
		if cap(s.order) < block.count() {
			s.order = make([]int, block.count())
		}
		s.order = s.order[:block.count()]
	}
}

// run does the attempts.
func (r *search) run(ctx context.Context, puzzle sudokulab.Grid, block *blockPermutations) {
	for attempt := int64(0); ; attempt++ {
		if r.set.attempts > 0 && attempt >= r.set.attempts {
			r.status = sudokulab.StatusUnsolved
			return
		}
		copy(r.attemptFixed, puzzle.Cells)
		if block != nil {
			block.apply(r.attemptFixed, r.permutation(attempt, block))
		}
		if out := r.resolve(ctx, r.attemptFixed); out != converged {
			return
		}
		copy(r.first, r.resBest)
		for z := range r.zoneCount() {
			if !r.zoneUsable(z) {
				continue
			}
			copy(r.restartFixed, r.attemptFixed)
			for _, i := range r.zoneCells(z) {
				r.restartFixed[i] = r.first[i]
			}
			if out := r.resolve(ctx, r.restartFixed); out != converged {
				return
			}
		}
	}
}

// permutation returns the index of the top-left box permutation for an
// attempt: the fixed one, or the next of a cycle through all of them in an
// order shuffled afresh at the start of each cycle.
func (r *search) permutation(attempt int64, block *blockPermutations) int {
	if r.set.blockPerm > 0 {
		return r.set.blockPerm - 1
	}
	m := len(r.order)
	j := int(attempt % int64(m))
	if j == 0 {
		for i := range r.order {
			r.order[i] = i
		}
		for i := m - 1; i > 0; i-- {
			k := r.rng.IntN(i + 1)
			r.order[i], r.order[k] = r.order[k], r.order[i]
		}
	}
	return r.order[j]
}

// zoneCount returns the number of zones partial restarts try.
func (r *search) zoneCount() int {
	geo := r.e.geo
	switch r.set.zones {
	case ZonesDiagonal:
		return min(geo.N/geo.Shape.BoxRows, geo.N/geo.Shape.BoxCols)
	case ZonesBoxes:
		return geo.N
	case ZonesUnits:
		return 3 * geo.N
	}
	return 0
}

// zoneCells returns the cells of zone z: the z-th box on the first
// diagonal, the z-th box, or unit z (rows, columns, boxes).
func (r *search) zoneCells(z int) []int {
	geo := r.e.geo
	n := geo.N
	switch r.set.zones {
	case ZonesDiagonal:
		stacks := n / geo.Shape.BoxCols
		return geo.Units[2*n+z*stacks+z]
	case ZonesBoxes:
		return geo.Units[2*n+z]
	}
	return geo.Units[z]
}

// zoneUsable reports whether zone z of the first resolution's grid can be
// fixed: it holds every symbol once and has a cell not fixed already.
func (r *search) zoneUsable(z int) bool {
	var seen uint32
	adds := false
	for _, i := range r.zoneCells(z) {
		seen |= 1 << (r.first[i] - 1)
		adds = adds || r.attemptFixed[i] == 0
	}
	n := r.e.n
	return adds && seen == uint32(1)<<n-1
}

// resolve runs one resolution from the fixed cells: EDA steps until a
// sample solves the puzzle, rho exceeds beta, the budget is spent or ctx is
// done. Each step is reported to obs.
func (r *search) resolve(ctx context.Context, fixed []uint8) outcome {
	e := &r.e
	if r.resolutions > 0 {
		r.restarts++
	}
	r.resolutions++
	r.rho = e.init(fixed)
	r.resBestCost = maxCost
	size, q := e.size, r.set.samples
	for {
		if r.gens > 0 {
			if err := ctx.Err(); err != nil {
				r.status = sudokulab.StatusOf(err)
				return stopped
			}
		}
		r.gens++
		sum, done := 0, 0
		out := converged
		for j := range q {
			if r.budget.MaxEvaluations > 0 && r.evals >= r.budget.MaxEvaluations {
				out = stopped
				break
			}
			g := e.pop[j*size : j*size+size]
			e.sample(r.rng, g)
			c := e.costOf(g)
			e.cost[j] = c
			r.evals++
			sum += c
			done++
			if c <= r.resBestCost {
				r.resBestCost = c
				copy(r.resBest, g)
			}
			if c < r.bestCost {
				r.bestCost = c
				copy(r.best, g)
			}
			if c == 0 {
				out = solved
				break
			}
		}
		if out == converged {
			e.selectBest()
			r.rho = e.update()
		}
		r.step(float64(sum) / float64(max(done, 1)))
		switch {
		case out == solved:
			r.status = sudokulab.StatusSolved
			return solved
		case out == stopped || r.budget.Spent(r.evals, r.gens):
			r.status = sudokulab.StatusUnsolved
			return stopped
		case r.rho > r.set.beta:
			return converged
		}
	}
}

// step reports the state after a step.
func (r *search) step(mean float64) {
	if r.obs == nil {
		return
	}
	r.obs.Observe(sudokulab.Step{
		Generation:  r.gens,
		Evaluations: r.evals,
		Restarts:    r.restarts,
		BestCost:    r.bestCost,
		CurrentCost: mean,
		Convergence: r.rho,
	})
}
