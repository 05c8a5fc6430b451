package db_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// openTemp opens a new database in a fresh temporary directory.
func openTemp(t testing.TB) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// wantCode fails unless err is a *sudokulab.Error with the given code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var e *sudokulab.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v (%T): want a *sudokulab.Error with code %q", err, err, code)
	}
}

func TestPragmasOnEveryConnection(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	// Hold several connections at once so that the pool opens new ones.
	const conns = 3
	var held []interface{ Close() error }
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	tests := []struct {
		pragma string
		want   string
	}{
		{"foreign_keys", "1"},
		{"journal_mode", "wal"},
		{"synchronous", "1"},
		{"busy_timeout", "10000"},
		{"query_only", "0"},
	}
	for i := range conns {
		c, err := d.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		for _, tt := range tests {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+tt.pragma).Scan(&got); err != nil {
				t.Fatalf("conn %d: PRAGMA %s: %v", i, tt.pragma, err)
			}
			if got != tt.want {
				t.Errorf("conn %d: PRAGMA %s = %s, want %s", i, tt.pragma, got, tt.want)
			}
		}
	}
	if n := d.Stats().OpenConnections; n < conns {
		t.Errorf("%d open connections, want at least %d", n, conns)
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	latest := d.LatestVersion()
	if latest < 1 {
		t.Fatalf("LatestVersion = %d", latest)
	}
	if v, err := d.Version(ctx); err != nil || v != latest {
		t.Fatalf("Version = %d, %v; want %d", v, err, latest)
	}
	st, err := d.MigrateStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) == 0 || st[0].Source != "00001_initial.sql" || st[len(st)-1].Version != latest {
		t.Fatalf("MigrateStatus = %+v", st)
	}
	for _, s := range st {
		if !s.Applied || s.AppliedAt.IsZero() {
			t.Errorf("migration %s not applied: %+v", s.Source, s)
		}
	}
	d.Close()

	// Opening again is a no-op.
	d, err = db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if res, err := d.MigrateUp(ctx); err != nil || len(res) != 0 {
		t.Fatalf("MigrateUp on an up-to-date database = %v, %v; want nothing", res, err)
	}
	if v, err := d.Version(ctx); err != nil || v != latest {
		t.Fatalf("Version after reopening = %d, %v; want %d", v, err, latest)
	}
}

func TestOpenWithoutMigrating(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	d, err := db.OpenOptions(ctx, path, db.Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if v, err := d.Version(ctx); err != nil || v != 0 {
		t.Fatalf("Version of an unmigrated file = %d, %v; want 0", v, err)
	}
	st, err := d.MigrateStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Applied {
			t.Errorf("%s applied in an unmigrated file", s.Source)
		}
	}
	res, err := d.MigrateUp(ctx)
	if err != nil || len(res) != len(st) || res[0].Source != "00001_initial.sql" {
		t.Fatalf("MigrateUp = %+v, %v; want all %d migrations", res, err, len(st))
	}
}

func TestOpenMustExist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	_, err := db.OpenOptions(context.Background(), path, db.Options{MustExist: true})
	wantCode(t, err, sudokulab.ENOTFOUND)
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "init") {
		t.Errorf("error %q: want the file named and init suggested", err)
	}
	if _, serr := os.Stat(path); serr == nil {
		t.Error("MustExist created the file")
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "text.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := db.Open(context.Background(), path)
	wantCode(t, err, sudokulab.EINVALID)
}

func TestOpenNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	_, err = db.Open(ctx, path)
	wantCode(t, err, sudokulab.ECONFLICT)
	// Without migrating it still opens, for inspection.
	d, err = db.OpenOptions(ctx, path, db.Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}

func TestConcurrentFirstOpen(t *testing.T) {
	// Several pools (as several processes would) open one new file at once.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			d, err := db.Open(ctx, path)
			if err == nil {
				var v int64
				v, err = d.Version(ctx)
				if err == nil && v != d.LatestVersion() {
					err = errors.New("not migrated")
				}
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
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var times int
	if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM goose_db_version WHERE version_id = 1").Scan(&times); err != nil || times != 1 {
		t.Fatalf("migration 1 recorded %d times (%v), want once", times, err)
	}
}

func TestQueryReadOnly(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	insert := "INSERT INTO collections (name) VALUES ('by-hand')"
	tests := []struct {
		name    string
		query   string
		write   bool
		wantErr string // substring of the EINVALID message; "" for success
	}{
		{"insert refused", insert, false, "readonly"},
		{"script refused", "SELECT 1; " + insert, false, "readonly"},
		{"switching back refused", "PRAGMA query_only = OFF; " + insert, false, "not authorized"},
		{"attach refused", "ATTACH 'other.db' AS o", false, "not authorized"},
		{"reading a pragma", "PRAGMA query_only", false, ""},
		{"bad sql", "SELEC 1", false, "syntax error"},
		{"no such table", "SELECT * FROM nope", false, "sql: no such table: nope"},
		{"insert allowed", insert, true, ""},
		{"select", "SELECT name, X'6869' AS b, 1.5 AS f, NULL AS n FROM collections", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cols, rows, err := d.Query(ctx, tt.query, tt.write)
			if tt.wantErr != "" {
				wantCode(t, err, sudokulab.EINVALID)
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "sql: ") {
					t.Fatalf("error %q: want \"sql: ...%s...\"", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.query, "PRAGMA") && (len(rows) != 1 || fmt.Sprint(rows[0][0]) != "1") {
				t.Fatalf("PRAGMA query_only in a read-only query = %v", rows)
			}
			if strings.HasPrefix(tt.query, "SELECT") {
				want := []any{"by-hand", "hi", 1.5, nil}
				if strings.Join(cols, ",") != "name,b,f,n" || len(rows) != 1 {
					t.Fatalf("got %v %v", cols, rows)
				}
				for i, v := range rows[0] {
					if v != want[i] {
						t.Errorf("column %s = %#v, want %#v", cols[i], v, want[i])
					}
				}
			}
		})
	}
	// The read-only switch does not leak into the pool: every connection
	// writes again.
	for i := range 3 * 4 {
		if _, _, err := d.Query(ctx, "SELECT 1", false); err != nil {
			t.Fatal(err)
		}
		if _, err := db.EnsureCollection(ctx, d, "c"+string(rune('a'+i)), ""); err != nil {
			t.Fatalf("write after read-only query: %v", err)
		}
	}
}

func TestInspectingDoesNotWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "other.db")
	d, err := db.OpenOptions(ctx, path, db.Options{NoMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Version(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.MigrateStatus(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema").Scan(&n); err != nil || n != 0 {
		t.Fatalf("inspecting created %d schema objects (%v)", n, err)
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "PRAGMA journal_mode = DELETE"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	d, err = db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := d.Version(ctx); err != nil || v != d.LatestVersion() {
		t.Fatalf("Version = %d, %v", v, err)
	}
	if st, err := d.MigrateStatus(ctx); err != nil || !st[0].Applied {
		t.Fatalf("MigrateStatus = %v, %v", st, err)
	}
	if _, err := db.ListPuzzles(ctx, d, "", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureCollection(ctx, d, "x", ""); err == nil {
		t.Fatal("a read-only database accepted a write")
	}
	d.Close()
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Fatal("opening read-only changed the file")
	}
	_, err = db.OpenOptions(ctx, filepath.Join(t.TempDir(), "missing.db"), db.Options{ReadOnly: true})
	wantCode(t, err, sudokulab.ENOTFOUND)
}

// TestDiskFull fills a SQLite database to the page count it is allowed
// (as a full disk would stop it): the transaction fails as ENOSPACE,
// naming the database, instead of as an internal error.
func TestDiskFull(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		var pages int
		if err := tx.GetContext(ctx, &pages, `PRAGMA page_count`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO collections (name, description, created_at) VALUES ('big', ?, '2026-01-01')`, strings.Repeat("x", 1<<20))
		return err
	})
	if sudokulab.ErrorCode(err) != sudokulab.ENOSPACE || !strings.Contains(err.Error(), path) {
		t.Fatalf("a write past the allowed size: %v (code %q); want ENOSPACE naming %s", err, sudokulab.ErrorCode(err), path)
	}
}
