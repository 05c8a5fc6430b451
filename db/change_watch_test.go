package db_test

import (
	"context"
	"testing"
)

// TestChangeWatch reads a watch's version around a commit by another
// connection, on each engine: reads leave it as it was, the commit
// changes it. It runs alone (not in parallel): on PostgreSQL the version
// follows the whole server, which other tests' writes would change.
func TestChangeWatch(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			d := b.open(t)
			w, err := d.WatchChanges(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			version := func() int64 {
				t.Helper()
				v, ok, err := w.Version(ctx)
				if err != nil || !ok {
					t.Fatalf("Version: %d, %v, %v; want a version", v, ok, err)
				}
				return v
			}
			// Stable: two looks in a row agree, reads in between.
			// (A background job of the server, such as autovacuum's
			// ANALYZE, may commit: a few tries.)
			stable := false
			for try := 0; try < 20 && !stable; try++ {
				v := version()
				countOf(t, d, `SELECT COUNT(*) FROM puzzles`)
				stable = version() == v
			}
			if !stable {
				t.Fatal("the version changed at every look with nothing written")
			}
			before := version()
			if _, err := d.ExecContext(ctx, `INSERT INTO collections (name, description) VALUES ('watched', '')`); err != nil {
				t.Fatal(err)
			}
			if after := version(); after == before {
				t.Errorf("version %d after a commit, as before it", after)
			}
		})
	}
}
