//go:build unix

package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The environment of TestReadOnlyHelper, run by TestReadOnlyPermissions
// in a process of an unprivileged user.
const (
	envReadOnlyDB   = "SUDOKULAB_TEST_READONLY_DB"   // the database
	envReadOnlyOut  = "SUDOKULAB_TEST_READONLY_OUT"  // a writable folder
	envReadOnlyKind = "SUDOKULAB_TEST_READONLY_KIND" // "file" or "dir": what is read-only
)

// readOnlyCase is a database the commands may not write: a copy of
// lab.db.example (rollback journal) or the same in WAL mode (made by
// init), either a read-only file (0444) in a writable folder or in a
// read-only folder (0555).
type readOnlyCase struct {
	name  string
	wal   bool
	roDir bool
}

func (c readOnlyCase) kind() string {
	if c.roDir {
		return "dir"
	}
	return "file"
}

// TestReadOnlyPermissions runs every read-only command on a database that
// cannot be written, and checks that they all work and write nothing: the
// file keeps its bytes and modification time, and no journal, -wal or -shm
// file is left beside it.
//
// Permission bits do not stop root, so as root the commands run twice:
// here, where nothing-written is checked by comparing the folder before and
// after, and again in a copy of the test binary run as the user nobody
// (TestReadOnlyHelper), whom the bits do stop.
//
// A WAL file in a folder the user can write is read the way SQLite reads
// WAL files: the reader makes a -shm file (and an empty -wal) beside it
// and leaves them, as any SQLite reader does; the database file itself is
// unchanged. Only in a folder the user cannot write is the listing checked
// for WAL files too.
func TestReadOnlyPermissions(t *testing.T) {
	cases := []readOnlyCase{
		{"example file 0444", false, false},
		{"example in folder 0555", false, true},
		{"WAL file 0444", true, false},
		{"WAL in folder 0555", true, true},
	}
	root := os.Geteuid() == 0
	var nobody *unprivileged
	if root {
		nobody = lookupNobody(t)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Run("this user", func(t *testing.T) {
				base := t.TempDir()
				dbPath := readOnlyDatabase(t, base, c, nil)
				before := snapshot(t, filepath.Dir(dbPath))
				runReadOnlyCommands(t, dbPath, t.TempDir())
				strict := !c.wal || (c.roDir && !root)
				compareSnapshots(t, before, snapshot(t, filepath.Dir(dbPath)), filepath.Base(dbPath), strict)
				if !root {
					probeReadOnly(t, dbPath, c.kind())
				}
			})
			if !root {
				return
			}
			t.Run("nobody", func(t *testing.T) {
				if nobody == nil {
					t.Skip("no user nobody")
				}
				base := reachableTempDir(t)
				dbPath := readOnlyDatabase(t, base, c, nobody)
				out := filepath.Join(base, "out")
				if err := os.Mkdir(out, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Chown(out, nobody.uid, nobody.gid); err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, filepath.Dir(dbPath))
				nobody.runHelper(t, dbPath, out, c.kind())
				compareSnapshots(t, before, snapshot(t, filepath.Dir(dbPath)), filepath.Base(dbPath), !c.wal || c.roDir)
			})
		})
	}
}

// TestReadOnlyHelper runs the read-only commands for
// TestReadOnlyPermissions, in a process of another user.
func TestReadOnlyHelper(t *testing.T) {
	dbPath := os.Getenv(envReadOnlyDB)
	if dbPath == "" {
		t.Skip("run by TestReadOnlyPermissions as an unprivileged user")
	}
	probeReadOnly(t, dbPath, os.Getenv(envReadOnlyKind))
	runReadOnlyCommands(t, dbPath, os.Getenv(envReadOnlyOut))
}

// probeReadOnly checks that this process really cannot write what kind
// says is read-only, so that the test tests something.
func probeReadOnly(t *testing.T, dbPath, kind string) {
	t.Helper()
	var err error
	var f *os.File
	switch kind {
	case "file":
		f, err = os.OpenFile(dbPath, os.O_WRONLY, 0)
	case "dir":
		f, err = os.OpenFile(filepath.Join(filepath.Dir(dbPath), "probe"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	default:
		t.Fatalf("read-only kind %q", kind)
	}
	if err == nil {
		f.Close()
		os.Remove(filepath.Join(filepath.Dir(dbPath), "probe"))
		t.Fatalf("uid %d can write the %s: the test would prove nothing", os.Geteuid(), kind)
	}
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("probe: %v", err)
	}
}

// readOnlyDatabase makes the database of c in base/db and returns its
// path. For another user (owner), the file or the folder that stays
// writable is theirs.
func readOnlyDatabase(t *testing.T, base string, c readOnlyCase, owner *unprivileged) string {
	t.Helper()
	dir := filepath.Join(base, "db")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var path string
	if c.wal {
		path = walExample(t, dir)
	} else {
		path = copyExample(t, dir)
	}
	// Put the modification time in the past, so that a write within the
	// same clock tick would still show.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	fileMode, dirMode := fs.FileMode(0o444), fs.FileMode(0o755)
	if c.roDir {
		fileMode, dirMode = 0o644, 0o555
	}
	if owner != nil {
		chownTo := dir // a read-only file in the user's folder
		if c.roDir {
			chownTo = path // the user's file in a read-only folder
		}
		if err := os.Chown(chownTo, owner.uid, owner.gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, fileMode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, dirMode); err != nil {
		t.Fatal(err)
	}
	// Let t.TempDir's clean-up remove the folder.
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	return path
}

// fileState is what a snapshot keeps of a file.
type fileState struct {
	data    []byte
	modTime time.Time
}

// snapshot reads every file in dir.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]fileState{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fileState{data, info.ModTime()}
	}
	return out
}

// compareSnapshots fails the test if the database file changed or, when
// strict, if any file of the folder was added, removed or changed.
func compareSnapshots(t *testing.T, before, after map[string]fileState, dbName string, strict bool) {
	t.Helper()
	for name, a := range after {
		b, ok := before[name]
		switch {
		case !ok && strict:
			t.Errorf("the read-only commands left %s behind (%d bytes)", name, len(a.data))
		case !ok:
			t.Logf("%s left beside the WAL file, as SQLite readers do (%d bytes)", name, len(a.data))
		case (strict || name == dbName) && !bytes.Equal(a.data, b.data):
			t.Errorf("the read-only commands changed the bytes of %s", name)
		case (strict || name == dbName) && !a.modTime.Equal(b.modTime):
			t.Errorf("the read-only commands changed the modification time of %s: %v, was %v", name, a.modTime, b.modTime)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("the read-only commands removed %s", name)
		}
	}
}

// unprivileged is a user whom permission bits stop.
type unprivileged struct {
	uid, gid int
	bin      string // a copy of the test binary this user may run
}

// lookupNobody returns the user nobody with a copy of the test binary it
// can run, or nil if there is no such user.
func lookupNobody(t *testing.T) *unprivileged {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(reachableTempDir(t), "sudokulab.test")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return &unprivileged{uid: uid, gid: gid, bin: bin}
}

// reachableTempDir returns a new temporary folder that other users can
// enter and read (not write), or skips the test when a folder above it
// keeps them out.
func reachableTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// t.TempDir makes both its folder and the one above it 0700.
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for d := filepath.Dir(filepath.Dir(dir)); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm()&0o001 == 0 {
			t.Skipf("other users cannot enter %s (mode %v); set TMPDIR to a folder they can", d, info.Mode().Perm())
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// runHelper runs TestReadOnlyHelper as u on the database at dbPath.
func (u *unprivileged) runHelper(t *testing.T, dbPath, out, kind string) {
	t.Helper()
	cmd := exec.Command(u.bin, "-test.run=^TestReadOnlyHelper$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), envReadOnlyDB+"="+dbPath, envReadOnlyOut+"="+out, envReadOnlyKind+"="+kind)
	cmd.Dir = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.gid)}}
	output, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(output, []byte("--- PASS: TestReadOnlyHelper")) {
		t.Errorf("the read-only commands as uid %d: %v\n%s", u.uid, err, output)
	}
}
