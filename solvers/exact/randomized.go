package exact

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"

	"sudokulab"
)

// errNodeLimit ends a randomized try that has visited its node limit.
var errNodeLimit = errors.New("exact: node limit reached")

// Randomized is the exact engine's search with random branching choices, for
// randomized restart strategies (solvers/restartsearch). It propagates as the
// exact search does (naked and hidden singles, locked candidates, to a
// fixpoint) and branches in two the same way, but the branching cell is
// drawn uniformly from the cells with the fewest candidates and the value
// uniformly from that cell's candidates, both from the rng of the try. Each
// try starts again from the propagated givens and may be bounded in nodes.
//
// With Weighted set, the branching cell is chosen by dom/wdeg instead (F.
// Boussemart, F. Hemery, C. Lecoutre, L. Sais, "Boosting systematic search
// by weighting constraints", ECAI 2004): every unit (row, column, box)
// has a weight, 1 at Start, raised by one each time a node's propagation
// ends in a contradiction in it (a cell of the unit left without a
// candidate, or a symbol without a place); the cell chosen is the empty
// cell with the smallest ratio of its candidate count to the summed
// weights of its three units, drawn uniformly among ties. The weights last
// from one try to the next, so that restarts learn where the puzzle is
// hard.
//
// It runs the general engine on every shape, 9x9 included. A Randomized
// must not be used by several goroutines at once; Start and Try allocate
// nothing once the buffers have grown to the depth a search reaches.
type Randomized struct {
	// Weighted selects dom/wdeg branching; set it before Start.
	Weighted bool

	g          *general
	root       []uint32 // the propagated givens
	rootSolved int
	ok         bool // the givens are consistent
	weights    []int64
}

// NewRandomized returns a randomized search for puzzles of a valid shape.
func NewRandomized(shape sudokulab.Shape) (*Randomized, error) {
	if err := shape.Validate(); err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "exact solver")
	}
	g := newGeneral(shape)
	g.track = true
	g.deep = make([]uint32, g.cells)
	return &Randomized{g: g, root: make([]uint32, g.cells)}, nil
}

// Try is the outcome of one randomized try.
type Try struct {
	// Solved reports that the try found a solution (Solution holds it).
	Solved bool
	// Cut reports that the try stopped at its node limit; a try that is
	// neither solved nor cut (nor ended by its context) has proved that the
	// puzzle has no solution.
	Cut bool
	// Nodes and Guesses are the work of the try: the nodes visited
	// (guesses plus the root) and the branches tried.
	Nodes, Guesses int64
}

// Start loads puzzle: its givens are checked and propagated once, and every
// Try starts from that state. It reports whether the givens are consistent
// (no symbol twice in a unit, no contradiction by propagation); a try on
// inconsistent givens finds nothing. It resets Deepest.
func (r *Randomized) Start(puzzle sudokulab.Grid) (bool, error) {
	if err := checkGrid(puzzle); err != nil {
		return false, err
	}
	if puzzle.Shape != r.g.shape {
		return false, sudokulab.Errorf(sudokulab.EINVALID, "exact solver: a %s puzzle for a %s search", puzzle.Shape, r.g.shape)
	}
	g := r.g
	g.effort, g.count = Effort{}, 0
	g.wdeg = nil
	if r.Weighted {
		if r.weights == nil {
			r.weights = make([]int64, 3*g.n)
		}
		for u := range r.weights {
			r.weights[u] = 1
		}
		g.wdeg = r.weights
	}
	r.ok = g.load(puzzle)
	copy(r.root, g.cand)
	r.rootSolved = g.solved
	if !r.ok {
		// Deepest is the givens alone: the contradiction may have fixed
		// cells wrongly.
		g.deepest = 0
		for c, v := range puzzle.Cells {
			g.deep[c] = 0
			if v != 0 {
				g.deep[c] = 1 << (v - 1)
				g.deepest++
			}
		}
	}
	return r.ok, nil
}

// Try searches from the propagated givens for one solution, drawing its
// choices from rng, until it finds one, has visited maxNodes nodes (0: no
// limit) or ctx is done (looked at every few thousand nodes). It returns
// ctx.Err() when ctx ended it, and nil when it found a solution, proved
// that there is none (a try with no node limit, or one that finished within
// it), or reached the limit.
func (r *Randomized) Try(ctx context.Context, rng *rand.Rand, maxNodes int64) (Try, error) {
	if !r.ok {
		return Try{Nodes: 1}, nil
	}
	g := r.g
	copy(g.cand, r.root)
	g.solved = r.rootSolved
	g.queue = g.queue[:0]
	g.limit, g.count, g.effort = 1, 0, Effort{}
	g.err, g.nodes = nil, 0
	g.ctx, g.done = ctx, ctx.Done()
	g.rng, g.maxNodes = rng, int(min(maxNodes, int64(^uint(0)>>1)))
	if g.solved == g.cells {
		g.record()
	} else {
		g.search(0)
	}
	t := Try{Solved: g.count > 0, Nodes: g.effort.Guesses + 1, Guesses: g.effort.Guesses}
	if g.err == errNodeLimit {
		// The branch that hit the limit was counted but not tried.
		t.Nodes--
		t.Guesses--
		t.Cut = true
	}
	err := g.err
	g.ctx, g.done, g.err, g.rng, g.maxNodes = nil, nil, nil, nil, 0
	if err == errNodeLimit {
		err = nil
	}
	return t, err
}

// Solution writes the solution of the last try that found one into cells.
func (r *Randomized) Solution(cells []uint8) {
	copy(cells, r.g.solution)
}

// Shape returns the shape of the puzzles the search takes.
func (r *Randomized) Shape() sudokulab.Shape { return r.g.shape }

// Deepest writes into cells the consistent state with the most cells fixed
// that a search has reached since Start (the propagated givens at least):
// each fixed cell holds its symbol, every other cell 0. It returns how many
// cells are fixed; with nil cells it only returns the count.
func (r *Randomized) Deepest(cells []uint8) int {
	if cells == nil {
		return r.g.deepest
	}
	for c, m := range r.g.deep {
		cells[c] = 0
		if m != 0 && m&(m-1) == 0 {
			cells[c] = uint8(bits.TrailingZeros32(m) + 1)
		}
	}
	return r.g.deepest
}
