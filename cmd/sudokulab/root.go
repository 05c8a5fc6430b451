package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/solvers"
)

// envDB names the environment variable that sets the default database.
const envDB = "SUDOKULAB_DB"

// options are the global flags, shared by every command.
type options struct {
	dbPath string
	format string
	// registry lists the solvers; tests may replace it.
	registry *solvers.Registry
}

// open opens the database named by --db, creating and migrating it as
// needed, and adds the registered solvers' presets it lacks.
func (o *options) open(ctx context.Context) (*db.DB, error) {
	d, err := db.Open(ctx, o.dbPath)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", o.dbPath, err)
	}
	if err := runner.SyncPresets(ctx, d, o.registry); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", o.dbPath, err)
	}
	return d, nil
}

func newRootCmd() *cobra.Command {
	opts := &options{registry: solvers.Default()}
	defaultDB := os.Getenv(envDB)
	if defaultDB == "" {
		defaultDB = "lab.db"
	}
	root := &cobra.Command{
		Use:   "sudokulab",
		Short: "An SQL-backed laboratory for Sudoku puzzles and the algorithms that solve them",
		Long: `sudokulab keeps puzzles, collections, ratings, solver configurations, runs and
their trajectories in one SQLite file, so that every question is a SQL query.
The schema is documented in docs/schema.md.`,
		Example: `  sudokulab init --from lab.db.example
  sudokulab solve '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..'
  sudokulab puzzles list --where "collection = 'paper-puzzles' AND givens < 30"
  sudokulab sql "SELECT collection, count(*) FROM puzzle_catalog GROUP BY collection"`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			switch opts.format {
			case "table", "csv", "json":
				return nil
			}
			return sudokulab.Errorf(sudokulab.EINVALID, "--format %q: want table, csv or json", opts.format)
		},
	}
	root.PersistentFlags().StringVar(&opts.dbPath, "db", defaultDB, "database file; $"+envDB+" sets the default")
	root.PersistentFlags().StringVar(&opts.format, "format", "table", "output format for tabular output: table, csv or json")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		fmt.Fprintln(cmd.ErrOrStderr(), cmd.UsageString())
		return sudokulab.WrapError(sudokulab.EINVALID, err, "")
	})
	root.AddCommand(
		newCollectionsCmd(opts),
		newConfigsCmd(opts),
		newDedupeCmd(opts),
		newExperimentsCmd(opts),
		newExportCmd(opts),
		newFormatsCmd(opts),
		newImportCmd(opts),
		newInitCmd(opts),
		newMigrateCmd(opts),
		newPlotCmd(opts),
		newPuzzlesCmd(opts),
		newQueryCmd(opts),
		newRateCmd(opts),
		newRunCmd(opts),
		newRunsCmd(opts),
		newSolveCmd(opts),
		newSolversCmd(opts),
		newSQLCmd(opts),
	)
	return root
}

// groupCmd returns a command that only holds subcommands; run without one
// it is a usage error.
func groupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(cmd.ErrOrStderr(), cmd.UsageString())
			return sudokulab.Errorf(sudokulab.EINVALID, "%s: missing subcommand", cmd.CommandPath())
		},
	}
	c.AddCommand(subs...)
	return c
}
