package db

// Everything specific to SQLite is in this file: the driver, the
// per-connection settings and the read-only switch. postgres.go is the
// same for PostgreSQL; errors.go reads both engines' errors.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"sudokulab"
	"sudokulab/internal/shell"
	"sudokulab/migrations"
)

// sqliteDialect is SQLite through modernc.org/sqlite (pure Go).
var sqliteDialect = dialect{
	name:        "SQLite",
	driver:      "sqlite",
	goose:       goose.DialectSQLite3,
	migrations:  migrations.FS,
	open:        openSQLite,
	readOnly:    readOnly,
	tableExists: `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`,
	now:         `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
	lease:       `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', (? / 1000.0) || ' seconds')`,
	// One writer at a time: a claim inside BEGIN IMMEDIATE sees no other
	// claim in flight.
	skipLocked: "",
	unindexed:  "+",
	mistyped:   sqliteMistyped,
}

// sqliteMistyped finds the rows of table whose INTEGER columns hold
// anything but an integer, or whose REAL columns anything but a number:
// SQLite stores what it is given where the text does not convert.
func sqliteMistyped(ctx context.Context, q sqlx.QueryerContext, table string, key []string) ([]typeFault, error) {
	type col struct{ name, declared string }
	var cols []col
	if err := selectAll(ctx, q, "columns of "+table, `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`, []any{table},
		func(rs *sqlx.Rows) error {
			var c col
			err := rs.Scan(&c.name, &c.declared)
			cols = append(cols, c)
			return err
		}); err != nil {
		return nil, err
	}
	var out []typeFault
	for _, c := range cols {
		var allowed string
		switch strings.ToUpper(c.declared) {
		case "INTEGER":
			allowed = "'integer', 'null'"
		case "REAL":
			allowed = "'integer', 'real', 'null'"
		default:
			continue
		}
		keys := "CAST(" + strings.Join(key, " AS TEXT) || ',' || CAST(") + " AS TEXT)"
		err := selectAll(ctx, q, "types of "+table+"."+c.name, `SELECT `+keys+`, typeof(`+c.name+`), substr(CAST(`+c.name+` AS TEXT), 1, 80)
			FROM `+table+` WHERE typeof(`+c.name+`) NOT IN (`+allowed+`) ORDER BY 1 LIMIT 1000`, nil, func(rs *sqlx.Rows) error {
			f := typeFault{column: c.name, declared: c.declared}
			var k string
			if err := rs.Scan(&k, &f.got, &f.value); err != nil {
				return err
			}
			for _, part := range strings.Split(k, ",") {
				n, _ := strconv.ParseInt(part, 10, 64)
				f.key = append(f.key, n)
			}
			out = append(out, f)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

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
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
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
// that a bad path or a file that is not a database fails here. A file that
// must exist and does not is an ENOTFOUND error naming `sudokulab init`.
func openSQLite(ctx context.Context, path string, opts Options) (*sql.DB, error) {
	if path == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "no database file given")
	}
	if opts.MustExist {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, sudokulab.Errorf(sudokulab.ENOTFOUND,
				"database %s does not exist: create it with sudokulab --db %s init (--from lab.db.example for the papers' puzzles)", path, shell.Quote(path))
		}
	}
	sqlDB, err := openSQLitePool(ctx, sqliteDSN(path, opts))
	if err != nil && opts.ReadOnly && (isCantOpen(err) || isReadOnlyDirectory(err)) {
		// A WAL file in a directory we cannot write, closed cleanly (no
		// -shm beside it): SQLite cannot make the shared-memory file a
		// reader needs (SQLITE_CANTOPEN, or SQLITE_READONLY_DIRECTORY
		// when the file itself is writable or read-only but the folder is
		// not). No connection has it open (it would have made the -shm
		// file), so the file can be read as immutable.
		sqlDB, err = openSQLitePool(ctx, sqliteDSN(path, opts)+"&immutable=1")
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "open database %s: %s", path, dbMessage(err))
	}
	return sqlDB, nil
}

// openSQLitePool opens a pool on dsn and makes its first connection.
func openSQLitePool(ctx context.Context, dsn string) (*sql.DB, error) {
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	n := maxOpenConns()
	sqlDB.SetMaxOpenConns(n)
	sqlDB.SetMaxIdleConns(n)
	if err := pingSQLite(ctx, sqlDB); err != nil {
		sqlDB.Close()
		return nil, err
	}
	return sqlDB, nil
}

// isReadOnlyDirectory reports whether err is SQLITE_READONLY_DIRECTORY: a
// WAL file's reader cannot create the -shm file in its folder.
func isReadOnlyDirectory(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_READONLY_DIRECTORY
}

// isCantOpen reports whether err is SQLite's "unable to open database file".
func isCantOpen(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CANTOPEN
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

// readOnly makes conn refuse every change until restore is called. The
// database enforces it: PRAGMA query_only makes any write statement fail,
// and an authorizer stops the query from switching that off or attaching
// other files. If the settings cannot be undone the connection is
// discarded rather than returned to the pool read-only.
//
// SQLite has no statement timeout of its own: readOnlyConn gives the
// statements a context with a deadline instead, which interrupts them.
func readOnly(ctx context.Context, conn *sql.Conn, _ time.Duration) (restore func(), err error) {
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
// could undo it, change the file or reach other files: ATTACH, DETACH,
// and every PRAGMA but those that only read (ReadOnlyPragmas), and those
// only without a value.
func readOnlyAuthorizer(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthAttach, sqlite.AuthDetach:
		return sqlite.AuthorizerDeny
	case sqlite.AuthPragma:
		name := strings.ToLower(arg1)
		if withArg, ok := readPragmas[name]; !ok || (arg2 != "" && !withArg) {
			return sqlite.AuthorizerDeny
		}
	}
	return sqlite.AuthorizerOK
}

// isReadOnlyError reports whether err is SQLite refusing a change to a
// database that is read-only (a read-only file or connection, or PRAGMA
// query_only).
func isReadOnlyError(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_READONLY
}

// isAuthError reports whether err is SQLite's "not authorized": a
// statement readOnlyAuthorizer denied.
func isAuthError(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_AUTH
}

// readPragmas are the pragmas a read-only command may run: true for those
// whose argument names a table, index or limit rather than sets a value.
var readPragmas = map[string]bool{
	"application_id": false, "auto_vacuum": false, "cache_size": false, "collation_list": false,
	"compile_options": false, "data_version": false, "database_list": false, "encoding": false,
	"foreign_key_check": true, "foreign_key_list": true, "foreign_keys": false, "freelist_count": false,
	"function_list": false, "index_info": true, "index_list": true, "index_xinfo": true,
	"integrity_check": true, "journal_mode": false, "module_list": false, "page_count": false,
	"page_size": false, "pragma_list": false, "query_only": false, "quick_check": true,
	"schema_version": false, "synchronous": false, "table_info": true, "table_list": true,
	"table_xinfo": true, "user_version": false,
}

// ReadOnlyPragmas lists, sorted, the SQLite pragmas that `sudokulab sql`
// runs without --write (settable ones only to read their value).
func ReadOnlyPragmas() []string {
	out := make([]string, 0, len(readPragmas))
	for p := range readPragmas {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
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
