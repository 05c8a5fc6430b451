package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/web"
)

// TestKeptPagesFollowChanges records a run while a server keeps what its
// pages computed from whole tables (the lab's sizes, the experiments'
// runs, an experiment's success table): each page shows the value it kept
// until the new one is computed, never none, then the new one.
func TestKeptPagesFollowChanges(t *testing.T) {
	l := newLab(t)
	s := l.server(t, web.Options{FacetsLag: time.Millisecond})
	getJSON := func(path string, v any) {
		t.Helper()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	// The runs each page counts: the home page's lab size, the
	// experiment list's runs column, the success table's runs.
	counts := func() [3]int64 {
		var home struct {
			Lab struct{ Runs int64 } `json:"lab"`
		}
		var list struct {
			Columns []string
			Rows    [][]any
		}
		var exp struct {
			Success []struct{ Runs int64 } `json:"success"`
		}
		getJSON("/index.json", &home)
		getJSON("/experiments.json", &list)
		getJSON("/experiments/example-samples.json", &exp)
		var c [3]int64
		c[0] = home.Lab.Runs
		for i, col := range list.Columns {
			if col == "runs" {
				c[1] = int64(list.Rows[0][i].(float64))
			}
		}
		for _, row := range exp.Success {
			c[2] += row.Runs
		}
		return c
	}
	before := counts()
	want := l.count(t, `SELECT COUNT(*) FROM runs`)
	if before != [3]int64{want, want, want} {
		t.Fatalf("runs counted %v, SQL %d", before, want)
	}
	// Another process records a run of the experiment.
	l.exec(t, `INSERT INTO runs (experiment_id, puzzle_id, config_id, seed, max_evaluations, max_generations, timeout_ms,
		status, evaluations, generations, best_cost, code_version, host, started_at, finished_at)
		SELECT experiment_id, puzzle_id, config_id, seed + 1000, max_evaluations, max_generations, timeout_ms,
		status, evaluations, generations, best_cost, code_version, host, started_at, finished_at FROM runs WHERE id = 1`)
	l.exec(t, `INSERT INTO experiment_runs (experiment_id, run_id) SELECT 1, MAX(id) FROM runs`)
	after := [3]int64{want + 1, want + 1, want + 1}
	deadline := time.Now().Add(30 * time.Second)
	for {
		c := counts()
		if c == after {
			break
		}
		for i := range c {
			if c[i] != before[i] && c[i] != after[i] {
				t.Fatalf("runs counted %v: each should be %v or %v", c, before, after)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs counted %v 30 s after the change, want %v", c, after)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestComparisonListsItsFirstPuzzles compares two configurations on 250
// puzzles: the page lists the first 200 with a link to all of them.
func TestComparisonListsItsFirstPuzzles(t *testing.T) {
	l := newLab(t)
	l.exec(t, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
		INSERT INTO puzzles (grid, size, box_rows, box_cols, givens)
		SELECT replace(printf('%081d', i), '0', '.'), 9, 3, 3, 20 FROM n`)
	l.exec(t, `INSERT INTO runs (experiment_id, puzzle_id, config_id, seed, max_generations, status, evaluations, generations,
		best_cost, started_at, finished_at)
		SELECT 1, p.id, c.id, 1, 100, CASE WHEN (p.id + c.id) % 3 = 0 THEN 'unsolved' ELSE 'solved' END, 100 * (p.id % 7 + 1), p.id % 7 + 1,
		       CASE WHEN (p.id + c.id) % 3 = 0 THEN 2 ELSE 0 END, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'
		FROM puzzles p, configs c WHERE p.givens = 20 AND p.solution IS NULL AND c.name IN ('acs-eq1', 'franco-table3')`)
	l.exec(t, `INSERT INTO experiment_runs (experiment_id, run_id) SELECT 1, id FROM runs WHERE seed = 1 AND max_generations = 100
		AND id NOT IN (SELECT run_id FROM experiment_runs)`)
	shared := l.count(t, `SELECT COUNT(*) FROM (SELECT puzzle_id FROM experiment_run_results
		WHERE experiment = 'example-samples' AND config IN ('acs-eq1', 'franco-table3') GROUP BY puzzle_id HAVING COUNT(DISTINCT config) = 2) AS s`)
	if shared <= 200 {
		t.Fatalf("the lab has %d puzzles both configurations ran on, want more than 200", shared)
	}
	type page struct {
		Puzzles []struct {
			Puzzle int64 `json:"puzzle"`
		} `json:"puzzles"`
		PuzzleRows int    `json:"puzzle_rows"`
		AllURL     string `json:"all_url"`
	}
	var first, all page
	path := "/experiments/example-samples/compare.json?a=acs-eq1&b=franco-table3"
	l.getJSON(t, path, &first)
	if len(first.Puzzles) != 200 || first.PuzzleRows < int(shared) || first.AllURL == "" {
		t.Fatalf("compare lists %d of %d puzzles (all: %q), want 200 of at least %d", len(first.Puzzles), first.PuzzleRows, first.AllURL, shared)
	}
	l.getJSON(t, jsonPath(first.AllURL), &all)
	if len(all.Puzzles) != all.PuzzleRows || all.PuzzleRows != first.PuzzleRows || all.AllURL != "" {
		t.Fatalf("all=1 lists %d of %d puzzles (all: %q)", len(all.Puzzles), all.PuzzleRows, all.AllURL)
	}
	if fmt.Sprint(all.Puzzles[:200]) != fmt.Sprint(first.Puzzles) {
		t.Error("the first 200 puzzles differ from those of all=1")
	}
	if html := l.getHTML(t, strings.TrimSuffix(first.AllURL, "&all=1")); !strings.Contains(html, "The first 200 of") {
		t.Error("the page does not say it lists the first 200 puzzles")
	}
}

// TestBigExperimentCountedInTheDatabase gives an experiment more runs than
// the server reads one by one: its page shows each configuration's
// success as SQL counts it, says what it leaves out, and the pictures that
// read every run and comparisons are refused with the command to use.
func TestBigExperimentCountedInTheDatabase(t *testing.T) {
	l := newLab(t)
	l.exec(t, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25001)
		INSERT INTO runs (experiment_id, puzzle_id, config_id, seed, max_generations, status, evaluations, generations,
			best_cost, started_at, finished_at)
		SELECT 1, 1, c.id, 1000 + n.i, 77, CASE WHEN (n.i + c.id) % 4 = 0 THEN 'unsolved' ELSE 'solved' END, 100, 1,
		       CASE WHEN (n.i + c.id) % 4 = 0 THEN 2 ELSE 0 END, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'
		FROM n, configs c WHERE c.name IN ('acs-eq1', 'franco-table3')`)
	l.exec(t, `INSERT INTO experiment_runs (experiment_id, run_id) SELECT 1, id FROM runs WHERE max_generations = 77`)
	var e struct {
		Success []struct {
			Config       string
			Runs, Solved int
			Success      *float64 `json:"success"`
			Low          *float64 `json:"success_low"`
			High         *float64 `json:"success_high"`
		} `json:"success"`
		Notes []string `json:"notes"`
	}
	l.getJSON(t, "/experiments/example-samples.json", &e)
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "sudokulab report --experiment example-samples") {
		t.Errorf("notes %q", e.Notes)
	}
	for _, s := range e.Success {
		runs := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND config = ? AND status IN ('solved', 'unsolved', 'timeout')`, s.Config)
		solved := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND config = ? AND status = 'solved'`, s.Config)
		if int64(s.Runs) != runs || int64(s.Solved) != solved || s.Success == nil || s.Low == nil || s.High == nil ||
			!(*s.Low <= *s.Success && *s.Success <= *s.High) {
			t.Errorf("%s: %d of %d solved, %v [%v, %v]; SQL %d of %d", s.Config, s.Solved, s.Runs, s.Success, s.Low, s.High, solved, runs)
		}
	}
	if code, _, _ := l.get(t, "/experiments/example-samples/success.svg"); code != 200 {
		t.Errorf("success.svg: %d", code)
	}
	for p, limit := range map[string]string{"/experiments/example-samples/ecdf.svg": "50000", "/experiments/example-samples/convergence.svg": "10000",
		"/experiments/example-samples/compare?a=acs-eq1&b=franco-table3": "50000"} {
		if code, _, body := l.get(t, p); code != 400 || !strings.Contains(body, "more than the "+limit) {
			t.Errorf("%s: %d %.300s", p, code, body)
		}
	}
}

// TestKeeperClosed: a value asked for while the keeper closes is computed
// and handed over; once it closed, none is computed any more (the race
// detector sees a computation started past close's wait for the ones
// under way, as a request still answering during Serve's shutdown would
// start it).
func TestKeeperClosed(t *testing.T) {
	ctx := context.Background()
	k := newKeeper(t)
	started, release := make(chan struct{}), make(chan struct{})
	got := make(chan any)
	go func() {
		v, _, err := k.Get(ctx, "under way", time.Hour, func(context.Context) (any, error) {
			close(started)
			<-release
			return 1, nil
		})
		if err != nil {
			v = err
		}
		got <- v
	}()
	<-started
	closed := make(chan struct{})
	go func() {
		k.Close()
		close(closed)
	}()
	// Time for Close to wait for the computation under way, where the
	// race detector sees a later one start; the checks below hold either
	// way.
	time.Sleep(50 * time.Millisecond)
	close(release)
	if v := <-got; v != 1 {
		t.Errorf("the value computed while the keeper closed: %v, want 1", v)
	}
	var computed atomic.Bool
	_, ok, err := k.Get(ctx, "after", time.Hour, func(context.Context) (any, error) {
		computed.Store(true)
		return 2, nil
	})
	<-closed
	if computed.Load() || ok || !errors.Is(err, context.Canceled) {
		t.Errorf("a value asked for once the keeper closed: computed %v, ok %v, error %v; want none computed and context.Canceled",
			computed.Load(), ok, err)
	}
}

// TestKeeperFull: past web.KeptMax values, the one used least recently
// is dropped, not the one just computed.
func TestKeeperFull(t *testing.T) {
	ctx := context.Background()
	k := newKeeper(t)
	computed := map[string]int{}
	get := func(key string) {
		t.Helper()
		v, ok, err := k.Get(ctx, key, time.Hour, func(context.Context) (any, error) {
			computed[key]++ // the test waits for each computation
			return key, nil
		})
		if err != nil || !ok || v != key {
			t.Fatalf("%s: %v, ok %v, error %v", key, v, ok, err)
		}
	}
	for i := range web.KeptMax + 1 {
		get(fmt.Sprint("value ", i))
	}
	last := fmt.Sprint("value ", web.KeptMax)
	get(last)
	get("value 1")
	get("value 0")
	if computed[last] != 1 || computed["value 1"] != 1 || computed["value 0"] != 2 {
		t.Errorf("computed %s %d times, value 1 %d times, value 0 %d times; want once, once, twice (the least recently used dropped)",
			last, computed[last], computed["value 1"], computed["value 0"])
	}
}

// TestKeeperExact: an exact value is never shown once the database
// changed, even within the keeper's lag (an hour here): the request waits
// for the new one, and without it does without.
func TestKeeperExact(t *testing.T) {
	ctx := context.Background()
	k, d := newKeeperOn(t)
	computed := 0
	get := func(wait time.Duration, compute func(context.Context) (any, error)) (any, bool) {
		t.Helper()
		v, ok, err := k.GetExact(ctx, "q", wait, nil, compute)
		if err != nil {
			t.Fatal(err)
		}
		return v, ok
	}
	count := func(context.Context) (any, error) {
		computed++ // the test waits for each computation
		return computed, nil
	}
	if v, ok := get(time.Hour, count); !ok || v != 1 {
		t.Fatalf("first: %v, ok %v", v, ok)
	}
	if v, ok := get(time.Hour, count); !ok || v != 1 || computed != 1 {
		t.Fatalf("unchanged: %v, ok %v, computed %d times; want the value kept", v, ok, computed)
	}
	// Another connection commits: the value kept is out of date.
	if _, err := d.ExecContext(ctx, `INSERT INTO collections (name, description) VALUES ('changed', '')`); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	v, ok := get(10*time.Millisecond, func(ctx context.Context) (any, error) {
		<-release
		return count(ctx)
	})
	if ok {
		t.Errorf("after a change, while the new value is computed: %v shown; want none (the kept one is out of date)", v)
	}
	close(release)
	if v, ok := get(time.Hour, count); !ok || v != 2 {
		t.Errorf("the new value: %v, ok %v; want 2", v, ok)
	}
}

// TestKeeperBytes: values with a size are dropped, least recently used
// first, past web.KeptMaxBytes.
func TestKeeperBytes(t *testing.T) {
	ctx := context.Background()
	k, _ := newKeeperOn(t)
	const size = web.KeptMaxBytes / 4
	computed := map[string]int{}
	get := func(key string) {
		t.Helper()
		_, ok, err := k.GetExact(ctx, key, time.Hour, func(any) int64 { return size }, func(context.Context) (any, error) {
			computed[key]++
			return key, nil
		})
		if err != nil || !ok {
			t.Fatalf("%s: ok %v, error %v", key, ok, err)
		}
	}
	for i := range 5 {
		get(fmt.Sprint(i))
	}
	get("4")
	get("1")
	get("0")
	if computed["0"] != 2 || computed["1"] != 1 || computed["4"] != 1 {
		t.Errorf("computed %v; want 0 twice (dropped past the bytes), 1 and 4 once", computed)
	}
}

// newKeeper returns a keeper with a lag of an hour over a new lab, closed
// when the test ends.
func newKeeper(t *testing.T) web.Keeper {
	t.Helper()
	k, _ := newKeeperOn(t)
	return k
}

// newKeeperOn returns a keeper with a lag of an hour over a new lab and
// the lab, both closed when the test ends.
func newKeeperOn(t *testing.T) (web.Keeper, *db.DB) {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	watch, err := d.WatchChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	k := web.NewKeeper(watch, time.Hour)
	t.Cleanup(k.Close)
	return k, d
}

// TestKeeperOnPostgreSQLKeepsUnchangedValues keeps a value over a
// PostgreSQL lab while nothing changes, past its lag (before, it was
// computed again once older than the lag: the facet counts read every
// puzzle every 5 s while the table was browsed), and computes it again
// once another session committed a change.
func TestKeeperOnPostgreSQLKeepsUnchangedValues(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	w, err := db.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	r, err := db.OpenOptions(ctx, dsn, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	watch, err := r.WatchChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	var computed atomic.Int64
	k := web.NewKeeper(watch, time.Millisecond)
	defer k.Close()
	get := func() any {
		t.Helper()
		v, ok, err := k.Get(ctx, "value", time.Minute, func(context.Context) (any, error) { return computed.Add(1), nil })
		if err != nil || !ok {
			t.Fatalf("value %v, ok %v, error %v", v, ok, err)
		}
		return v
	}
	// A job of the server (autovacuum's ANALYZE) may commit meanwhile:
	// a few tries for one stretch of 20 lags with one computation.
	kept := false
	for try := 0; try < 5 && !kept; try++ {
		first := get()
		time.Sleep(20 * time.Millisecond) // 20 times the lag
		kept = get() == first && get() == first
	}
	if !kept {
		t.Fatalf("computed %d times while the database did not change, want once", computed.Load())
	}
	first := get()
	if _, err := w.ExecContext(ctx, `INSERT INTO collections (name, description) VALUES ('new', '')`); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); get() == first; {
		if time.Now().After(deadline) {
			t.Fatal("the value was not computed again within 30 s of a change")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
