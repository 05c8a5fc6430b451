package db

import (
	"context"
	"database/sql"
	"io/fs"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"
)

// dialect is what differs between the database engines the store runs
// on. Everything else, the store's SQL included, is shared: queries are
// written with ? placeholders (sqlx rebinds them) in SQL that both engines
// read. sqlite.go and postgres.go each define one dialect.
type dialect struct {
	// name is what messages call the engine: "SQLite" or "PostgreSQL".
	name string
	// driver is the database/sql driver name.
	driver string
	// goose is the dialect goose writes its version table in, and
	// migrations the migration files for this engine.
	goose      goose.Dialect
	migrations fs.FS
	// open opens the pool for target (a file path or a URL) and checks a
	// connection can be made.
	open func(ctx context.Context, target string, opts Options) (*sql.DB, error)
	// readOnly makes conn refuse every change until restore is called,
	// and bounds each statement by timeout (0: none) where the server can.
	readOnly func(ctx context.Context, conn *sql.Conn, timeout time.Duration) (restore func(), err error)
	// tableExists is a query with one ? for a table name, giving a count.
	tableExists string
	// now is an SQL expression for the database's current time in
	// TimeLayout; lease is one for the current time plus a number of
	// milliseconds given as one ? parameter. Leases are taken from the
	// database's clock, never a worker's: machines disagree.
	now, lease string
	// skipLocked ends a subquery that picks rows to claim: rows another
	// transaction is claiming are skipped rather than waited for.
	skipLocked string
	// unindexed is written before a column that a filter should test on
	// rows read in another order rather than look up through the
	// column's index: "+" in SQLite, whose planner then sees an
	// expression; nothing in PostgreSQL, whose planner weighs such a
	// filter by the column's statistics, which an expression hides (it
	// then guessed that a filter keeping every puzzle kept none, and
	// sorted a million rows).
	unindexed string
	// mistyped, where the engine stores values of any type in any column
	// (SQLite), finds the rows of table whose INTEGER or REAL columns hold
	// another type; nil where the engine enforces column types. key names
	// the columns that identify a row.
	mistyped func(ctx context.Context, q sqlx.QueryerContext, table string, key []string) ([]typeFault, error)
}

// typeFault is a value of the wrong type in a column: the row's key
// values, the column, its declared type, and the value's type and text.
type typeFault struct {
	key                          []int64
	column, declared, got, value string
}

// versionTable is the table where goose records applied migrations.
const versionTable = "goose_db_version"

// dialectOf returns the dialect for target: PostgreSQL for a postgres://
// or postgresql:// URL, SQLite (a file path) otherwise.
func dialectOf(target string) *dialect {
	if IsPostgres(target) {
		return &postgresDialect
	}
	return &sqliteDialect
}

// IsPostgres reports whether target names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(target string) bool {
	t := strings.ToLower(target)
	return strings.HasPrefix(t, "postgres://") || strings.HasPrefix(t, "postgresql://")
}
