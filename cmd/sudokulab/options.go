package main

import (
	"context"
	"fmt"
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

// checkJobs is the EINVALID error of a --jobs below 1, or nil: every
// command with --jobs refuses the same values with the same words.
func checkJobs(jobs int) error {
	if jobs < 1 {
		return sudokulab.Errorf(sudokulab.EINVALID, "--jobs %d: want at least 1", jobs)
	}
	return nil
}

// exactArgs is cobra.ExactArgs with a usage error the exit-code switch
// recognizes.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return sudokulab.Errorf(sudokulab.EINVALID, "%s takes %d argument(s), got %d", cmd.CommandPath(), n, len(args))
		}
		return nil
	}
}
