package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/pgtest"
	"sudokulab/raters"
	"sudokulab/web"
)

// writeLab is a lab whose server writes (serve --write), with a
// browser-like client: it keeps cookies and does not follow redirects.
type writeLab struct {
	*lab
	s      *web.Server
	client *http.Client
}

// newWriteLab returns a writeLab on SQLite (dsn "") or PostgreSQL, whose
// server writes through the lab's writer with the options o.
func newWriteLab(t *testing.T, dsn string, o web.Options) *writeLab {
	t.Helper()
	l := newLabOn(t, dsn)
	o.Version, o.FacetsLag, o.Writer = "v-test", -1, l.w
	s := l.server(t, o)
	// The lab's requests go to this server from now on.
	l.srv = httptest.NewServer(s)
	t.Cleanup(l.srv.Close)
	jar, _ := cookiejar.New(nil)
	return &writeLab{lab: l, s: s, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// onWriteEngines runs fn on a writeLab on SQLite and on PostgreSQL.
func onWriteEngines(t *testing.T, o web.Options, fn func(t *testing.T, l *writeLab)) {
	t.Run("SQLite", func(t *testing.T) { fn(t, newWriteLab(t, "", o)) })
	t.Run("PostgreSQL", func(t *testing.T) { fn(t, newWriteLab(t, pgtest.DSN(t), o)) })
}

var tokenRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// page GETs path as the browser and returns the body and the CSRF token
// of its forms ("" when it has none).
func (l *writeLab) page(t *testing.T, path string) (string, string) {
	t.Helper()
	resp, err := l.client.Get(l.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	m := tokenRE.FindSubmatch(b)
	if m == nil {
		return string(b), ""
	}
	return string(b), string(m[1])
}

// post POSTs the form to path as a page of the server would (Origin
// this server), with the headers given in pairs after it (an empty value
// removes one), and returns the status, the Location and the body.
func (l *writeLab) post(t *testing.T, path string, form url.Values, header ...string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", l.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", l.srv.URL)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := l.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// state counts the rows curation writes: collections, memberships, tags
// and ratings.
func (l *writeLab) state(t *testing.T) string {
	t.Helper()
	var parts []string
	for _, table := range []string{"collections", "collection_puzzles", "puzzle_tags", "ratings"} {
		parts = append(parts, fmt.Sprintf("%s %d", table, l.count(t, `SELECT COUNT(*) FROM `+table)))
	}
	return strings.Join(parts, ", ")
}

// pageIDs returns the puzzle ids of every row of /puzzles under query, in
// order, each once (at its first row), and their labels there.
func (l *writeLab) pageIDs(t *testing.T, query string) ([]int64, []string) {
	t.Helper()
	var page struct {
		Rows []struct {
			ID    int64   `json:"id"`
			Label *string `json:"label"`
		} `json:"rows"`
		Next string `json:"next"`
	}
	l.getJSON(t, "/puzzles.json?size=1000&"+query, &page)
	if page.Next != "" {
		t.Fatalf("%s: more than one page", query)
	}
	var ids []int64
	var labels []string
	for _, r := range page.Rows {
		if slices.Contains(ids, r.ID) {
			continue
		}
		ids = append(ids, r.ID)
		label := ""
		if r.Label != nil {
			label = *r.Label
		}
		labels = append(labels, label)
	}
	return ids, labels
}

// TestReadOnlyServerHasNoWrites: a server without a writer has no POST
// route and no form, and a POST changes nothing.
func TestReadOnlyServerHasNoWrites(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		before := (&writeLab{lab: l}).state(t)
		for _, p := range []string{"/puzzles/freeze", "/puzzles/tag", "/puzzles/untag", "/puzzles/rate", "/puzzles/1/tags", "/puzzles/1/untag", "/rates/1/stop", "/", "/sql"} {
			resp, err := http.PostForm(l.srv.URL+p, url.Values{"name": {"x"}, "tag": {"x"}, "rater": {"givens"}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
				t.Errorf("POST %s on a read-only server: %s, want 405 or 404", p, resp.Status)
			}
		}
		for _, p := range []string{"/puzzles", "/puzzles/1"} {
			if body := l.getHTML(t, p); strings.Contains(body, `method="post"`) || strings.Contains(body, "csrf") {
				t.Errorf("%s on a read-only server has a form that posts", p)
			}
		}
		if code, _, _ := l.get(t, "/rates"); code != http.StatusNotFound {
			t.Errorf("/rates on a read-only server: %d, want 404", code)
		}
		if after := (&writeLab{lab: l}).state(t); after != before {
			t.Errorf("the POSTs wrote: %s, then %s", before, after)
		}
	})
}

// TestFreezeSelection freezes the puzzle table's selection: a frozen
// collection holding its puzzles in its order, each with its label, as the
// table shows them; an existing name is refused and changes nothing.
func TestFreezeSelection(t *testing.T) {
	onWriteEngines(t, web.Options{}, func(t *testing.T, l *writeLab) {
		for i, sel := range []string{"collection=paper-puzzles&sort=givens&desc=1", "sort=rating:human", "sort=label", "givens=40"} {
			name := fmt.Sprintf("frozen-%d", i)
			body, tok := l.page(t, "/puzzles?"+sel+"&size=2")
			if tok == "" || !strings.Contains(body, `action="/puzzles/freeze"`) {
				t.Fatalf("/puzzles?%s has no freeze form", sel)
			}
			code, loc, body := l.post(t, "/puzzles/freeze", url.Values{"csrf": {tok}, "selection": {sel + "&size=2"}, "name": {name}})
			if code != http.StatusSeeOther || loc != "/collections/"+name {
				t.Fatalf("freeze %s: %d %q %s", sel, code, loc, body)
			}
			wantIDs, wantLabels := l.pageIDs(t, sel)
			if len(wantIDs) < 1 {
				t.Fatalf("%s selects nothing", sel)
			}
			rows, err := l.w.QueryContext(context.Background(), l.w.Rebind(`SELECT cp.puzzle_id, cp.label, cp.position, c.frozen, c.description
				FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id WHERE c.name = ? ORDER BY cp.position`), name)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			var labels []string
			for rows.Next() {
				var id, pos, frozen int64
				var label, desc string
				if err := rows.Scan(&id, &label, &pos, &frozen, &desc); err != nil {
					t.Fatal(err)
				}
				if pos != int64(len(ids)+1) || frozen != 1 || !strings.Contains(desc, "/puzzles?") {
					t.Errorf("%s: position %d frozen %d description %q", name, pos, frozen, desc)
				}
				ids, labels = append(ids, id), append(labels, label)
			}
			rows.Close()
			if !slices.Equal(ids, wantIDs) || !slices.Equal(labels, wantLabels) {
				t.Errorf("freeze %s: %v %q, want the table's %v %q", sel, ids, labels, wantIDs, wantLabels)
			}
			// The collection's page and puzzles, as for one made by collections add.
			var coll struct {
				Frozen  bool   `json:"frozen"`
				Puzzles *int64 `json:"puzzles"`
			}
			l.getJSON(t, "/collections/"+name+".json", &coll)
			if !coll.Frozen || coll.Puzzles == nil || *coll.Puzzles != int64(len(wantIDs)) {
				t.Errorf("/collections/%s: %+v, want frozen with %d puzzles", name, coll, len(wantIDs))
			}
		}
		before := l.state(t)
		_, tok := l.page(t, "/puzzles")
		code, _, body := l.post(t, "/puzzles/freeze", url.Values{"csrf": {tok}, "selection": {"givens=40"}, "name": {"frozen-0"}})
		if code != http.StatusBadRequest || !strings.Contains(body, "collection frozen-0 exists: choose another name") {
			t.Errorf("freeze onto an existing name: %d %s", code, body)
		}
		code, _, body = l.post(t, "/puzzles/freeze", url.Values{"csrf": {tok}, "selection": {"givens=x"}, "name": {"bad"}})
		if code != http.StatusBadRequest || !strings.Contains(body, "givens") {
			t.Errorf("freeze of a bad selection: %d %s", code, body)
		}
		if after := l.state(t); after != before {
			t.Errorf("refused freezes wrote: %s, then %s", before, after)
		}
	})
}

// TestFreezeSelectionBound refuses a selection of more rows than
// MaxSelection to freeze or untag, writing nothing.
func TestFreezeSelectionBound(t *testing.T) {
	l := newWriteLab(t, "", web.Options{MaxSelection: 3})
	before := l.state(t)
	_, tok := l.page(t, "/puzzles")
	code, _, body := l.post(t, "/puzzles/freeze", url.Values{"csrf": {tok}, "selection": {""}, "name": {"all"}})
	if code != http.StatusBadRequest || !strings.Contains(body, "more than 3 rows") {
		t.Errorf("freeze of every row with MaxSelection 3: %d %s", code, body)
	}
	if after := l.state(t); after != before {
		t.Errorf("a refused freeze wrote: %s, then %s", before, after)
	}
	// Nor is a tag taken off more rows than the bound.
	l.exec(t, `INSERT INTO puzzle_tags (puzzle_id, tag, added_at) SELECT id, 'all', '2026-01-01T00:00:00Z' FROM puzzles`)
	before = l.state(t)
	code, _, body = l.post(t, "/puzzles/untag", url.Values{"csrf": {tok}, "selection": {""}, "tag": {"all"}})
	if code != http.StatusBadRequest || !strings.Contains(body, "more than 3 rows") {
		t.Errorf("untag of every row with MaxSelection 3: %d %s", code, body)
	}
	if after := l.state(t); after != before {
		t.Errorf("a refused untag wrote: %s, then %s", before, after)
	}
}

// TestTags tags a selection and a puzzle, shows a tag holding markup as
// text, and takes a tag off a puzzle and off a whole selection.
func TestTags(t *testing.T) {
	onWriteEngines(t, web.Options{}, func(t *testing.T, l *writeLab) {
		const tag = `<script>alert("x")</script>`
		_, tok := l.page(t, "/puzzles?collection=nb-coin")
		code, loc, body := l.post(t, "/puzzles/tag", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "tag": {" " + tag + " "}})
		if code != http.StatusSeeOther || loc != "/tags/"+url.PathEscape(tag) {
			t.Fatalf("tag the selection: %d %q %s", code, loc, body)
		}
		ids, _ := l.pageIDs(t, "collection=nb-coin")
		if n := l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ?`, tag); n != int64(len(ids)) {
			t.Errorf("%d puzzles tagged, want the selection's %d", n, len(ids))
		}
		// Again: nothing new.
		l.post(t, "/puzzles/tag", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "tag": {tag}})
		if n := l.count(t, `SELECT COUNT(*) FROM puzzle_tags`); n != int64(len(ids)) {
			t.Errorf("tagging again: %d tags, want %d", n, len(ids))
		}
		var tp struct {
			Tag     string `json:"tag"`
			Puzzles []struct {
				ID int64 `json:"puzzle_id"`
			} `json:"puzzles"`
			PuzzlesURL string `json:"puzzles_url"`
		}
		l.getJSON(t, loc+".json", &tp)
		if tp.Tag != tag || len(tp.Puzzles) != len(ids) {
			t.Errorf("%s.json: %+v, want %d puzzles", loc, tp, len(ids))
		}
		// The puzzle table filtered by the tag lists them.
		if q, ok := strings.CutPrefix(tp.PuzzlesURL, "/puzzles?"); !ok {
			t.Errorf("%s.json: puzzles_url %q", loc, tp.PuzzlesURL)
		} else if got, _ := l.pageIDs(t, q); !slices.Equal(got, ids) {
			t.Errorf("%s: puzzles %v, want %v", tp.PuzzlesURL, got, ids)
		}
		page, tok := l.page(t, fmt.Sprintf("/puzzles/%d", ids[0]))
		if strings.Contains(page, "<script>") || !strings.Contains(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
			t.Errorf("the puzzle page does not show the tag as text")
		}
		for _, p := range []string{"/tags", loc} {
			if body, _ := l.page(t, p); strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
				t.Errorf("%s does not show the tag as text", p)
			}
		}

		// One puzzle from its page, then the tag taken off.
		other := l.count(t, `SELECT MAX(id) FROM puzzles`)
		pp := fmt.Sprintf("/puzzles/%d", other)
		code, loc, body = l.post(t, pp+"/tags", url.Values{"csrf": {tok}, "tag": {"keep"}})
		if code != http.StatusSeeOther || loc != pp {
			t.Fatalf("tag puzzle %d: %d %q %s", other, code, loc, body)
		}
		if page, _ := l.page(t, pp); !strings.Contains(page, `href="/tags/keep"`) || !strings.Contains(page, `<option>keep</option>`) {
			t.Errorf("%s does not list its tag, or offer to take it off", pp)
		}
		var pj struct {
			Tags []struct {
				Tag string `json:"tag"`
			} `json:"tags"`
		}
		l.getJSON(t, pp+".json", &pj)
		if len(pj.Tags) != 1 || pj.Tags[0].Tag != "keep" {
			t.Errorf("%s.json tags: %+v, want keep", pp, pj.Tags)
		}
		code, _, body = l.post(t, pp+"/untag", url.Values{"csrf": {tok}, "tag": {"keep"}})
		if code != http.StatusSeeOther || l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = 'keep'`) != 0 {
			t.Errorf("untag: %d %s", code, body)
		}

		// The tag taken off a whole selection: the puzzles outside it
		// keep it.
		if page, _ := l.page(t, "/puzzles?collection=nb-coin"); !strings.Contains(page, `action="/puzzles/untag"`) {
			t.Error("the puzzle table has no form to take a tag off its selection")
		}
		l.post(t, pp+"/tags", url.Values{"csrf": {tok}, "tag": {tag}})
		code, loc, body = l.post(t, "/puzzles/untag", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "tag": {" " + tag + " "}})
		if code != http.StatusSeeOther || loc != "/tags/"+url.PathEscape(tag) {
			t.Fatalf("untag the selection: %d %q %s", code, loc, body)
		}
		if n := l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ?`, tag); n != 1 ||
			l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ? AND puzzle_id = ?`, tag, other) != 1 {
			t.Errorf("after untagging nb-coin: %d puzzles tagged, want %d only", n, other)
		}
		before := l.state(t)
		if code, _, body = l.post(t, "/puzzles/untag", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "tag": {tag}}); code != http.StatusNotFound {
			t.Errorf("untag a selection none of whose puzzles has the tag: %d %s, want 404", code, body)
		}
		if after := l.state(t); after != before {
			t.Errorf("an untag of nothing wrote: %s, then %s", before, after)
		}
		code, loc, body = l.post(t, "/puzzles/untag", url.Values{"csrf": {tok}, "selection": {""}, "tag": {tag}})
		if code != http.StatusSeeOther || loc != "/tags" || l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ?`, tag) != 0 {
			t.Errorf("untag every puzzle: %d %q %s", code, loc, body)
		}
		for _, bad := range []struct{ path, tag string }{{"/puzzles/999999/tags", "x"}, {pp + "/tags", "  "}, {pp + "/tags", "a\nb"}, {"/puzzles/untag", " "}} {
			before := l.state(t)
			code, _, body = l.post(t, bad.path, url.Values{"csrf": {tok}, "tag": {bad.tag}})
			if code != http.StatusBadRequest && code != http.StatusNotFound {
				t.Errorf("POST %s tag %q: %d %s, want 400 or 404", bad.path, bad.tag, code, body)
			}
			if after := l.state(t); after != before {
				t.Errorf("POST %s tag %q wrote: %s, then %s", bad.path, bad.tag, before, after)
			}
		}
	})
}

// TestWritesNeedToken refuses with 403, writing nothing, every POST
// without the cookie and its token, with a wrong token, or from another
// origin; and no GET writes.
func TestWritesNeedToken(t *testing.T) {
	onWriteEngines(t, web.Options{}, func(t *testing.T, l *writeLab) {
		_, tok := l.page(t, "/puzzles")
		u, _ := url.Parse(l.srv.URL)
		var cookie *http.Cookie
		for _, c := range l.client.Jar.Cookies(u) {
			if strings.HasPrefix(c.Name, "sudokulab_csrf") {
				cookie = c
			}
		}
		if cookie == nil || tok == "" {
			t.Fatalf("no CSRF cookie (%v) or token (%q)", l.client.Jar.Cookies(u), tok)
		}
		// The cookie's attributes, as the server sent them.
		resp, err := http.Get(l.srv.URL + "/puzzles")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		sc := resp.Header.Get("Set-Cookie")
		if !strings.Contains(sc, "SameSite=Strict") || !strings.Contains(sc, "HttpOnly") {
			t.Errorf("Set-Cookie %q: want SameSite=Strict and HttpOnly", sc)
		}
		wrong := []byte(tok)
		wrong[0] ^= 1
		forms := map[string]url.Values{
			"/puzzles/freeze": {"selection": {""}, "name": {"x"}},
			"/puzzles/tag":    {"selection": {""}, "tag": {"x"}},
			"/puzzles/untag":  {"selection": {""}, "tag": {"x"}},
			"/puzzles/rate":   {"selection": {""}, "rater": {"givens"}},
			"/puzzles/1/tags": {"tag": {"x"}},
		}
		before := l.state(t)
		for path, f := range forms {
			with := func(token string) url.Values {
				g := url.Values{}
				for k, v := range f {
					g[k] = v
				}
				if token != "" {
					g.Set("csrf", token)
				}
				return g
			}
			for _, c := range []struct {
				why    string
				form   url.Values
				header []string
			}{
				{"no token", with(""), nil},
				{"a wrong token", with(string(wrong)), nil},
				{"another server's token", with(strings.Repeat("0", len(tok))), nil},
				{"another origin", with(tok), []string{"Origin", "http://evil.example"}},
				{"origin null", with(tok), []string{"Origin", "null"}},
				{"another referer", with(tok), []string{"Origin", "", "Referer", "http://evil.example/puzzles"}},
			} {
				code, _, body := l.post(t, path, c.form, c.header...)
				if code != http.StatusForbidden {
					t.Errorf("POST %s with %s: %d %s, want 403", path, c.why, code, body)
				}
			}
			// The right token without the cookie.
			req, _ := http.NewRequest("POST", l.srv.URL+path, strings.NewReader(with(tok).Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s with the token but no cookie: %s, want 403", path, resp.Status)
			}
		}
		if after := l.state(t); after != before {
			t.Errorf("refused POSTs wrote: %s, then %s", before, after)
		}
		// GETs of the write paths and of every page kind write nothing.
		for _, p := range []string{"/puzzles/freeze?name=x&selection=", "/puzzles/tag?tag=x", "/puzzles/untag?tag=x", "/puzzles/rate?rater=givens", "/puzzles/1/tags?tag=x",
			"/puzzles", "/puzzles/1", "/tags", "/rates", "/collections", "/"} {
			code, _, _ := l.get(t, p)
			if code >= 500 {
				t.Errorf("GET %s: %d", p, code)
			}
		}
		if after := l.state(t); after != before {
			t.Errorf("GETs wrote: %s, then %s", before, after)
		}
		// The right token with the cookie and Referer of this server
		// (no Origin) is taken.
		code, _, body := l.post(t, "/puzzles/1/tags", url.Values{"csrf": {tok}, "tag": {"ok"}}, "Origin", "", "Referer", l.srv.URL+"/puzzles/1")
		if code != http.StatusSeeOther || l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = 'ok'`) != 1 {
			t.Errorf("POST with token, cookie and Referer: %d %s", code, body)
		}
	})
}

// gate is a rater for the tests: it rates a puzzle by its givens once
// released, and stops when its context ends.
type gate struct {
	release chan struct{}
	once    sync.Once
}

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

func (g *gate) info() raters.Info {
	return raters.Info{Name: "gate", Summary: "waits, then counts the givens", Timeout: time.Hour,
		New: func(context.Context, raters.Env) (raters.Rater, error) { return g, nil }}
}

func (g *gate) Name() string    { return "gate" }
func (g *gate) Version() string { return "1" }
func (g *gate) Options() string { return "{}" }
func (g *gate) Rate(ctx context.Context, p sudokulab.Grid) (sudokulab.Rating, error) {
	select {
	case <-g.release:
		v := float64(p.Givens())
		return sudokulab.Rating{Rater: "gate", RaterVersion: "1", Options: "{}", Value: &v}, nil
	case <-ctx.Done():
		return sudokulab.Rating{}, fmt.Errorf("gate: %w", ctx.Err())
	}
}

type rateState struct {
	State   string `json:"state"`
	Puzzles int    `json:"puzzles"`
	Written int    `json:"written"`
	Raters  []struct {
		Rater string `json:"rater"`
		Rated int    `json:"rated"`
	} `json:"raters"`
}

// waitRate polls the rate's JSON until it is no longer running.
func (l *writeLab) waitRate(t *testing.T, path string) rateState {
	t.Helper()
	for {
		var st rateState
		l.getJSON(t, path+".json", &st)
		if st.State != "running" {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRateSelection starts a rate of the selection in the background: the
// POST answers while it runs, a second one is refused meanwhile, and the
// page shows it done with the ratings stored; another is stopped from its
// page, and one is stopped by the server's Close, keeping what it rated.
func TestRateSelection(t *testing.T) {
	g := &gate{release: make(chan struct{})}
	reg := raters.NewRegistry(g.info(), raters.GivensInfo())
	onWriteEngines(t, web.Options{Raters: reg}, func(t *testing.T, l *writeLab) {
		g.release = make(chan struct{})
		g.once = sync.Once{}
		body, tok := l.page(t, "/puzzles?collection=nb-coin")
		if !strings.Contains(body, `<option>gate</option>`) {
			t.Fatalf("the rate form does not offer the registry's raters")
		}
		ids, _ := l.pageIDs(t, "collection=nb-coin")
		code, loc, body := l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "rater": {"gate"}})
		if code != http.StatusSeeOther || loc != "/rates/1" {
			t.Fatalf("start a rate: %d %q %s", code, loc, body)
		}
		// Blocked on the gate, so running for sure.
		var st rateState
		l.getJSON(t, loc+".json", &st)
		if st.State != "running" || st.Puzzles != len(ids) {
			t.Errorf("rate 1 before the gate opens: %+v, want running on %d puzzles", st, len(ids))
		}
		if page, _ := l.page(t, loc); !strings.Contains(page, `action="/rates/1/stop"`) {
			t.Errorf("a running rate's page has no stop button")
		}
		code, _, body = l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {""}, "rater": {"givens"}})
		if code != http.StatusBadRequest || !strings.Contains(body, "rate 1 is running") {
			t.Errorf("a second rate while one runs: %d %s", code, body)
		}
		g.open()
		st = l.waitRate(t, loc)
		if st.State != "done" || st.Written != len(ids) || len(st.Raters) != 1 || st.Raters[0].Rated != len(ids) {
			t.Errorf("rate 1: %+v, want done with %d ratings", st, len(ids))
		}
		if n := l.count(t, `SELECT COUNT(*) FROM ratings WHERE rater = 'gate'`); n != int64(len(ids)) {
			t.Errorf("%d gate ratings stored, want %d", n, len(ids))
		}

		// Stopped from its page: nothing rated, state stopped.
		g.release = make(chan struct{})
		g.once = sync.Once{}
		code, loc, body = l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {""}, "rater": {"gate"}, "force": {"1"}})
		if code != http.StatusSeeOther || loc != "/rates/2" {
			t.Fatalf("start rate 2: %d %q %s", code, loc, body)
		}
		if code, _, body := l.post(t, loc+"/stop", url.Values{"csrf": {tok}}); code != http.StatusSeeOther {
			t.Fatalf("stop rate 2: %d %s", code, body)
		}
		if st := l.waitRate(t, loc); st.State != "stopped" {
			t.Errorf("rate 2 after stop: %+v, want stopped", st)
		}

		// Ended by the server's Close: stopped, the ratings made kept.
		code, loc, _ = l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {"collection=nb-coin"}, "rater": {"givens"}, "force": {"1"}})
		if code != http.StatusSeeOther {
			t.Fatalf("start rate 3: %d", code)
		}
		st = l.waitRate(t, loc)
		if st.State != "done" || st.Written != len(ids) {
			t.Errorf("rate 3 (givens): %+v", st)
		}
		code, loc, _ = l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {""}, "rater": {"gate"}, "force": {"1"}})
		if code != http.StatusSeeOther {
			t.Fatalf("start rate 4: %d", code)
		}
		l.s.Close()
		var end rateState
		l.getJSON(t, loc+".json", &end)
		if end.State != "stopped" {
			t.Errorf("rate 4 after Close: %+v, want stopped", end)
		}
		if n := l.count(t, `SELECT COUNT(*) FROM ratings WHERE rater = 'gate'`); n != int64(len(ids)) {
			t.Errorf("%d gate ratings after the stopped rates, want rate 1's %d", n, len(ids))
		}
	})
}

// TestServeStopsRates: when Serve's context ends, the rates under way end
// too (stopped) before Serve returns.
func TestServeStopsRates(t *testing.T) {
	g := &gate{release: make(chan struct{})}
	l := newWriteLab(t, "", web.Options{Raters: raters.NewRegistry(g.info())})
	_, tok := l.page(t, "/puzzles")
	code, loc, body := l.post(t, "/puzzles/rate", url.Values{"csrf": {tok}, "selection": {""}, "rater": {"gate"}})
	if code != http.StatusSeeOther {
		t.Fatalf("start a rate: %d %s", code, body)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.s.Serve(ctx, ln) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve: %v", err)
	}
	var st rateState
	l.getJSON(t, loc+".json", &st)
	if st.State != "stopped" {
		t.Errorf("the rate after Serve returned: %+v, want stopped", st)
	}
}
