package db

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"sudokulab"
)

// CopyFile copies the SQLite database file from to the path to, through a
// temporary file and a rename, so an interrupted copy leaves no
// half-written database; the -wal and -shm files of an old database at to
// are removed. The source must be a checkpointed file (no -wal beside it),
// as lab.db.example is; a missing source is an EINVALID error naming
// --from, the flag that gives it.
func CopyFile(from, to string) error {
	if _, err := os.Stat(from + "-wal"); err == nil {
		return sudokulab.Errorf(sudokulab.EINVALID, "%s has an open write-ahead log (%s-wal); close the program using it first", from, from)
	}
	src, err := os.Open(from)
	if err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "--from")
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Dir(to), filepath.Base(to)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, src); err != nil {
		tmp.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(to + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(tmp.Name(), to)
}

// SeedFile makes the database file path a copy of from (see CopyFile)
// when from is set and path does not exist, or exists and force is set;
// an empty from copies nothing. It reports whether path existed before
// and whether it copied.
func SeedFile(path, from string, force bool) (existed, copied bool, err error) {
	_, err = os.Stat(path)
	existed = err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, false, err
	}
	copied = from != "" && (!existed || force)
	if copied {
		if err := CopyFile(from, path); err != nil {
			return existed, false, err
		}
	}
	return existed, copied, nil
}
