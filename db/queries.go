package db

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// ReadQuery runs one query with positional arguments (? placeholders) on
// a connection the database keeps read-only for the duration (see
// readOnly), and returns its rows with text and blobs as strings. It is
// for canned queries and other SQL whose text the caller does not fully
// control: it cannot change the database. An error reported by the
// database is an EINVALID *sudokulab.Error "sql: <message>".
func (d *DB) ReadQuery(ctx context.Context, query string, args ...any) (Table, error) {
	conn, release, err := d.readOnlyConn(ctx)
	if err != nil {
		return Table{}, err
	}
	defer release()
	if d.dialect == &postgresDialect {
		args = textArgs(args)
	}
	rows, err := conn.QueryxContext(ctx, d.Rebind(query), args...)
	if err != nil {
		return Table{}, userSQLError(err)
	}
	defer rows.Close()
	t, err := scanTable(rows)
	if err != nil {
		return Table{}, userSQLError(err)
	}
	return t, nil
}

// readOnlyConn takes a connection from the pool and makes it refuse every
// change (see dialect.readOnly); release gives it back as it was.
func (d *DB) readOnlyConn(ctx context.Context) (conn *sqlx.Conn, release func(), err error) {
	conn, err = d.Connx(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("db: %w", err)
	}
	restore, err := d.dialect.readOnly(ctx, conn.Conn)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, func() { restore(); conn.Close() }, nil
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
