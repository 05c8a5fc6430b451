// Package generator makes Sudoku puzzles of any box shape: puzzles with
// exactly one solution, optionally minimal (no given can be removed),
// with a symmetric pattern of givens, a number of givens in a range, and a
// difficulty in a range of a rater's levels or values.
//
// Each puzzle is made from a random solution grid (see filler for how it
// is drawn) by removing givens, one symmetry orbit at a time in a random
// order, while the exact solver (package solvers/exact, counting to 2)
// proves the puzzle still has one solution. Without Minimal the removal
// stops at the first orbit that cannot go (or, with a range of givens, as
// soon as the count is in range); with Minimal every orbit is tried once,
// which is enough: an orbit that cannot be removed from a puzzle cannot be
// removed from any puzzle with fewer givens either, since removing givens
// only adds solutions. So a Minimal puzzle is minimal with respect to its
// symmetry's orbits: removing any orbit gives two or more solutions (with
// Symmetry None, any single given). A candidate outside the range of
// givens or rating is dropped and the next attempt starts from a new grid.
//
// Generation is deterministic: puzzle i of a seed depends only on the
// seed, i and the options, because it draws from its own random source
// (PCG seeded with the seed and i), whatever the number of workers and the
// order in which they finish. The one exception is a time limit: a count
// or a rating cut short by CountTimeout or RateTimeout (which happens only
// on large grids) depends on the machine's speed.
package generator

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
)

// Version is the generator's version, stored with each puzzle. It changes
// whenever the puzzles made for a seed and options may change.
const Version = "1"

// Defaults of the Options' zero values.
const (
	DefaultMaxAttempts  = 1000
	DefaultCountTimeout = 10 * time.Second
	DefaultRateTimeout  = 30 * time.Second
)

// Range is an inclusive range of integers; a zero bound means none (Min 0
// is no lower bound, Max 0 no upper bound).
type Range struct {
	Min, Max int
}

// Contains reports whether v is in the range.
func (r Range) Contains(v int) bool {
	return v >= r.Min && (r.Max == 0 || v <= r.Max)
}

// IsZero reports whether the range has no bound.
func (r Range) IsZero() bool { return r.Min == 0 && r.Max == 0 }

// String returns the range as ParseRange reads it: "A..B", "A.." or "..B".
func (r Range) String() string {
	s := ""
	if r.Min > 0 {
		s = strconv.Itoa(r.Min)
	}
	s += ".."
	if r.Max > 0 {
		s += strconv.Itoa(r.Max)
	}
	return s
}

// ParseRange reads "A..B", "A..", "..B" or "A" (A..A) of non-negative
// integers with A <= B. A malformed range is an EINVALID error.
func ParseRange(s string) (Range, error) {
	lo, hi, dots := strings.Cut(strings.TrimSpace(s), "..")
	if !dots {
		hi = lo
	}
	var r Range
	for _, p := range []struct {
		text string
		v    *int
	}{{lo, &r.Min}, {hi, &r.Max}} {
		if t := strings.TrimSpace(p.text); t != "" {
			v, err := strconv.Atoi(t)
			if err != nil || v < 0 {
				return Range{}, sudokulab.Errorf(sudokulab.EINVALID, "range %q: %q is not a non-negative integer; want A..B", s, t)
			}
			*p.v = v
		}
	}
	if r.Max > 0 && r.Min > r.Max {
		return Range{}, sudokulab.Errorf(sudokulab.EINVALID, "range %q: %d is above %d", s, r.Min, r.Max)
	}
	if r.IsZero() && strings.TrimSpace(s) != ".." {
		return Range{}, sudokulab.Errorf(sudokulab.EINVALID, "range %q: want A..B with A <= B, such as 22..26", s)
	}
	return r, nil
}

// RatingFilter keeps the puzzles a rater rates in a range: of levels, when
// Levels maps the rater's labels to level numbers (as the table
// rating_levels does: human easy 1 .. beyond 6), else of values.
type RatingFilter struct {
	// Rater rates each candidate puzzle; it must be safe for concurrent
	// use, as every rater is.
	Rater raters.Rater
	// Levels maps labels to levels; nil compares the rating's Value.
	Levels map[string]int
	// Min and Max bound the level or the value, inclusive.
	Min, Max float64
	// Spec is the filter as the user wrote it (human:hard..extreme),
	// recorded with the puzzles.
	Spec string
}

// Accept reports whether r is in the filter's range.
func (f *RatingFilter) Accept(r sudokulab.Rating) bool {
	var v float64
	if f.Levels != nil {
		l, ok := f.Levels[r.Label]
		if !ok {
			return false
		}
		v = float64(l)
	} else {
		if r.Value == nil {
			return false
		}
		v = *r.Value
	}
	return v >= f.Min && v <= f.Max
}

// HumanLevels returns the human rater's levels by label, as the table
// rating_levels holds them: easy 1 up to beyond 6.
func HumanLevels() map[string]int {
	m := map[string]int{}
	for l := raters.Easy; l <= raters.Beyond; l++ {
		m[l.String()] = l.Number()
	}
	return m
}

// Options say what puzzles to make. The zero value of each field is a
// documented default, except Shape, which must be valid.
type Options struct {
	// Shape is the box shape of the puzzles.
	Shape sudokulab.Shape
	// Seed selects the puzzles: the same seed and options make the same
	// puzzles.
	Seed uint64
	// Symmetry is the symmetry of the pattern of givens (None: none).
	Symmetry Symmetry
	// Minimal asks for puzzles from which no orbit of givens can be
	// removed without a second solution.
	Minimal bool
	// Givens bounds the number of givens (zero: any).
	Givens Range
	// Rating, when not nil, keeps only the puzzles it accepts.
	Rating *RatingFilter
	// MaxAttempts bounds the candidates tried for one puzzle (0:
	// DefaultMaxAttempts); when none of them fits the ranges, generation
	// fails with an EINVALID error.
	MaxAttempts int
	// CountTimeout bounds one count of solutions (0: DefaultCountTimeout).
	// A count cut short keeps the orbit it tested; a Minimal candidate
	// with such an orbit is dropped, since its minimality is unproven.
	CountTimeout time.Duration
	// RateTimeout bounds one rating (0: DefaultRateTimeout); a candidate
	// whose rating is cut short is dropped.
	RateTimeout time.Duration
}

// Puzzle is one generated puzzle.
type Puzzle struct {
	// Index is the puzzle's number in the seed's sequence, from 0.
	Index int
	// Givens is the puzzle, Solution its one solution.
	Givens, Solution sudokulab.Grid
	// Attempt is the candidate that made it, from 1: the candidates
	// before it were outside the ranges.
	Attempt int
	// Rating is the rating of Options.Rating's rater, or nil without one.
	Rating *sudokulab.Rating
}

// Generator makes puzzles with fixed Options. It is safe for concurrent
// use; each call of Generate uses its own workers.
type Generator struct {
	opts   Options
	orbits [][]int
}

// New returns a Generator for opts, or an EINVALID error for a bad shape
// or symmetry, or a range of givens the shape cannot have.
func New(opts Options) (*Generator, error) {
	if err := opts.Shape.Validate(); err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "generate")
	}
	if opts.Symmetry < None || opts.Symmetry > Dihedral {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "generate: unknown symmetry %d", int(opts.Symmetry))
	}
	cells := opts.Shape.Cells()
	if opts.Givens.Min > cells {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "generate: --givens %s: a %dx%d grid has %d cells", opts.Givens, opts.Shape.N(), opts.Shape.N(), cells)
	}
	if opts.Rating != nil && opts.Rating.Rater == nil {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "generate: a rating filter needs a rater")
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.CountTimeout <= 0 {
		opts.CountTimeout = DefaultCountTimeout
	}
	if opts.RateTimeout <= 0 {
		opts.RateTimeout = DefaultRateTimeout
	}
	return &Generator{opts: opts, orbits: opts.Symmetry.Orbits(opts.Shape.N())}, nil
}

// Options returns the generator's options, defaults filled in.
func (g *Generator) Options() Options { return g.opts }

// worker holds one goroutine's buffers.
type worker struct {
	fill   *filler
	solver *exact.Solver
	order  []int
}

func (g *Generator) newWorker() *worker {
	return &worker{fill: newFiller(g.opts.Shape), solver: exact.New(g.opts.Shape)}
}

// Puzzle makes puzzle index of the seed's sequence on the calling
// goroutine.
func (g *Generator) Puzzle(ctx context.Context, index int) (Puzzle, error) {
	return g.puzzle(ctx, g.newWorker(), index)
}

// errTimeout marks a count cut short by CountTimeout.
var errTimeout = errors.New("count timed out")

// puzzle makes puzzle index with w's buffers.
func (g *Generator) puzzle(ctx context.Context, w *worker, index int) (Puzzle, error) {
	o := &g.opts
	rng := rand.New(rand.NewPCG(o.Seed, uint64(index)))
	for attempt := 1; attempt <= o.MaxAttempts; attempt++ {
		sol := w.fill.grid(rng)
		givens, complete, err := g.remove(ctx, w, rng, sol)
		if err != nil {
			return Puzzle{}, err
		}
		if !complete || !o.Givens.Contains(givens.Givens()) {
			continue
		}
		p := Puzzle{Index: index, Givens: givens, Solution: sol, Attempt: attempt}
		if o.Rating != nil {
			rctx, cancel := context.WithTimeout(ctx, o.RateTimeout)
			r, err := o.Rating.Rater.Rate(rctx, givens)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return Puzzle{}, ctx.Err()
				}
				if errors.Is(err, context.DeadlineExceeded) {
					continue
				}
				return Puzzle{}, fmt.Errorf("generate: puzzle %d: rate: %w", index, err)
			}
			if !o.Rating.Accept(r) {
				continue
			}
			p.Rating = &r
		}
		return p, nil
	}
	var want []string
	if !o.Givens.IsZero() {
		want = append(want, "givens "+o.Givens.String())
	}
	if o.Rating != nil {
		want = append(want, "rating "+o.Rating.Spec)
	}
	if o.Minimal {
		want = append(want, "minimal")
	}
	return Puzzle{}, sudokulab.Errorf(sudokulab.EINVALID,
		"generate: puzzle %d: no %s %s puzzle with %s in %d attempts: the range may be unreachable; widen it or raise the attempts",
		index, o.Shape, o.Symmetry, strings.Join(want, ", "), o.MaxAttempts)
}

// remove takes orbits of givens out of the full grid sol in a random
// order while the puzzle keeps one solution, and returns the puzzle;
// complete is false when a Minimal candidate has an orbit whose count was
// cut short by the timeout.
func (g *Generator) remove(ctx context.Context, w *worker, rng *rand.Rand, sol sudokulab.Grid) (sudokulab.Grid, bool, error) {
	o := &g.opts
	p := sol.Clone()
	left := len(p.Cells)
	w.order = append(w.order[:0], rng.Perm(len(g.orbits))...)
	complete := true
	for _, oi := range w.order {
		orbit := g.orbits[oi]
		if !o.Minimal && o.Givens.Max > 0 && left <= o.Givens.Max {
			break
		}
		if !o.Minimal && left-len(orbit) < o.Givens.Min {
			continue
		}
		for _, c := range orbit {
			p.Cells[c] = 0
		}
		unique, err := g.unique(ctx, w, p)
		if err != nil && !errors.Is(err, errTimeout) {
			return p, false, err
		}
		if unique {
			left -= len(orbit)
			continue
		}
		for _, c := range orbit {
			p.Cells[c] = sol.Cells[c]
		}
		if err != nil { // timed out: the orbit stays, unproven
			complete = !o.Minimal
			if o.Minimal {
				break
			}
			continue
		}
		if !o.Minimal && o.Givens.IsZero() {
			break
		}
	}
	return p, complete, nil
}

// unique reports whether p has exactly one solution; a count cut short by
// CountTimeout is errTimeout, one cut short by ctx ctx's error.
func (g *Generator) unique(ctx context.Context, w *worker, p sudokulab.Grid) (bool, error) {
	res, err := w.solver.CountWithin(ctx, p, 2, g.opts.CountTimeout)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return false, errTimeout
		}
		return false, err
	}
	return res.Count == 1, nil
}

// Generate makes puzzles first to first+count-1 of the seed's sequence on
// workers goroutines (0: GOMAXPROCS) and calls emit with each, in index
// order, on the calling goroutine. When ctx is done or a puzzle fails, it
// stops the workers, still emits the puzzles that were finished (in index
// order: the run of consecutive indices, then the later ones), and
// returns ctx's error or the first failure. An error from emit stops it
// too and is returned.
func (g *Generator) Generate(ctx context.Context, first, count, workers int, emit func(Puzzle) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		p   Puzzle
		err error
	}
	// tokens bounds the puzzles made but not yet emitted, so that a slow
	// puzzle does not let the others pile up.
	window := 4*workers + 16
	tokens := make(chan struct{}, window)
	jobs := make(chan int)
	results := make(chan result, window)
	go func() {
		defer close(jobs)
		for i := first; i < first+count; i++ {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := g.newWorker()
			for i := range jobs {
				p, err := g.puzzle(ctx, w, i)
				p.Index = i
				results <- result{p, err}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var (
		firstErr   error
		emitFailed bool
	)
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
		cancel()
	}
	pending := map[int]Puzzle{}
	next := first
	for r := range results {
		if r.err != nil {
			if !errors.Is(r.err, context.Canceled) || parent.Err() != nil {
				fail(r.err)
			}
			continue
		}
		pending[r.p.Index] = r.p
		for !emitFailed {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-tokens
			if err := emit(p); err != nil {
				emitFailed = true
				fail(err)
			}
		}
	}
	if firstErr == nil && parent.Err() != nil {
		firstErr = parent.Err()
	}
	if !emitFailed {
		// Stopped early: the puzzles finished after a gap are kept too.
		keys := make([]int, 0, len(pending))
		for k := range pending {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, i := range keys {
			if err := emit(pending[i]); err != nil {
				return errors.Join(firstErr, err)
			}
		}
	}
	return firstErr
}
