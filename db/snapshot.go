package db

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// Snapshot runs fn in a read-only transaction whose statements all see the
// database as it was when the first one ran (a SQLite read transaction; on
// PostgreSQL REPEATABLE READ), so that what one page shows agrees with
// itself while workers write. The transaction is rolled back.
func (d *DB) Snapshot(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	var opts *sql.TxOptions
	if d.dialect == &postgresDialect {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := d.DB.BeginTxx(ctx, opts)
	if err != nil {
		return dbError(err, "begin a read")
	}
	defer tx.Rollback()
	return fn(tx)
}
