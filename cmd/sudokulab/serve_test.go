package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// startServe runs serve with args on lab.db.example and returns the URL it
// prints, the stderr it writes, and a stop function (Ctrl-C) returning
// its error.
func startServe(t *testing.T, args ...string) (url string, stderr *bytes.Buffer, stop func() error) {
	t.Helper()
	path := copyExample(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &bytes.Buffer{}
	root := newRootCmd()
	root.SetArgs(append([]string{"--db", path, "serve"}, args...))
	root.SetOut(pw)
	root.SetErr(stderr)
	done := make(chan error, 1)
	go func() {
		err := root.ExecuteContext(ctx)
		pw.Close()
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve printed %q: %v (%v; stderr %s)", line, err, <-done, stderr)
	}
	_, url, ok := strings.Cut(strings.TrimSpace(line), " at ")
	url, _, _ = strings.Cut(url, " ")
	if !ok || !strings.HasPrefix(url, "http://") || !strings.Contains(line, filepath.Base(path)) {
		t.Fatalf("serve printed %q, want the database and its address", line)
	}
	return url, stderr, func() error { cancel(); return <-done }
}

func TestServe(t *testing.T) {
	url, stderr, stop := startServe(t, "--addr", "127.0.0.1:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("serving at %s", url)
	}
	resp, err := http.Get(url + "index.json")
	if err != nil {
		t.Fatal(err)
	}
	var home struct {
		Lab struct {
			Puzzles int `json:"puzzles"`
		} `json:"lab"`
		CodeVersion string `json:"code_version"`
	}
	err = json.NewDecoder(resp.Body).Decode(&home)
	resp.Body.Close()
	if err != nil || home.Lab.Puzzles != 11 || home.CodeVersion == "" {
		t.Errorf("home: %+v %v", home, err)
	}
	// Ctrl-C stops it cleanly; the address is free again.
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped with %v, want context.Canceled", err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("still serving after Ctrl-C")
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr)
	}
}

func TestServeWarnsOffThisMachine(t *testing.T) {
	url, stderr, stop := startServe(t, "--addr", "0.0.0.0:0")
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped with %v", err)
	}
	if !strings.Contains(stderr.String(), "warning: serving on") || strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("serving at %s without a warning: %q", url, stderr)
	}
	// By default only this machine (the port may be taken here, so the
	// default is read, not served on).
	if f := newServeCmd(&options{}).Flags().Lookup("addr"); f == nil || !strings.HasPrefix(f.DefValue, "127.0.0.1:") {
		t.Errorf("--addr defaults to %v", f)
	}
}

func TestServeBadAddr(t *testing.T) {
	path := copyExample(t, t.TempDir())
	_, errOut, code := run(t, "--db", path, "serve", "--addr", "nohost:port")
	if code != exitInvalid || !strings.Contains(errOut, "--addr nohost:port") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	_, errOut, code = run(t, "--db", filepath.Join(t.TempDir(), "none.db"), "serve")
	if code != exitNotFound || !strings.Contains(errOut, "init") {
		t.Errorf("a missing database: exit %d: %s", code, errOut)
	}
}

// TestServeMemoryLimit runs serve with --memory-limit: the Go runtime's
// soft limit is that while it serves, and what it was once it stopped.
func TestServeMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	_, _, stop := startServe(t, "--addr", "127.0.0.1:0", "--memory-limit", "4096")
	got := debug.SetMemoryLimit(-1)
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped with %v, want context.Canceled", err)
	}
	if got != 4096<<20 {
		t.Errorf("memory limit while serving %d, want %d (4096 MiB)", got, 4096<<20)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("memory limit after serve %d, want %d as before", after, before)
	}
	lab := filepath.Join(t.TempDir(), "lab.db")
	if _, errOut, code := run(t, "--db", lab, "serve", "--memory-limit", "-1"); code != 2 || !strings.Contains(errOut, "--memory-limit -1") {
		t.Errorf("--memory-limit -1: exit %d, %q; want 2 and the flag named", code, errOut)
	}
}
