package se

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// Step is one step of the solution path.
type Step struct {
	// Technique is SE's name for the step's technique, Difficulty its
	// rating.
	Technique  string
	Difficulty float64
	// Cell (0-80, row-major) and Value are the placement the step makes;
	// Cell is -1 for a step that only removes candidates.
	Cell, Value int
	// Removed counts the candidates the step removes, and Eliminations
	// lists them (a placement's removals from its peers left out, as SE
	// shows a hint).
	Removed      int
	Eliminations []Candidate
}

// Candidate is one candidate: Value (1-9) in Cell (0-80, row-major).
type Candidate struct {
	Cell, Value int
}

// Result is a puzzle's Sudoku Explainer rating.
type Result struct {
	// ER is the hardest step of the solution, EP the hardest up to the
	// first placement, ED the hardest up to the first step, each rounded to
	// one decimal as serate prints them. ER is 20.0 when the techniques do
	// not solve the puzzle (SE's "beyond solver").
	ER, EP, ED float64
	// ERTechnique, EPTechnique and EDTechnique name the first step of the
	// rating's difficulty in each span.
	ERTechnique, EPTechnique, EDTechnique string
	// Steps is the path, in order.
	Steps []Step
	// Partial says ctx ended before the rating did: the values are the
	// hardest steps so far, lower bounds of the real ones.
	Partial bool
}

// ErrInvalid is returned for a grid that is not 81 values 0-9 or whose
// givens conflict.
var ErrInvalid = errors.New("se: invalid 9x9 grid")

// producers returns SE 1.2.1's techniques in Solver's order (the
// non-revised branch of diuf/sudoku/solver/Solver.java, restricted to the
// SE121 technique set): direct hints, indirect hints, chaining, then the
// nested levels.
func producers() []producer {
	return []producer{
		producerFunc(hiddenSingle),
		locking{direct: true},
		hiddenSet{degree: 2, direct: true},
		producerFunc(nakedSingle),
		hiddenSet{degree: 3, direct: true},
		locking{},
		nakedSet{degree: 2},
		fisherman{degree: 2},
		hiddenSet{degree: 2},
		nakedSet{degree: 3},
		fisherman{degree: 3},
		hiddenSet{degree: 3},
		xyWing{},
		xyWing{xyz: true},
		producerFunc(uniqueLoops),
		nakedSet{degree: 4},
		fisherman{degree: 4},
		hiddenSet{degree: 4},
		producerFunc(bug),
		alignedExclusion{degree: 2},
		newChaining(false, false, false, 0, 0),
		alignedExclusion{degree: 3},
		newChaining(false, true, true, 0, 0),
		newChaining(true, false, false, 0, 0),
		newChaining(true, true, false, 0, 0),
		newChaining(true, true, false, 1, 0),
		newChaining(true, true, false, 2, 0),
		newChaining(true, true, false, 3, 0),
		newChaining(true, true, false, 4, 0),
		newChaining(true, true, false, 4, 1),
		newChaining(true, true, false, 4, 2),
		newChaining(true, true, false, 4, 3),
	}
}

// producerPool holds producer lists (producers()) between ratings.
var producerPool sync.Pool

// Rate rates a puzzle given as 81 values (0 for empty) the way
// Solver.getDifficulty does: at each point it takes the first hint of the
// first technique that has one, and the ratings are the maxima of the
// steps' difficulties over the whole path (ER), up to the first placement
// (EP) and up to the first step (ED). When ctx ends first, the result so
// far is returned marked Partial, with ctx's error.
func Rate(ctx context.Context, values [81]int) (Result, error) {
	var g grid
	for c, v := range values {
		if v < 0 || v > 9 {
			return Result{}, fmt.Errorf("%w: cell %d holds %d", ErrInvalid, c, v)
		}
		g.val[c] = int8(v)
	}
	for c := 0; c < 81; c++ {
		for _, p := range peers[c] {
			if g.val[c] != 0 && g.val[c] == g.val[p] {
				return Result{}, fmt.Errorf("%w: cells %d and %d both hold %d", ErrInvalid, c, p, g.val[c])
			}
		}
	}
	g.rebuild()
	// The producers keep their scratch (pots, sets, memo tables, some
	// hundreds of kilobytes) from one rating to the next.
	ps, _ := producerPool.Get().([]producer)
	if ps == nil {
		ps = producers()
	}
	defer func() {
		for _, p := range ps {
			if c, ok := p.(*chaining); ok {
				c.reset()
				c.setDone(nil)
			}
		}
		producerPool.Put(ps)
	}()
	for _, p := range ps {
		if c, ok := p.(*chaining); ok {
			c.setDone(ctx.Done())
		}
	}
	var res Result
	var er float64
	erName := ""
	pearl, diamond := 0.0, 0.0
	for !g.solved() {
		if err := ctx.Err(); err != nil {
			res.Partial = true
			res.ER, res.ERTechnique = round(er), erName
			return res, err
		}
		var found *hint
		for _, p := range ps {
			if c, ok := p.(*chaining); ok {
				c.reset()
			}
		}
		for _, p := range ps {
			p.hints(&g, func(h *hint) bool { found = h; return false })
			if found != nil || ctx.Err() != nil {
				break
			}
		}
		if ctx.Err() != nil {
			continue // the search may have been cut short: found is not SE's step
		}
		if found == nil {
			er, erName = 20.0, "Beyond solver"
			break
		}
		if found.diff > er {
			er, erName = found.diff, found.name
		}
		removed := 0
		var elims []Candidate
		for _, e := range found.elims {
			m := g.cand[e.cell] & e.mask
			removed += count(m)
			for ; m != 0; m &= m - 1 {
				elims = append(elims, Candidate{e.cell, bits.TrailingZeros16(m)})
			}
		}
		if removed == 0 && found.cell < 0 {
			// A step that changes nothing would repeat for ever (serate
			// would hang); it only happens on grids without a solution.
			er, erName = 20.0, "Beyond solver"
			break
		}
		res.Steps = append(res.Steps, Step{Technique: found.name, Difficulty: found.diff, Cell: found.cell, Value: found.value,
			Removed: removed, Eliminations: elims})
		found.apply(&g)
		if pearl == 0 {
			if diamond == 0 {
				diamond = er
				res.ED, res.EDTechnique = round(er), erName
			}
			if found.cell >= 0 {
				pearl = er
				res.EP, res.EPTechnique = round(er), erName
			}
		}
	}
	res.ER, res.ERTechnique = round(er), erName
	return res, nil
}

// round rounds to tenths as serate's ratingToString does.
func round(d float64) float64 { return math.Floor((d+0.05)*10) / 10 }
