package main

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeStopsWithEventsOpen: Ctrl-C stops serve at once while a page
// listens to an experiment's progress events, and ends their stream.
func TestServeStopsWithEventsOpen(t *testing.T) {
	url, _, stop := startServe(t, "--addr", "127.0.0.1:0")
	resp, err := http.Get(url + "experiments/example-samples/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	if !events.Scan() || events.Text() != "event: progress" {
		t.Fatalf("the stream begins with %q, %v", events.Text(), events.Err())
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stopped with %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop within a minute of Ctrl-C with an events stream open")
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for events.Scan() {
			if strings.HasPrefix(events.Text(), "event: ") && events.Text() != "event: progress" {
				t.Errorf("event %q", events.Text())
			}
		}
	}()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("the events stream is still open a minute after serve stopped")
	}
}
