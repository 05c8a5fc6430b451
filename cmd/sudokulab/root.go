package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab/db"
	"sudokulab/solvers"
)

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
			if err := checkOutputFlags(cmd, opts); err != nil {
				return err
			}
			return capJobs(cmd)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v {
				return runVersion(cmd, opts)
			}
			return cmd.Help()
		},
	}
	root.Flags().Bool("version", false, "print the version, as sudokulab version does")
	pf := root.PersistentFlags()
	pf.StringVar(&opts.dbPath, "db", defaultDB, "database file or postgres:// URL; $"+envDB+" sets the default")
	pf.StringVarP(&opts.format, "output-format", "O", "table", "output format of what commands print: table, csv or json")
	pf.StringVar(&opts.legacyFormat, "format", "", "the old spelling of --output-format, refused; --format names a file format (import, export)")
	_ = pf.MarkHidden("format")
	pf.DurationVar(&opts.statementTimeout, "statement-timeout", db.DefaultStatementTimeout,
		"bound on each statement of read-only SQL (--where, sql without --write, queries); 0 for none")
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		newCheckCmd(opts),
		newCollectionsCmd(opts),
		newCompareCmd(opts),
		newConfigsCmd(opts),
		newCountCmd(opts),
		newDedupeCmd(opts),
		newExperimentsCmd(opts),
		newExportCmd(opts),
		newExportRunsCmd(opts),
		newFormatsCmd(opts),
		newGenerateCmd(opts),
		newImportCmd(opts),
		newInitCmd(opts),
		newMergeCmd(opts),
		newMigrateCmd(opts),
		newPlotCmd(opts),
		newPuzzlesCmd(opts),
		newQueryCmd(opts),
		newRateCmd(opts),
		newReportCmd(opts),
		newRunCmd(opts),
		newRunsCmd(opts),
		newSolveCmd(opts),
		newSolversCmd(opts),
		newSQLCmd(opts),
		newServeCmd(opts),
		newTuneCmd(opts),
		newVersionCmd(opts),
		newWorkerCmd(opts),
	)
	argsWithHelp(root)
	registerCompletions(root, opts)
	return root
}

// groupCmd returns a command that only holds subcommands; run without one
// it is a usage error.
func groupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  subcommandArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageError(cmd, fmt.Sprintf("%s: missing subcommand, one of %s", cmd.CommandPath(), strings.Join(subcommandNames(cmd), ", ")))
		},
	}
	c.AddCommand(subs...)
	return c
}
