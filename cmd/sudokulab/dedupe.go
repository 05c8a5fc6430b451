package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/internal/progress"
	"sudokulab/symmetry"
)

type dedupeOptions struct {
	*options
	report bool
}

func newDedupeCmd(opts *options) *cobra.Command {
	o := &dedupeOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "dedupe --report",
		Short: "Find the 9x9 puzzles that are the same up to symmetry",
		Long: `dedupe gives every 9x9 puzzle that lacks one its symmetry-canonical form (the
smallest text form over relabelling, row, column, band and stack
permutations and transposition; see docs/schema.md), then with --report
lists the groups of stored puzzles sharing a form: puzzles that are one
puzzle written differently. It removes nothing.`,
		Example: `  sudokulab dedupe --report
  sudokulab -O csv dedupe --report > duplicates.csv
  sudokulab sql "SELECT COUNT(DISTINCT symmetry_form) FROM puzzles"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDedupe(cmd.Context(), cmd, o)
		},
	}
	cmd.Flags().BoolVar(&o.report, "report", false, "list the groups of puzzles equal up to symmetry")
	return cmd
}

func runDedupe(ctx context.Context, cmd *cobra.Command, o *dedupeOptions) error {
	d, err := o.openWrite(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	missing, err := db.ListPuzzles(ctx, d, "size = 9 AND box_rows = 3 AND symmetry_form IS NULL", 0)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		bar := progress.NewWork(cmd.ErrOrStderr(), "dedupe: symmetry forms", len(missing))
		forms, err := symmetry.Forms(ctx, missing, func() { bar.Add(1, "") })
		bar.Finish()
		if err != nil {
			return err
		}
		if err := d.SetSymmetryForms(ctx, forms); err != nil {
			return err
		}
	}
	t, err := db.SymmetryDuplicates(ctx, d)
	if err != nil {
		return err
	}
	groups := map[any]bool{}
	for _, r := range t.Rows {
		groups[r[0]] = true
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%d puzzles given a symmetry form; %d groups of puzzles equal up to symmetry, %d puzzles in them\n",
		len(missing), len(groups), len(t.Rows))
	if !o.report {
		if len(groups) > 0 {
			fmt.Fprintln(cmd.ErrOrStderr(), "sudokulab dedupe --report lists them")
		}
		return nil
	}
	return writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows)
}
