// Package pgtest gives every test a fresh, empty PostgreSQL database. It
// starts one throwaway server per test binary, on first use, and stops it when
// the tests are done; a package that uses it calls Main from its TestMain.
//
// Two environment variables change this: SUDOKULAB_TEST_POSTGRES_DSN names an
// existing server (a postgres:// URL of a role that may create databases) to
// use instead of starting one, and SUDOKULAB_TEST_POSTGRES=skip skips every
// test that asks for a database. Otherwise a server that cannot be started
// fails the test: it is never skipped silently.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

const (
	envDSN    = "SUDOKULAB_TEST_POSTGRES_DSN"
	envSwitch = "SUDOKULAB_TEST_POSTGRES"
	role      = "pgtest" // the superuser of a server started here
	hint      = "install the server with `apt-get install -y postgresql` (or scripts/ensure-postgres), " +
		"or set " + envSwitch + "=skip to switch PostgreSQL tests off"
)

var (
	once       sync.Once
	srv        *server
	srvErr     error
	mainCalled atomic.Bool
	dbCount    atomic.Int64
)

// server is the PostgreSQL server the tests of this binary share.
type server struct {
	base  *url.URL            // DSN of the maintenance database; its path is replaced per test
	admin *sql.DB             // connection to base, for CREATE and DROP DATABASE
	dir   string              // folder of a server started here; empty for an external one
	bin   string              // folder of the PostgreSQL programs
	cred  *syscall.Credential // whom to run initdb and pg_ctl as; nil for ourselves
	as    string              // that user's name, for error messages
}

// DSN returns the URL of a new, empty database that is dropped when tb ends.
// The first call starts the shared server, which takes a second or two, and
// needs Main in TestMain to stop it again. DSN fails tb when there is no
// server, and skips it when SUDOKULAB_TEST_POSTGRES=skip.
func DSN(tb testing.TB) string {
	tb.Helper()
	if os.Getenv(envSwitch) == "skip" {
		tb.Skip("PostgreSQL tests are switched off by " + envSwitch + "=skip")
	}
	if os.Getenv(envDSN) == "" && !mainCalled.Load() {
		tb.Fatalf("pgtest: call pgtest.Main(m) from TestMain, or the PostgreSQL server outlives the tests")
	}
	once.Do(func() { srv, srvErr = start() })
	if srvErr != nil {
		tb.Fatalf("pgtest: no PostgreSQL server: %v\nhint: %s", srvErr, hint)
	}
	name := fmt.Sprintf("pgtest_%d_%s", dbCount.Add(1), strings.ToLower(rand.Text()[:8]))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := srv.admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("pgtest: create database %s: %v", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := srv.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u := *srv.base
	u.Path = "/" + name
	return u.String()
}

// Main runs the tests, stops the server if one was started, removes its
// folder and exits with the tests' exit code. Call it from TestMain.
func Main(m *testing.M) {
	mainCalled.Store(true)
	code := m.Run()
	if srv != nil {
		srv.admin.Close()
		if srv.dir != "" {
			if out, err := srv.run("pg_ctl", "stop", "-D", srv.dir, "-m", "immediate", "-w"); err != nil {
				fmt.Fprintf(os.Stderr, "pgtest: stop server: %v\n%s", err, out)
			}
			os.RemoveAll(srv.dir)
		}
	}
	os.Exit(code)
}

// start connects to the server named by SUDOKULAB_TEST_POSTGRES_DSN, or
// starts a new one in a temporary folder.
func start() (*server, error) {
	if dsn := os.Getenv(envDSN); dsn != "" {
		u, err := url.Parse(dsn)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return nil, fmt.Errorf("%s must be a postgres:// URL, not %q", envDSN, dsn)
		}
		s := &server{base: u}
		if err := s.connect(); err != nil {
			return nil, fmt.Errorf("server of %s: %w", envDSN, err)
		}
		return s, nil
	}
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	s := &server{bin: bin}
	if s.dir, err = os.MkdirTemp("", "pgtest-"); err != nil {
		return nil, err
	}
	if err := s.initdb(); err != nil {
		os.RemoveAll(s.dir)
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		err = s.startOnce()
		if err == nil || attempt == 5 || !strings.Contains(err.Error(), "already in use") {
			break
		}
	}
	if err == nil {
		err = s.connect()
	}
	if err == nil {
		err = s.watch()
	}
	if err != nil {
		s.run("pg_ctl", "stop", "-D", s.dir, "-m", "immediate", "-w")
		os.RemoveAll(s.dir)
		return nil, err
	}
	return s, nil
}

// watch starts a watchdog that stops the server and removes its folder
// once this process is gone without Main having done so: a test binary
// killed by go test's -timeout, or by a signal, left its server running
// (four such servers, up to an hour old, were found on the build machine).
// It runs detached, as the server's user, and looks every second for
// /proc/PID: where there is no /proc (not Linux) there is no watchdog.
func (s *server) watch() error {
	if _, err := os.Stat("/proc/self"); err != nil {
		return nil
	}
	const script = `while [ -d /proc/$0 ]; do sleep 1; done
[ -d "$2" ] || exit 0
"$1/pg_ctl" stop -D "$2" -m immediate -w >/dev/null 2>&1
rm -rf "$2"`
	cmd := exec.Command("/bin/sh", "-c", script, strconv.Itoa(os.Getpid()), s.bin, s.dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the server's watchdog: %w", err)
	}
	return cmd.Process.Release()
}

// binDir finds the folder holding initdb: pg_config --bindir, or else the
// newest /usr/lib/postgresql/VERSION/bin.
func binDir() (string, error) {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(dir string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
		return v
	}
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	return "", errors.New("initdb not found (neither in `pg_config --bindir` nor in /usr/lib/postgresql/*/bin)")
}

// initdb creates the cluster in s.dir. As root, whom PostgreSQL refuses to
// run as, the cluster belongs to the postgres system user, or else nobody.
func (s *server) initdb() error {
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			if u, err = user.Lookup("nobody"); err != nil {
				return errors.New("running as root, and neither user postgres nor nobody exists")
			}
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		s.as = " as user " + u.Username
		err = filepath.WalkDir(s.dir, func(path string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(path, uid, gid)
		})
		if err != nil {
			return err
		}
	}
	out, err := s.run("initdb", "-D", s.dir, "-A", "trust", "-U", role, "--no-sync", "-E", "UTF8", "--locale=C")
	if err != nil {
		return fmt.Errorf("initdb%s in %s: %v\n%s", s.as, s.dir, err, out)
	}
	return nil
}

// startOnce starts the server on a free port, and returns the end of its log
// if it did not start.
func (s *server) startOnce() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	logFile := filepath.Join(s.dir, "log")
	os.Remove(logFile)
	opts := fmt.Sprintf("-h 127.0.0.1 -p %d -k %s -F -c fsync=off -c synchronous_commit=off"+
		" -c full_page_writes=off -c max_connections=200", port, s.dir)
	if out, err := s.run("pg_ctl", "start", "-w", "-D", s.dir, "-l", logFile, "-o", opts); err != nil {
		log, _ := os.ReadFile(logFile)
		lines := strings.Split(strings.TrimSpace(string(log)), "\n")
		lines = lines[max(0, len(lines)-15):]
		return fmt.Errorf("pg_ctl start%s: %v\n%s\nlast lines of the server log:\n%s", s.as, err, out, strings.Join(lines, "\n"))
	}
	s.base = &url.URL{Scheme: "postgres", User: url.User(role), Host: fmt.Sprintf("127.0.0.1:%d", port),
		Path: "/postgres", RawQuery: "sslmode=disable"}
	return nil
}

// connect opens and checks the maintenance connection.
func (s *server) connect() error {
	db, err := sql.Open("pgx", s.base.String())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return err
	}
	s.admin = db
	return nil
}

// run runs one of the PostgreSQL programs as s.cred and returns its output.
func (s *server) run(program string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, program), args...)
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	cmd.WaitDelay = 10 * time.Second // the daemon must not hold our pipes open
	return cmd.CombinedOutput()
}
