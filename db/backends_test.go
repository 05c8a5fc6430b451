package db_test

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
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

// TestPredicateRunsReadOnly gives ListPuzzles, on a database opened for
// writing, a predicate that would change the database (advance a
// sequence, which a SELECT may do on PostgreSQL): it is refused, because
// predicates people write run on a read-only connection.
func TestPredicateRunsReadOnly(t *testing.T) {
	ctx := context.Background()
	d := openPostgres(t)
	pp := paperdata.MustGet("ai-escargot")
	if _, _, err := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: pp.Puzzle}); err != nil {
		t.Fatal(err)
	}
	_, err := db.ListPuzzles(ctx, d, "nextval('puzzles_id_seq') > 0", 0)
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("ListPuzzles with a writing predicate: %v; want a read-only refusal", err)
	}
	var last int64
	if err := d.GetContext(ctx, &last, `SELECT last_value FROM puzzles_id_seq`); err != nil || last != 1 {
		t.Errorf("the sequence is at %d (%v); want it untouched at 1", last, err)
	}
}

// TestReadQueryNumbersForText binds a number where PostgreSQL expects
// text, and text that reads as a number where it expects one, as canned
// query parameters given on the command line do (--param collection=2012).
func TestReadQueryNumbersForText(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		if _, err := db.EnsureCollection(ctx, d, "2012", ""); err != nil {
			t.Fatal(err)
		}
		tab, err := d.ReadQuery(ctx, `SELECT COUNT(*) FROM collections WHERE name = ? AND id < ? + 1`, int64(2012), int64(5))
		if err != nil {
			t.Fatalf("ReadQuery: %v", err)
		}
		if n := fmt.Sprint(tab.Rows[0][0]); n != "1" {
			t.Errorf("count %s, want 1", n)
		}
	})
}

// TestConcurrentFirstOpenPostgres opens one new PostgreSQL database from
// several pools at once, as several workers started together would: the
// migrations run once, under goose's advisory lock, and every pool opens.
func TestConcurrentFirstOpenPostgres(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	const n = 4
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			d, err := db.Open(ctx, dsn)
			if err == nil {
				err = d.CheckVersion(ctx)
				d.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("opener %d: %v", i, err)
		}
	}
	d := openTarget(t, dsn)
	var times int
	if err := d.GetContext(ctx, &times, `SELECT COUNT(*) FROM goose_db_version WHERE version_id = 1`); err != nil || times != 1 {
		t.Errorf("migration 1 recorded %d times (%v), want once", times, err)
	}
}

// openTarget opens an existing database, closed at cleanup.
func openTarget(t testing.TB, target string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
