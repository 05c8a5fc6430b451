package pgtest_test

import (
	"bufio"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"sudokulab/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open connects to a fresh database and closes the connection when t ends.
func open(t *testing.T) (*sql.DB, string) {
	t.Helper()
	dsn := pgtest.DSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

// dbName is the database named by a DSN.
func dbName(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	db, _ := open(t)
	if _, err := db.Exec(`CREATE TABLE puzzles (id serial PRIMARY KEY, grid text NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO puzzles (grid) VALUES ($1), ($2)`, "1.3.", "..2."); err != nil {
		t.Fatal(err)
	}
	var n int
	var last string
	if err := db.QueryRow(`SELECT count(*), max(grid) FROM puzzles`).Scan(&n, &last); err != nil {
		t.Fatal(err)
	}
	if n != 2 || last != "1.3." {
		t.Errorf("got %d rows, max %q; want 2, \"1.3.\"", n, last)
	}
}

func TestTwoDatabases(t *testing.T) {
	t.Parallel()
	db1, dsn1 := open(t)
	db2, dsn2 := open(t)
	if dsn1 == dsn2 || dbName(t, dsn1) == dbName(t, dsn2) {
		t.Fatalf("two DSN calls gave the same database: %s", dsn1)
	}
	if _, err := db1.Exec(`CREATE TABLE only_in_one (x int)`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db2.QueryRow(`SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_one'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("a table created in the first database shows in the second")
	}
	for i, db := range []*sql.DB{db1, db2} {
		var name string
		if err := db.QueryRow(`SELECT current_database()`).Scan(&name); err != nil {
			t.Fatal(err)
		}
		if want := dbName(t, []string{dsn1, dsn2}[i]); name != want {
			t.Errorf("connected to %s, want %s", name, want)
		}
	}
}

// exists reports whether the server lists the database name in pg_database.
func exists(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func TestCleanupDropsDatabase(t *testing.T) {
	observer, _ := open(t)
	var name string
	var left *sql.DB // kept open past the subtest, so the drop has to force it
	t.Run("inner", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		name = dbName(t, dsn)
		var err error
		if left, err = sql.Open("pgx", dsn); err != nil {
			t.Fatal(err)
		}
		if err := left.Ping(); err != nil {
			t.Fatal(err)
		}
		if !exists(t, observer, name) {
			t.Fatalf("database %s is not in pg_database during its test", name)
		}
	})
	if left != nil {
		defer left.Close()
	}
	if name == "" {
		t.Fatal("the inner test got no database")
	}
	if exists(t, observer, name) {
		t.Errorf("database %s is still in pg_database after its test ended", name)
	}
}

func TestSkipSwitch(t *testing.T) {
	t.Setenv("SUDOKULAB_TEST_POSTGRES", "skip")
	var reached bool
	t.Run("inner", func(t *testing.T) {
		pgtest.DSN(t)
		reached = true
	})
	if reached {
		t.Error("DSN returned although SUDOKULAB_TEST_POSTGRES=skip")
	}
}

// TestServerGoesWithItsTests runs this test binary again as a child that
// starts a server and then is killed (as go test's -timeout or a signal
// kills a test binary, with no chance to stop its server): the server
// stops within a minute all the same.
func TestServerGoesWithItsTests(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		fmt.Println(pgtest.DSN(t))
		time.Sleep(time.Hour) // until killed
		return
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc on this system: pgtest starts no watchdog")
	}
	if os.Getenv("SUDOKULAB_TEST_POSTGRES_DSN") != "" {
		t.Skip("SUDOKULAB_TEST_POSTGRES_DSN names a server of its own: no server is started to watch")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestServerGoesWithItsTests$", "-test.timeout", "10m")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child printed %q: %v", line, err)
	}
	dsn := strings.TrimSpace(line)
	ping := func() error {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return err
		}
		defer db.Close()
		return db.Ping()
	}
	if err := ping(); err != nil {
		t.Fatalf("the child's server does not answer: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(time.Minute); ping() == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the killed child's server still answers a minute later")
		}
	}
}

// childEnv marks the child of TestServerGoesWithItsTests.
const childEnv = "PGTEST_WATCHDOG_CHILD"
