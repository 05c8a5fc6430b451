// Package cuckoo is the prefiltered discrete cuckoo search with geometric
// operators of Soto, Crawford, Galleguillos, Monfroy and Paredes (2014),
// registered as "soto-cuckoo".
//
// The prefiltering phase (section 5) enforces arc consistency with AC3
// (package ac3) and the nests are then built within the pruned domains
// (section 6): every row of a nest is a random permutation of the values
// its givens lack, each cell within its domain, so rows never miss a
// symbol. Each iteration (Algorithm 8) chooses a nest at random and, unless
// it is the best nest, applies the geometric operators of section 4 to a
// copy of it, row by row (Algorithm 9, as we reconstruct it): with
// probability pc the partially matched crossover (PMX, section 4.1) of the
// best nest's row (the segment donor) and the egg's row, otherwise the
// multiparental sorting crossover (section 4.2) of three parents, the best
// nest of all generations, the best nest of the current generation and the
// egg, under a mask with weight-best, weight-generation and weight-current
// shares; then with probability pm the feasible geometric mutation
// (section 4.3), a swap of two cells that are not fixed. The new egg
// replaces a nest chosen at random if it costs less (Algorithm 1). Then the
// floor(pa*nests) worst nests other than the best are abandoned and built
// afresh within the domains. The cost is the number of symbols missing from
// the rows, columns and boxes (Figure 5: "the sum of wrong values"), which
// is sudokulab.Missing.Total; rows contribute nothing since they are
// permutations.
//
// The paper's text lost the symbols of its settings, so some readings are
// ours and are documented in docs/reproduction-tabu-cuckoo.md: the default
// nests, pa, pc and pm come from a small tuning run; "best of the current
// generation" is taken as the best nest other than the incumbent (with one
// egg per iteration and elitism, the population's best is the best of all
// generations, which would make two of the three parents the same).
//
// Fixed cells: givens, and with a prefilter the cells it reduced to one
// value, never move: the crossovers keep every position where all parents
// agree, and the mutation swaps only cells that are not fixed. With
// domain-moves the other domains bind the moves too: a crossover's child
// row that puts a cell outside its domain is dropped (the row stays as it
// was) and the mutation swaps only within the domains. With prefilter none
// only the givens are fixed. If filtering proves the puzzle unsolvable,
// Solve returns at once with StatusUnsolved and no iteration.
//
// Counting: a generation is an iteration; an evaluation is a nest whose
// cost is computed (the initial nests, the new egg of each iteration and
// each rebuilt nest). Budgets are checked between iterations. Restarts are
// always 0. Solve reports a step after building the nests (generation 0)
// and one per iteration, with CurrentCost the mean cost of the nests and
// no convergence measure.
//
// The search works for any box shape: rows are permutations of 1..N.
package cuckoo

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Name is the solver's registry name.
const Name = "soto-cuckoo"

const paper = "R. Soto, B. Crawford, C. Galleguillos, E. Monfroy, F. Paredes, \"A Prefiltered Cuckoo Search Algorithm with Geometric Operators for Solving Sudoku Problems\", The Scientific World Journal, vol. 2014, article ID 465359, 2014"

// The tuned defaults (docs/reproduction-tabu-cuckoo.md, "Tuning").
const (
	defaultNests = 50
	defaultPa    = 0.25
	defaultPc    = 0.5
	defaultPm    = 0.2
)

// Info describes the cuckoo search for the solver registry.
func Info() sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name:     Name,
		Summary:  "prefiltered discrete cuckoo search: AC3 first, rows as permutations, PMX and multiparental sorting crossover, feasible swap mutation, abandonment of the worst nests",
		Counting: "evaluation: a nest whose cost is computed (the initial nests, each iteration's new egg, each rebuilt nest); generation: an iteration; restarts: none; prefilter work in prefilter_revisions",
		Paper:    paper,
		Params: []sudokulab.ParamSpec{
			{Name: "nests", Kind: sudokulab.ParamInt, Default: int64(defaultNests), Min: 2, Max: 10000,
				Doc: "number of host nests (one egg each); the paper's value was lost, tuned here", Section: "§6 Algorithm 8, §7 (value lost; tuned)"},
			{Name: "pa", Kind: sudokulab.ParamFloat, Default: defaultPa, Min: 0, Max: 0.99,
				Doc: "fraction of the worst nests abandoned and rebuilt every iteration; tuned", Section: "§3 Algorithm 1, §6 (value lost; tuned)"},
			{Name: "pc", Kind: sudokulab.ParamFloat, Default: defaultPc, Min: 0, Max: 1,
				Doc: "probability that a row is recombined by PMX rather than the sorting crossover; tuned", Section: "§6 Algorithm 9 (value lost; tuned)"},
			{Name: "pm", Kind: sudokulab.ParamFloat, Default: defaultPm, Min: 0, Max: 1,
				Doc: "probability that a row is mutated after the crossover; tuned", Section: "§6 Algorithm 9 (value lost; tuned)"},
			{Name: "weight-best", Kind: sudokulab.ParamFloat, Default: 0.55, Min: 0, Max: 1,
				Doc: "share of the mask naming the best nest of all generations", Section: "§4.2 Example 2"},
			{Name: "weight-generation", Kind: sudokulab.ParamFloat, Default: 0.33, Min: 0, Max: 1,
				Doc: "share of the mask naming the best nest of the current generation", Section: "§4.2 Example 2"},
			{Name: "weight-current", Kind: sudokulab.ParamFloat, Default: 0.12, Min: 0, Max: 1,
				Doc: "share of the mask naming the egg itself", Section: "§4.2 Example 2"},
			{Name: "domain-moves", Kind: sudokulab.ParamBool, Default: false,
				Doc: "keep crossover children and mutations within the pruned domains, not only the fixed cells (extension)", Section: "§5-6 (extension: the paper filters initialization and rebuilding)"},
			ac3.Param(ac3.AC3, "§5 prefiltering phase, §6 Algorithm 8"),
			ac3.PropagateParam("when a nest is built (the initial nests and each nest abandoned and rebuilt, §6): each row's cells take their missing numbers one by one, each propagated (ac3.Propagator.Fill); eggs and mutations are not constructive and search as without it"),
		},
		Presets: []sudokulab.Preset{
			{Name: "soto-cuckoo", Description: "Soto et al. 2014 prefiltered cuckoo search (AC3), tuned defaults; run with 10,000 (Table 1) or 100,000 iterations (Table 2)"},
			{Name: "soto-cuckoo-no-prefilter", Description: "the same cuckoo search without the AC3 prefilter", Set: map[string]string{"prefilter": ac3.None}},
			{Name: "soto-cuckoo-gac", Description: "the cuckoo search after generalized arc consistency instead of AC3", Set: map[string]string{"prefilter": ac3.GAC}},
			{Name: "soto-cuckoo-domain-moves", Description: "AC3 prefilter binding every move, not only initialization and rebuilding", Set: map[string]string{"domain-moves": "true"}},
		},
		New: newSolver,
	}
}

type config struct {
	nests       int
	pa, pc, pm  float64
	weights     [3]float64
	domainMoves bool
	prefilter   string
	propagate   string
}

func newSolver(p sudokulab.Params) (sudokulab.Solver, error) {
	c := config{
		nests: int(p.Int("nests")),
		pa:    p.Float("pa"), pc: p.Float("pc"), pm: p.Float("pm"),
		weights:     [3]float64{p.Float("weight-best"), p.Float("weight-generation"), p.Float("weight-current")},
		domainMoves: p.Bool("domain-moves"),
		prefilter:   p.String(ac3.ParamName),
		propagate:   p.String(ac3.PropagateParamName),
	}
	if c.weights[0]+c.weights[1]+c.weights[2] <= 0 {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "%s: the mask weights sum to 0", Name)
	}
	return &solver{cfg: c}, nil
}

type solver struct {
	cfg config
}

var _ sudokulab.Solver = (*solver)(nil)

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
		for r := range s.n {
			s.allRows = append(s.allRows, r)
		}
	}
	s.start()
	res := sudokulab.Result{Status: sudokulab.StatusUnsolved}
	report := func() {
		if obs != nil {
			obs.Observe(sudokulab.Step{Generation: s.iter, Evaluations: s.evals, BestCost: s.costs[s.best],
				CurrentCost: float64(s.sum) / float64(len(s.costs))})
		}
	}
	report()
	for !infeasible {
		if s.costs[s.best] == 0 {
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
		s.iterate()
		report()
	}
	n2 := len(puzzle.Cells)
	res.Grid = sudokulab.Grid{Shape: puzzle.Shape, Cells: append([]uint8(nil), s.nests[s.best*n2:(s.best+1)*n2]...)}
	res.Cost = s.costs[s.best]
	res.Evaluations, res.Generations = s.evals, s.iter
	res.PrefilterRevisions = int64(d.Revisions())
	return res, nil
}

// search is the state of one run, allocated in newSearch.
type search struct {
	cfg     config
	rng     *rand.Rand
	n, nn   int
	d       *ac3.Domains
	dom     []ac3.Set // each cell's domain
	movable []bool    // cells that are not fixed
	rows    []int     // rows with two movable cells or more
	units   []int32   // the cells of the 3N units, N each

	nests []uint8 // nests*N*N cells, nest k at k*N*N
	costs []int
	sum   int // sum of costs
	best  int // index of the best nest (the best of all generations)

	egg, child, work, mask []uint8
	counts                 [3]int
	order                  []int

	iter, evals int64

	// prop, with propagate above none, builds nests (Fill over allRows).
	prop    *ac3.Propagator
	allRows []int
}

func newSearch(puzzle sudokulab.Grid, d *ac3.Domains, cfg config, rng *rand.Rand) *search {
	geo := puzzle.Geometry()
	n, nn := geo.N, len(puzzle.Cells)
	s := &search{
		cfg: cfg, rng: rng, n: n, nn: nn, d: d,
		dom: make([]ac3.Set, nn), movable: make([]bool, nn), units: make([]int32, 0, 3*nn),
		nests: make([]uint8, cfg.nests*nn), costs: make([]int, cfg.nests),
		egg: make([]uint8, nn), child: make([]uint8, n), work: make([]uint8, 2*n), mask: make([]uint8, n),
		counts: MaskCounts(n, cfg.weights), order: make([]int, cfg.nests),
	}
	for c := range nn {
		s.dom[c] = d.Domain(c)
		s.movable[c] = !d.Fixed(c)
	}
	for r := range n {
		m := 0
		for _, c := range geo.Units[r] {
			if s.movable[c] {
				m++
			}
		}
		if m >= 2 {
			s.rows = append(s.rows, r)
		}
	}
	for _, u := range geo.Units {
		for _, c := range u {
			s.units = append(s.units, int32(c))
		}
	}
	return s
}

// cost returns the missing symbols of rows, columns and boxes of a full
// grid.
func (s *search) cost(cells []uint8) int {
	s.evals++
	n, c := s.n, 0
	for u := 0; u < len(s.units); u += n {
		var seen uint32
		for _, i := range s.units[u : u+n] {
			seen |= 1 << (cells[i] - 1)
		}
		c += n - bits.OnesCount32(seen)
	}
	return c
}

// build fills nest k's rows within the domains and evaluates it.
func (s *search) build(k int) {
	nest := s.nests[k*s.nn : (k+1)*s.nn]
	if s.prop != nil {
		s.prop.Fill(nest, s.allRows, s.d, s.rng)
	} else {
		for r := range s.n {
			s.d.FillUnit(nest, r, s.rng)
		}
	}
	s.sum -= s.costs[k]
	s.costs[k] = s.cost(nest)
	s.sum += s.costs[k]
}

// start builds every nest.
func (s *search) start() {
	for k := range s.costs {
		s.build(k)
		if s.costs[k] < s.costs[s.best] {
			s.best = k
		}
	}
}

// iterate is one iteration of Algorithm 8.
func (s *search) iterate() {
	s.iter++
	n, nn, rng := s.n, s.nn, s.rng
	i := rng.IntN(len(s.costs))
	copy(s.egg, s.nests[i*nn:(i+1)*nn])
	if i != s.best {
		gen := s.runnerUp()
		pb, pg := s.nests[s.best*nn:(s.best+1)*nn], s.nests[gen*nn:(gen+1)*nn]
		for _, r := range s.rows {
			a, b := r*n, (r+1)*n
			row := s.egg[a:b]
			if rng.Float64() < s.cfg.pc {
				lo, hi := rng.IntN(n), rng.IntN(n)
				if lo > hi {
					lo, hi = hi, lo
				}
				PMX(s.child, pb[a:b], row, lo, hi)
			} else {
				Mask(s.mask, s.counts, rng)
				SortingCrossover(s.child, pb[a:b], pg[a:b], row, s.mask, s.work)
			}
			if !s.cfg.domainMoves || s.within(a, s.child) {
				copy(row, s.child)
			}
			if rng.Float64() < s.cfg.pm {
				var dom []ac3.Set
				if s.cfg.domainMoves {
					dom = s.dom[a:b]
				}
				Mutate(row, s.movable[a:b], dom, rng)
			}
		}
	}
	c := s.cost(s.egg)
	if j := rng.IntN(len(s.costs)); c < s.costs[j] {
		copy(s.nests[j*nn:(j+1)*nn], s.egg)
		s.sum += c - s.costs[j]
		s.costs[j] = c
		if c < s.costs[s.best] {
			s.best = j
		}
	}
	s.abandon()
}

// within reports whether row, to be placed at cell a, keeps every cell in
// its domain.
func (s *search) within(a int, row []uint8) bool {
	for k, v := range row {
		if !s.dom[a+k].Has(v) {
			return false
		}
	}
	return true
}

// runnerUp returns the best nest other than the best one: our reading of
// the "best solution of the current generation" (section 4.2).
func (s *search) runnerUp() int {
	r := -1
	for k, c := range s.costs {
		if k != s.best && (r < 0 || c < s.costs[r]) {
			r = k
		}
	}
	return r
}

// abandon rebuilds the floor(pa*nests) worst nests other than the best
// (ties: the higher index first).
func (s *search) abandon() {
	k := int(s.cfg.pa * float64(len(s.costs)))
	if k == 0 {
		return
	}
	for j := range s.order {
		s.order[j] = j
	}
	// Insertion sort, worst first.
	for a := 1; a < len(s.order); a++ {
		x := s.order[a]
		b := a
		for ; b > 0 && worse(s.costs, x, s.order[b-1]); b-- {
			s.order[b] = s.order[b-1]
		}
		s.order[b] = x
	}
	for _, j := range s.order {
		if k == 0 {
			break
		}
		if j == s.best {
			continue
		}
		s.build(j)
		k--
		if s.costs[j] < s.costs[s.best] {
			s.best = j
		}
	}
}

// worse orders nests by cost, highest first, then by index, highest first.
func worse(costs []int, x, y int) bool {
	return costs[x] > costs[y] || costs[x] == costs[y] && x > y
}
