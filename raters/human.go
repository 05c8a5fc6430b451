package raters

import (
	"context"
	"fmt"

	"sudokulab"
)

// Human rates a puzzle by solving it as a person does: on pencil marks
// (candidate bitsets per cell), it applies at each step the easiest
// technique that places a digit or eliminates a candidate, and starts
// again from the easiest after each step. The techniques, easiest first,
// are those of the Technique constants: full house, naked single, hidden
// single, locked candidates (pointing, claiming), naked and hidden pairs,
// triples and quads, X-wing, swordfish and jellyfish (basic fish), remote
// pairs, unique rectangle type 1, XY-wing, XYZ-wing, W-wing, simple
// colouring (colour wrap and colour trap), X-chains and XY-chains. It
// never guesses.
//
// Value is the score: the sum of the weights (after HoDoKu's) of every
// step applied. The label is the level of the hardest step: easy (singles
// only), medium (locked candidates, pairs, triples), hard (quads, fish,
// wings, remote pairs, unique rectangles, colouring), unfair (X-chains and
// XY-chains of up to 8 links), extreme (longer chains), or beyond when the
// techniques do not solve the puzzle (it needs something harder, has
// several solutions, or none). Details: {"hardest": technique,
// "hardest_weight", "steps", "solved", "placed" (digits placed by logic),
// "remaining" (empty cells left), "longest_chain", "techniques": {name:
// count}} and "contradiction" when the givens lead to one.
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
func (Human) Version() string { return "1" }
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
	details := map[string]any{"steps": len(tr.Steps), "solved": tr.Solved, "placed": placed,
		"remaining": len(puzzle.Cells) - puzzle.Givens() - placed, "longest_chain": longest, "techniques": counts}
	if hardest >= 0 {
		details["hardest"] = hardest.String()
		details["hardest_weight"] = hardest.Weight()
	}
	if tr.Contradiction {
		details["contradiction"] = true
	}
	r := base(h)
	r.Value = ptr(float64(score))
	r.Label = level.String()
	r.Details = mustJSON(details)
	return r, nil
}
