package db

// Everything specific to PostgreSQL is in this file: the driver (pgx
// through database/sql), opening a pool, creating the database for init,
// and the read-only switch. sqlite.go is the same for SQLite.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"sudokulab"
	"sudokulab/internal/shell"
	"sudokulab/migrations"
)

// postgresDialect is PostgreSQL through github.com/jackc/pgx/v5/stdlib.
var postgresDialect = dialect{
	name:        "PostgreSQL",
	driver:      "pgx",
	goose:       goose.DialectPostgres,
	migrations:  migrations.PostgresFS,
	open:        openPostgres,
	readOnly:    readOnlyPostgres,
	tableExists: `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`,
	now:         `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
	lease:       `to_char((clock_timestamp() + CAST(? AS bigint) * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
	skipLocked:  " FOR UPDATE SKIP LOCKED",
	unindexed:   "",
}

// postgresConns bounds each process's pool: every worker process holds
// one, and the server's default max_connections is 100.
const postgresConns = 4

// openPostgres opens a pool on the database the URL target names. A
// database that does not exist is created when opts allow it (init), and
// an ENOTFOUND error otherwise. A read-only pool makes every transaction
// read-only on the server.
func openPostgres(ctx context.Context, target string, opts Options) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(target)
	if err != nil {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "database URL %s: %s", Redact(target), err)
	}
	if opts.ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	// No JIT compilation: it starts when a plan's estimated cost passes
	// jit_above_cost, which a LIMIT query with a filter it cannot
	// estimate passes while reading a few hundred rows, and then costs
	// 30 to 50 ms per statement (an experiment page's run list, 0.6 ms
	// of work, took 58 ms on the PostgreSQL scale lab), where it saved
	// nothing measurable on an aggregate over 10,000,000 trajectory
	// points (docs/web.md, How fast: PostgreSQL).
	cfg.RuntimeParams["jit"] = "off"
	// A statement whose context ends (Ctrl-C, a deadline) is cancelled on
	// the server too, not only abandoned by the client: pgx's default
	// closes the connection and leaves the server running the statement
	// until it next writes to the socket (a pg_sleep(100) kept running).
	// The deadline is the fallback when the cancel request gets no answer.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 5 * time.Second}
	}
	open := func() (*sql.DB, error) {
		sqlDB := stdlib.OpenDB(*cfg)
		sqlDB.SetMaxOpenConns(postgresConns)
		sqlDB.SetMaxIdleConns(postgresConns)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
		if err := sqlDB.PingContext(ctx); err != nil {
			sqlDB.Close()
			return nil, err
		}
		return sqlDB, nil
	}
	sqlDB, err := openStarted(ctx, open)
	if err != nil && pgCode(err) == "3D000" && !opts.MustExist {
		if err = createPostgresDatabase(ctx, cfg); err == nil {
			sqlDB, err = open()
		}
	}
	switch {
	case err == nil:
		return sqlDB, nil
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return nil, err
	case pgCode(err) == "3D000":
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND,
			"database %s does not exist: create it with sudokulab --db %s init", cfg.Database, shell.Quote(Redact(target)))
	}
	return nil, sudokulab.Errorf(sudokulab.EINVALID, "open database %s: %s", Redact(target), dbMessage(err))
}

// startupWait bounds how long openStarted waits for a server that says it
// is starting up (after a restart, or while it replays its log).
const startupWait = 30 * time.Second

// openStarted calls open until the server stops answering "the database
// system is starting up" (57P03), for up to startupWait: workers started
// beside a server that is restarting wait for it instead of failing. Any
// other error, and ctx ending, returns at once.
func openStarted(ctx context.Context, open func() (*sql.DB, error)) (*sql.DB, error) {
	deadline := time.Now().Add(startupWait)
	pause := 50 * time.Millisecond
	for {
		sqlDB, err := open()
		if err == nil || pgCode(err) != "57P03" || time.Now().Add(pause).After(deadline) {
			return sqlDB, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}

// createPostgresDatabase creates the database cfg names, connecting to the
// server's maintenance database "postgres" to do it. Another process
// creating it at the same time is no error.
func createPostgresDatabase(ctx context.Context, cfg *pgx.ConnConfig) error {
	admin := cfg.Copy()
	admin.Database = "postgres"
	conn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{cfg.Database}.Sanitize())
	if pgCode(err) == "42P04" { // duplicate_database
		return nil
	}
	return err
}

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// readOnlyPostgres opens a read-only transaction on conn: the server
// refuses every change until restore rolls it back, and with it whatever
// a statement did inside (SET, set_config, large objects). The statements
// run in between cannot end it: pgx sends one statement per query, and
// read-only SQL runs no transaction control (checkPostgresStatement).
// Each statement is bounded by timeout (statement_timeout), and strings
// are read with standard_conforming_strings on, as the guard lexes them,
// whatever the server's or the role's default.
func readOnlyPostgres(ctx context.Context, conn *sql.Conn, timeout time.Duration) (restore func(), err error) {
	if _, err := conn.ExecContext(ctx, "BEGIN READ ONLY"); err != nil {
		return nil, fmt.Errorf("db: read-only mode: %w", err)
	}
	_, err = conn.ExecContext(ctx, "SELECT set_config('statement_timeout', $1, true), set_config('standard_conforming_strings', 'on', true)",
		strconv.FormatInt(timeout.Milliseconds(), 10))
	if err != nil {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return nil, fmt.Errorf("db: read-only mode: %w", err)
	}
	return func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}, nil
}

// Redact returns a database target fit to print: a URL without its
// password; a file path unchanged.
func Redact(target string) string {
	if !IsPostgres(target) {
		return target
	}
	u, err := url.Parse(target)
	if err != nil {
		return strings.SplitN(target, "@", 2)[len(strings.SplitN(target, "@", 2))-1]
	}
	return u.Redacted()
}
