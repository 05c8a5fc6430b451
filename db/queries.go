package db

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// ReadQuery runs one query with positional arguments (? placeholders) as
// read-only SQL (see readOnlyConn) and returns its rows with text and
// blobs as strings. It is for canned queries and other SQL whose text the
// caller does not fully control: it cannot change the database, and a
// query calling a function that acts outside its transaction
// (RefusedFunctions) is refused. An error reported by the database is an
// EINVALID *sudokulab.Error "sql: <message>".
func (d *DB) ReadQuery(ctx context.Context, query string, args ...any) (Table, error) {
	if err := checkCalls(query); err != nil {
		return Table{}, err
	}
	conn, ctx, release, err := d.readOnlyConn(ctx)
	if err != nil {
		return Table{}, err
	}
	defer release()
	if d.dialect == &postgresDialect {
		args = textArgs(args)
	}
	rows, err := conn.QueryxContext(ctx, d.rebind(query), args...)
	if err != nil {
		return Table{}, userSQLError(ctx, err)
	}
	defer rows.Close()
	t, err := scanTable(rows)
	if err != nil {
		return Table{}, userSQLError(ctx, err)
	}
	return t, nil
}

// readOnlyConn takes a connection from the pool and makes it refuse every
// change (see dialect.readOnly) until release gives it back as it was: on
// PostgreSQL a READ ONLY transaction, rolled back by release, so that
// nothing a statement did inside it (a SET, a large object) outlives it.
// Statements run with the returned context are bounded by the statement
// timeout: on PostgreSQL by the server, on SQLite by the context's
// deadline, whose cause (context.Cause) is then an EINVALID error holding
// ErrStatementTimeout.
func (d *DB) readOnlyConn(ctx context.Context) (conn *sqlx.Conn, qctx context.Context, release func(), err error) {
	return d.readOnlyConnTimeout(ctx, d.stmtTimeout)
}

// readOnlyConnTimeout is readOnlyConn with the statement timeout given
// (0: none).
func (d *DB) readOnlyConnTimeout(ctx context.Context, timeout time.Duration) (conn *sqlx.Conn, qctx context.Context, release func(), err error) {
	conn, err = d.Connx(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("db: %w", err)
	}
	restore, err := d.dialect.readOnly(ctx, conn.Conn, timeout)
	if err != nil {
		conn.Close()
		return nil, nil, nil, err
	}
	qctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 && d.dialect == &sqliteDialect {
		qctx, cancel = context.WithTimeoutCause(ctx, timeout, sudokulab.WrapError(sudokulab.EINVALID, ErrStatementTimeout,
			"sql: the statement ran past the statement timeout of %s (raise it with --statement-timeout, 0 for none)", timeout))
	}
	return conn, qctx, func() { cancel(); restore(); conn.Close() }, nil
}

// textArgs passes numbers as their text on PostgreSQL, which infers each
// parameter's type from the SQL and parses the text accordingly: a
// parameter compared with a text column may be given as 2012, one compared
// with a number as "2012". (pgx will not send a Go int64 for a text
// parameter.)
func textArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			out[i] = strconv.FormatInt(v, 10)
		case int:
			out[i] = strconv.Itoa(v)
		case float64:
			out[i] = strconv.FormatFloat(v, 'g', -1, 64)
		default:
			out[i] = a
		}
	}
	return out
}

// readOnlyExt returns where to run SQL holding a person's predicate: given
// the pool, one of its connections as read-only SQL (readOnlyConn), with
// the context to run it under; given anything else (a transaction the
// caller chose), x and ctx themselves. release gives the connection back.
func readOnlyExt(ctx context.Context, x sqlx.ExtContext) (_ sqlx.ExtContext, qctx context.Context, release func(), err error) {
	d, ok := x.(*DB)
	if !ok {
		return x, ctx, func() {}, nil
	}
	conn, qctx, release, err := d.readOnlyConn(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return connExt{conn, d.DB}, qctx, release, nil
}

// connExt is one connection of a pool as a sqlx.ExtContext.
type connExt struct {
	*sqlx.Conn
	pool *sqlx.DB
}

func (c connExt) DriverName() string     { return c.pool.DriverName() }
func (c connExt) Rebind(q string) string { return c.pool.Rebind(q) }
func (c connExt) BindNamed(q string, arg any) (string, []any, error) {
	return c.pool.BindNamed(q, arg)
}
