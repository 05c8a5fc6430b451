package raters

import (
	"context"
	"fmt"
	"math/rand/v2"

	"sudokulab"
	"sudokulab/solvers/exact"
)

// Human rates a puzzle by solving it as a person does: on pencil marks
// (candidate bitsets per cell), it applies at each step the easiest
// technique that places a digit or eliminates a candidate, and starts
// again from the easiest after each step. The techniques, easiest first,
// are those of the Technique constants: full house, naked single, hidden
// single, locked candidates (pointing, claiming), naked and hidden pairs,
// triples and quads, X-wing, swordfish and jellyfish (basic fish), remote
// pairs, unique rectangle type 1, XY-wing, XYZ-wing, W-wing, simple
// colouring (colour wrap and colour trap), X-chains, XY-chains,
// alternating inference chains (AIC, HoDoKu's nice loops), ALS-XZ and
// ALS-XY-wing (almost locked sets), and forcing nets. It never guesses
// beyond what a forcing net tries.
//
// The label is the level of the hardest step: easy (singles only),
// medium (locked candidates, pairs, triples), hard (quads, fish, wings,
// remote pairs, unique rectangles, colouring), unfair (X-chains,
// XY-chains and AICs of up to 8 links, ALS-XZ, ALS-XY-wing), extreme
// (longer chains, forcing nets), or beyond when the techniques do not
// solve the puzzle (it needs something harder, has several solutions, or
// none).
//
// Value orders puzzles by difficulty across the levels: a puzzle of a
// higher level always has a higher value, and within a level the value
// grows with the work. With L the level number (easy 1, medium 2, hard 3,
// unfair 4, extreme 5, beyond 6; the table rating_levels holds the same)
// and s the score, the sum of the weights (after HoDoKu's) of every step
// applied,
//
//	value = 1000 L + 1000 s/(s + 2000)    (solved: L <= 5)
//	value = 6000 + 1000 g/(g + 100)        (beyond)
//
// So the thousands are the level and a score of 2000 is the middle of its
// level's band. A beyond puzzle has no technique score to speak of: what
// makes one harder than another is the trial and error left when the
// techniques stall, so g is the mean number of guesses the exact solver
// makes (counting to 2) from the grid where they stalled, over 8 random
// equivalent forms of it (seeded, so the value is repeatable); 100
// guesses is the middle of the band. (Version 2 ordered them by the empty
// cells left, r, which runs against the work: on tdoku's forum-hardest
// 1905 list, all beyond, Spearman -0.17 against the backtrack rater; the
// guesses after the stall, +0.88 on a sample of 2,438. Version 4 counts g
// with the exact solver of issue 15's tie-break, about half version 3's
// guesses on hard puzzles.) Details:
// {"level" (the level number L), "score" (s), "hardest": technique,
// "hardest_weight", "steps", "solved", "placed" (digits placed by
// logic), "remaining" (empty cells left, r), "longest_chain",
// "techniques": {name: count}}, for beyond puzzles "guesses_after_stall"
// (g) and "solutions" (0, 1 or 2: 2 means several), and "contradiction"
// when the givens lead to one.
//
// The techniques are written for any box shape (candidates are bitsets of
// up to 32 digits, units come from the shape's Geometry); the weights and
// levels were made for 9x9 and are only indicative for other sizes. Unique
// rectangles assume the puzzle has one solution, as people do.
type Human struct{}

var _ Rater = Human{}

// HumanInfo registers the human rater.
func HumanInfo() Info {
	return Info{
		Name:    "human",
		Summary: "logic solving as a person does; hardest technique, score and level (easy..extreme, beyond)",
		New: func(ctx context.Context, env Env) (Rater, error) {
			if err := newOptions("human", env.Options).done(); err != nil {
				return nil, err
			}
			return Human{}, nil
		},
	}
}

func (Human) Name() string    { return "human" }
func (Human) Version() string { return "4" }
func (Human) Options() string { return "{}" }

// Trace is the outcome of a logic solve.
type Trace struct {
	// Steps lists the steps applied, in order.
	Steps []Step
	// Final is the position reached.
	Final *Position
	// Solved says whether every cell was filled; Contradiction whether a
	// step emptied a cell or placed a digit twice (the puzzle has no
	// solution, or a technique is unsound).
	Solved, Contradiction bool
}

// SolveLogically solves puzzle with the human techniques, checking ctx
// every step and, within the costly techniques (subsets, fish, wings,
// colouring, chains), between units, digits and chain starts, so that it
// returns soon after ctx is done even on a 25x25 grid. Once ctx is done
// it returns ctx.Err() with the Trace of the steps applied so far (Solved
// false): a cut-short solve, not a stall.
func SolveLogically(ctx context.Context, puzzle sudokulab.Grid) (Trace, error) {
	p := NewPosition(puzzle)
	p.done = ctx.Done()
	defer func() { p.done = nil }()
	var tr Trace
	finish := func(err error) (Trace, error) {
		tr.Final, tr.Solved, tr.Contradiction = p, err == nil && !p.bad && p.Solved(), p.bad
		return tr, err
	}
	for !p.bad && !p.Solved() {
		if err := ctx.Err(); err != nil {
			return finish(err)
		}
		progress := false
		for t := Technique(0); t < numTechniques; t++ {
			if s, ok := p.Find(t); ok {
				p.Apply(s)
				tr.Steps = append(tr.Steps, s)
				progress = true
				break
			}
			if err := ctx.Err(); err != nil {
				return finish(err) // the finder may have given up
			}
		}
		if !progress {
			break
		}
	}
	return finish(nil)
}

// Rate solves puzzle logically and grades the hardest step.
func (h Human) Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error) {
	if err := puzzle.Validate(); err != nil {
		return sudokulab.Rating{}, err
	}
	tr, err := SolveLogically(ctx, puzzle)
	if err != nil {
		return sudokulab.Rating{}, fmt.Errorf("human: %w", err)
	}
	score, placed, longest := 0, 0, 0
	hardest := Technique(-1)
	level := Easy
	counts := map[string]int{}
	for _, s := range tr.Steps {
		score += s.Technique.Weight()
		placed += len(s.Placements)
		longest = max(longest, s.Links)
		counts[s.Technique.String()]++
		if s.Technique > hardest {
			hardest = s.Technique
		}
		level = max(level, s.Level())
	}
	if !tr.Solved {
		level = Beyond
	}
	remaining := len(puzzle.Cells) - puzzle.Givens() - placed
	details := map[string]any{"level": level.Number(), "score": score, "steps": len(tr.Steps), "solved": tr.Solved,
		"placed": placed, "remaining": remaining, "longest_chain": longest, "techniques": counts}
	if hardest >= 0 {
		details["hardest"] = hardest.String()
		details["hardest_weight"] = hardest.Weight()
	}
	if tr.Contradiction {
		details["contradiction"] = true
	}
	guesses := 0.0
	if level == Beyond {
		g, solutions, err := guessesAfterStall(ctx, tr.Final.Grid())
		if err != nil {
			return sudokulab.Rating{}, fmt.Errorf("human: %w", err)
		}
		guesses = g
		details["guesses_after_stall"] = g
		details["solutions"] = solutions
	}
	r := base(h)
	r.Value = ptr(HumanValue(level, score, guesses))
	r.Label = level.String()
	r.Details = mustJSON(details)
	return r, nil
}

// scoreScale is the score at the middle of a level's band of values.
const scoreScale = 2000

// HumanValue returns the human rater's value of a puzzle rated at level
// with the given score; for a beyond puzzle, guesses (the mean guesses of
// the exact solver from where the techniques stalled) orders it instead.
// See Human for the formula.
func HumanValue(level Level, score int, guesses float64) float64 {
	band := float64(score) / float64(score+scoreScale)
	if level == Beyond {
		band = guesses / (guesses + guessScale)
	}
	return 1000*float64(level.Number()) + 1000*band
}

// guessScale is the guesses after a stall at the middle of the beyond
// band; stallForms the random equivalent forms they are averaged over.
const (
	guessScale = 100
	stallForms = 8
)

// guessesAfterStall returns the mean guesses of the exact solver, counting
// to 2, over stallForms random equivalent forms of stalled (seeded: the
// same grid gives the same mean), and the solutions it found (0, 1, or 2
// for several). The count does not depend on the form.
func guessesAfterStall(ctx context.Context, stalled sudokulab.Grid) (float64, int, error) {
	rng := rand.New(rand.NewPCG(0x57a11, 0x5eed_ba_c7))
	s := exact.New(stalled.Shape)
	form := stalled.Clone()
	var sum int64
	solutions := 0
	for range stallForms {
		Transform(form, stalled, rng)
		res, err := s.Solve(ctx, form, 2)
		if err != nil {
			return 0, 0, fmt.Errorf("guesses after the stall: %w", err)
		}
		sum += res.Effort.Guesses
		solutions = res.Count
	}
	return float64(sum) / stallForms, solutions, nil
}
