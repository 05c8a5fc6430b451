package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
)

func newCollectionsCmd(opts *options) *cobra.Command {
	return groupCmd("collections", "List, show, freeze and remove collections of puzzles",
		newCollectionsAddCmd(opts), newCollectionsListCmd(opts), newCollectionsRmCmd(opts), newCollectionsShowCmd(opts))
}

func newCollectionsListCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the collections with their numbers of puzzles",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			d, err := opts.openRead(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			cs, err := db.ListCollections(ctx, d)
			if err != nil {
				return err
			}
			rows := make([][]any, len(cs))
			for i, c := range cs {
				rows[i] = []any{c.Name, c.Puzzles, c.CreatedAt, c.Description}
			}
			return writeRows(cmd.OutOrStdout(), opts.format, []string{"name", "puzzles", "created_at", "description"}, rows)
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
	c, err := db.GetCollection(ctx, d, name)
	if err != nil {
		return err
	}
	t, err := db.CollectionTable(ctx, d, name, o.limit)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	switch o.format {
	case "csv":
		return writeRows(w, o.format, t.Columns, t.Rows)
	case "json":
		imports, err := db.ImportTable(ctx, d, name)
		if err != nil {
			return err
		}
		return writeJSON(w, object{{"name", c.Name}, {"puzzles", c.Puzzles}, {"created_at", c.CreatedAt},
			{"description", c.Description}, {"members", rowObjects(t.Columns, t.Rows)},
			{"imports", rowObjects(imports.Columns, imports.Rows)}})
	}
	fmt.Fprintf(w, "collection %s: %d puzzles, created %s\n", c.Name, c.Puzzles, c.CreatedAt.Format("2006-01-02 15:04:05"))
	if c.Description != "" {
		fmt.Fprintln(w, c.Description)
	}
	fmt.Fprintln(w)
	if err := writeRows(w, "table", t.Columns, t.Rows); err != nil {
		return err
	}
	imports, err := db.ImportTable(ctx, d, name)
	if err != nil {
		return err
	}
	if len(imports.Rows) > 0 {
		fmt.Fprintln(w, "\nimports:")
		return writeRows(w, "table", imports.Columns, imports.Rows)
	}
	return nil
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
			var n int
			err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
				n, err = db.DeleteCollection(ctx, tx, args[0])
				return err
			})
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
	where, description string
}

func newCollectionsAddCmd(opts *options) *cobra.Command {
	o := &collectionsAddOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "add NAME --where SQL",
		Short: "Freeze the puzzles a SQL predicate selects now as a named collection",
		Long: `add creates the collection NAME holding, in order of id, the puzzles that
match --where (a SQL predicate over the view puzzle_catalog) now. The
collection does not follow later changes: it names a stable set, such as the
benchmark set of an experiment. NAME must be new.`,
		Example: `  sudokulab collections add bench-17 --where "collection = 'puzzles2_17_clue' AND id % 100 = 0"
  sudokulab collections add hard-unique --where "solution_count = 1 AND givens < 22" --description "hard set, frozen 2025-03"`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if o.where == "" {
				return sudokulab.Errorf(sudokulab.EINVALID, "collections add needs --where SQL (--where 1 takes every puzzle)")
			}
			if err := db.CheckPredicate(o.where); err != nil {
				return err
			}
			d, err := o.openWrite(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := checkPuzzlePredicate(ctx, o.options, o.where); err != nil {
				return err
			}
			var n int
			err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
				n, err = db.FreezeCollection(ctx, tx, args[0], o.description, o.where)
				return err
			})
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
	cmd.Flags().StringVar(&o.where, "where", "", whereHelp+" (required)")
	cmd.Flags().StringVar(&o.description, "description", "", "what the collection is for")
	return cmd
}

// checkPuzzlePredicate evaluates a --where predicate over puzzle_catalog
// on a read-only connection before a writing command pastes it into its
// own SQL: a predicate that is not one expression, that the database
// rejects, or that would change the database (a function with side effects
// on PostgreSQL) fails here, before anything is written.
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
	// Query, not ReadQuery: no placeholders, so a '?' in the predicate
	// stays the user's.
	if _, _, err := d.Query(ctx, "SELECT COUNT(*) FROM puzzle_catalog WHERE ("+where+"\n)", false); err != nil {
		if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			return err
		}
		return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, strings.TrimPrefix(err.Error(), "sql: "))
	}
	return nil
}
