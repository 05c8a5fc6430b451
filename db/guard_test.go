package db_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/pgtest"
)

// ordinaryRole makes a role that is not a superuser own a new database of
// the test server, as docs/scale-out.md advises for a lab, and returns a
// URL connecting as that role, and the superuser's URL of the same database.
func ordinaryRole(t *testing.T) (lab, super string) {
	t.Helper()
	super = pgtest.DSN(t)
	u, err := url.Parse(super)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("pgx", super)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	role := "lab_" + strings.TrimPrefix(u.Path, "/")
	for _, q := range []string{
		"CREATE ROLE " + role + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE",
		"ALTER DATABASE " + strings.TrimPrefix(u.Path, "/") + " OWNER TO " + role,
		"ALTER SCHEMA public OWNER TO " + role,
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", super)
		if err != nil {
			return
		}
		defer a.Close()
		// The database is dropped after this cleanup (registered before):
		// give its objects back first.
		a.Exec("REASSIGN OWNED BY " + role + " TO CURRENT_USER")
		a.Exec("DROP OWNED BY " + role)
		a.Exec("DROP ROLE " + role)
	})
	u.User = url.User(role)
	return u.String(), super
}

// largeObjects counts the large objects of the database at dsn.
func largeObjects(t *testing.T, dsn string) int {
	t.Helper()
	c, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow("SELECT count(*) FROM pg_largeobject_metadata").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPostgresPredicatesLeaveNothing gives every store function that runs
// a person's --where a predicate creating a large object, as the commands
// that read (puzzles list, export) and collections add do: each is refused
// and no large object is left, whether the database was opened read-only
// or for writing, however the call is spelled.
func TestPostgresPredicatesLeaveNothing(t *testing.T) {
	ctx := context.Background()
	lab, super := ordinaryRole(t)
	w, err := db.Open(ctx, lab)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	pp := paperdata.MustGet("ai-escargot")
	if _, _, err := db.AddPuzzle(ctx, w, &sudokulab.Puzzle{Givens: pp.Puzzle}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureCollection(ctx, w, "c", ""); err != nil {
		t.Fatal(err)
	}
	r, err := db.OpenOptions(ctx, lab, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spellings := []string{
		"lo_from_bytea(0, 'x'::bytea) > 0",
		`"lo_from_bytea"(0, 'x'::bytea) > 0`,
		"pg_catalog . LO_FROM_BYTEA /* a comment */ (0, 'x'::bytea) > 0",
		"$$ $$ <> '' AND lo_from_bytea(0, E'\\\\x00'::bytea) > 0",
		"E'\\'' <> '' OR lo_creat(-1) > 0",
		"length(query_to_xml('SELECT lo_from_bytea(0, ''x''::bytea)', true, true, '')::text) > 0",
		"(lo_creat(-1)) > 0",
		"id IN (SELECT lo_import('/etc/hostname'))",
	}
	calls := []struct {
		name string
		fn   func(where string) error
	}{
		{"ListPuzzles read-only", func(p string) error { _, err := db.ListPuzzles(ctx, r, p, 0); return err }},
		{"ListPuzzles writing", func(p string) error { _, err := db.ListPuzzles(ctx, w, p, 0); return err }},
		{"ExportPuzzles", func(p string) error { _, err := db.ExportPuzzles(ctx, r, p, ""); return err }},
		{"ExportPuzzles of a collection", func(p string) error { _, err := db.ExportPuzzles(ctx, r, p, "c"); return err }},
		{"RunTable", func(p string) error { _, err := db.RunTable(ctx, r, p, 0); return err }},
		{"FreezeCollection", func(p string) error { _, err := db.FreezeCollection(ctx, w, "frozen", db.Freeze{Where: p}); return err }},
		{"CountPlanPuzzles", func(p string) error {
			_, err := db.CountPlanPuzzles(ctx, w, db.PlanSpec{Where: p})
			return err
		}},
	}
	for _, c := range calls {
		for _, p := range spellings {
			err := c.fn(p)
			if !errors.Is(err, db.ErrOutside) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Errorf("%s(%q): %v; want an EINVALID refusal holding ErrOutside", c.name, p, err)
			}
		}
	}
	if n := largeObjects(t, super); n != 0 {
		t.Errorf("%d large objects left behind by predicates", n)
	}
	// A predicate that only names a refused function in a string, or
	// uses a column, runs.
	if ps, err := db.ListPuzzles(ctx, r, "'lo_from_bytea(0)' <> '' AND givens > 0", 0); err != nil || len(ps) != 1 {
		t.Errorf("predicate with the name in a string: %d puzzles, %v", len(ps), err)
	}
}

// TestPostgresReadOnlySQL runs, as the lab's ordinary role and as a
// superuser, the statements `sql` without --write must not run because
// they act outside its transaction: each is refused, and none had an
// effect (another session of the role lives on, no lock is held, no file
// is read or written).
func TestPostgresReadOnlySQL(t *testing.T) {
	ctx := context.Background()
	lab, super := ordinaryRole(t)
	d, err := db.Open(ctx, lab)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	victim, err := sql.Open("pgx", lab+"&application_name=victim")
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	if err := victim.Ping(); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	for _, target := range []struct{ name, dsn string }{{"ordinary role", lab}, {"superuser", super}} {
		r, err := db.OpenOptions(ctx, target.dsn, db.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'victim'",
			"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'victim'",
			"SELECT set_config('work_mem', '1MB', false)",
			"SET work_mem = '1MB'",
			"set local work_mem = '1MB'",
			"SELECT pg_advisory_lock(42)",
			"SELECT pg_try_advisory_lock(42)",
			"NOTIFY lab",
			"LISTEN lab",
			"SELECT pg_notify('lab', 'x')",
			"COPY (SELECT 1) TO PROGRAM 'touch " + marker + "'",
			"  /* first */ copy (select 1) to stdout",
			"SELECT pg_read_file('/etc/hostname')",
			"SELECT lo_import('/etc/hostname')",
			"SELECT lo_export(1, '" + marker + "')",
			"SELECT pg_reload_conf()",
			"SELECT pg_ls_dir('.')",
			"DO $$ BEGIN PERFORM pg_sleep(0); END $$",
			"COMMIT",
			"SELECT * FROM dblink('dbname=x', 'SELECT 1') AS t(x int)",
			"SELECT query_to_xml('SELECT pg_terminate_backend(1)', true, true, '')",
		} {
			_, _, err := r.Query(ctx, q, false)
			if !errors.Is(err, db.ErrOutside) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Errorf("%s: %s: %v; want an EINVALID refusal holding ErrOutside", target.name, q, err)
			}
		}
		// Queries still run, SHOW and EXPLAIN among them.
		for _, q := range []string{"SELECT count(*) FROM puzzles", "SHOW work_mem", "EXPLAIN SELECT 1", "(SELECT 1)", "VALUES (1)"} {
			if _, _, err := r.Query(ctx, q, false); err != nil {
				t.Errorf("%s: %s: %v", target.name, q, err)
			}
		}
		r.Close()
	}
	if err := victim.Ping(); err != nil {
		t.Errorf("the other session died: %v", err)
	}
	var locks int
	if err := victim.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'").Scan(&locks); err != nil || locks != 0 {
		t.Errorf("%d advisory locks held (%v)", locks, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("COPY TO PROGRAM ran")
	}
}

// TestPostgresStatementTimeout checks that read-only SQL runs under a
// statement timeout: by default DefaultStatementTimeout, as the server
// reports it, and past the one given the statement fails with
// ErrStatementTimeout.
func TestPostgresStatementTimeout(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	d, err := db.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: paperdata.MustGet("ai-escargot").Puzzle}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	r, err := db.OpenOptions(ctx, dsn, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, rows, err := r.Query(ctx, "SELECT current_setting('statement_timeout')", false)
	if err != nil || len(rows) != 1 || rows[0][0] != "10min" {
		t.Errorf("statement_timeout of read-only SQL: %v (%v); want 10min", rows, err)
	}
	short, err := db.OpenOptions(ctx, dsn, db.Options{ReadOnly: true, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	_, _, err = short.Query(ctx, "SELECT pg_sleep(20)", false)
	if !errors.Is(err, db.ErrStatementTimeout) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("pg_sleep(20) with a 200ms timeout: %v; want ErrStatementTimeout", err)
	}
	if _, err := db.ListPuzzles(ctx, short, "pg_sleep(20) IS NOT NULL", 0); err == nil || !strings.Contains(err.Error(), "statement timeout") {
		t.Errorf("a predicate sleeping 20 s with a 200ms timeout: %v; want the statement timeout", err)
	}
	// The session's own setting is left as it was.
	var setting string
	if err := short.QueryRowxContext(ctx, "SHOW statement_timeout").Scan(&setting); err != nil || setting != "0" {
		t.Errorf("the pool's statement_timeout after read-only SQL: %q (%v); want 0", setting, err)
	}
}

// TestPostgresCancelStopsServer cancels read-only SQL while the server
// runs it, as Ctrl-C does: the server stops the statement too, rather
// than running it on for its own sake.
func TestPostgresCancelStopsServer(t *testing.T) {
	dsn := pgtest.DSN(t)
	d, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	sleeping := func() int {
		var n int
		if err := admin.QueryRow(`SELECT count(*) FROM pg_stat_activity
			WHERE state = 'active' AND query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := d.Query(ctx, "SELECT pg_sleep(60)", false)
		done <- err
	}()
	waitFor(t, "the statement to start", func() bool { return sleeping() == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled query: %v; want context.Canceled", err)
	}
	waitFor(t, "the server to stop the statement", func() bool { return sleeping() == 0 })
}

// waitFor polls cond until it holds, failing t after 15 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 15 s for %s", what)
		}
	}
}

// TestSQLiteReadOnlySQL is the same guard on SQLite: functions that load
// code or touch files are refused, and a statement past the timeout is
// interrupted.
func TestSQLiteReadOnlySQL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	r, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, q := range []string{"SELECT load_extension('/tmp/x.so')", "SELECT [load_extension]('x')", "SELECT `LOAD_EXTENSION` ('x')"} {
		if _, _, err := r.Query(ctx, q, false); !errors.Is(err, db.ErrOutside) {
			t.Errorf("%s: %v; want a refusal holding ErrOutside", q, err)
		}
	}
	_, _, err = r.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c", false)
	if !errors.Is(err, db.ErrStatementTimeout) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("a long count with a 200ms timeout: %v; want ErrStatementTimeout", err)
	}
	if _, _, err := r.Query(ctx, "SELECT 1", false); err != nil {
		t.Errorf("the next statement: %v", err)
	}
}

// TestRefusedFunctionsDocumented checks that docs/scale-out.md lists every
// function read-only SQL refuses.
func TestRefusedFunctionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/scale-out.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range db.RefusedFunctions() {
		if !strings.Contains(string(doc), fmt.Sprintf("`%s`", f)) {
			t.Errorf("docs/scale-out.md does not list %s", f)
		}
	}
}

// FuzzCheckCalls lexes arbitrary text as both engines do: it never
// panics, and a refused call at the start of a predicate, where it cannot
// be inside a string or a comment, is refused whatever follows.
func FuzzCheckCalls(f *testing.F) {
	for _, s := range []string{"", "1=1", "'", "E'\\''", "$$", "$a$ x $a$", "/* /* */", "--", `"x""y"`, "[a]", "`b`", "U&\"x\"", "a$b$c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		db.CheckPredicate(s)
		if err := db.CheckPredicate("pg_terminate_backend(1) OR " + s); !errors.Is(err, db.ErrOutside) {
			t.Errorf("a refused call before %q: %v", s, err)
		}
	})
}
