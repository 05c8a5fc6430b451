// Package db stores the laboratory in a SQL database: puzzles, collections,
// imports, ratings, solver configurations, experiments, runs and their
// trajectories. The schema lives in package migrations and is explained in
// docs/schema.md; the database is a public interface that people query
// with their own SQL.
//
// A database is a SQLite file (the default, embedded) or a PostgreSQL
// database named by a postgres:// URL, shared by many machines; Open picks
// the engine by the target's form. The store functions take a
// sqlx.ExtContext, so they work on the *DB itself (each statement on its
// own) and on a *sqlx.Tx (several writes in one transaction, see
// DB.WithTx). Queries are written in SQL both engines read, with ?
// placeholders passed through Rebind; what differs is in dialect.go,
// sqlite.go and postgres.go.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"sudokulab"
	"sudokulab/internal/shell"
)

// DB is an open laboratory database. The embedded *sqlx.DB is the
// connection pool; pass the DB (or a transaction from it) to the store
// functions.
type DB struct {
	*sqlx.DB
	path     string
	dialect  *dialect
	provider *goose.Provider
	readOnly bool
	// stmtTimeout bounds each statement of read-only SQL (see
	// Options.StatementTimeout); 0 for none.
	stmtTimeout time.Duration
	// stmts holds the statements prepared once for all transactions:
	// the import writer's multi-row inserts, whose thousands of
	// placeholders take longer to parse than a batch takes to run.
	stmts sync.Map // query -> *sqlx.Stmt
	// writers is the SQLite file's writer signal (nil on PostgreSQL and
	// read-only): write transactions announce that they wait for the
	// lock, and pacing jobs give it up to them.
	writers *writerSignal
}

// Options adjust OpenOptions.
type Options struct {
	// NoMigrate leaves the schema as it is: for inspecting the migration
	// status of an older file without changing it.
	NoMigrate bool
	// MustExist fails with an ENOTFOUND error instead of creating a new,
	// empty database.
	MustExist bool
	// ReadOnly opens an existing database for reading only, leaving it
	// exactly as it is, down to its journal mode: for every command that
	// only reads, and for looking into a file that is not yours, such as
	// the committed lab.db.example. It implies NoMigrate and MustExist;
	// every write fails. CheckVersion tells whether the schema is the one
	// this program reads.
	ReadOnly bool
	// StatementTimeout bounds each statement of read-only SQL: the
	// predicates a person gives (--where), `sql` without --write and the
	// canned queries. Zero means DefaultStatementTimeout, a negative
	// duration no limit. On PostgreSQL the server enforces it (and stops
	// the statement even if this process dies); on SQLite the statement is
	// interrupted.
	StatementTimeout time.Duration
}

// DefaultStatementTimeout is the statement timeout of read-only SQL when
// Options leave it zero.
const DefaultStatementTimeout = 10 * time.Minute

// Open opens the database target, a SQLite file path or a postgres://
// URL, creating it if needed, and migrates it up to LatestVersion. A
// database whose schema is newer than this program is refused with an
// ECONFLICT error.
func Open(ctx context.Context, target string) (*DB, error) {
	return OpenOptions(ctx, target, Options{})
}

// OpenOptions is Open with options.
func OpenOptions(ctx context.Context, target string, opts Options) (*DB, error) {
	if opts.ReadOnly {
		opts.NoMigrate, opts.MustExist = true, true
	}
	dl := dialectOf(target)
	sqlDB, err := dl.open(ctx, target, opts)
	if err != nil {
		return nil, err
	}
	d := &DB{DB: sqlx.NewDb(sqlDB, dl.driver), path: Redact(target), dialect: dl, readOnly: opts.ReadOnly}
	switch {
	case opts.StatementTimeout == 0:
		d.stmtTimeout = DefaultStatementTimeout
	case opts.StatementTimeout > 0:
		d.stmtTimeout = opts.StatementTimeout
	}
	if dl == &sqliteDialect && !opts.ReadOnly {
		d.writers = newWriterSignal(target)
	}
	popts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithTableName(versionTable)}
	if dl == &postgresDialect && !opts.ReadOnly {
		// Processes opening one new database at once migrate it one at a
		// time, under an advisory lock.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 120), lock.WithUnlockTimeout(1, 60))
		if err != nil {
			sqlDB.Close()
			return nil, fmt.Errorf("db: migration lock: %w", err)
		}
		popts = append(popts, goose.WithSessionLocker(locker))
	}
	d.provider, err = goose.NewProvider(dl.goose, sqlDB, dl.migrations, popts...)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("db: loading migrations: %w", err)
	}
	if !opts.NoMigrate {
		if err := d.migrateOnOpen(ctx); err != nil {
			sqlDB.Close()
			return nil, err
		}
	}
	return d, nil
}

// Path returns the database the DB was opened on: the file name, or the
// URL without its password.
func (d *DB) Path() string { return d.path }

// Engine returns "SQLite" or "PostgreSQL".
func (d *DB) Engine() string { return d.dialect.name }

// IsReadOnly reports whether the DB was opened read-only.
func (d *DB) IsReadOnly() bool { return d.readOnly }

// CheckVersion returns an ECONFLICT error unless the database has the
// schema this program expects: an older one needs `sudokulab migrate up`
// (which every writing command does on its own), a newer one a newer
// sudokulab.
func (d *DB) CheckVersion(ctx context.Context) error {
	v, err := d.Version(ctx)
	if err != nil {
		return err
	}
	switch latest := d.LatestVersion(); {
	case v == 0:
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "%s is not a sudokulab database (no schema): create one with sudokulab --db %s init", d.path, shell.Quote(d.path))
	case v < latest:
		return sudokulab.Errorf(sudokulab.ECONFLICT,
			"database %s has schema version %d, older than this sudokulab's (%d): run sudokulab --db %s migrate up", d.path, v, latest, shell.Quote(d.path))
	case v > latest:
		return sudokulab.Errorf(sudokulab.ECONFLICT,
			"database %s has schema version %d, newer than this sudokulab knows (%d): use a newer sudokulab", d.path, v, latest)
	}
	return nil
}

// Close closes the connection pool.
func (d *DB) Close() error {
	var errs []error
	d.stmts.Range(func(q, s any) bool {
		errs = append(errs, s.(*sqlx.Stmt).Close())
		d.stmts.Delete(q)
		return true
	})
	errs = append(errs, d.DB.Close())
	d.writers.close()
	return errors.Join(errs...)
}

// BeginTxx begins a transaction; on SQLite, where a write transaction
// takes the write lock as it begins, it announces meanwhile that a writer
// waits (see Pacer).
func (d *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*sqlx.Tx, error) {
	done := d.writers.announce()
	defer done()
	return d.DB.BeginTxx(ctx, opts)
}

// prepared returns the statement for query prepared on the pool, once;
// a transaction uses it through Tx.StmtxContext, which prepares it again
// only on a connection that has not seen it.
func (d *DB) prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if s, ok := d.stmts.Load(query); ok {
		return s.(*sqlx.Stmt), nil
	}
	s, err := d.DB.PreparexContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if old, loaded := d.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return old.(*sqlx.Stmt), nil
	}
	return s, nil
}

// WithTx runs fn in a transaction and commits it if fn returns nil; on an
// error or a panic it rolls back. The error of fn is returned unchanged.
//
// On SQLite the transaction takes the write lock when it begins: other
// writers wait for it (busy_timeout), so keep it short and use it for
// writes; readers need no transaction. When the lock stays taken past
// busy_timeout, or PostgreSQL reports a serialization failure or deadlock,
// the whole transaction is tried again after a pause, up to TxAttempts
// times in all, before giving up with an error that says the database was
// busy. fn may therefore run more than once: it must start from scratch
// each time.
func (d *DB) WithTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	return withTx(ctx, d, d.path, fn)
}

// TxAttempts bounds how many times WithTx runs a transaction that finds
// the database busy.
const TxAttempts = 10

// withTx is WithTx on any pool.
func withTx(ctx context.Context, b beginner, name string, fn func(tx *sqlx.Tx) error) error {
	return retry(ctx, name, func() error { return tryTx(ctx, b, fn) })
}

// Retry runs fn, a read or a statement outside any transaction, again
// after a pause when it fails the way WithTx retries (a busy database, a
// server restarting), up to TxAttempts times in all.
func (d *DB) Retry(ctx context.Context, fn func() error) error {
	return retry(ctx, d.path, fn)
}

// retry runs fn until it succeeds, fails for good, or TxAttempts tries
// failed in a way that may pass.
func retry(ctx context.Context, name string, fn func() error) error {
	wait := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := fn()
		if isDiskFull(err) {
			return sudokulab.WrapError(sudokulab.ENOSPACE, err, "database %s is out of space", name)
		}
		if err == nil || !retryable(err) || ctx.Err() != nil {
			return err
		}
		if attempt == TxAttempts {
			if isBusy(err) {
				return sudokulab.WrapError(sudokulab.ECONFLICT, err,
					"database %s stayed busy through %d attempts (another process holds its write lock for long): try again", name, attempt)
			}
			return fmt.Errorf("database %s could not be reached through %d attempts: %w", name, attempt, err)
		}
		// Jitter keeps processes that collided from colliding again.
		pause := wait/2 + time.Duration(rand.Int64N(int64(wait)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// tryTx runs fn in one transaction.
func tryTx(ctx context.Context, b beginner, fn func(tx *sqlx.Tx) error) (err error) {
	tx, err := b.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	return nil
}

// MigrationStatus is the state of one embedded migration in the database.
type MigrationStatus struct {
	Version   int64     // the number the file name starts with
	Source    string    // the file name, such as "00001_initial.sql"
	Applied   bool      // whether the database has it
	AppliedAt time.Time // when it was applied; zero if not applied
}

// MigrationResult describes one migration applied by MigrateUp.
type MigrationResult struct {
	Version  int64
	Source   string
	Duration time.Duration
}

// LatestVersion returns the version of the newest embedded migration: the
// schema version this program expects.
func (d *DB) LatestVersion() int64 {
	src := d.provider.ListSources()
	return src[len(src)-1].Version
}

// Version returns the schema version of the database: the newest migration
// applied, 0 for a database without any.
func (d *DB) Version(ctx context.Context) (int64, error) {
	if ok, err := d.versioned(ctx); err != nil || !ok {
		return 0, err
	}
	v, err := d.provider.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("db: schema version: %w", err)
	}
	return v, nil
}

// MigrateStatus lists every embedded migration, oldest first, and whether
// the database has it.
func (d *DB) MigrateStatus(ctx context.Context) ([]MigrationStatus, error) {
	if ok, err := d.versioned(ctx); err != nil {
		return nil, err
	} else if !ok {
		var out []MigrationStatus
		for _, src := range d.provider.ListSources() {
			out = append(out, MigrationStatus{Version: src.Version, Source: path.Base(src.Path)})
		}
		return out, nil
	}
	st, err := d.provider.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("db: migration status: %w", err)
	}
	out := make([]MigrationStatus, len(st))
	for i, s := range st {
		out[i] = MigrationStatus{
			Version:   s.Source.Version,
			Source:    path.Base(s.Source.Path),
			Applied:   s.State == goose.StateApplied,
			AppliedAt: s.AppliedAt,
		}
	}
	return out, nil
}

// versioned reports whether the database has goose's version table. Status
// and version queries on a database without it answer without creating it,
// so that inspecting a file never writes to it.
func (d *DB) versioned(ctx context.Context) (bool, error) {
	var n int
	err := d.QueryRowxContext(ctx, d.Rebind(d.dialect.tableExists), versionTable).Scan(&n)
	ok := n > 0
	if err != nil {
		return false, fmt.Errorf("db: schema version: %w", err)
	}
	return ok, nil
}

// MigrateUp applies every pending migration, oldest first, and returns
// those it applied (none when the database is up to date).
func (d *DB) MigrateUp(ctx context.Context) ([]MigrationResult, error) {
	res, err := d.provider.Up(ctx)
	out := make([]MigrationResult, 0, len(res))
	for _, r := range res {
		if r.Error != nil {
			continue
		}
		out = append(out, MigrationResult{Version: r.Source.Version, Source: path.Base(r.Source.Path), Duration: r.Duration})
	}
	if err != nil {
		return out, fmt.Errorf("db: migrating %s: %w", d.path, err)
	}
	return out, nil
}

// migrateOnOpen brings the schema up to date. Two processes opening a new
// file at once both see the migrations pending; the second one's attempt
// then fails, and it accepts the result if the first one got there.
func (d *DB) migrateOnOpen(ctx context.Context) error {
	// Usually there is nothing to do: look without taking the migration
	// lock, which processes opening the database at once would queue on.
	if ok, err := d.versioned(ctx); err == nil && ok {
		if cur, target, err := d.provider.GetVersions(ctx); err == nil && cur >= target {
			return d.CheckVersion(ctx)
		}
	}
	_, upErr := d.MigrateUp(ctx)
	// Another process may be half-way through the migrations (SQLite has
	// no lock for them): wait for it to finish, trying again, for a while.
	deadline := time.Now().Add(30 * time.Second)
	for wait := 20 * time.Millisecond; upErr != nil && time.Now().Before(deadline); wait = min(2*wait, time.Second) {
		cur, target, err := d.provider.GetVersions(ctx)
		if err != nil || cur >= target {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		_, upErr = d.MigrateUp(ctx)
	}
	v, err := d.Version(ctx)
	if err != nil {
		return errors.Join(upErr, err)
	}
	latest := d.LatestVersion()
	if v > latest {
		return sudokulab.Errorf(sudokulab.ECONFLICT,
			"database %s has schema version %d, newer than this sudokulab knows (%d): use a newer sudokulab", d.path, v, latest)
	}
	if upErr != nil {
		pending, err := d.provider.HasPending(ctx)
		if err != nil || pending {
			return errors.Join(upErr, err)
		}
	}
	return nil
}

// Query runs one SQL statement (or script) given by the user and returns
// the column names and every row, with text and blobs as strings. Unless
// write is true the statement runs as read-only SQL: on a connection the
// database keeps read-only (on PostgreSQL a READ ONLY transaction, rolled
// back afterwards), under the statement timeout, and refused before it is
// sent when it calls a function that acts outside the transaction
// (RefusedFunctions) or, on PostgreSQL, is not a query. An error reported
// by the database is an EINVALID *sudokulab.Error "sql: <message>".
func (d *DB) Query(ctx context.Context, query string, write bool) (columns []string, rows [][]any, err error) {
	var conn *sql.Conn
	if write {
		if conn, err = d.Conn(ctx); err != nil {
			return nil, nil, fmt.Errorf("db: %w", err)
		}
		defer conn.Close()
	} else {
		if err := d.checkReadOnlySQL(query); err != nil {
			return nil, nil, err
		}
		c, qctx, release, err := d.readOnlyConn(ctx)
		if err != nil {
			return nil, nil, err
		}
		defer release()
		conn, ctx = c.Conn, qctx
	}
	fail := func(err error) ([]string, [][]any, error) { return nil, nil, userSQLError(ctx, err) }
	rs, err := conn.QueryContext(ctx, query)
	if err != nil {
		return fail(err)
	}
	defer rs.Close()
	columns, err = rs.Columns()
	if err != nil {
		return fail(err)
	}
	for rs.Next() {
		vals := make([]any, len(columns))
		ptrs := make([]any, len(columns))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return fail(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		rows = append(rows, vals)
	}
	if err := rs.Err(); err != nil {
		return fail(err)
	}
	return columns, rows, nil
}

// ErrReadOnly and ErrRefused are in the chain of the error from SQL that
// a read-only connection (Query without write, ReadQuery, a DB opened
// ReadOnly) refused: ErrReadOnly for a statement that would change the
// database, ErrRefused for ATTACH, DETACH, VACUUM (INTO), or a PRAGMA that
// is not one of ReadOnlyPragmas or sets a value.
var (
	ErrReadOnly = errors.New("the statement changes the database")
	ErrRefused  = errors.New("read-only SQL runs no ATTACH, DETACH, VACUUM, nor PRAGMA but the read-only ones")
)

// ErrStatementTimeout is in the chain of the error for read-only SQL that
// ran past the statement timeout (Options.StatementTimeout).
var ErrStatementTimeout = errors.New("the statement ran past the statement timeout")

// userSQLError wraps an error the database reported for SQL a person
// wrote, run under ctx (from readOnlyConn, whose deadline is the statement
// timeout on SQLite).
func userSQLError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	case pgCode(err) == "57014" && strings.Contains(dbMessage(err), "statement timeout"): // query_canceled
		return sudokulab.WrapError(sudokulab.EINVALID, ErrStatementTimeout, "sql: %s (raise it with --statement-timeout, 0 for none)", dbMessage(err))
	case isReadOnlyError(err) || pgCode(err) == "25006": // read_only_sql_transaction
		return sudokulab.WrapError(sudokulab.EINVALID, ErrReadOnly, "sql: %s", dbMessage(err))
	case isAuthError(err):
		return sudokulab.WrapError(sudokulab.EINVALID, ErrRefused, "sql: %s", dbMessage(err))
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "sql: %s", dbMessage(err))
}

// CheckPredicate refuses a SQL predicate a person gave (--where) that
// would end the statement it is pasted into: a ';' outside string
// literals, quoted names and comments. The store functions that take a
// predicate check it themselves; code that pastes one into its own SQL
// calls CheckPredicate first, and runs the SQL on a read-only connection
// (ReadQuery, or a DB opened ReadOnly).
func CheckPredicate(where string) error { return checkPredicate(where) }

// dbError classifies an error from a store statement about what (such as
// "add run"): a broken constraint becomes a user-facing *sudokulab.Error
// carrying the database's message, anything else is internal.
func dbError(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *sudokulab.Error
	if errors.As(err, &se) {
		return err
	}
	if isDiskFull(err) {
		return sudokulab.WrapError(sudokulab.ENOSPACE, err, "%s: out of space", what)
	}
	if refusedData(err) {
		return &refusal{dbErrorOf(err, what)}
	}
	return dbErrorOf(err, what)
}

// dbErrorOf is dbError's error for an engine's err that is not a full
// disk.
func dbErrorOf(err error, what string) error {
	switch constraintOf(err) {
	case constraintUnique:
		return sudokulab.Errorf(sudokulab.ECONFLICT, "%s: already stored (%s)", what, dbMessage(err))
	case constraintForeignKey:
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "%s: it refers to a row that does not exist (%s)", what, dbMessage(err))
	case constraintCheck, constraintNotNull:
		return sudokulab.Errorf(sudokulab.EINVALID, "%s: %s", what, dbMessage(err))
	}
	return fmt.Errorf("db: %s: %w", what, err)
}

// affected returns the number of rows res changed. The drivers of both
// backends report it; an error naming what (the statement) is returned
// should one not, rather than a count of 0 read as "nothing changed".
func affected(res sql.Result, what string) (int64, error) {
	n, err := res.RowsAffected()
	return n, dbError(err, what+": count the rows changed")
}
