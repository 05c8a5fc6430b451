package raters

import (
	"context"
	"fmt"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/exact"
)

// Backtrack rates a puzzle by the effort of the exact solver
// (solvers/exact): depth-first search with minimum remaining values
// branching, which picks the first cell in row-major order on a tie and
// tries candidates in increasing order, so its effort depends on how the
// puzzle is written down. Backtrack removes that dependence by solving
// Samples random equivalent forms of the puzzle: symbols relabelled, rows
// permuted within bands and bands permuted, columns within stacks and
// stacks permuted, and, for square boxes, the grid transposed with
// probability 1/2. The forms are drawn from a PCG generator seeded with
// Seed, so a puzzle always gets the same rating.
//
// Value is the mean number of guesses over the samples; details hold the
// mean, min and max of guesses, backtracks and propagations, and the
// solution count of the first sample (up to Limit). Options: samples
// (default 8), seed (default 1), limit (default 2: the search proves
// uniqueness, which makes the effort that of the whole tree rather than of
// the way to the first solution). No label. Version 2 rates with the exact
// solver of session 4 (locked candidates, two-way branching), whose guess
// counts are lower than version 1's; version 3 with the solver that breaks
// ties between the most constrained cells by their open peers, which
// makes about half the guesses of version 2 on hard puzzles.
type Backtrack struct {
	Samples int
	Seed    int
	Limit   int
}

var _ Rater = (*Backtrack)(nil)

// BacktrackInfo registers the backtrack rater.
func BacktrackInfo() Info {
	return Info{
		Name:    "backtrack",
		Summary: "exact solver effort (guesses) averaged over random equivalent forms of the puzzle",
		New: func(ctx context.Context, env Env) (Rater, error) {
			o := newOptions("backtrack", env.Options)
			b := &Backtrack{
				Samples: o.int("samples", 8, 1, 10000),
				Seed:    o.int("seed", 1, 0, 1<<62),
				Limit:   o.int("limit", 2, 1, 2),
			}
			return b, o.done()
		},
	}
}

func (b *Backtrack) Name() string    { return "backtrack" }
func (b *Backtrack) Version() string { return "3" }
func (b *Backtrack) Options() string {
	return mustJSON(map[string]int{"samples": b.Samples, "seed": b.Seed, "limit": b.Limit})
}

// stat accumulates mean, min and max.
type stat struct {
	n             int
	sum, min, max int64
}

func (s *stat) add(v int64) {
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	s.sum += v
}

func (s *stat) mean() float64 { return float64(s.sum) / float64(max(s.n, 1)) }

func (s *stat) json() map[string]float64 {
	return map[string]float64{"mean": s.mean(), "min": float64(s.min), "max": float64(s.max)}
}

// Rate solves Samples random equivalent forms of puzzle.
func (b *Backtrack) Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error) {
	if err := puzzle.Validate(); err != nil {
		return sudokulab.Rating{}, err
	}
	rng := rand.New(rand.NewPCG(uint64(b.Seed), 0x5eed_ba_c7))
	s := exact.New(puzzle.Shape)
	form := puzzle.Clone()
	var guesses, backtracks, props stat
	count := -1
	for range max(b.Samples, 1) {
		Transform(form, puzzle, rng)
		res, err := s.Solve(ctx, form, b.Limit)
		if err != nil {
			return sudokulab.Rating{}, fmt.Errorf("backtrack: %w", err)
		}
		if count < 0 {
			count = res.Count
		}
		guesses.add(res.Effort.Guesses)
		backtracks.add(res.Effort.Backtracks)
		props.add(res.Effort.Propagations)
	}
	r := base(b)
	r.Value = ptr(guesses.mean())
	r.Details = mustJSON(map[string]any{"samples": guesses.n, "solutions": count,
		"guesses": guesses.json(), "backtracks": backtracks.json(), "propagations": props.json()})
	return r, nil
}

// Transform writes into dst (a grid of src's shape) a random form of src
// equivalent to it under the Sudoku symmetries: relabelling, row and
// column permutations within bands and stacks, band and stack
// permutations and, for square boxes, transposition.
func Transform(dst, src sudokulab.Grid, rng *rand.Rand) {
	sh := src.Shape
	n := sh.N()
	perm := func(blocks, size int) []int {
		order := rng.Perm(blocks)
		out := make([]int, 0, blocks*size)
		for _, blk := range order {
			for _, i := range rng.Perm(size) {
				out = append(out, blk*size+i)
			}
		}
		return out
	}
	rows := perm(n/sh.BoxRows, sh.BoxRows) // bands are BoxRows rows high
	cols := perm(n/sh.BoxCols, sh.BoxCols)
	label := rng.Perm(n)
	transpose := sh.BoxRows == sh.BoxCols && rng.IntN(2) == 1
	for r := range n {
		for c := range n {
			v := src.Cells[rows[r]*n+cols[c]]
			if v != 0 {
				v = uint8(label[v-1] + 1)
			}
			if transpose {
				dst.Cells[c*n+r] = v
			} else {
				dst.Cells[r*n+c] = v
			}
		}
	}
}
