package db_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestCopyFile copies a file over an old database with its -wal and -shm
// files, which go, and refuses a source with a write-ahead log or missing.
func TestCopyFile(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(from, "new contents")
	write(to, "old")
	write(to+"-wal", "old log")
	write(to+"-shm", "old shm")
	if err := db.CopyFile(from, to); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(to); err != nil || string(b) != "new contents" {
		t.Errorf("copy reads %q, %v", b, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(to + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", suffix, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory holds %d files, want from.db and to.db (no temporary left)", len(entries))
	}

	write(from+"-wal", "log")
	err := db.CopyFile(from, to)
	if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("source with a -wal: %v, want EINVALID", err)
	}
	if err := db.CopyFile(filepath.Join(dir, "missing.db"), to); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("missing source: %v, want EINVALID", err)
	}
	if b, _ := os.ReadFile(to); string(b) != "new contents" {
		t.Errorf("failed copies changed the target: %q", b)
	}
}

// TestSeedFile copies only into a missing file, or over an existing one
// when forced, and copies nothing without a source.
func TestSeedFile(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	if err := os.WriteFile(from, []byte("seed"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func() string { b, _ := os.ReadFile(to); return string(b) }
	if existed, copied, err := db.SeedFile(to, "", false); err != nil || existed || copied || read() != "" {
		t.Errorf("no source: existed %v, copied %v, %v; file %q", existed, copied, err, read())
	}
	if existed, copied, err := db.SeedFile(to, from, false); err != nil || existed || !copied || read() != "seed" {
		t.Errorf("missing target: existed %v, copied %v, %v; file %q", existed, copied, err, read())
	}
	if err := os.WriteFile(to, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if existed, copied, err := db.SeedFile(to, from, false); err != nil || !existed || copied || read() != "mine" {
		t.Errorf("existing target: existed %v, copied %v, %v; file %q", existed, copied, err, read())
	}
	if existed, copied, err := db.SeedFile(to, from, true); err != nil || !existed || !copied || read() != "seed" {
		t.Errorf("forced: existed %v, copied %v, %v; file %q", existed, copied, err, read())
	}
	if _, copied, err := db.SeedFile(to, filepath.Join(dir, "missing.db"), true); err == nil || copied {
		t.Errorf("missing source: copied %v, %v", copied, err)
	}
}
