package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"sudokulab/db"
	"sudokulab/web"
)

// BenchmarkPages measures the server time of each page kind on a lab of
// lab.db.example plus SUDOKULAB_BENCH_PUZZLES puzzles (default 62,000, in
// three collections, a third rated by human) with a warm cache, and
// reports the 95th percentile as p95-ms. Run each kind 200 times with
//
//	go test ./web -run '^$' -bench Pages -benchtime 200x
func BenchmarkPages(b *testing.B) {
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
	// Grids are the puzzle's number written out (the pages do not solve
	// them); givens and human levels spread over their ranges.
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
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	w.Close()
	r, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	s, err := web.New(ctx, r, web.Options{Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	get := func(b *testing.B, path string) time.Duration {
		req := httptest.NewRequest("GET", path, nil)
		rec := httptest.NewRecorder()
		start := time.Now()
		s.ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		return d
	}
	// The first table page counts the facets.
	cold := get(b, "/puzzles")
	b.Run("cold-facets", func(b *testing.B) {
		b.ReportMetric(float64(cold.Microseconds())/1000, "first-ms")
	})
	defer func() {
		// What the server holds once every page was served: the heap in
		// use after a collection, and the most the process took.
		goruntime.GC()
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		b.Logf("heap in use after the pages: %.1f MB; memory from the OS: %.1f MB", float64(m.HeapInuse)/1e6, float64(m.Sys)/1e6)
	}()
	last := strconv.Itoa(n)
	for _, p := range []string{
		"/", "/puzzles", "/puzzles?collection=bench-b&sort=position", "/puzzles?sort=givens&desc=1",
		"/puzzles?sort=rating:human", "/puzzles?level.human=hard&givens=20", "/puzzles?sort=label",
		"/puzzles/" + last, "/collections", "/collections/bench-a", "/experiments/example-samples",
		"/experiments/example-samples/progress.json", "/runs/6", "/sql.json?sql=SELECT+COUNT(*)+FROM+puzzles",
	} {
		b.Run(p, func(b *testing.B) {
			get(b, p) // warm
			ds := make([]time.Duration, 0, b.N)
			for range b.N {
				ds = append(ds, get(b, p))
			}
			slices.Sort(ds)
			b.ReportMetric(float64(ds[(len(ds)*95+99)/100-1].Microseconds())/1000, "p95-ms")
		})
	}
}
