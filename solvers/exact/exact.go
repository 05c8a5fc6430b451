// Package exact is the laboratory's reference exact solver: constraint
// propagation on candidate bitsets (naked singles, hidden singles and
// locked candidates) with depth-first binary branching on the empty cell
// with the fewest candidates (minimum remaining values). It counts
// solutions up to a limit, so it proves uniqueness with a limit of 2, and
// it reports the effort of the search as a difficulty measure.
//
// Locked candidates are pointing (a symbol whose places in a box lie on
// one row or column leaves the rest of that line) and claiming (a symbol
// whose places on a row or column lie in one box leaves the rest of the
// box). Propagation applies the three rules until none applies; the state
// it reaches, and whether it is a contradiction, do not depend on the
// order of the work, since every rule only removes candidates and stays
// applicable as others remove more.
//
// It works for every box shape the root package allows (N up to 32). The
// classic 9x9 shape has a dedicated implementation on per-digit bitboards
// with table-driven locked candidates; every other shape uses the general
// one. Both follow the same rules in the same order of choices, so they
// return the same Result, effort included, for the same puzzle.
//
// The search is deterministic: a puzzle always gives the same Result. The
// branching cell is the empty cell with the fewest candidates, the first in
// row-major order on a tie. The search branches in two on its smallest
// candidate: first the cell takes it; then the cell loses it, the loss is
// propagated, and the search goes on from that state, choosing its next
// branching cell afresh.
package exact

import (
	"context"
	"strconv"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/solvers/exact/internal/triad"
)

// Effort counts the work of a search; it is a difficulty measure. A puzzle
// that propagation alone solves has zero Guesses and zero Backtracks.
//
// Propagations counts the cells fixed by propagation in the search nodes
// whose propagation reached a consistent state; the givens and the cells
// fixed by the branch itself (the cell that took a candidate, or the cell
// that lost one and kept a single candidate) do not count, and neither do
// nodes that ended in a contradiction (how far such a node got depends on the order of the work,
// which would make the count an artefact of the implementation). The
// result is a property of the puzzle and the search order alone.
type Effort struct {
	// Propagations counts cells fixed by propagation.
	Propagations int64
	// Guesses counts branches tried: each branching decision tries the
	// cell taking its smallest candidate and, unless the limit was
	// reached in that branch, the cell losing it, so a decision counts 1
	// or 2. (Before the binary branching, one guess was one value tried
	// at a branching cell; for a cell with two candidates it is the same.)
	Guesses int64
	// Backtracks counts dead ends: search nodes, the root included, whose
	// propagation ended in a contradiction.
	Backtracks int64
}

// Result is the outcome of a search.
type Result struct {
	// Count is the number of solutions found, at most the limit: with a
	// limit of 2, a Count of 2 means "2 or more".
	Count int
	// Solution is the first solution found; it is the zero Grid when
	// Count is 0.
	Solution sudokulab.Grid
	// Effort is the work the search took.
	Effort Effort
}

// Solve counts the solutions of puzzle up to limit (limit <= 0 means 1) and
// returns the first one found with the effort of the search.
//
// A puzzle whose givens break the rules (a symbol twice in one unit) has no
// solution: Solve returns Count 0 with zero effort and a nil error, as it
// does for any other puzzle without a solution. A malformed grid (invalid
// shape, wrong number of cells, a symbol above N) is an error, a
// *sudokulab.Error with code sudokulab.EINVALID wrapping the cause.
//
// Solve checks ctx every few thousand search nodes and, once it is done,
// returns ctx.Err() with the Result found so far.
//
// Solve takes a Solver from a pool kept for each shape, so that it does not
// allocate beyond the solution either; a Solver of one's own does the same
// without the pool.
func Solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	return pooled(ctx, puzzle, limit, (*Solver).solve)
}

// pooled checks the puzzle and runs fn on a Solver from the pool of its
// shape.
func pooled(ctx context.Context, puzzle sudokulab.Grid, limit int, fn func(*Solver, context.Context, sudokulab.Grid, int) (Result, error)) (Result, error) {
	if err := checkGrid(puzzle); err != nil {
		return Result{}, err
	}
	pool := &pools[puzzle.Shape.BoxRows][puzzle.Shape.BoxCols]
	s, _ := pool.Get().(*Solver)
	if s == nil {
		s = New(puzzle.Shape)
	}
	res, err := fn(s, ctx, puzzle, limit)
	pool.Put(s)
	return res, err
}

// Count counts the solutions of puzzle up to limit and returns the first
// one found, as Solve does, for callers that need the count and a solution
// but not the effort as a difficulty measure (import, generate, count).
// On 9x9 puzzles with at most TriadMaxGivens givens it runs the fastest
// engine this binary and processor have (see CountEngine); on denser ones
// and on every other shape it is Solve. The count is
// the same whichever engine runs, and so is the solution of a puzzle with
// one; the first of several solutions can differ. Effort.Guesses counts
// the branches the engine tried; the triad engine leaves Propagations and
// Backtracks at zero.
func Count(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	return pooled(ctx, puzzle, limit, (*Solver).count)
}

// TriadMaxGivens is the most givens of a 9x9 puzzle that Count gives to
// the triad engine. Its setup (every given placed in its box, then six
// band updates) costs more than the rating engine's on a dense puzzle,
// which propagation alone nearly solves: on an Intel Xeon, per puzzle
// with 50 givens 2.7 us against 1.8, with 70 givens 2.2 against 1.1;
// with 30 givens 6.0 against 8.2, and the two meet at 35-38 givens.
// Generating puzzles counts mostly such near-full grids.
const TriadMaxGivens = 35

// CountEngine names the engine Count runs on sparse 9x9 puzzles: "triad" (the
// vector build of the tdoku port, in binaries built with GOEXPERIMENT=simd
// on an amd64 processor with AVX2) or "lc9" (Solve's engine).
func CountEngine() string {
	if triad.Available() {
		return "triad"
	}
	return "lc9"
}

// Engines says in one line which engines this binary and processor use:
// Solve's (lc9 on 9x9, the general engine on every other shape) and
// Count's on sparse 9x9 puzzles, and why Count's is not the triad engine
// when it is not, so that a run or a measurement can say what it ran on.
func Engines() string {
	const solve = "solve: lc9 on 9x9, general on other shapes"
	switch {
	case triad.Available():
		return solve + "; count on 9x9 with at most " + strconv.Itoa(TriadMaxGivens) + " givens: triad (vector build, AVX2)"
	case triad.VectorBuild():
		return solve + "; count: lc9 (this binary has triad's vector build, but the processor lacks AVX2)"
	}
	return solve + "; count: lc9 (built without GOEXPERIMENT=simd: no vector build of triad)"
}

// pools holds Solvers for Solve, by box shape.
var pools [sudokulab.MaxN + 1][sudokulab.MaxN + 1]sync.Pool

// Solver is a reusable exact solver. It keeps its buffers between calls, so
// that solving many puzzles of one shape in a loop allocates nothing beyond
// the returned solution grids. The zero Solver is ready to use; a Solver
// adapts to the shape of each puzzle, reallocating when the shape changes.
// A Solver must not be used by several goroutines at once.
type Solver struct {
	// deadline is CountWithin's, for the count under way.
	deadline time.Time
	shape    sudokulab.Shape
	gen      *general      // every shape but 9x9
	f9       *lc9          // the classic 9x9 shape
	tr       *triad.Solver // Count's engine for 9x9, when available
}

// New returns a Solver with its buffers ready for puzzles of the given
// shape. An invalid shape is reported by Solve, not here.
func New(shape sudokulab.Shape) *Solver {
	s := &Solver{}
	if shape.Validate() == nil {
		s.prepare(shape)
	}
	return s
}

// prepare readies the engine for a valid shape.
func (s *Solver) prepare(shape sudokulab.Shape) {
	s.shape = shape
	if shape == sudokulab.Classic {
		if s.f9 == nil {
			s.f9 = newLC9()
		}
		return
	}
	if s.gen == nil || s.gen.shape != shape {
		s.gen = newGeneral(shape)
	}
}

// Solve counts the solutions of puzzle up to limit; see the package-level
// Solve for the meaning of the arguments and results.
func (s *Solver) Solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	if err := checkGrid(puzzle); err != nil {
		return Result{}, err
	}
	return s.solve(ctx, puzzle, limit)
}

// Count counts the solutions of puzzle up to limit; see the package-level
// Count.
func (s *Solver) Count(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	if err := checkGrid(puzzle); err != nil {
		return Result{}, err
	}
	return s.count(ctx, puzzle, limit)
}

// CountWithin is Count with a time limit of its own: once budget has
// passed since the call, the search stops and returns
// context.DeadlineExceeded with the Result so far, as Count does under a
// context with that deadline (it looks at the clock when it looks at
// ctx, every few thousand search nodes). It saves the context's timer,
// which costs more than counting most 9x9 puzzles: the import, check and
// generate count with it. A budget of zero or less means no limit.
func (s *Solver) CountWithin(ctx context.Context, puzzle sudokulab.Grid, limit int, budget time.Duration) (Result, error) {
	if err := checkGrid(puzzle); err != nil {
		return Result{}, err
	}
	if budget > 0 {
		s.deadline = time.Now().Add(budget)
		defer func() { s.deadline = time.Time{} }()
	}
	return s.count(ctx, puzzle, limit)
}

// count is Count for a well-formed puzzle.
func (s *Solver) count(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	if puzzle.Shape != sudokulab.Classic || !triad.Available() || puzzle.Givens() > TriadMaxGivens {
		return s.solve(ctx, puzzle, limit)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if s.tr == nil {
		s.tr = new(triad.Solver)
	}
	s.tr.Deadline = s.deadline
	var givens, sol [81]uint8
	copy(givens[:], puzzle.Cells)
	r, err := s.tr.Count(ctx, &givens, max(limit, 1), &sol)
	res := Result{Count: r.Count, Effort: Effort{Guesses: r.Branches}}
	if r.Count > 0 {
		res.Solution = newSolution(sudokulab.Classic, sol[:])
	}
	return res, err
}

// solve is Solve for a well-formed puzzle.
func (s *Solver) solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if limit <= 0 {
		limit = 1
	}
	if s.shape != puzzle.Shape || (s.f9 == nil && s.gen == nil) {
		s.prepare(puzzle.Shape)
	}
	if puzzle.Shape == sudokulab.Classic {
		s.f9.deadline = s.deadline
		return s.f9.solve(ctx, puzzle, limit)
	}
	s.gen.deadline = s.deadline
	return s.gen.solve(ctx, puzzle, limit)
}

// checkGrid reports a malformed grid: an invalid shape, a wrong cell count
// or a symbol above N. Broken rules are not errors here.
func checkGrid(g sudokulab.Grid) error {
	if err := g.Shape.Validate(); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "exact solver")
	}
	if len(g.Cells) != g.Shape.Cells() {
		return sudokulab.Errorf(sudokulab.EINVALID, "exact solver: grid has %d cells, want %d for %s", len(g.Cells), g.Shape.Cells(), g.Shape)
	}
	n := uint8(g.Shape.N())
	for i, v := range g.Cells {
		if v > n {
			return sudokulab.Errorf(sudokulab.EINVALID, "exact solver: %s holds %d, above %d", g.Geometry().CellName(i), v, n)
		}
	}
	return nil
}

// cancelEvery is the number of search nodes between two looks at the
// context; it is a power of two.
const cancelEvery = 1 << 12

// newSolution returns a grid of the shape holding cells.
func newSolution(shape sudokulab.Shape, cells []uint8) sudokulab.Grid {
	return sudokulab.Grid{Shape: shape, Cells: append([]uint8(nil), cells...)}
}
