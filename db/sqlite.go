package db

// Everything specific to SQLite is in this file: the driver, the
// per-connection settings, the read-only switch and the reading of error
// codes. A PostgreSQL backend replaces this file's functions.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"sudokulab"
)

// driverName is the database/sql driver of modernc.org/sqlite.
const driverName = "sqlite"

// gooseDialect is the SQL dialect goose writes its version table in.
const gooseDialect = goose.DialectSQLite3

// versionTable is the table where goose records applied migrations.
const versionTable = "goose_db_version"

// connPragmas are set on every new connection by the driver, through the
// DSN, so that every connection of the pool has them:
//   - busy_timeout(10000): wait up to 10 s for another writer instead of
//     failing with "database is locked";
//   - foreign_keys(1): enforce REFERENCES (SQLite's default is off);
//   - journal_mode(WAL): readers do not block the writer nor it them
//     (persistent in the file; repeating it is cheap);
//   - synchronous(NORMAL): in WAL mode durable except for the last
//     transactions on power loss, and much faster than FULL;
//   - cache_size(-65536): a 64 MiB page cache per connection instead of
//     2 MiB, which halved the system time of a one-million-puzzle import
//     (9.5 s to 4.1 s) by keeping the indexes in memory.
//
// _txlock=immediate makes write transactions take the write lock at BEGIN,
// so that busy_timeout applies there, rather than failing with SQLITE_BUSY
// when a reading transaction later tries to write.
const connPragmas = "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-65536)&_txlock=immediate"

func init() {
	// sqlx does not know the driver name "sqlite"; it uses ? placeholders.
	sqlx.BindDriver(driverName, sqlx.QUESTION)
}

// readOnlyPragmas are the settings of a read-only pool: it cannot change
// the journal mode, which is the file's.
const readOnlyPragmas = "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&mode=ro"

// sqliteDSN returns the driver's data source name for the file at path.
func sqliteDSN(path string, opts Options) string {
	// A file: URI, so that a path holding '?' or '#' is still a path.
	esc := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	if opts.ReadOnly {
		return "file:" + esc + "?" + readOnlyPragmas
	}
	dsn := "file:" + esc + "?" + connPragmas
	if opts.MustExist {
		dsn += "&mode=rw"
	}
	return dsn
}

// maxOpenConns bounds the pool: one connection per CPU, at least 4. In WAL
// mode any number of connections read at once while one writes, and
// writers queue on busy_timeout, so more connections than CPUs would only
// keep more page caches.
func maxOpenConns() int { return max(4, runtime.GOMAXPROCS(0)) }

// openSQLite opens the pool and checks that a connection can be made, so
// that a bad path or a file that is not a database fails here.
func openSQLite(ctx context.Context, path string, opts Options) (*sql.DB, error) {
	if path == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "no database file given")
	}
	sqlDB, err := sql.Open(driverName, sqliteDSN(path, opts))
	if err != nil {
		return nil, fmt.Errorf("db: open %s: %w", path, err)
	}
	n := maxOpenConns()
	sqlDB.SetMaxOpenConns(n)
	sqlDB.SetMaxIdleConns(n)
	if err := pingSQLite(ctx, sqlDB); err != nil {
		sqlDB.Close()
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "open database %s: %s", path, dbMessage(err))
	}
	return sqlDB, nil
}

// pingSQLite makes the first connection. While another process creates
// the file and switches it to WAL, setting journal_mode can fail at once
// with "database is locked" (SQLite does not wait on busy_timeout there),
// so a busy failure is retried for as long as busy_timeout would wait.
func pingSQLite(ctx context.Context, sqlDB *sql.DB) error {
	deadline := time.Now().Add(10 * time.Second)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := sqlDB.PingContext(ctx)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// isBusy reports whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_BUSY || se.Code()&0xff == sqlite3.SQLITE_LOCKED)
}

// readOnly makes conn refuse every change until restore is called. The
// database enforces it: PRAGMA query_only makes any write statement fail,
// and an authorizer stops the query from switching that off or attaching
// other files. If the settings cannot be undone the connection is
// discarded rather than returned to the pool read-only.
func readOnly(ctx context.Context, conn *sql.Conn) (restore func(), err error) {
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
		return nil, fmt.Errorf("db: read-only mode: %w", err)
	}
	restore = func() {
		err := setAuthorizer(conn, nil)
		if err == nil {
			_, err = conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA query_only = OFF")
		}
		if err != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}
	if err := setAuthorizer(conn, readOnlyAuthorizer); err != nil {
		restore()
		return nil, fmt.Errorf("db: read-only mode: %w", err)
	}
	return restore, nil
}

// readOnlyAuthorizer refuses the statements query_only lets through that
// could undo it or reach other files.
func readOnlyAuthorizer(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch {
	case action == sqlite.AuthPragma && strings.EqualFold(arg1, "query_only") && arg2 != "":
		return sqlite.AuthorizerDeny
	case action == sqlite.AuthAttach || action == sqlite.AuthDetach:
		return sqlite.AuthorizerDeny
	}
	return sqlite.AuthorizerOK
}

// setAuthorizer installs fn (nil: none) on the connection under conn.
func setAuthorizer(conn *sql.Conn, fn sqlite.AuthorizerFn) error {
	return conn.Raw(func(dc any) error {
		r, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("driver connection %T has no authorizer", dc)
		}
		return r.RegisterAuthorizer(fn)
	})
}

// tableExists reports whether the database has a table called name.
func tableExists(ctx context.Context, x sqlx.QueryerContext, name string) (bool, error) {
	var n int
	err := x.QueryRowxContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return n > 0, err
}

// constraint kinds, as told by constraintOf.
type constraint int

const (
	constraintNone constraint = iota
	constraintUnique
	constraintForeignKey
	constraintCheck
	constraintNotNull
)

// constraintOf tells which kind of constraint err reports broken, if any.
func constraintOf(err error) constraint {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return constraintNone
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return constraintUnique
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return constraintForeignKey
	case sqlite3.SQLITE_CONSTRAINT_CHECK:
		return constraintCheck
	case sqlite3.SQLITE_CONSTRAINT_NOTNULL:
		return constraintNotNull
	}
	return constraintNone
}

// dbMessage returns the database's own message for err, as the sqlite3
// shell would print it: "no such column: x" rather than the driver's
// "SQL logic error: no such column: x (1)".
func dbMessage(err error) string {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := strings.TrimSuffix(se.Error(), " (SQLITE_BUSY)")
	if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") && isDigits(msg[i+2:len(msg)-1]) {
		msg = msg[:i]
	}
	// The driver writes "<description of the code>: <message>" when SQLite
	// has a specific message; the descriptions hold no colon.
	if _, rest, ok := strings.Cut(msg, ": "); ok {
		msg = rest
	}
	return msg
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
