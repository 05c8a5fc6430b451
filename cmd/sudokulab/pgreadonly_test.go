package main

import (
	"database/sql"
	"net/url"
	"strings"
	"testing"

	"sudokulab/internal/pgtest"
)

// TestInitHidesPassword checks that init, like every other command, prints
// a PostgreSQL URL without its password.
func TestInitHidesPassword(t *testing.T) {
	u, err := url.Parse(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "s3cret-pw") // the test server trusts every password
	for _, format := range []string{"table", "json", "csv"} {
		stdout, errOut, code := run(t, "--db", u.String(), "-O", format, "init")
		if code != 0 {
			t.Fatalf("init: exit %d %s", code, errOut)
		}
		if strings.Contains(stdout+errOut, "s3cret-pw") {
			t.Errorf("init -O %s printed the password: %q %q", format, stdout, errOut)
		}
		if !strings.Contains(stdout, u.Host) {
			t.Errorf("init -O %s does not name the database: %q", format, stdout)
		}
	}
}

// TestPostgresReadingCommandsLeaveNothing runs the commands of issue 30
// with a predicate that creates a large object, and `sql` past a short
// --statement-timeout: each fails with exit 2, and the database holds no
// large object afterwards.
func TestPostgresReadingCommandsLeaveNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	if _, errOut, code := run(t, "--db", dsn, "init"); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	if _, errOut, code := run(t, "--db", dsn, "puzzles", "add", escargot); code != 0 {
		t.Fatalf("puzzles add: %s", errOut)
	}
	lo := "lo_from_bytea(0, 'x'::bytea) > 0"
	for _, args := range [][]string{
		{"puzzles", "list", "--where", lo},
		{"export", "--where", lo},
		{"collections", "add", "x", "--where", lo},
		{"runs", "list", "--where", lo},
		{"sql", "SELECT " + lo},
		{"sql", "SELECT pg_terminate_backend(pg_backend_pid())"},
		{"sql", "COPY (SELECT 1) TO PROGRAM 'true'"},
		{"--statement-timeout", "200ms", "sql", "SELECT pg_sleep(20)"},
		{"--statement-timeout", "200ms", "puzzles", "list", "--where", "pg_sleep(20) IS NOT NULL"},
	} {
		_, errOut, code := run(t, append([]string{"--db", dsn}, args...)...)
		if code != exitInvalid {
			t.Errorf("%s: exit %d %q; want %d", strings.Join(args, " "), code, errOut, exitInvalid)
		}
	}
	c, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int
	if err := c.QueryRow("SELECT count(*) FROM pg_largeobject_metadata").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d large objects left (%v)", n, err)
	}
}
