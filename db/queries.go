package db

import (
	"context"
	"fmt"
)

// ReadQuery runs one query with positional arguments (? placeholders) on
// a connection the database keeps read-only for the duration (see
// readOnly), and returns its rows with text and blobs as strings. It is
// for canned queries and other SQL whose text the caller does not fully
// control: it cannot change the database. An error reported by the
// database is an EINVALID *sudokulab.Error "sql: <message>".
func (d *DB) ReadQuery(ctx context.Context, query string, args ...any) (Table, error) {
	conn, err := d.Connx(ctx)
	if err != nil {
		return Table{}, fmt.Errorf("db: %w", err)
	}
	defer conn.Close()
	restore, err := d.dialect.readOnly(ctx, conn.Conn)
	if err != nil {
		return Table{}, err
	}
	defer restore()
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
