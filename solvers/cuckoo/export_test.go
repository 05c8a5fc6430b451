package cuckoo

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
)

// Search exposes one run's state to the tests.
type Search struct{ s *search }

// NewSearch returns the state of a run on puzzle with the given parameters
// and seed, before the nests are built.
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

func (x *Search) Start()             { x.s.start() }
func (x *Search) Iterate()           { x.s.iterate() }
func (x *Search) Nests() int         { return len(x.s.costs) }
func (x *Search) Nest(k int) []uint8 { return x.s.nests[k*x.s.nn : (k+1)*x.s.nn] }
func (x *Search) Cost(k int) int     { return x.s.costs[k] }
func (x *Search) Best() int          { return x.s.best }
func (x *Search) Evaluations() int64 { return x.s.evals }
func (x *Search) MeanCost() float64  { return float64(x.s.sum) / float64(len(x.s.costs)) }
