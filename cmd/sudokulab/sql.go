package main

import (
	"context"

	"github.com/spf13/cobra"
)

type sqlOptions struct {
	*options
	write bool
}

func newSQLCmd(opts *options) *cobra.Command {
	o := &sqlOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "sql QUERY",
		Short: "Run a SQL statement against the database and print the result",
		Long: `sql runs one SQL statement and prints its rows in the --format chosen. The
database refuses writes unless --write is given. Tables, columns and views
are documented in docs/schema.md.`,
		Example: `  sudokulab sql "SELECT id, givens, grid FROM puzzles ORDER BY givens LIMIT 5"
  sudokulab --format csv sql "SELECT * FROM puzzle_catalog"
  sudokulab sql --write "DELETE FROM collections WHERE name = 'scratch'"`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSQL(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().BoolVar(&o.write, "write", false, "allow statements that change the database")
	return cmd
}

func runSQL(ctx context.Context, cmd *cobra.Command, o *sqlOptions, query string) error {
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	cols, rows, err := d.Query(ctx, query, o.write)
	if err != nil {
		return err
	}
	return writeRows(cmd.OutOrStdout(), o.format, cols, rows)
}
