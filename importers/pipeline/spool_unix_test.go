//go:build unix

package pipeline_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sudokulab"
	"sudokulab/importers/pipeline"
)

// fifo makes a named pipe and a writer that opens it, writes content and
// then, unless hold is nil, keeps it open until hold is closed.
func fifo(t *testing.T, content []byte, hold <-chan struct{}) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.Write(content) // fails once the reader is gone: the test ends
		if hold != nil {
			<-hold
		}
	}()
	t.Cleanup(func() { <-wrote })
	return path
}

// tempDir points os.TempDir at a fresh folder, where the spool goes.
func tempDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

// leftIn fails the test if dir holds anything.
func leftIn(t *testing.T, dir string) {
	t.Helper()
	if ents, err := os.ReadDir(dir); err != nil || len(ents) > 0 {
		t.Errorf("the temporary folder holds %v (%v); want nothing left", ents, err)
	}
}

// TestSpoolLimit reads more than the limit from a pipe, and from
// /dev/zero, which never ends: the import stops at the limit with an
// EINVALID error that says so, and leaves no temporary file.
func TestSpoolLimit(t *testing.T) {
	d := openTemp(t)
	dir := tempDir(t)
	big := []byte(strings.Repeat(easy+"\n", (3<<20)/len(easy)))
	for _, path := range []string{fifo(t, big, nil), "/dev/zero"} {
		_, err := pipeline.ImportFile(context.Background(), d, path, pipeline.Options{SpoolLimit: 1 << 20})
		if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), "more than 1 MiB read from a pipe or device") ||
			!strings.Contains(err.Error(), path) {
			t.Errorf("import %s over the limit: %v", path, err)
		}
		leftIn(t, dir)
	}
	// Under the limit the same pipe imports.
	res, err := pipeline.ImportFile(context.Background(), d, fifo(t, big[:82*100], nil), pipeline.Options{SpoolLimit: 1 << 20, Collection: "piped"})
	if err != nil || res.Import.PuzzlesRead != 100 {
		t.Fatalf("import under the limit: %+v, %v", res, err)
	}
	leftIn(t, dir)
}

// TestSpoolCancel cancels an import that waits on a pipe whose writer
// neither writes more nor closes it, as a stuck producer (or a Ctrl-C or
// SIGTERM while reading) does: the import returns the context's error at
// once and leaves no temporary file.
func TestSpoolCancel(t *testing.T) {
	d := openTemp(t)
	dir := tempDir(t)
	hold := make(chan struct{})
	defer close(hold)
	path := fifo(t, []byte(easy+"\n"), hold)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := pipeline.ImportFile(ctx, d, path, pipeline.Options{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: %v, want context.Canceled", err)
	}
	leftIn(t, dir)
}
