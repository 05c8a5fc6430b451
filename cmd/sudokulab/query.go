package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/queries"
)

type queryOptions struct {
	*options
	params []string
}

func newQueryCmd(opts *options) *cobra.Command {
	o := &queryOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "query NAME [--param k=v]... | query list | query show NAME",
		Short: "Run one of the canned SQL queries of queries/",
		Long: `query runs a canned query shipped in the binary (the files of queries/) and
prints its rows in the --output-format chosen: success rates and expected running
times per configuration and collection or rating label, convergence and ECDF
tables, the hardest puzzles, rater agreement, collection summaries and the
history of each configuration across code versions. --param sets one of the
query's parameters (see query list or query show NAME); the others keep
their defaults, and NULL stands for SQL NULL (usually "no filter"). Values
are bound, never pasted into the SQL, and the database is opened read-only.`,
		Example: `  sudokulab query list
  sudokulab query success-by-collection --param experiment=e1
  sudokulab -O csv query convergence --param config=soto-cuckoo --param axis=evaluations
  sudokulab query show hardest-puzzles`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError(cmd, "query needs a NAME: sudokulab query NAME runs one; sudokulab query list lists them")
			}
			if len(args) > 1 {
				return sudokulab.Errorf(sudokulab.EINVALID, "query takes one NAME (got %d arguments); give parameters with --param k=v", len(args))
			}
			return runQuery(cmd.Context(), cmd, o, args[0])
		},
	}
	cmd.Flags().StringArrayVarP(&o.params, "param", "p", nil, "set a parameter of the query: `NAME=VALUE` (repeatable)")
	cmd.AddCommand(newQueryListCmd(opts), newQueryShowCmd(opts))
	return cmd
}

func newQueryListCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the canned queries with their parameters and defaults",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			qs, err := queries.All()
			if err != nil {
				return err
			}
			rows := make([][]any, len(qs))
			for i, q := range qs {
				rows[i] = []any{q.Name, q.ParamDefaults(), q.Description}
			}
			return writeRows(cmd.OutOrStdout(), opts.format, []string{"name", "parameters", "description"}, rows)
		},
	}
}

func newQueryShowCmd(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a canned query's parameters and SQL",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := queries.Lookup(args[0])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if opts.format != "table" {
				params := make([]object, len(q.Params))
				for i, p := range q.Params {
					params[i] = object{{"name", p.Name}, {"default", p.DefaultString()}, {"doc", p.Doc}}
				}
				return writeRecord(w, opts.format, nil, object{{"name", q.Name}, {"file", q.File},
					{"description", q.Description}, {"parameters", params}, {"sql", q.SQL}})
			}
			fmt.Fprintf(w, "%s (%s): %s\n", q.Name, q.File, q.Description)
			for _, p := range q.Params {
				fmt.Fprintf(w, "  --param %s=%s  %s\n", p.Name, p.DefaultString(), p.Doc)
			}
			fmt.Fprintf(w, "\n%s", q.SQL)
			return nil
		},
	}
}

// runCanned runs the canned query name with the given parameter values on
// the database of --db, opened read-only, and returns its table.
func runCanned(ctx context.Context, o *options, name string, values map[string]string) (db.Table, error) {
	q, err := queries.Lookup(name)
	if err != nil {
		return db.Table{}, err
	}
	sql, args, err := q.Bind(values)
	if err != nil {
		return db.Table{}, sudokulab.WrapError(sudokulab.EINVALID, err, "")
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return db.Table{}, err
	}
	defer d.Close()
	if err := queries.CheckNamed(ctx, d, values); err != nil {
		return db.Table{}, err
	}
	t, err := d.ReadQuery(ctx, sql, args...)
	if err != nil {
		return db.Table{}, fmt.Errorf("query %s: %w", name, err)
	}
	return t, nil
}

func runQuery(ctx context.Context, cmd *cobra.Command, o *queryOptions, name string) error {
	values, err := queries.ParseParams(o.params)
	if err != nil {
		return err
	}
	t, err := runCanned(ctx, o.options, name, values)
	if err != nil {
		return err
	}
	return writeRows(cmd.OutOrStdout(), o.format, t.Columns, t.Rows)
}
