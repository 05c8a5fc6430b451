package db_test

import (
	"context"
	"testing"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestPostgresWithoutJIT opens a PostgreSQL lab as every command does,
// for writing and read-only, and finds JIT compilation off on its
// connections: it cost a page's query 30 to 50 ms to compile a plan that
// read a few hundred rows.
func TestPostgresWithoutJIT(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	for _, opts := range []db.Options{{}, {ReadOnly: true}} {
		d, err := db.OpenOptions(ctx, dsn, opts)
		if err != nil {
			t.Fatal(err)
		}
		var jit string
		if err := d.QueryRowContext(ctx, `SHOW jit`).Scan(&jit); err != nil {
			t.Fatal(err)
		}
		d.Close()
		if jit != "off" {
			t.Errorf("read-only %v: jit = %s, want off", opts.ReadOnly, jit)
		}
	}
}
