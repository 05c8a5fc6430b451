package db

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// ChangeWatch tells whether another process may have changed the database
// since it last looked, so that a reader can keep what it computed from
// it (the web interface's facet counts) until then. On SQLite it holds one
// connection of the pool and reads PRAGMA data_version, which changes when
// another connection commits. On PostgreSQL Version cannot tell (its ok
// is false), but LateVersion can, up to PostgresStatsDelay after the
// commit.
type ChangeWatch struct {
	mu   sync.Mutex
	conn *sql.Conn
	// pg is the pool of a PostgreSQL database; nil on SQLite.
	pg *sql.DB
}

// PostgresStatsDelay is how long after a commit PostgreSQL may take to
// count its rows in its statistics (LateVersion): a session adds what it
// changed to them at the end of a transaction at most once a second, and
// within 10 s of going idle (PGSTAT_MIN_INTERVAL, PGSTAT_IDLE_INTERVAL).
const PostgresStatsDelay = 10 * time.Second

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

// LateVersion is Version where a commit may be seen late: on SQLite it is
// Version; on PostgreSQL it is the number of rows the database's sessions
// inserted, updated and deleted (pg_stat_database), which changes within
// PostgresStatsDelay of a commit, and never before the commit is visible.
// ok is false when the server does not count them (track_counts off).
func (w *ChangeWatch) LateVersion(ctx context.Context) (v int64, ok bool, err error) {
	if w.pg == nil {
		return w.Version(ctx)
	}
	var counted bool
	err = w.pg.QueryRowContext(ctx, `SELECT current_setting('track_counts') = 'on',
		COALESCE((SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database WHERE datname = current_database()), 0)`).
		Scan(&counted, &v)
	if err != nil {
		return 0, false, dbError(err, "watch the database")
	}
	return v, counted, nil
}

// Close gives the watch's connection back to the pool.
func (w *ChangeWatch) Close() error {
	if w.conn == nil {
		return nil
	}
	return w.conn.Close()
}
