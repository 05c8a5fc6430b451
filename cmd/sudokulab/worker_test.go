package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// noticeWriter is standard error for a command running in another
// goroutine: it keeps what is written and closes seen once a line
// holding want is written.
type noticeWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *noticeWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.buf.String(), w.want)
	w.buf.Write(p)
	if !had && strings.Contains(w.buf.String(), w.want) {
		close(w.seen)
	}
	return len(p), nil
}

func (w *noticeWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestWorkerBeforeExperiment starts a worker on an experiment that does
// not exist yet: it says once that it waits, and does the runs of the
// plan run --enqueue-only puts in the experiment afterwards.
func TestWorkerBeforeExperiment(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "puzzles", "add", mustPaper(t, "reseda-easy"))
	stderr := &noticeWriter{want: "worker: no experiment later yet: waiting for the run or tune that creates it (Ctrl-C stops)\n", seen: make(chan struct{})}
	var out bytes.Buffer
	root := newRootCmd()
	root.SetArgs([]string{"--db", dbPath, "-O", "csv", "worker", "--experiment", "later", "--jobs", "1"})
	root.SetOut(&out)
	root.SetErr(stderr)
	code := make(chan int)
	go func() { code <- exitCode(stderr, root.ExecuteContext(context.Background())) }()
	<-stderr.seen
	mustRun(t, "--db", dbPath, "run", "--experiment", "later", "--solver", "exact", "--runs", "2", "--enqueue-only")
	if c := <-code; c != 0 || strings.Count(stderr.String(), "waiting for the run") != 1 || out.String() != "config,runs,solved,errors\nexact,2,2,0\n" {
		t.Errorf("worker: exit %d\n%s%s", c, out.String(), stderr.String())
	}
}
