package db

import (
	"context"
	"time"
)

// ConsoleResult is what a statement of the web console returned: its
// columns and at most the rows asked for, and whether more were left.
type ConsoleResult struct {
	Table
	// Truncated is true when the statement had rows beyond the limit.
	Truncated bool
}

// ConsoleQuery runs one statement a person typed as read-only SQL, exactly
// as `sql` without --write does (Query): the same checks (RefusedFunctions;
// on PostgreSQL only queries and SHOW), on a connection made read-only by
// readOnlyConnTimeout, so nothing the sql command refuses gets through.
// The statement is bounded by timeout (at most the DB's statement timeout
// when it has one; 0 means the DB's) and reads at most maxRows rows (0:
// all), so that a large result cannot hold the connection or the memory
// of a server. args bind the query's ? placeholders (a canned query's
// parameters, see queries.Query.Bind); without args the text is sent as
// it is, a '?' in it being the person's.
func (d *DB) ConsoleQuery(ctx context.Context, query string, timeout time.Duration, maxRows int, args ...any) (ConsoleResult, error) {
	if err := d.checkReadOnlySQL(query); err != nil {
		return ConsoleResult{}, err
	}
	if timeout <= 0 || d.stmtTimeout > 0 && timeout > d.stmtTimeout {
		timeout = d.stmtTimeout
	}
	conn, qctx, release, err := d.readOnlyConnTimeout(ctx, timeout)
	if err != nil {
		return ConsoleResult{}, err
	}
	defer release()
	if len(args) > 0 {
		query = d.Rebind(query)
		if d.dialect == &postgresDialect {
			args = textArgs(args)
		}
	}
	rows, err := conn.QueryxContext(qctx, query, args...)
	if err != nil {
		return ConsoleResult{}, userSQLError(qctx, err)
	}
	defer rows.Close()
	var res ConsoleResult
	if res.Columns, err = rows.Columns(); err != nil {
		return ConsoleResult{}, userSQLError(qctx, err)
	}
	for rows.Next() {
		if maxRows > 0 && len(res.Rows) == maxRows {
			res.Truncated = true
			break
		}
		r, err := rows.SliceScan()
		if err != nil {
			return ConsoleResult{}, userSQLError(qctx, err)
		}
		res.Rows = append(res.Rows, textBytes(r))
	}
	if err := rows.Err(); err != nil {
		return ConsoleResult{}, userSQLError(qctx, err)
	}
	return res, nil
}

// textBytes turns the byte slices of a scanned row into strings.
func textBytes(r []any) []any {
	for i, v := range r {
		if b, ok := v.([]byte); ok {
			r[i] = string(b)
		}
	}
	return r
}

// checkReadOnlySQL refuses a statement read-only SQL does not run: one
// calling a refused function, and on PostgreSQL anything but a query or
// SHOW.
func (d *DB) checkReadOnlySQL(query string) error {
	if d.dialect == &postgresDialect {
		return checkPostgresStatement(query)
	}
	return checkCalls(query)
}
