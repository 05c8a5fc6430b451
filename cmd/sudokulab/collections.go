package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/show"
)

func newCollectionsCmd(opts *options) *cobra.Command {
	return groupCmd("collections", "List, show, freeze and remove collections of puzzles",
		newCollectionsAddCmd(opts), newCollectionsListCmd(opts), newCollectionsRmCmd(opts), newCollectionsShowCmd(opts))
}

func newCollectionsListCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the collections with their numbers of puzzles, and whether collections add froze them",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return opts.printReport(cmd, db.CollectionListTable)
		},
	}
}

type collectionsShowOptions struct {
	*options
	limit int
}

func newCollectionsShowCmd(opts *options) *cobra.Command {
	o := &collectionsShowOptions{options: opts}
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show a collection's puzzles in order, with their labels, source lines and metadata, and its imports",
		Example: `  sudokulab collections show top1465 --limit 20`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCollectionsShow(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().IntVar(&o.limit, "limit", 0, "at most this many puzzles (0: all)")
	return cmd
}

func runCollectionsShow(ctx context.Context, cmd *cobra.Command, o *collectionsShowOptions, name string) error {
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	v, err := db.ViewCollection(ctx, d, name, o.limit)
	if err != nil {
		return err
	}
	return show.Collection(cmd.OutOrStdout(), o.format, v)
}

func newCollectionsRmCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a collection; its puzzles stay in the database",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			d, err := opts.openWrite(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			n, err := d.RemoveCollection(ctx, args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			return writeRecord(w, opts.format, func() error {
				_, err := fmt.Fprintf(w, "removed collection %s (%d puzzles; they stay in the database)\n", args[0], n)
				return err
			}, object{{"removed", args[0]}, {"puzzles", n}})
		},
	}
}

type collectionsAddOptions struct {
	*options
	freeze db.Freeze
}

func newCollectionsAddCmd(opts *options) *cobra.Command {
	o := &collectionsAddOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "add NAME --where SQL",
		Short: "Freeze the puzzles a SQL predicate selects now as a named collection",
		Long: `add creates the frozen collection NAME holding the puzzles that match --where
(a SQL predicate over the view puzzle_catalog) now, in the order of the
selection: --order-by (an ORDER BY list over the view, ties broken by id), by
default the order of the collections they come from (by collection name, then
position; puzzles in no collection last). Each puzzle keeps its label there,
or gets the value of --label (an expression over the view).

The collection does not follow later changes: it names a stable set, such as
the benchmark set of an experiment. No import adds to it (import
--add-to-frozen does, when asked). NAME must be new, unless --replace is
given: then its puzzles are replaced by the selection.`,
		Example: `  sudokulab collections add bench-17 --where "collection = 'puzzles2_17_clue' AND id % 100 = 0"
  sudokulab collections add hard-unique --where "solution_count = 1 AND givens < 22" --description "hard set, frozen 2025-03"
  sudokulab collections add by-givens --where "collection = 'top1465'" --order-by "givens DESC" --label "'t' || position"
  sudokulab collections add bench-17 --replace --where "collection = 'puzzles2_17_clue' AND id % 50 = 0"`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if o.freeze.Where == "" {
				return sudokulab.Errorf(sudokulab.EINVALID, "collections add needs --where SQL (--where 1 takes every puzzle)")
			}
			if err := o.freeze.Check(); err != nil {
				return err
			}
			d, err := o.openWrite(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := checkPuzzlePredicate(ctx, o.options, o.freeze.Where); err != nil {
				return err
			}
			n, err := d.Freeze(ctx, args[0], o.freeze)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			return writeRecord(w, o.format, func() error {
				_, err := fmt.Fprintf(w, "added collection %s: %d puzzles\n", args[0], n)
				return err
			}, object{{"added", args[0]}, {"puzzles", n}})
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.freeze.Where, "where", "", whereHelp+" (required)")
	f.StringVar(&o.freeze.OrderBy, "order-by", "", "ORDER BY list over puzzle_catalog giving the collection's order (default: the order of the collections the puzzles come from)")
	f.StringVar(&o.freeze.Label, "label", "", "SQL expression over puzzle_catalog giving each puzzle's label (default: its label where it comes from)")
	f.BoolVar(&o.freeze.Replace, "replace", false, "replace the puzzles of an existing collection NAME by the selection")
	f.StringVar(&o.freeze.Description, "description", "", "what the collection is for")
	return cmd
}

// checkPuzzlePredicate evaluates a --where predicate over puzzle_catalog
// on a database opened read-only before a writing command pastes it into
// its own SQL (see db.CheckCatalogPredicate).
func checkPuzzlePredicate(ctx context.Context, o *options, where string) error {
	if strings.TrimSpace(where) == "" {
		return nil
	}
	if err := db.CheckPredicate(where); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.CheckCatalogPredicate(ctx, where)
}
