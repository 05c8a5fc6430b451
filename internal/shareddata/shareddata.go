// Package shareddata finds the shared folder of data the lab's tests and
// benchmarks read beyond what the repository holds: the full tdoku puzzle
// lists and the master copy of the paper puzzles. It sits beside the
// repository (../shared from the module root), or wherever
// $SUDOKULAB_SHARED names. Tests that run in every `go test` use samples
// committed in the repository instead; what needs this folder fails with
// an error naming the missing file, never skips.
package shareddata

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Env names the environment variable that overrides the folder's place.
const Env = "SUDOKULAB_SHARED"

// Absent is the value of $SUDOKULAB_SHARED that declares the folder
// missing on purpose: on a fresh machine without it, scripts/test sets it
// and says so, and the few tests that compare committed copies with the
// folder skip, naming what they did not check (see Need), instead of
// failing. Anything that is not declared absent and not there fails.
const Absent = "none"

// ErrAbsent is the error, wrapped, of Path where the folder is declared
// absent.
var ErrAbsent = errors.New("shared data: the folder is declared absent (" + Env + "=" + Absent + ")")

// Dir returns the shared folder: $SUDOKULAB_SHARED when set, otherwise
// "shared" beside the module root, the nearest directory at or above the
// working directory that holds go.mod (go test runs a package's tests in
// its directory).
func Dir() (string, error) {
	switch d := os.Getenv(Env); d {
	case "":
	case Absent:
		return "", ErrAbsent
	default:
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("shared data: %w", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("shared data: no go.mod at or above %s to place the shared folder beside; set %s", wd, Env)
		}
	}
}

// Path returns the path of rel (slash-separated) under the shared folder.
// When the file is not there, the error names it and says how to provide
// the folder.
func Path(rel string) (string, error) {
	dir, err := Dir()
	if errors.Is(err, ErrAbsent) {
		return "", fmt.Errorf("%w: %s not read", err, rel)
	}
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("shared data: %s is missing: put the shared folder beside the repository or set %s to it", p, Env)
		}
		return "", fmt.Errorf("shared data: %w", err)
	}
	return p, nil
}

// Need returns the path of rel under the shared folder for a test or
// benchmark. Where the folder is declared absent ($SUDOKULAB_SHARED=none)
// it skips tb, saying which file it did not read; where the file is
// missing otherwise it fails tb with an error naming the file.
func Need(tb testing.TB, rel string) string {
	tb.Helper()
	p, err := Path(rel)
	Check(tb, err)
	return p
}

// Check ends tb when err, an error of Path or of a reader built on it, is
// not nil: a skip that names what was not read where the folder is
// declared absent, a failure otherwise.
func Check(tb testing.TB, err error) {
	tb.Helper()
	switch {
	case err == nil:
	case errors.Is(err, ErrAbsent):
		tb.Skipf("%v: not checked against it", err)
	default:
		tb.Fatal(err)
	}
}
