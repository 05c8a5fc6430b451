package web_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"

	"sudokulab/db"
	"sudokulab/web"
)

// TestServe answers on the listener until the context ends, then returns
// its error with the port closed; a listener that fails stops it with
// that error.
func TestServe(t *testing.T) {
	ctx := context.Background()
	r, err := db.OpenOptions(ctx, exampleCopy(t), db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := web.New(ctx, r, web.Options{Version: "v-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Serve(sctx, ln) }()
	url := "http://" + ln.Addr().String() + "/"
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: %s", resp.Status)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve after its context ended: %v, want context.Canceled", err)
	}
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		t.Errorf("GET / after Serve returned: %s, want no answer", resp.Status)
	}

	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := s.Serve(ctx, ln); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("Serve on a closed listener: %v, want its error", err)
	}
}
