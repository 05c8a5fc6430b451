package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/show"
	"sudokulab/solvers/exact"
)

type solveOptions struct {
	*options
	box          string
	limit        int
	countTimeout time.Duration
}

func newSolveCmd(opts *options) *cobra.Command {
	o := &solveOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "solve GRID",
		Short: "Solve one puzzle exactly and count its solutions",
		Long: `solve runs the exact solver (constraint propagation with backtracking) on one
grid, prints the solution as a board, the number of solutions up to --limit,
and the effort it took. It does not touch the database. Counting stops
after --count-timeout (default 10s): the count is then undetermined, said
so plainly, with the solution if one was found.

GRID is the canonical text form: one line of N*N cells, '.' (or 0 - * _ x)
for blanks, 1-9 then A-W for larger grids. White space is ignored.`,
		Example: `  sudokulab solve '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..'
  sudokulab solve --box 3x2 '.3..5.......4.1..6..........6..5..1..........2.1...3.'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSolve(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.box, "box", "", "box shape RxC (default: the usual shape for the grid's size)")
	cmd.Flags().IntVar(&o.limit, "limit", 2, "stop counting solutions at this many")
	cmd.Flags().DurationVar(&o.countTimeout, "count-timeout", pipeline.DefaultCountTimeout,
		"time to count the solutions before the count is left undetermined (0: the default, negative: no limit)")
	return cmd
}

func runSolve(ctx context.Context, cmd *cobra.Command, o *solveOptions, arg string) error {
	g, err := parseGrid(arg, o.box)
	if err != nil {
		return err
	}
	if o.limit < 1 {
		return sudokulab.Errorf(sudokulab.EINVALID, "--limit %d: want at least 1", o.limit)
	}
	budget := pipeline.CountBudget(o.countTimeout)
	start := time.Now()
	res, undetermined, err := exact.SolveWithin(ctx, g, o.limit, budget)
	elapsed := time.Since(start)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if o.format != "table" {
		sol := ""
		if res.Count > 0 {
			sol = res.Solution.String()
		}
		var count any = res.Count
		status := sudokulab.CountCounted
		if undetermined {
			count, status = nil, sudokulab.CountUndetermined
		}
		return writeRows(w, o.format,
			[]string{"puzzle", "givens", "solutions", "limit", "count_status", "count_seconds", "solution", "propagations", "guesses", "backtracks"},
			[][]any{{g.String(), g.Givens(), count, o.limit, status, elapsed.Seconds(), sol, res.Effort.Propagations, res.Effort.Guesses, res.Effort.Backtracks}})
	}
	fmt.Fprintf(w, "puzzle (%s, %d givens):\n%s", g.Shape, g.Givens(), g.Pretty())
	if res.Count > 0 {
		label := "solution"
		if res.Count > 1 || undetermined {
			label = "first solution found"
		}
		fmt.Fprintf(w, "%s:\n%s", label, res.Solution.Pretty())
		fmt.Fprintf(w, "%s\n", res.Solution)
	}
	if undetermined {
		fmt.Fprintf(w, "solutions: undetermined: counting stopped after %v (--count-timeout) with %d found; a longer --count-timeout may settle it\n",
			budget, res.Count)
	} else {
		fmt.Fprintf(w, "solutions: %s\n", show.SolutionCount(res.Count, o.limit))
	}
	fmt.Fprintf(w, "effort: %d propagations, %d guesses, %d backtracks\n",
		res.Effort.Propagations, res.Effort.Guesses, res.Effort.Backtracks)
	return nil
}
