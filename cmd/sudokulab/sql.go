package main

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"sudokulab"
)

type sqlOptions struct {
	*options
	write bool
	file  string
}

func newSQLCmd(opts *options) *cobra.Command {
	o := &sqlOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "sql QUERY | sql --file FILE",
		Short: "Run a SQL statement against the database and print the result",
		Long: `sql runs one SQL statement and prints its rows in the --format chosen. The
database refuses writes unless --write is given. Tables, columns and views
are documented in docs/schema.md. --file reads the statement from a file
(- for standard input), such as the canned queries in queries/.`,
		Example: `  sudokulab sql "SELECT id, givens, grid FROM puzzles ORDER BY givens LIMIT 5"
  sudokulab --format csv sql "SELECT * FROM puzzle_catalog"
  sudokulab sql --write "DELETE FROM collections WHERE name = 'scratch'"
  sudokulab sql --file queries/reproduce-ga.sql`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			query, err := sqlText(cmd, o.file, args)
			if err != nil {
				return err
			}
			return runSQL(cmd.Context(), cmd, o, query)
		},
	}
	cmd.Flags().BoolVar(&o.write, "write", false, "allow statements that change the database")
	cmd.Flags().StringVarP(&o.file, "file", "f", "", "read the statement from this file (- for standard input)")
	return cmd
}

// sqlText returns the statement given as the argument or in --file.
func sqlText(cmd *cobra.Command, file string, args []string) (string, error) {
	switch {
	case file != "" && len(args) > 0:
		return "", sudokulab.Errorf(sudokulab.EINVALID, "give the statement as an argument or with --file, not both")
	case file == "-":
		b, err := io.ReadAll(cmd.InOrStdin())
		return string(b), err
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", sudokulab.WrapError(sudokulab.EINVALID, err, "--file")
		}
		return string(b), nil
	case len(args) == 0:
		return "", sudokulab.Errorf(sudokulab.EINVALID, "sql needs a statement (or --file FILE)")
	}
	return args[0], nil
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
