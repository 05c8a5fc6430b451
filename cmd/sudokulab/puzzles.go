package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/show"
	"sudokulab/solvers/exact"
)

func newPuzzlesCmd(opts *options) *cobra.Command {
	return groupCmd("puzzles", "Add, list and show puzzles",
		newPuzzlesAddCmd(opts), newPuzzlesListCmd(opts), newPuzzlesShowCmd(opts))
}

type puzzlesAddOptions struct {
	*options
	box, collection, label string
	countTimeout           time.Duration
}

func newPuzzlesAddCmd(opts *options) *cobra.Command {
	o := &puzzlesAddOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "add GRID",
		Short: "Store one puzzle, with its solution count, optionally in a collection",
		Long: `add checks the grid against the rules, counts its solutions with the exact
solver (0, 1, or 2 meaning two or more), stores the solution when it is
unique, and puts the puzzle in --collection (created if needed). A puzzle
already stored is not stored again; it only gains the membership (and the
count, if its stored one is unknown or undetermined). Counting takes at
most --count-timeout: a count cut short is stored as undetermined, with the
solution if one was found.`,
		Example: `  sudokulab puzzles add --collection mine --label 'first' '..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..'`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPuzzlesAdd(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.box, "box", "", "box shape RxC (default: the usual shape for the grid's size)")
	cmd.Flags().StringVar(&o.collection, "collection", "", "collection to add the puzzle to")
	cmd.Flags().StringVar(&o.label, "label", "", "the puzzle's name in the collection")
	cmd.Flags().DurationVar(&o.countTimeout, "count-timeout", pipeline.DefaultCountTimeout,
		"time to count the solutions before the count is stored as undetermined (0: the default, negative: no limit)")
	return cmd
}

func runPuzzlesAdd(ctx context.Context, cmd *cobra.Command, o *puzzlesAddOptions, arg string) error {
	g, err := parseGrid(arg, o.box)
	if err != nil {
		return err
	}
	if o.label != "" && o.collection == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "--label needs --collection")
	}
	var s exact.Solver
	p, _, err := pipeline.Count(ctx, &s, g, o.countTimeout)
	if err != nil {
		return err
	}
	d, err := o.openWrite(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	created, err := d.AddPuzzleTo(ctx, p, o.collection, o.label)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	var count any
	if p.SolutionCount != nil {
		count = *p.SolutionCount
	}
	return writeRecord(w, o.format, func() error {
		if created {
			fmt.Fprintf(w, "added puzzle %d (%d givens, solutions: %s)", p.ID, g.Givens(), show.PuzzleCount(p))
		} else {
			fmt.Fprintf(w, "puzzle %d was already stored", p.ID)
		}
		if o.collection != "" {
			fmt.Fprintf(w, " in collection %s", o.collection)
		}
		_, err := fmt.Fprintln(w)
		return err
	}, object{{"id", p.ID}, {"added", created}, {"givens", g.Givens()}, {"solution_count", count},
		{"count_status", p.CountStatus}, {"collection", show.NullString(o.collection)}})
}

type puzzlesListOptions struct {
	*options
	where, collection string
	limit             int
}

func newPuzzlesListCmd(opts *options) *cobra.Command {
	o := &puzzlesListOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List puzzles, filtered by a SQL predicate",
		Long: `list prints the puzzles having a row of the view puzzle_catalog (a puzzle with
each collection it belongs to; see docs/schema.md) that matches --where.`,
		Example: `  sudokulab puzzles list --collection sato-inoue-2010
  sudokulab puzzles list --where "givens < 25 AND solution_count = 1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPuzzlesList(cmd.Context(), cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.where, "where", "", whereHelp)
	cmd.Flags().StringVar(&o.collection, "collection", "", "only puzzles of this collection")
	cmd.Flags().IntVar(&o.limit, "limit", 0, "at most this many puzzles (0: all)")
	return cmd
}

// whereHelp is the help of every --where flag: what it filters.
const whereHelp = "SQL predicate over the view puzzle_catalog (one row per puzzle and collection it belongs to; columns in docs/schema.md)"

func runPuzzlesList(ctx context.Context, cmd *cobra.Command, o *puzzlesListOptions) error {
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	where, err := db.SelectionPredicate(ctx, d, o.where, o.collection, nil)
	if err != nil {
		return err
	}
	t, err := db.PuzzleListTable(ctx, d, where, o.limit)
	if err != nil {
		return err
	}
	return writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows)
}

func newPuzzlesShowCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show a puzzle as a board, with its collections, ratings and runs",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return sudokulab.Errorf(sudokulab.EINVALID, "puzzle id %q is not a number", args[0])
			}
			return runPuzzlesShow(cmd.Context(), cmd, opts, id)
		},
	}
}

func runPuzzlesShow(ctx context.Context, cmd *cobra.Command, o *options, id int64) error {
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	v, err := db.ViewPuzzle(ctx, d, id, shownRuns)
	if err != nil {
		return err
	}
	return show.Puzzle(cmd.OutOrStdout(), o.format, v, shownRuns)
}

// shownRuns is how many of a puzzle's runs puzzles show lists.
const shownRuns = 20
