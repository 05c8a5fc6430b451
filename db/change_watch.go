package db

import (
	"context"
	"database/sql"
	"errors"
	"hash/fnv"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// ChangeWatch tells whether another process may have changed the database
// since it last looked, so that a reader can keep what it computed from
// it (the web interface's facet counts, console results) until then.
//
// On SQLite it holds one connection of the pool and reads PRAGMA
// data_version, which changes when another connection commits. On
// PostgreSQL it reads pg_current_snapshot(): two equal snapshots (the
// oldest transaction still running, the next transaction id and the ones
// in progress) see the same committed transactions, and a transaction
// that writes takes an id, so an unchanged snapshot means nothing was
// committed since; reads, which take no id, change nothing. A version is
// read before the snapshot of the computation it guards, so that a commit
// in between is seen at the next look. A server without
// pg_current_snapshot (PostgreSQL before 13) cannot tell: Version's ok is
// false.
type ChangeWatch struct {
	mu   sync.Mutex
	conn *sql.Conn
	// pg is the pool a PostgreSQL watch reads through; blind is set once
	// the server turned out not to have pg_current_snapshot.
	pg    *sql.DB
	blind bool
}

// WatchChanges returns a ChangeWatch over d; Close gives its connection
// back.
func (d *DB) WatchChanges(ctx context.Context) (*ChangeWatch, error) {
	if d.dialect != &sqliteDialect {
		return &ChangeWatch{pg: d.DB.DB}, nil
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
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.conn != nil:
		if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
			return 0, false, dbError(err, "watch the database")
		}
		return v, true, nil
	case w.pg != nil && !w.blind:
		var snap string
		err := w.pg.QueryRowContext(ctx, "SELECT pg_current_snapshot()::text").Scan(&snap)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42883" { // undefined_function
			w.blind = true
			return 0, false, nil
		}
		if err != nil {
			return 0, false, dbError(err, "watch the database")
		}
		h := fnv.New64a()
		h.Write([]byte(snap))
		return int64(h.Sum64()), true, nil
	}
	return 0, false, nil
}

// Close gives the watch's connection back to the pool.
func (w *ChangeWatch) Close() error {
	if w.conn == nil {
		return nil
	}
	return w.conn.Close()
}
