package acs

import (
	"math/rand/v2"

	"sudokulab"
)

// Colony exposes one run's state to the tests.
type Colony struct{ c *colony }

// NewColony returns the colony of a run on a puzzle of shape with the
// parameters of set (defaults for the rest).
func NewColony(shape sudokulab.Shape, set map[string]string, rng *rand.Rand) *Colony {
	info := Info()
	p, err := info.Resolve(set)
	if err != nil {
		panic(err)
	}
	s, err := newSolver(p)
	if err != nil {
		panic(err)
	}
	return &Colony{newColony(shape, s.(*solver).cfg, rng)}
}

// Start propagates the puzzle's givens and reports whether it may have a
// solution.
func (x *Colony) Start(puzzle []uint8) bool { return x.c.start(puzzle) }

// Initial returns the propagated puzzle: each cell's value, 0 if unfixed.
func (x *Colony) Initial() []uint8 {
	out := make([]uint8, len(x.c.initial))
	for i, s := range x.c.initial {
		if fixed(s) {
			out[i] = value(s)
		}
	}
	return out
}

// Domains returns the propagated puzzle's value sets as bit masks.
func (x *Colony) Domains() []uint32 {
	out := make([]uint32, len(x.c.initial))
	for i, s := range x.c.initial {
		out[i] = uint32(s)
	}
	return out
}

// Iterate runs one iteration.
func (x *Colony) Iterate() { x.c.iterate() }

// Pheromone returns the pheromone of value v in cell i.
func (x *Colony) Pheromone(i int, v uint8) float64 { return x.c.pher[i*x.c.n+int(v)-1] }

// BestValue returns delta_best.
func (x *Colony) BestValue() float64 { return x.c.bestPher }

// BestFilled returns the fixed cells of the best grid so far.
func (x *Colony) BestFilled() int { return x.c.bestFilled }

// Solved reports whether the best grid is complete.
func (x *Colony) Solved() bool { return x.c.solved() }
