package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/tabular"
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
		Long: `sql runs one SQL statement and prints its rows in the --output-format (-O) chosen.
Tables, columns and views are documented in docs/schema.md. --file reads
the statement from a file (- for standard input), such as the canned
queries in queries/.

Without --write the database is opened read-only and left exactly as it is
(it may be a read-only file, or in a read-only folder). A statement that
would change it fails and names --write; so do ATTACH, DETACH, VACUUM and
every PRAGMA but these read-only ones, which may name the table, index or
limit they inspect but never set a value (PRAGMA journal_mode reads the
mode, PRAGMA journal_mode=DELETE is refused):
` + tabular.WrapList(db.ReadOnlyPragmas(), 76, "  ") + `On PostgreSQL the statement runs in a read-only transaction that is rolled
back afterwards, and only queries (SELECT, WITH, VALUES, TABLE, EXPLAIN) and
SHOW run; COPY, SET, NOTIFY, LISTEN, DO and the like are refused. On both
engines a statement may not call a function that acts outside its
transaction (docs/scale-out.md explains each):
` + tabular.WrapList(db.RefusedFunctions(), 76, "  ") + `Each statement is bounded by --statement-timeout (default 10m, 0 for none);
Ctrl-C stops it on the server too.

With --write the statement may change the database, which must exist
(sudokulab init creates one) and is first migrated to the newest schema.`,
		Example: `  sudokulab sql "SELECT id, givens, grid FROM puzzles ORDER BY givens LIMIT 5"
  sudokulab -O csv sql "SELECT * FROM puzzle_catalog"
  sudokulab sql "PRAGMA table_info(puzzles)"
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
	open := o.openRead
	if o.write {
		open = o.openWrite
	}
	d, err := open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	cols, rows, err := d.Query(ctx, query, o.write)
	if err != nil {
		return readOnlyHint(err, o.write)
	}
	return writeRows(cmd.OutOrStdout(), o.format, cols, rows)
}

// readOnlyHint tells, for a statement refused because sql ran without
// --write, what --write would allow: a change to the database, or one of
// the statements read-only SQL refuses (with the pragmas it allows).
func readOnlyHint(err error, write bool) error {
	switch {
	case write:
		return err
	case errors.Is(err, db.ErrReadOnly):
		return sudokulab.Errorf(sudokulab.EINVALID, "%s; add --write to allow it", err)
	case errors.Is(err, db.ErrRefused):
		return sudokulab.Errorf(sudokulab.EINVALID, "%s (the pragmas allowed: %s; settings only read, without a value); add --write to allow it",
			err, strings.Join(db.ReadOnlyPragmas(), ", "))
	}
	return err
}
