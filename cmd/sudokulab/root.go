package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

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
	// format is the output format of tabular output: table, csv or json
	// (--output-format, -O).
	format string
	// legacyFormat holds the root's hidden --format, the old spelling of
	// --output-format, only to refuse it with a pointer to the new one;
	// commands with a file format have their own --format.
	legacyFormat string
	// statementTimeout bounds each statement of read-only SQL (--where
	// predicates, sql without --write, canned queries); 0 for none.
	statementTimeout time.Duration
	// registry lists the solvers; tests may replace it.
	registry *solvers.Registry
}

// Commands open the database named by --db in one of four ways:
//
//   - openRead, for every command that only reads (sql without --write,
//     query, plot, the list and show subcommands, export): the file is
//     opened read-only and nothing is written to it, not even the presets,
//     so these commands work on a read-only file, in a read-only folder
//     and beside a running writer; a schema older or newer than this
//     program's is an ECONFLICT error saying what to do;
//   - openWrite, for commands that write but name no configuration: the
//     database must exist and is migrated to the newest schema;
//   - open, for commands that run or name configurations (run, worker,
//     rate, configs add): openWrite, then the registered solvers' presets
//     the database lacks are stored;
//   - init alone creates a database (openCreate).
//
// A database that does not exist is an ENOTFOUND error (exit 3) naming the
// file and `sudokulab init`, and no file is created.

// openRead opens the database read-only and checks that its schema is the
// one this program reads.
func (o *options) openRead(ctx context.Context) (*db.DB, error) {
	d, err := db.OpenOptions(ctx, o.dbPath, o.dbOptions(db.Options{ReadOnly: true}))
	if err != nil {
		return nil, openError(o.dbPath, err)
	}
	if err := d.CheckVersion(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// dbOptions adds the global flags' settings to opts.
func (o *options) dbOptions(opts db.Options) db.Options {
	opts.StatementTimeout = o.statementTimeout
	if o.statementTimeout == 0 {
		opts.StatementTimeout = -1 // none
	}
	return opts
}

// openWrite opens an existing database for writing and migrates it to the
// newest schema.
func (o *options) openWrite(ctx context.Context) (*db.DB, error) {
	d, err := db.OpenOptions(ctx, o.dbPath, o.dbOptions(db.Options{MustExist: true}))
	if err != nil {
		return nil, openError(o.dbPath, err)
	}
	return d, nil
}

// open is openWrite for the commands that need the presets: it adds the
// registered solvers' presets the database lacks.
func (o *options) open(ctx context.Context) (*db.DB, error) {
	d, err := o.openWrite(ctx)
	if err != nil {
		return nil, err
	}
	if err := o.syncPresets(ctx, d); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// openCreate is open for init: it creates the database when it does not
// exist.
func (o *options) openCreate(ctx context.Context) (*db.DB, error) {
	d, err := db.OpenOptions(ctx, o.dbPath, o.dbOptions(db.Options{}))
	if err != nil {
		return nil, openError(o.dbPath, err)
	}
	if err := o.syncPresets(ctx, d); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// syncPresets stores the registered solvers' presets d lacks.
func (o *options) syncPresets(ctx context.Context, d *db.DB) error {
	if err := runner.SyncPresets(ctx, d, o.registry); err != nil {
		return fmt.Errorf("open %s: %w", d.Path(), err)
	}
	return nil
}

// openError adds the database to an error from opening it, unless the
// error already names it (a missing database, a schema too new).
func openError(target string, err error) error {
	if sudokulab.ErrorCode(err) != sudokulab.EINTERNAL {
		return err
	}
	return fmt.Errorf("open %s: %w", db.Redact(target), err)
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
