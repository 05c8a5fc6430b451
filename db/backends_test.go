package db_test

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestMain stops the PostgreSQL server pgtest starts for the tests that
// ask for one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// opener opens a new, empty, migrated database that is closed (and, for
// PostgreSQL, dropped) when the test ends.
type opener func(t testing.TB) *db.DB

// backend is one engine the store runs on. The suites (TestStore,
// TestQueue) run the same scenarios on each.
type backend struct {
	name string
	open opener
	// missing returns a target that names no database.
	missing func(t testing.TB) string
}

var backends = []backend{
	{
		name:    "sqlite",
		open:    openTemp,
		missing: func(t testing.TB) string { return filepath.Join(t.TempDir(), "missing.db") },
	},
	{
		name: "postgres",
		open: openPostgres,
		missing: func(t testing.TB) string {
			u, err := url.Parse(pgtest.DSN(t))
			if err != nil {
				t.Fatal(err)
			}
			u.Path += "_missing"
			return u.String()
		},
	},
}

// openPostgres opens a new database on the test server.
func openPostgres(t testing.TB) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// scenario is one test of a suite, run on a fresh database.
type scenario struct {
	name string
	fn   func(t *testing.T, d *db.DB)
}

// runScenarios runs each scenario, in parallel, on a fresh database of b.
func runScenarios(t *testing.T, b backend, scenarios []scenario) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t, b.open(t))
		})
	}
}

// forEachBackend runs fn as a subtest per backend, the backends in
// parallel.
func forEachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			fn(t, b)
		})
	}
}

// countOf runs a query giving one number, with ? placeholders on every
// backend.
func countOf(t testing.TB, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRowxContext(context.Background(), d.Rebind(query), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
