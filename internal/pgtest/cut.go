package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// CutWaiting runs fn while another session holds table of the database
// dsn locked, cuts off the first session that waits for that lock as a
// server restart cuts off every session (SQLSTATE 57P01, "terminating
// connection due to administrator command"), and only then lets the lock
// go. It returns fn's error: code that promises to outlive a restart must
// come back from the cut and finish. fn must read table before it
// returns, or CutWaiting waits for ever; it fails tb when fn returns
// without having waited for the lock.
func CutWaiting(tb testing.TB, dsn, table string, fn func() error) error {
	tb.Helper()
	ctx := context.Background()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	tx, err := admin.BeginTx(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "LOCK TABLE "+table+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	for {
		select {
		case err := <-done:
			tb.Fatalf("pgtest: the code under test returned (%v) without waiting for the lock on %s", err, table)
		default:
		}
		// Look from outside the transaction: inside it, PostgreSQL
		// keeps showing the pg_stat_activity of its first look, and a
		// session that reached the lock after that was never seen.
		var pid int
		err := admin.QueryRowContext(ctx, `SELECT pid FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()
			ORDER BY backend_start LIMIT 1`).Scan(&pid)
		if err == sql.ErrNoRows {
			// The session has not reached the lock yet: look again
			// shortly (an event is awaited, no deadline is set).
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if err != nil {
			tb.Fatal(err)
		}
		var cut bool
		if err := tx.QueryRowContext(ctx, `SELECT pg_terminate_backend($1)`, pid).Scan(&cut); err != nil || !cut {
			tb.Fatal(fmt.Errorf("pgtest: terminate session %d: %v, %v", pid, cut, err))
		}
		break
	}
	if err := tx.Rollback(); err != nil {
		tb.Fatal(err)
	}
	return <-done
}
