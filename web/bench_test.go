package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokulab/db"
	"sudokulab/queries"
	"sudokulab/web"
)

// BenchmarkPages measures the server time of each page kind with a warm
// cache and reports its median and 95th percentile (p50-ms, p95-ms), and
// at the end (memory) the server's memory: the heap in use, the memory
// taken from the system (runtime.MemStats) and the most resident memory
// the process had (VmHWM), in MB. Run each page kind 200 times with
//
//	SUDOKULAB_SCALE_LAB=/work/scale/lab.db go test ./web -run '^$' -bench Pages -benchtime 200x
//
// SUDOKULAB_SCALE_LAB names a lab built by scripts/scale-lab.sh (1,000,000
// puzzles, 1,000,000 runs, 10,000,000 trajectory points), a SQLite file or
// the postgres:// URL of a database it was merged into, opened read-only
// as `serve` opens it. Without it the benchmark measures a small lab
// (lab.db.example plus SUDOKULAB_BENCH_PUZZLES puzzles, default 62,000, in
// three collections, a third rated by human, and the example's 318 runs)
// and says so: its numbers are not the scale goal's.
// SUDOKULAB_BENCH_PAGES, a regular expression, keeps only the page kinds
// whose URL it matches (SUDOKULAB_BENCH_PAGES='^/sql' the console's), and
// the first facet count is waited for only when it matches /puzzles.
//
// Each page kind reports its first fetch (first-ms); a console page whose
// result is computed in the background is then fetched until it is there
// (ready-ms), so that the 200 fetches measure the page with its result.
func BenchmarkPages(b *testing.B) {
	ctx := context.Background()
	path, pages := os.Getenv("SUDOKULAB_SCALE_LAB"), []string(nil)
	if path == "" {
		path = smallLab(b)
		b.Logf("SUDOKULAB_SCALE_LAB is not set: measuring the small lab (%s), not the scale lab of scripts/scale-lab.sh", path)
	} else if _, err := os.Stat(path); err != nil && !db.IsPostgres(path) {
		b.Fatalf("SUDOKULAB_SCALE_LAB: %v", err)
	} else {
		b.Logf("measuring the scale lab %s", db.Redact(path))
	}
	r, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	// The memory limit serve sets.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(web.DefaultMemoryLimit))
	s, err := web.New(ctx, r, web.Options{Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	get := func(b *testing.B, path string) (time.Duration, []byte) {
		req := httptest.NewRequest("GET", path, nil)
		rec := httptest.NewRecorder()
		start := time.Now()
		s.ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != http.StatusOK {
			// A page that fails is reported and still timed (a page
			// of the table that gives up after its time limit).
			b.Errorf("GET %s: %d after %s: %.300s", path, rec.Code, d, rec.Body)
		}
		return d, rec.Body.Bytes()
	}
	only, err := regexp.Compile(os.Getenv("SUDOKULAB_BENCH_PAGES"))
	if err != nil {
		b.Fatalf("SUDOKULAB_BENCH_PAGES: %v", err)
	}
	if only.MatchString("/puzzles") || only.MatchString("/puzzles.json") {
		benchFacets(b, get)
	} else {
		b.Logf("SUDOKULAB_BENCH_PAGES selects no page of the puzzle table: the facets are not counted")
	}
	pages = slices.DeleteFunc(benchPages(b, get), func(p string) bool { return !only.MatchString(p) })
	defer b.Run("memory", func(b *testing.B) {
		// What the server holds once every page was served: the heap in
		// use after a collection, what the Go runtime took from the
		// system, and the process's peak resident memory.
		goruntime.GC()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse)/1e6, "heap-inuse-MB")
		b.ReportMetric(float64(m.Sys)/1e6, "sys-MB")
		b.ReportMetric(vmHWM(b), "peak-rss-MB")
		b.ReportMetric(0, "ns/op")
	})
	// The first fetch of each page and how long its result took to be
	// there, taken in the sub-benchmark's first run (with b.N 1, before
	// the one with b.N 200) and reported by both.
	type firstFetch struct{ first, ready float64 }
	firsts := map[string]firstFetch{}
	for _, p := range pages {
		b.Run(p, func(b *testing.B) {
			f, ok := firsts[p]
			if !ok {
				d, _ := get(b, p)
				f.first = float64(d.Microseconds()) / 1000
				if strings.HasPrefix(p, "/sql?") {
					f.ready = benchConsoleReady(b, get, p)
				}
				firsts[p] = f
			}
			b.ReportMetric(f.first, "first-ms")
			if strings.HasPrefix(p, "/sql?") {
				b.ReportMetric(f.ready, "ready-ms")
			}
			get(b, p) // warm
			ds := make([]time.Duration, 0, b.N)
			for range b.N {
				d, _ := get(b, p)
				ds = append(ds, d)
			}
			slices.Sort(ds)
			at := func(q int) float64 { return float64(ds[(len(ds)*q+99)/100-1].Microseconds()) / 1000 }
			b.ReportMetric(at(50), "p50-ms")
			b.ReportMetric(at(95), "p95-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// benchFacets fetches the first page of the puzzle table, which starts the
// facet count, and waits for it, so that the pages are measured with the
// counts kept (a warm cache); first-facet-count reports how long it took.
func benchFacets(b *testing.B, get func(*testing.B, string) (time.Duration, []byte)) {
	start := time.Now()
	get(b, "/puzzles")
	for {
		_, body := get(b, "/puzzles.json?size=1")
		var p struct{ Total *int64 }
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
		if p.Total != nil {
			break
		}
		if time.Since(start) > 10*time.Minute {
			b.Fatal("the facets were not counted within 10 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	cold := time.Since(start)
	b.Run("first-facet-count", func(b *testing.B) {
		b.ReportMetric(float64(cold.Microseconds())/1000, "ms")
	})
}

// benchConsoleReady fetches the console page p (/sql?...) as JSON until its
// result is no longer being computed and returns how long that took, in
// ms from now.
func benchConsoleReady(b *testing.B, get func(*testing.B, string) (time.Duration, []byte), p string) float64 {
	start := time.Now()
	for {
		_, body := get(b, "/sql.json?"+strings.TrimPrefix(p, "/sql?"))
		var c struct{ Computing bool }
		if err := json.Unmarshal(body, &c); err != nil {
			b.Fatalf("%s: %v", p, err)
		}
		if !c.Computing {
			return float64(time.Since(start).Microseconds()) / 1000
		}
		if time.Since(start) > 10*time.Minute {
			b.Fatalf("%s: still computing after 10 minutes", p)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// benchPages lists a URL of every page kind of the lab s serves, finding
// its puzzles, collections, experiments and runs through the pages'
// JSON.
func benchPages(b *testing.B, get func(*testing.B, string) (time.Duration, []byte)) []string {
	var home struct {
		Lab struct{ Puzzles int64 } `json:"lab"`
	}
	var colls, exps struct{ Rows [][]any }
	for _, x := range []struct {
		path string
		v    any
	}{{"/index.json", &home}, {"/collections.json", &colls}, {"/experiments.json", &exps}} {
		_, body := get(b, x.path)
		if err := json.Unmarshal(body, x.v); err != nil {
			b.Fatalf("%s: %v", x.path, err)
		}
	}
	// The biggest collection and experiment (by their second and fifth
	// columns: members; runs).
	biggest := func(t struct{ Rows [][]any }, col int) string {
		best, n := "", -1.0
		for _, row := range t.Rows {
			if v, ok := row[col].(float64); ok && v > n {
				best, n = fmt.Sprint(row[0]), v
			}
		}
		if best == "" {
			b.Fatalf("no rows in %v", t)
		}
		return best
	}
	exp := biggest(exps, 4)
	// The collections' sizes come with the facet count: without it, the
	// first collection.
	coll := fmt.Sprint(colls.Rows[0][0])
	if slices.ContainsFunc(colls.Rows, func(row []any) bool { return row[1] != nil }) {
		coll = biggest(colls, 1)
	}
	// The pictures but the first and the comparison read the runs one
	// by one, which the server does for experiments of at most 50,000
	// runs (10,000 for the pictures of trajectories): they are measured
	// on the biggest of those.
	below := func(n float64) string {
		var small struct{ Rows [][]any }
		for _, row := range exps.Rows {
			if v, ok := row[4].(float64); ok && v <= n {
				small.Rows = append(small.Rows, row)
			}
		}
		return biggest(small, 4)
	}
	mid, tiny := below(50000), below(10000)
	type expPage struct {
		Runs       struct{ Rows [][]any } `json:"runs"`
		CompareURL string                 `json:"compare_url"`
	}
	var ex, mx expPage
	for _, x := range []struct {
		name string
		v    *expPage
	}{{exp, &ex}, {mid, &mx}} {
		_, body := get(b, "/experiments/"+url.PathEscape(x.name)+".json")
		if err := json.Unmarshal(body, x.v); err != nil || len(x.v.Runs.Rows) == 0 || x.v.CompareURL == "" {
			b.Fatalf("experiment %s: %v, %d runs, compare %q", x.name, err, len(x.v.Runs.Rows), x.v.CompareURL)
		}
	}
	run := fmt.Sprint(ex.Runs.Rows[0][0])
	var pz struct{ Rows []struct{ ID int64 } }
	_, body := get(b, "/puzzles.json?sort=id&desc=1&size=1")
	if err := json.Unmarshal(body, &pz); err != nil || len(pz.Rows) == 0 {
		b.Fatalf("last puzzle: %v", err)
	}
	last := strconv.FormatInt(pz.Rows[0].ID, 10)
	e, m, t := "/experiments/"+url.PathEscape(exp), "/experiments/"+url.PathEscape(mid), "/experiments/"+url.PathEscape(tiny)
	c := url.QueryEscape(coll)
	canned, err := queries.Names()
	if err != nil {
		b.Fatal(err)
	}
	pages := []string{
		"/", "/index.json",
		"/puzzles", "/puzzles.json", "/puzzles?desc=1",
		"/puzzles?collection=" + c + "&sort=position",
		"/puzzles?collection=" + c + "&sort=label&desc=1",
		"/puzzles?sort=givens&desc=1", "/puzzles?givens=24",
		"/puzzles?sort=rating:human", "/puzzles?sort=rating:human&desc=1", "/puzzles.json?sort=rating:givens",
		"/puzzles?level.human=hard", "/puzzles?level.human=hard&givens=24", "/puzzles?level.human=extreme&sort=rating:human",
		"/puzzles?count=unique&shape=3x3", "/puzzles?nocollection=1",
		// Combinations of filters and sorts: the puzzles in no
		// collection (the last ids) under other sorts, a rare level
		// under a sort of its own, several facets at once.
		"/puzzles?nocollection=1&sort=givens", "/puzzles?nocollection=1&sort=label", "/puzzles?nocollection=1&desc=1",
		"/puzzles?nocollection=1&sort=created_at", "/puzzles?nocollection=1&sort=rating:human&desc=1",
		"/puzzles?level.human=hard&sort=label", "/puzzles?level.human=extreme&givens=24&sort=givens",
		"/puzzles?level.human=hard&givens=24&count=unique&shape=3x3", "/puzzles?collection=" + c + "&level.human=unfair&sort=rating:human",
		"/puzzles?givens=30&sort=solution_count&desc=1", "/puzzles?count=unique&sort=created_at&desc=1", "/puzzles?shape=3x3&sort=givens&desc=1",
		"/puzzles?sort=label", "/puzzles?sort=label&desc=1", "/puzzles?sort=collection", "/puzzles?sort=collection&desc=1", "/puzzles?sort=position",
		"/puzzles?collection=" + c + "&desc=1",
		"/puzzles?sort=created_at&desc=1", "/puzzles?sort=solution_count",
		"/puzzles/" + last, "/puzzles/" + last + ".json", "/puzzles/" + last + "/grid.svg", "/puzzles/" + last + "/path",
		"/collections", "/collections/" + url.PathEscape(coll),
		"/experiments", e, e + ".json", e + "/progress.json", e + "/success.svg",
		m, m + "/ecdf.svg", t + "/convergence.svg", t + "/ert.svg", mx.CompareURL,
		"/runs/" + run, "/runs/" + run + ".json", "/runs/" + run + "/trajectory.svg",
		"/sql?sql=" + url.QueryEscape("SELECT id, grid FROM puzzles WHERE givens = 17 ORDER BY id DESC LIMIT 20"),
		"/sql.json?sql=" + url.QueryEscape("SELECT COUNT(*) FROM collections"),
	}
	for _, q := range canned {
		pages = append(pages, "/sql?"+url.Values{"query": {q}}.Encode())
	}
	return pages
}

// smallLab builds the small lab: lab.db.example plus
// SUDOKULAB_BENCH_PUZZLES puzzles in three collections, a third rated by
// human, their grids being the puzzle's number written out (the pages do
// not solve them), givens and levels spread over their ranges.
func smallLab(b *testing.B) string {
	n := 62000
	if v := os.Getenv("SUDOKULAB_BENCH_PUZZLES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatalf("SUDOKULAB_BENCH_PUZZLES=%q: %v", v, err)
		}
	}
	ctx := context.Background()
	path := exampleCopy(b)
	w, err := db.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for _, q := range []string{
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ` + strconv.Itoa(n) + `)
		 INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution_count, count_status)
		 SELECT replace(printf('%081d', i), '0', '.'), 9, 3, 3, 17 + i % 20, 1, 'counted' FROM n`,
		`INSERT INTO collections (name, description) VALUES ('bench-a', ''), ('bench-b', ''), ('bench-c', '')`,
		`INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label)
		 SELECT (SELECT id FROM collections WHERE name = 'bench-' || char(97 + p.id % 3)), p.id,
		        ROW_NUMBER() OVER (PARTITION BY p.id % 3 ORDER BY p.id), 'p' || p.id
		 FROM puzzles p WHERE p.id > 11`,
		`INSERT INTO ratings (puzzle_id, rater, rater_version, options, value, label)
		 SELECT id, 'human', '4', '{}', 1000 + id % 5000, CASE id % 6 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' WHEN 2 THEN 'hard'
		        WHEN 3 THEN 'unfair' WHEN 4 THEN 'extreme' ELSE 'beyond' END
		 FROM puzzles WHERE id % 3 = 0 AND id > 11`,
		`INSERT INTO ratings (puzzle_id, rater, rater_version, options, value)
		 SELECT id, 'givens', '1', '{}', givens FROM puzzles WHERE id > 11`,
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// vmHWM is the process's peak resident memory in MB, as
// /proc/self/status says it (VmHWM).
func vmHWM(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				b.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb / 1000
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
