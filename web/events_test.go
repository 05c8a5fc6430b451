package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// progressEvent is what an event of /experiments/NAME/events holds.
type progressEvent struct {
	Experiment string           `json:"experiment"`
	Totals     map[string]int64 `json:"totals"`
	Planned    int64            `json:"planned"`
}

// TestProgressEvents reads an experiment's progress events: the progress
// at once, then the progress again when a worker claims work, as the
// JSON page says it; an unknown experiment is a 404, not a stream.
func TestProgressEvents(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "GET", l.srv.URL+"/experiments/example-samples/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
			t.Fatalf("status %d, Content-Type %q: want 200 text/event-stream", resp.StatusCode, ct)
		}
		events := bufio.NewScanner(resp.Body)
		next := func() progressEvent {
			t.Helper()
			var name string
			for events.Scan() {
				line := events.Text()
				if v, ok := strings.CutPrefix(line, "event: "); ok {
					name = v
				}
				if v, ok := strings.CutPrefix(line, "data: "); ok {
					if name != "progress" {
						t.Fatalf("data of an event %q", name)
					}
					var e progressEvent
					if err := json.Unmarshal([]byte(v), &e); err != nil {
						t.Fatalf("%v: %s", err, v)
					}
					return e
				}
			}
			t.Fatalf("the stream ended: %v", events.Err())
			return progressEvent{}
		}
		var page progressEvent
		l.getJSON(t, "/experiments/example-samples/progress.json", &page)
		first := next()
		if first.Experiment != "example-samples" || first.Totals["done"] != page.Totals["done"] || first.Planned != page.Planned ||
			first.Totals["done"] == 0 {
			t.Fatalf("first event %+v, want the progress %+v", first, page)
		}
		l.exec(t, `UPDATE work SET state = 'running', worker = 'h:1:x', lease_until = '2999-01-01T00:00:00.000Z', run_id = NULL
			WHERE id IN (SELECT id FROM work ORDER BY id LIMIT 2)`)
		second := next()
		if second.Totals["running"] != 2 || second.Totals["done"] != first.Totals["done"]-2 {
			t.Errorf("after two claims the event says %+v, want 2 running and %d done", second.Totals, first.Totals["done"]-2)
		}
		if code, _, _ := l.get(t, "/experiments/no-such/events"); code != http.StatusNotFound {
			t.Errorf("events of an unknown experiment: %d, want 404", code)
		}
	})
}
