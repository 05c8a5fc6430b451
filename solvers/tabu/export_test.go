package tabu

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Search exposes one run's state to the tests.
type Search struct{ s *search }

// NewSearch returns the state of a run on puzzle with the given parameters
// and seed, before the columns are filled.
func NewSearch(puzzle sudokulab.Grid, set map[string]string, seed int64) (*Search, error) {
	info := Info()
	p, err := info.Resolve(set)
	if err != nil {
		return nil, err
	}
	sv, err := newSolver(p)
	if err != nil {
		return nil, err
	}
	cfg := sv.(*solver).cfg
	d, _, err := ac3.Apply(cfg.prefilter, puzzle)
	if err != nil {
		return nil, err
	}
	return &Search{newSearch(puzzle, d, cfg, sudokulab.NewRand(seed))}, nil
}

// Start fills the columns (section 4.1).
func (x *Search) Start() { x.s.start() }

// SetCells replaces the current grid and makes it the best so far.
func (x *Search) SetCells(cells []uint8) {
	copy(x.s.cells, cells)
	x.s.tally.Reset(x.s.cells)
	x.s.bestCost = x.s.tally.Cost()
	copy(x.s.bestCells, x.s.cells)
}

// Step makes one iteration in the named neighbourhoods: "repeated",
// "columns", "rows" or "all".
func (x *Search) Step(hood string) {
	x.s.iter++
	x.s.step(map[string]int{"repeated": repeated, "columns": colSwaps, "rows": rowSwaps, "all": repeated | colSwaps | rowSwaps}[hood])
}

// StepFunc returns Step for a neighbourhood as a function without
// allocations, for testing.AllocsPerRun.
func (x *Search) StepFunc(hood string) func() {
	h := map[string]int{"repeated": repeated, "columns": colSwaps, "rows": rowSwaps, "all": repeated | colSwaps | rowSwaps}[hood]
	return func() { x.s.iter++; x.s.step(h) }
}

func (x *Search) Cells() []uint8     { return x.s.cells }
func (x *Search) Cost() int          { return x.s.tally.Cost() }
func (x *Search) BestCost() int      { return x.s.bestCost }
func (x *Search) Evaluations() int64 { return x.s.evals }
