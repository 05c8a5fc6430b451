package shareddata_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/internal/shareddata"
)

func TestDirBesideModule(t *testing.T) {
	t.Setenv(shareddata.Env, "")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(wd)) // internal/shareddata
	dir, err := shareddata.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(root), "shared"); dir != want {
		t.Errorf("Dir() = %s, want %s", dir, want)
	}
}

func TestPathFromEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "x.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(shareddata.Env, dir)
	p, err := shareddata.Path("data/x.txt")
	if err != nil || p != filepath.Join(dir, "data", "x.txt") {
		t.Errorf("Path(data/x.txt) = %s, %v; want %s", p, err, filepath.Join(dir, "data", "x.txt"))
	}
	_, err = shareddata.Path("data/y.txt")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "data", "y.txt")) || !strings.Contains(err.Error(), shareddata.Env) {
		t.Errorf("Path of a missing file: error %v, want one naming it and %s", err, shareddata.Env)
	}
}

func TestDeclaredAbsent(t *testing.T) {
	t.Setenv(shareddata.Env, shareddata.Absent)
	_, err := shareddata.Path("data/x.txt")
	if !errors.Is(err, shareddata.ErrAbsent) || !strings.Contains(err.Error(), "data/x.txt") {
		t.Errorf("Path with the folder declared absent: error %v, want ErrAbsent naming data/x.txt", err)
	}
	// Need skips, and says what it did not read.
	var skipped bool
	t.Run("need", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		shareddata.Need(t, "data/x.txt")
		t.Error("Need returned with the folder declared absent")
	})
	if !skipped {
		t.Error("Need with the folder declared absent did not skip")
	}
}
