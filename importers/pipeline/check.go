package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sudokulab"
	"sudokulab/importers"
	"sudokulab/solvers/exact"
)

// Checked is what Check finds about one entry of a file.
type Checked struct {
	// Solutions is 0, 1, "2+" (two or more), sudokulab.CountUndetermined
	// when counting ran out of time, or nil when the entry did not read.
	Solutions any
	// Valid reports whether the puzzle breaks no rule and has exactly one
	// solution.
	Valid bool
	// Problem says why the puzzle is not valid, or that the solution the
	// file gives is wrong; empty when there is none.
	Problem string
}

// Check checks one entry of a file without a database: the rules, the
// solution count within timeout (as CountBudget has it), and the solution
// the file gives, if any. An entry that did not read is its decoding
// problem. Only the end of ctx is an error.
func Check(ctx context.Context, e importers.Entry, timeout time.Duration) (Checked, error) {
	if e.Err != nil {
		if de := (*importers.DecodeError)(nil); errors.As(e.Err, &de) {
			return Checked{Problem: de.Reason}, nil
		}
		return Checked{Problem: e.Err.Error()}, nil
	}
	g := e.Record.Grid
	if err := g.Validate(); err != nil {
		return Checked{Solutions: 0, Problem: err.Error()}, nil
	}
	var s exact.Solver
	p, _, err := Count(ctx, &s, g, timeout)
	if err != nil {
		return Checked{}, err
	}
	var c Checked
	switch {
	case p.SolutionCount == nil:
		took := time.Duration(p.CountSeconds * float64(time.Second)).Round(time.Millisecond)
		c.Solutions, c.Problem = sudokulab.CountUndetermined, fmt.Sprintf("counting stopped after %v", took)
	case *p.SolutionCount == 0:
		c.Solutions, c.Problem = 0, "no solution"
	case *p.SolutionCount == 1:
		c.Solutions, c.Valid = 1, true
	default:
		c.Solutions, c.Problem = "2+", "two or more solutions"
	}
	if c.Valid && len(e.Record.Solution.Cells) > 0 {
		if err := sudokulab.CheckSolution(g, e.Record.Solution); err != nil {
			c.Problem = "the solution the file gives is wrong: " + err.Error()
		}
	}
	return c, nil
}
