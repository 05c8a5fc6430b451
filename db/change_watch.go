package db

import (
	"context"
	"database/sql"
	"sync"
)

// ChangeWatch tells whether another process may have changed the database
// since it last looked, so that a reader can keep what it computed from
// it (the web interface's facet counts) until then. On SQLite it holds one
// connection of the pool and reads PRAGMA data_version, which changes when
// another connection commits; on PostgreSQL it cannot tell (Version's ok
// is false).
type ChangeWatch struct {
	mu   sync.Mutex
	conn *sql.Conn
}

// WatchChanges returns a ChangeWatch over d; Close gives its connection
// back.
func (d *DB) WatchChanges(ctx context.Context) (*ChangeWatch, error) {
	if d.dialect != &sqliteDialect {
		return &ChangeWatch{}, nil
	}
	conn, err := d.DB.Conn(ctx)
	if err != nil {
		return nil, dbError(err, "watch the database")
	}
	return &ChangeWatch{conn: conn}, nil
}

// Version returns a number that changes when another connection commits a
// change to the database; ok is false when the engine cannot tell.
func (w *ChangeWatch) Version(ctx context.Context) (v int64, ok bool, err error) {
	if w.conn == nil {
		return 0, false, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, false, dbError(err, "watch the database")
	}
	return v, true, nil
}

// Close gives the watch's connection back to the pool.
func (w *ChangeWatch) Close() error {
	if w.conn == nil {
		return nil
	}
	return w.conn.Close()
}
