package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/web"
)

// lab is a copy of lab.db.example with a writer on it (for tests that
// change the lab under the server) and a server that reads it.
type lab struct {
	path string
	w    *db.DB
	srv  *httptest.Server
}

// exampleCopy copies lab.db.example into a temporary folder and returns
// the copy's path.
func exampleCopy(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("../lab.db.example")
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "lab.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func TestMain(m *testing.M) { pgtest.Main(m) }

// newLab returns a lab on SQLite.
func newLab(t *testing.T) *lab { return newLabOn(t, "") }

// onEngines runs fn on a lab on SQLite and on one on PostgreSQL, both
// holding lab.db.example.
func onEngines(t *testing.T, fn func(t *testing.T, l *lab)) {
	t.Run("SQLite", func(t *testing.T) { fn(t, newLabOn(t, "")) })
	t.Run("PostgreSQL", func(t *testing.T) { fn(t, newLabOn(t, pgtest.DSN(t))) })
}

// newLabOn returns a lab on the PostgreSQL database dsn (lab.db.example
// merged into it), or on a copy of lab.db.example when dsn is empty.
func newLabOn(t *testing.T, dsn string) *lab {
	t.Helper()
	ctx := context.Background()
	path := exampleCopy(t)
	if dsn != "" {
		src, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		dst, err := db.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.Merge(ctx, dst, src, db.MergeOptions{})
		src.Close()
		dst.Close()
		if err != nil {
			t.Fatal(err)
		}
		path = dsn
	}
	w, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	// A puzzle in no collection, unrated and not counted: the NULLs of
	// every facet and sort.
	l := &lab{path: path, w: w}
	l.addPuzzle(t, 40)
	r, err := db.OpenOptions(ctx, path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	// FacetsLag -1: the facets follow every change at once.
	s, err := web.New(ctx, r, web.Options{Version: "v-test", FacetsLag: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	l.srv = httptest.NewServer(s)
	t.Cleanup(l.srv.Close)
	return l
}

// serveWith serves the lab read-only with the options o, as newLabOn does
// with FacetsLag -1, until the test ends.
func (l *lab) serveWith(t *testing.T, o web.Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(l.server(t, o))
	t.Cleanup(srv.Close)
	return srv
}

// server returns a server with the options o on the lab opened read-only,
// as serve opens it; both are closed when t ends.
func (l *lab) server(t *testing.T, o web.Options) *web.Server {
	t.Helper()
	ctx := context.Background()
	r, err := db.OpenOptions(ctx, l.path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	s, err := web.New(ctx, r, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// addPuzzle adds a puzzle whose givens are the first n cells of puzzle
// 1's solution, in no collection, unrated and not counted.
func (l *lab) addPuzzle(t *testing.T, n int) {
	t.Helper()
	l.exec(t, `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens)
		SELECT substr(solution, 1, ?) || substr(?, 1, 81 - ?), size, box_rows, box_cols, ? FROM puzzles WHERE id = 1`,
		n, strings.Repeat(".", 81), n, n)
}

func (l *lab) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := l.w.ExecContext(context.Background(), l.w.Rebind(query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// count runs a query returning one integer on the writer's side.
func (l *lab) count(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := l.w.QueryRowContext(context.Background(), l.w.Rebind(query), args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// get fetches path and returns the status and body.
func (l *lab) get(t *testing.T, path string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest("GET", l.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// getJSON fetches path, wants 200 and decodes the body into v.
func (l *lab) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	code, h, body := l.get(t, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, body)
	}
}

// getHTML fetches path and wants a 200 HTML page.
func (l *lab) getHTML(t *testing.T, path string) string {
	t.Helper()
	code, h, body := l.get(t, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("GET %s: no strict Content-Security-Policy: %q", path, h.Get("Content-Security-Policy"))
	}
	return body
}

func TestHome(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		var home struct {
			Lab struct {
				Puzzles, Collections, Configurations, Experiments, Runs int64
			} `json:"lab"`
			SchemaVersion int64  `json:"schema_version"`
			CodeVersion   string `json:"code_version"`
			Experiments   struct {
				Columns []string `json:"columns"`
				Rows    [][]any  `json:"rows"`
			} `json:"recent_experiments"`
		}
		l.getJSON(t, "/index.json", &home)
		want := map[string][2]int64{
			"puzzles":        {home.Lab.Puzzles, l.count(t, `SELECT COUNT(*) FROM puzzles`)},
			"collections":    {home.Lab.Collections, l.count(t, `SELECT COUNT(*) FROM collections`)},
			"configurations": {home.Lab.Configurations, l.count(t, `SELECT COUNT(*) FROM configs`)},
			"experiments":    {home.Lab.Experiments, l.count(t, `SELECT COUNT(*) FROM experiments`)},
			"runs":           {home.Lab.Runs, l.count(t, `SELECT COUNT(*) FROM runs`)},
			"schema":         {home.SchemaVersion, l.w.LatestVersion()},
		}
		for what, got := range want {
			if got[0] != got[1] {
				t.Errorf("%s: page says %d, SQL %d", what, got[0], got[1])
			}
		}
		if home.CodeVersion != "v-test" || len(home.Experiments.Rows) != 1 || home.Experiments.Rows[0][0] != "example-samples" {
			t.Errorf("code version %q, experiments %v", home.CodeVersion, home.Experiments.Rows)
		}
		// The same data by Accept, and as a page.
		var byAccept map[string]any
		code, _, body := l.get(t, "/", "Accept", "application/json")
		if err := json.Unmarshal([]byte(body), &byAccept); code != 200 || err != nil || byAccept["lab"] == nil {
			t.Fatalf("Accept: application/json: %d %v %.200s", code, err, body)
		}
		page := l.getHTML(t, "/")
		if !strings.Contains(page, fmt.Sprintf("<b>%d</b> puzzles", home.Lab.Puzzles)) || !strings.Contains(page, "example-samples") {
			t.Errorf("home page lacks the counts or the experiment:\n%s", page)
		}
	})
}

// catalogPage is the JSON of /puzzles.
type catalogPage struct {
	Total int64 `json:"total"`
	Rows  []struct {
		ID         int64   `json:"id"`
		Collection *string `json:"collection"`
	} `json:"rows"`
	NextURL string `json:"next_url"`
	Facets  []struct {
		Name   string `json:"name"`
		Values []struct {
			Value string `json:"value"`
			Null  bool   `json:"null"`
			Count int64  `json:"count"`
			URL   string `json:"url"`
		} `json:"values"`
	} `json:"facets"`
}

// rowKey names a catalog row: its puzzle and collection.
func rowKey(id int64, coll *string) string {
	if coll == nil {
		return fmt.Sprintf("%d/-", id)
	}
	return fmt.Sprintf("%d/%s", id, *coll)
}

func jsonPath(u string) string {
	p, q, _ := strings.Cut(u, "?")
	return p + ".json?" + q
}

// tagged is the condition that a row of puzzle_catalog pc has the tag
// "odd one", which tagOdd puts on the puzzles of odd id and the last (in
// no collection).
const tagged = "EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.puzzle_id = pc.id AND t.tag = 'odd one')"

func (l *lab) tagOdd(t *testing.T) {
	l.exec(t, `INSERT INTO puzzle_tags (puzzle_id, tag) SELECT id, 'odd one' FROM puzzles WHERE id % 2 = 1 OR id = (SELECT MAX(id) FROM puzzles)`)
}

func TestPuzzlesSortAndPagesAsSQLSays(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		l.tagOdd(t)
		cases := []struct {
			query, order, join, where string
		}{
			{"", "pc.id, COALESCE(pc.collection_id, 0)", "", ""},
			{"sort=givens", "pc.givens, pc.id, COALESCE(pc.collection_id, 0)", "", ""},
			{"sort=givens&desc=1", "pc.givens DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC", "", ""},
			{"sort=label", "pc.label IS NULL, pc.label, pc.id, COALESCE(pc.collection_id, 0)", "", ""},
			{"sort=collection&desc=1", "pc.collection IS NULL, pc.collection DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC", "", ""},
			{"sort=position&collection=nb-coin", "pc.position, pc.id", "", "pc.collection = 'nb-coin'"},
			{"sort=solution_count&desc=1", "pc.solution_count IS NULL, pc.solution_count DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC", "", ""},
			{"sort=rating:se&desc=1", "r.value IS NULL, r.value DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC",
				"LEFT JOIN ratings r ON r.puzzle_id = pc.id AND r.rater = 'se'", ""},
			{"sort=rating:empirical", "r.value IS NULL, r.value, pc.id, COALESCE(pc.collection_id, 0)",
				"LEFT JOIN ratings r ON r.puzzle_id = pc.id AND r.rater = 'empirical'", ""},
			{"sort=rating:human&level.human=medium", "r.value IS NULL, r.value, pc.id, COALESCE(pc.collection_id, 0)",
				"LEFT JOIN ratings r ON r.puzzle_id = pc.id AND r.rater = 'human'", "EXISTS (SELECT 1 FROM ratings h WHERE h.puzzle_id = pc.id AND h.rater = 'human' AND h.label = 'medium')"},
			{"nocollection=1", "pc.id", "", "pc.collection IS NULL"},
			{"givens=28&count=unique", "pc.id, COALESCE(pc.collection_id, 0)", "", "pc.givens = 28 AND pc.solution_count = 1"},
			{"nocollection=1&sort=label", "pc.id", "", "pc.collection IS NULL"},
			{"nocollection=1&desc=1", "pc.id DESC", "", "pc.collection IS NULL"},
			{"tag=odd+one", "pc.id, COALESCE(pc.collection_id, 0)", "", tagged},
			{"tag=odd+one&sort=givens&desc=1", "pc.givens DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC", "", tagged},
			{"tag=odd+one&nocollection=1", "pc.id", "", tagged + " AND pc.collection IS NULL"},
			{"tag=odd+one&sort=collection", "pc.collection IS NULL, pc.collection, pc.id, COALESCE(pc.collection_id, 0)", "", tagged},
			{"level.human=easy&givens=28&sort=givens&desc=1", "pc.givens DESC, pc.id DESC, COALESCE(pc.collection_id, 0) DESC", "",
				"pc.givens = 28 AND EXISTS (SELECT 1 FROM ratings h WHERE h.puzzle_id = pc.id AND h.rater = 'human' AND h.label = 'easy')"},
		}
		for _, c := range cases {
			t.Run(c.query, func(t *testing.T) {
				where := ""
				if c.where != "" {
					where = "WHERE " + c.where
				}
				rows, err := l.w.QueryContext(context.Background(), `SELECT pc.id, pc.collection FROM puzzle_catalog pc `+c.join+` `+where+` ORDER BY `+c.order)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for rows.Next() {
					var id int64
					var coll *string
					if err := rows.Scan(&id, &coll); err != nil {
						t.Fatal(err)
					}
					want = append(want, rowKey(id, coll))
				}
				rows.Close()
				if len(want) == 0 {
					t.Fatal("the case selects nothing: it tests nothing")
				}
				// Pages of 4 rows, following next_url to the end.
				var got []string
				next := "/puzzles.json?size=4&" + c.query
				for pages := 0; next != ""; pages++ {
					if pages > 30 {
						t.Fatal("more pages than rows")
					}
					var p catalogPage
					l.getJSON(t, next, &p)
					if p.Total != int64(len(want)) {
						t.Errorf("total %d, SQL counts %d", p.Total, len(want))
					}
					for _, r := range p.Rows {
						got = append(got, rowKey(r.ID, r.Collection))
					}
					next = ""
					if p.NextURL != "" {
						next = jsonPath(p.NextURL)
					}
				}
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("rows\n got %v\nwant %v", got, want)
				}
			})
		}
	})
}

func TestPuzzlesFacetsCountAsSQLSays(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		l.tagOdd(t)
		// facetSQL is each facet's value expression over puzzle_catalog pc.
		facetSQL := map[string]string{
			"collection":  "pc.collection",
			"shape":       "pc.box_rows || 'x' || pc.box_cols",
			"givens":      "pc.givens",
			"count":       "CASE WHEN pc.solution_count = 1 THEN 'unique' WHEN pc.solution_count = 0 THEN 'none' WHEN pc.solution_count >= 2 THEN 'multiple' WHEN pc.count_status = 'undetermined' THEN 'undetermined' ELSE 'uncounted' END",
			"level:human": "(SELECT label FROM ratings h WHERE h.puzzle_id = pc.id AND h.rater = 'human')",
		}
		// filters: the query string and, per facet, its condition (a facet's
		// counts leave its own condition out).
		filters := []struct {
			query string
			conds map[string]string
		}{
			{"", nil},
			{"collection=sato-inoue-2010", map[string]string{"collection": "pc.collection = 'sato-inoue-2010'"}},
			{"givens=28&level.human=easy", map[string]string{"givens": "pc.givens = 28",
				"level:human": "EXISTS (SELECT 1 FROM ratings h WHERE h.puzzle_id = pc.id AND h.rater = 'human' AND h.label = 'easy')"}},
			{"nocollection=1", map[string]string{"collection": "pc.collection IS NULL"}},
			{"count=uncounted&shape=3x3", map[string]string{"count": facetSQL["count"] + " = 'uncounted'", "shape": "pc.box_rows = 3 AND pc.box_cols = 3"}},
			{"tag=odd+one&givens=28", map[string]string{"tag": tagged, "givens": "pc.givens = 28"}},
			{"tag=odd+one&collection=sato-inoue-2010", map[string]string{"tag": tagged, "collection": "pc.collection = 'sato-inoue-2010'"}},
		}
		for _, f := range filters {
			t.Run(f.query, func(t *testing.T) {
				var p catalogPage
				l.getJSON(t, "/puzzles.json?"+f.query, &p)
				all := []string{"1 = 1"}
				for _, c := range f.conds {
					all = append(all, c)
				}
				if want := l.count(t, `SELECT COUNT(*) FROM puzzle_catalog pc WHERE `+strings.Join(all, " AND ")); p.Total != want {
					t.Errorf("total %d, SQL %d", p.Total, want)
				}
				if len(p.Facets) != len(facetSQL) {
					t.Fatalf("%d facets, want %d", len(p.Facets), len(facetSQL))
				}
				for _, fc := range p.Facets {
					expr, ok := facetSQL[fc.Name]
					if !ok {
						t.Fatalf("unknown facet %q", fc.Name)
					}
					conds := []string{"1 = 1", expr + " IS NOT NULL OR '" + fc.Name + "' = 'collection'"}
					for name, c := range f.conds {
						if name != fc.Name {
							conds = append(conds, c)
						}
					}
					rows, err := l.w.QueryContext(context.Background(), `SELECT `+expr+`, COUNT(*) FROM puzzle_catalog pc WHERE (`+
						strings.Join(conds, ") AND (")+`) GROUP BY 1`)
					if err != nil {
						t.Fatal(err)
					}
					want := map[string]int64{}
					for rows.Next() {
						var v *string
						var n int64
						if err := rows.Scan(&v, &n); err != nil {
							t.Fatal(err)
						}
						k := "NULL"
						if v != nil {
							k = *v
						}
						want[k] = n
					}
					rows.Close()
					got := map[string]int64{}
					for _, v := range fc.Values {
						k := v.Value
						if v.Null {
							k = "NULL"
						}
						got[k] = v.Count
						// Following the value's link selects its rows.
						var sub catalogPage
						l.getJSON(t, jsonPath(v.URL), &sub)
						if sub.Total != v.Count {
							t.Errorf("facet %s value %s: %d rows, its link gives %d", fc.Name, k, v.Count, sub.Total)
						}
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("facet %s:\n got %v\nwant %v", fc.Name, got, want)
					}
				}
			})
		}
	})
}

func TestFacetsFollowChanges(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		var before, after catalogPage
		l.getJSON(t, "/puzzles.json", &before)
		// Another process adds a puzzle: the counts kept are counted again.
		l.addPuzzle(t, 39)
		l.getJSON(t, "/puzzles.json", &after)
		if after.Total != before.Total+1 {
			t.Errorf("total %d after adding a puzzle to %d", after.Total, before.Total)
		}
	})
}

// TestPuzzlesRowsFollowChanges: while the facets lag behind a change,
// the rows do not: the catalog index kept is used only while the
// database is as it was read.
func TestPuzzlesRowsFollowChanges(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		srv := l.serveWith(t, web.Options{FacetsLag: time.Hour})
		page := func(path string) catalogPage {
			t.Helper()
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p catalogPage
			if err := json.NewDecoder(resp.Body).Decode(&p); resp.StatusCode != 200 || err != nil {
				t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
			}
			return p
		}
		before := page("/puzzles.json?nocollection=1&desc=1")
		l.addPuzzle(t, 36)
		last := l.count(t, `SELECT MAX(id) FROM puzzles`)
		after := page("/puzzles.json?nocollection=1&desc=1")
		if after.Total != before.Total {
			t.Errorf("total %d, then %d: the counts were not kept", before.Total, after.Total)
		}
		if len(after.Rows) != len(before.Rows)+1 || after.Rows[0].ID != last {
			t.Errorf("rows %v after adding puzzle %d to %v", after.Rows, last, before.Rows)
		}
	})
}

func TestPuzzlesBadQuery(t *testing.T) {
	l := newLab(t)
	for _, q := range []string{"sort=nosuch", "givens=many", "count=some", "shape=3by3", "next=%25%25", "level.nosuch=hard", "size=0"} {
		code, _, body := l.get(t, "/puzzles.json?"+q)
		var e struct {
			Error string `json:"error"`
		}
		if code != http.StatusBadRequest || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s, want 400 with the reason", q, code, body)
		}
	}
}

func TestPuzzlePage(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		// A label from a file, holding markup: shown as text.
		l.exec(t, `UPDATE collection_puzzles SET label = '<script>alert(1)</script>' WHERE puzzle_id = 1`)
		var p struct {
			ID          int64  `json:"id"`
			Grid        string `json:"grid"`
			Solution    string `json:"solution"`
			Givens      int    `json:"givens"`
			Collections []struct {
				Collection string `json:"collection"`
				Label      string `json:"label"`
			} `json:"collections"`
			Ratings []struct {
				Rater        string `json:"Rater"`
				RaterVersion string `json:"RaterVersion"`
			} `json:"ratings"`
			Runs struct {
				Rows [][]any `json:"rows"`
			} `json:"runs"`
			Equivalents []int64 `json:"symmetry_equivalents"`
		}
		l.getJSON(t, "/puzzles/1.json", &p)
		if want := l.count(t, `SELECT COUNT(*) FROM ratings WHERE puzzle_id = 1`); int64(len(p.Ratings)) != want || want == 0 {
			t.Errorf("%d ratings, SQL %d", len(p.Ratings), want)
		}
		if want := l.count(t, `SELECT COUNT(*) FROM runs WHERE puzzle_id = 1`); int64(len(p.Runs.Rows)) != want {
			t.Errorf("%d runs, SQL %d", len(p.Runs.Rows), want)
		}
		if want := l.count(t, `SELECT COUNT(*) FROM collection_puzzles WHERE puzzle_id = 1`); int64(len(p.Collections)) != want {
			t.Errorf("%d collections, SQL %d", len(p.Collections), want)
		}
		if len(p.Grid) != 81 || len(p.Solution) != 81 || p.Givens != 81-strings.Count(p.Grid, ".") {
			t.Errorf("grid %q solution %q givens %d", p.Grid, p.Solution, p.Givens)
		}
		page := l.getHTML(t, "/puzzles/1")
		if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Error("the label's markup is not escaped")
		}
		if n := strings.Count(page, `<svg class="grid"`); n != 2 {
			t.Errorf("%d grids drawn, want the puzzle and its solution", n)
		}
		// Givens drawn distinct: one shaded cell per given.
		if n := strings.Count(page, `<rect class="cell given"`); n != 2*p.Givens {
			t.Errorf("%d given cells drawn over both grids, want %d", n, 2*p.Givens)
		}
		table := l.getHTML(t, "/puzzles?collection=paper-puzzles")
		if strings.Contains(table, "<script>alert") {
			t.Error("the table does not escape the label")
		}
		if code, _, _ := l.get(t, "/puzzles/999.json"); code != http.StatusNotFound {
			t.Errorf("a missing puzzle: %d, want 404", code)
		}
		code, h, svg := l.get(t, "/puzzles/1/grid.svg")
		if code != 200 || h.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, "<style>") {
			t.Errorf("grid.svg: %d %s %.100s", code, h.Get("Content-Type"), svg)
		}
	})
}

func TestLargeGridDrawn(t *testing.T) {
	l := newLab(t)
	grid := strings.Repeat(".", 625)
	grid = "P" + grid[1:]
	l.exec(t, `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens) VALUES (?, 25, 5, 5, 1)`, grid)
	id := l.count(t, `SELECT MAX(id) FROM puzzles`)
	page := l.getHTML(t, fmt.Sprintf("/puzzles/%d", id))
	if n := strings.Count(page, "<rect class=\"cell"); n != 625 {
		t.Errorf("%d cells drawn, want 625", n)
	}
	if !strings.Contains(page, ">P</text>") {
		t.Error("the given P (25) is not drawn")
	}
}

func TestExperimentAndRun(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		var p struct {
			Totals map[string]int64 `json:"totals"`
		}
		l.getJSON(t, "/experiments/example-samples/progress.json", &p)
		if want := l.count(t, `SELECT COUNT(*) FROM work WHERE state = 'done'`); p.Totals["done"] != want || want == 0 {
			t.Errorf("done %d, SQL %d", p.Totals["done"], want)
		}
		// A worker claims two items: the progress says so at once.
		l.exec(t, `UPDATE work SET state = 'running', worker = 'h:1:x', lease_until = '2999-01-01T00:00:00.000Z', run_id = NULL
		WHERE id IN (SELECT id FROM work ORDER BY id LIMIT 2)`)
		l.getJSON(t, "/experiments/example-samples/progress.json", &p)
		if p.Totals["running"] != 2 {
			t.Errorf("running %d after two claims, want 2", p.Totals["running"])
		}
		var e struct {
			Success []struct {
				Config string   `json:"config"`
				Solved int      `json:"solved"`
				Runs   int      `json:"runs"`
				ERT    *float64 `json:"ert"`
			} `json:"success"`
		}
		l.getJSON(t, "/experiments/example-samples.json", &e)
		var er struct {
			Runs struct {
				Columns []string `json:"columns"`
				Rows    [][]any  `json:"rows"`
			} `json:"runs"`
		}
		l.getJSON(t, "/experiments/example-samples.json", &er)
		unsolved := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND status <> 'solved'`)
		if all := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples'`); len(er.Runs.Rows) != int(min(all, 100)) || unsolved == 0 {
			t.Errorf("%d runs listed of %d (%d unsolved)", len(er.Runs.Rows), all, unsolved)
		}
		for i, row := range er.Runs.Rows {
			if solved := row[4] == "solved"; solved != (int64(i) >= unsolved) {
				t.Errorf("run %d of the list (%v) is out of order: the %d unsolved come first", i, row, unsolved)
				break
			}
		}
		if len(e.Success) == 0 {
			t.Fatal("no success rows")
		}
		for _, s := range e.Success {
			want := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND config = ? AND status = 'solved'`, s.Config)
			if int64(s.Solved) != want {
				t.Errorf("%s: %d solved, SQL %d", s.Config, s.Solved, want)
			}
		}
		var cmp struct {
			Overall struct {
				Sides [2]struct {
					Runs, Solved int
				} `json:"sides"`
				Fisher *float64 `json:"fisher_p"`
			} `json:"overall"`
			Puzzles []struct {
				Puzzle int64 `json:"puzzle"`
			} `json:"puzzles"`
		}
		l.getJSON(t, "/experiments/example-samples/compare.json?a=acs-eq1&b=franco-table3", &cmp)
		for i, c := range []string{"acs-eq1", "franco-table3"} {
			solved := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND config = ? AND status = 'solved'`, c)
			runs := l.count(t, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 'example-samples' AND config = ? AND status IN ('solved', 'unsolved', 'timeout')`, c)
			if got := cmp.Overall.Sides[i]; int64(got.Solved) != solved || int64(got.Runs) != runs {
				t.Errorf("compare: %s solved %d of %d, SQL %d of %d", c, got.Solved, got.Runs, solved, runs)
			}
		}
		if cmp.Overall.Fisher == nil || *cmp.Overall.Fisher <= 0 || *cmp.Overall.Fisher > 1 || len(cmp.Puzzles) == 0 {
			t.Errorf("compare: Fisher p %v over %d puzzles", cmp.Overall.Fisher, len(cmp.Puzzles))
		}
		if code, _, _ := l.get(t, "/experiments/example-samples/compare.json?a=exact&b=exact"); code != http.StatusBadRequest {
			t.Errorf("a configuration compared with itself: %d, want 400", code)
		}
		for _, kind := range []string{"success", "ecdf", "convergence", "ert"} {
			code, h, svg := l.get(t, "/experiments/example-samples/"+kind+".svg")
			if code != 200 || h.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, "<svg") {
				t.Errorf("%s.svg: %d %s", kind, code, h.Get("Content-Type"))
			}
		}
		page := l.getHTML(t, "/experiments/example-samples")
		if !strings.Contains(page, `src="/static/live.js"`) || !strings.Contains(page, `data-src="/experiments/example-samples/progress.json"`) {
			t.Error("the experiment page does not update its progress")
		}
		var run struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
			Seed   int64  `json:"seed"`
			Points int    `json:"trajectory_points"`
		}
		id := l.count(t, `SELECT MIN(run_id) FROM trajectory_points`)
		l.getJSON(t, fmt.Sprintf("/runs/%d.json", id), &run)
		if want := l.count(t, `SELECT seed FROM runs WHERE id = ?`, id); run.Seed != want {
			t.Errorf("seed %d, SQL %d", run.Seed, want)
		}
		if want := l.count(t, `SELECT COUNT(*) FROM trajectory_points WHERE run_id = ?`, id); int64(run.Points) != want {
			t.Errorf("%d points, SQL %d", run.Points, want)
		}
		code, h, svg := l.get(t, fmt.Sprintf("/runs/%d/trajectory.svg", id))
		if code != 200 || h.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, "<svg") {
			t.Errorf("trajectory.svg: %d %s", code, h.Get("Content-Type"))
		}
		l.getHTML(t, fmt.Sprintf("/runs/%d", id))
	})
}

func TestConsole(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		puzzles := l.count(t, `SELECT COUNT(*) FROM puzzles`)
		var res struct {
			Result struct {
				Columns []string `json:"columns"`
				Rows    [][]any  `json:"rows"`
			} `json:"result"`
		}
		l.getJSON(t, "/sql.json?sql="+url.QueryEscape("SELECT COUNT(*) AS n FROM puzzles"), &res)
		if len(res.Result.Rows) != 1 || res.Result.Rows[0][0] != float64(puzzles) {
			t.Errorf("result %v, want %d", res.Result, puzzles)
		}
		// What `sql` without --write refuses, the console refuses.
		for _, stmt := range []string{
			"DELETE FROM puzzles",
			"UPDATE puzzles SET givens = 0",
			"PRAGMA journal_mode = DELETE",
			"ATTACH DATABASE 'x.db' AS x",
			"SELECT load_extension('x')",
			"SELECT writefile('x', 'y')",
		} {
			code, _, body := l.get(t, "/sql.json?sql="+url.QueryEscape(stmt))
			if code != http.StatusBadRequest || !strings.Contains(body, "error") {
				t.Errorf("%s: %d %s, want 400", stmt, code, body)
			}
			// The page shows the refusal beside the statement.
			if page := l.getHTML(t, "/sql?sql="+url.QueryEscape(stmt)); !strings.Contains(page, `class="error"`) {
				t.Errorf("%s: the page shows no error", stmt)
			}
		}
		if got := l.count(t, `SELECT COUNT(*) FROM puzzles`); got != puzzles {
			t.Errorf("puzzles %d after the refused statements, want %d", got, puzzles)
		}
		// The time limit stops a long statement.
		slow := "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
		code, _, body := l.get(t, "/sql.json?timelimit=50&sql="+url.QueryEscape(slow))
		if code != http.StatusBadRequest || !strings.Contains(body, "timeout") {
			t.Errorf("a statement past the time limit: %d %s", code, body)
		}
		// CSV download, and a canned query with a parameter.
		code, h, csv := l.get(t, "/sql.csv?sql="+url.QueryEscape("SELECT 1 AS a, 'x,y' AS b"))
		if code != 200 || csv != "a,b\n1,\"x,y\"\n" || !strings.Contains(h.Get("Content-Disposition"), "attachment") {
			t.Errorf("CSV: %d %q %q", code, csv, h.Get("Content-Disposition"))
		}
		l.getJSON(t, "/sql.json?query=collection-summary", &res)
		if want := l.count(t, `SELECT COUNT(*) FROM collections`); int64(len(res.Result.Rows)) != want {
			t.Errorf("collection-summary: %d rows, want %d", len(res.Result.Rows), want)
		}
		page := l.getHTML(t, "/sql?query=success-by-collection&p.experiment=example-samples")
		if !strings.Contains(page, `name="p.experiment" value="example-samples"`) {
			t.Error("the canned query's form does not keep its parameter")
		}
	})
}

// TestConsoleKeepsCannedResults: on SQLite a canned query's result is kept
// while the lab is unchanged and computed again after a change (never the
// old one shown); one the page does not wait for goes on in the
// background while the page says so and reloads itself. On PostgreSQL,
// whose changes the server cannot see, each request computes it. Typed
// SQL is never kept.
func TestConsoleKeepsCannedResults(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		s := l.server(t, web.Options{})
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		l = &lab{path: l.path, w: l.w, srv: srv}
		type result struct {
			Computing  bool      `json:"computing"`
			ComputedAt time.Time `json:"computed_at"`
			Error      string    `json:"error"`
			Result     struct {
				Rows [][]any `json:"rows"`
			} `json:"result"`
		}
		summary := func() result {
			t.Helper()
			var r result
			l.getJSON(t, "/sql.json?query=collection-summary", &r)
			if r.Computing || r.Error != "" {
				t.Fatalf("collection-summary: %+v", r)
			}
			if want := l.count(t, `SELECT COUNT(DISTINCT collection_id) FROM collection_puzzles`); int64(len(r.Result.Rows)) != want {
				t.Fatalf("collection-summary: %d rows, want %d (the collections with puzzles)", len(r.Result.Rows), want)
			}
			return r
		}
		// On PostgreSQL a job of the server (autovacuum's ANALYZE)
		// may commit between two looks: a third look then keeps.
		first, again := summary(), summary()
		if !again.ComputedAt.Equal(first.ComputedAt) {
			first, again = again, summary()
		}
		if !again.ComputedAt.Equal(first.ComputedAt) || first.ComputedAt.IsZero() {
			t.Errorf("asked again on an unchanged lab: computed at %v, then %v; want the same", first.ComputedAt, again.ComputedAt)
		}
		// The page draws the result kept as the table of any result.
		page := l.getHTML(t, "/sql?query=collection-summary")
		if rows := strings.Count(page, "<tr>"); rows != len(first.Result.Rows)+1 || !strings.Contains(page, "<td class=\"\">"+first.Result.Rows[0][0].(string)+"</td>") {
			t.Errorf("the page of collection-summary: %d table rows, want %d and the first collection", rows, len(first.Result.Rows)+1)
		}
		l.exec(t, `INSERT INTO collections (name, description) VALUES ('added', '')`)
		l.exec(t, `INSERT INTO collection_puzzles (collection_id, puzzle_id, position) SELECT MAX(id), 1, 1 FROM collections`)
		if after := summary(); !after.ComputedAt.After(again.ComputedAt) {
			t.Errorf("after a change: computed at %v, as before", after.ComputedAt)
		}
		// With the background's slot taken, a canned query cannot be
		// computed within the page's wait.
		release := web.HoldCannedSlot(s)
		const hardest = "/sql.json?timelimit=100&query=hardest-puzzles&p.limit=3"
		var r result
		l.getJSON(t, hardest, &r)
		if !r.Computing {
			t.Errorf("a canned query slower than the page's wait: computing %v, want true", r.Computing)
		}
		page = l.getHTML(t, strings.Replace(hardest, ".json", "", 1))
		if refresh := strings.Contains(page, `http-equiv="refresh"`); !refresh || !strings.Contains(page, "Being computed") {
			t.Errorf("the page of a result being computed: refresh %v, want a refresh and \"Being computed\"", refresh)
		}
		code, h, _ := l.get(t, strings.Replace(hardest, ".json", ".csv", 1))
		if code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
			t.Errorf("CSV of a result being computed: %d, Retry-After %q; want 503 with a Retry-After", code, h.Get("Retry-After"))
		}
		release()
		for deadline := time.Now().Add(30 * time.Second); r.Computing; {
			if time.Now().After(deadline) {
				t.Fatalf("hardest-puzzles still computing after 30 s: %+v", r)
			}
			time.Sleep(10 * time.Millisecond)
			r = result{}
			l.getJSON(t, hardest, &r)
		}
		if len(r.Result.Rows) != 3 || r.Error != "" {
			t.Errorf("hardest-puzzles once computed: %d rows, error %q; want 3", len(r.Result.Rows), r.Error)
		}
		// Typed SQL runs in every request.
		const typed = "/sql.json?sql=SELECT+random%28%29+AS+r"
		var r1, r2 result
		l.getJSON(t, typed, &r1)
		l.getJSON(t, typed, &r2)
		if len(r1.Result.Rows) != 1 || len(r2.Result.Rows) != 1 || r1.Result.Rows[0][0] == r2.Result.Rows[0][0] || !r1.ComputedAt.IsZero() {
			t.Errorf("typed SQL asked twice: %v and %v, computed at %v; want two random numbers, not kept", r1.Result.Rows, r2.Result.Rows, r1.ComputedAt)
		}
	})
}

func TestNotFoundAndHeaders(t *testing.T) {
	l := newLab(t)
	for _, p := range []string{"/puzzles/x", "/runs/0", "/experiments/nosuch", "/collections/nosuch", "/nosuch"} {
		code, h, _ := l.get(t, p)
		if code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, code)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", p, h)
		}
	}
	for _, p := range []string{"/collections", "/collections/paper-puzzles", "/experiments", "/sql"} {
		l.getHTML(t, p)
	}
}

func TestLoadingImportLeftOut(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		type counts struct {
			Lab struct {
				Puzzles int64 `json:"puzzles"`
			} `json:"lab"`
		}
		var home counts
		var table catalogPage
		l.getJSON(t, "/index.json", &home)
		l.getJSON(t, "/puzzles.json", &table)
		// An import starts loading: its puzzle and membership stay out of
		// every page until it is published.
		l.exec(t, `INSERT INTO imports (file_name, file_sha256, format, state) VALUES ('x.txt', 'ab', 'line', 'loading')`)
		imp := l.count(t, `SELECT MAX(id) FROM imports`)
		l.addPuzzle(t, 38)
		l.exec(t, `UPDATE puzzles SET import_id = ? WHERE id = (SELECT MAX(id) FROM puzzles)`, imp)
		l.exec(t, `INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label, import_id)
			SELECT (SELECT MIN(id) FROM collections), MAX(id), 1000, 'loading', ? FROM puzzles`, imp)
		var home2 counts
		var table2 catalogPage
		l.getJSON(t, "/index.json", &home2)
		l.getJSON(t, "/puzzles.json?sort=id&desc=1", &table2)
		if home2.Lab.Puzzles != home.Lab.Puzzles || table2.Total != table.Total || len(table2.Rows) > 0 && table2.Rows[0].ID == l.count(t, `SELECT MAX(id) FROM puzzles`) {
			t.Errorf("a loading import shows: %d puzzles (were %d), %d rows (were %d)", home2.Lab.Puzzles, home.Lab.Puzzles, table2.Total, table.Total)
		}
		l.exec(t, `UPDATE imports SET state = 'done' WHERE id = ?`, imp)
		l.getJSON(t, "/index.json", &home2)
		l.getJSON(t, "/puzzles.json", &table2)
		if home2.Lab.Puzzles != home.Lab.Puzzles+1 || table2.Total != table.Total+1 {
			t.Errorf("the published import: %d puzzles (were %d), %d rows (were %d)", home2.Lab.Puzzles, home.Lab.Puzzles, table2.Total, table.Total)
		}
	})
}

func TestPageTimeLimit(t *testing.T) {
	ctx := context.Background()
	r, err := db.OpenOptions(ctx, exampleCopy(t), db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// A limit every page runs past.
	s, err := web.New(ctx, r, web.Options{PageTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := httptest.NewRequest("GET", "/puzzles.json?sort=label", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "took longer than 1ns") {
		t.Errorf("%d %s, want 400 saying the sort took too long", rec.Code, rec.Body)
	}
}

// TestFacetsCountedInTheBackground: with a lag, a change is counted while
// pages show the counts kept, which then follow.
func TestFacetsCountedInTheBackground(t *testing.T) {
	l := newLab(t)
	s := l.server(t, web.Options{FacetsLag: time.Millisecond})
	total := func() *int64 {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/puzzles.json", nil))
		var p struct {
			Total *int64 `json:"total"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &p); rec.Code != 200 || err != nil {
			t.Fatalf("%d %v %s", rec.Code, err, rec.Body)
		}
		return p.Total
	}
	// The first count is waited for (this lab is small).
	before := total()
	if before == nil || *before != l.count(t, `SELECT COUNT(*) FROM puzzle_catalog`) {
		t.Fatalf("first total %v", before)
	}
	l.addPuzzle(t, 37)
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := total()
		if n == nil {
			t.Fatal("the counts kept were dropped while counting again")
		}
		if *n == *before+1 {
			break
		}
		if *n != *before || time.Now().After(deadline) {
			t.Fatalf("total %d, want %d then %d", *n, *before, *before+1)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestNamesInLinks(t *testing.T) {
	l := newLab(t)
	// Names from files may hold anything a path treats specially.
	name := "a/b?c#d <e> 50%"
	l.exec(t, `UPDATE collections SET name = ? WHERE name = 'paper-puzzles'`, name)
	page := l.getHTML(t, "/puzzles/1")
	want := `href="/collections/` + strings.ReplaceAll(url.PathEscape(name), "&", "&amp;") + `"`
	if !strings.Contains(page, want) {
		t.Fatalf("the puzzle page does not link %s", want)
	}
	coll := l.getHTML(t, "/collections/"+url.PathEscape(name))
	if !strings.Contains(coll, "a/b?c#d &lt;e&gt; 50%") {
		t.Error("the collection's page does not name it")
	}
	var c struct {
		Name string `json:"name"`
	}
	l.getJSON(t, "/collections/"+url.PathEscape(name)+".json", &c)
	if c.Name != name {
		t.Errorf("JSON names %q", c.Name)
	}
}
