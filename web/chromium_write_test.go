package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sudokulab/raters"
	"sudokulab/web"
)

// TestCurationInChromium submits the curation forms of a server that
// writes (serve --write) in a headless Chromium, as a curator would: a
// tag holding markup put on a selection shows as text on the pages, a
// frozen selection becomes a collection with the table's order, a tag is
// taken off a puzzle and then off the rest of the selection, a rate's open page follows it to done; a form sent without its token,
// or from a page of another origin holding the right token, is refused
// with 403 and writes nothing. No page reports a console or script error
// or a Content-Security-Policy violation.
func TestCurationInChromium(t *testing.T) {
	g := &gate{release: make(chan struct{})}
	l := newWriteLab(t, "", web.Options{Raters: raters.NewRegistry(g.info(), raters.GivensInfo())})
	ctx, problems := browser(t, l.srv.URL)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	const tag = `<script>alert("tag")</script>`
	afterSubmit := func() {
		t.Helper()
		// Evaluated again until the next page is there: an evaluation
		// under way when the page goes fails, and is tried again.
		for {
			done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!window.curationBefore && document.readyState === "complete"`))
			if err == nil && done {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("no page after the form: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	at := func() string {
		t.Helper()
		u, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(u, l.srv.URL)
	}
	submit := func(form string, fields map[string]string) {
		t.Helper()
		// The page before is marked, to wait for the one after.
		acts := []chromedp.Action[chromedp.Void]{chromedp.Evaluate[chromedp.Void](`window.curationBefore = true; undefined`)}
		for name, v := range fields {
			acts = append(acts, chromedp.SetValue(chromedp.CSS(form+` [name="`+name+`"]`), v))
		}
		acts = append(acts, chromedp.Click(chromedp.CSS(form+` button[type="submit"]`)))
		if err := chromedp.Do(ctx, acts...); err != nil {
			t.Fatalf("submit %s: %v", form, err)
		}
		afterSubmit()
	}
	navigate := func(path string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(l.srv.URL+path)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}

	// Tag the selection: the tag's page names it as text.
	navigate("/puzzles?collection=nb-coin&sort=givens")
	submit(`form[action="/puzzles/tag"]`, map[string]string{"tag": tag})
	if got := text("h1"); got != "Tag "+tag {
		t.Errorf("after tagging, at %s the heading is %q, want the tag as text", at(), got)
	}
	ids, _ := l.pageIDs(t, "collection=nb-coin")
	if n := l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ?`, tag); n != int64(len(ids)) {
		t.Errorf("%d puzzles tagged from the browser, want %d", n, len(ids))
	}
	if scripts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.scripts.length`)); err != nil || scripts != 0 {
		t.Errorf("the tag page has %d script elements (%v), want none", scripts, err)
	}

	// Freeze the selection in its order.
	navigate("/puzzles?collection=nb-coin&sort=givens&desc=1")
	submit(`form[action="/puzzles/freeze"]`, map[string]string{"name": "from-the-browser"})
	if got := text("h1"); got != "Collection from-the-browser" || at() != "/collections/from-the-browser" {
		t.Errorf("after freezing, at %s: %q", at(), got)
	}
	want, _ := l.pageIDs(t, "collection=nb-coin&sort=givens&desc=1")
	first := l.count(t, `SELECT cp.puzzle_id FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		WHERE c.name = 'from-the-browser' AND cp.position = 1`)
	if n := l.count(t, `SELECT COUNT(*) FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		WHERE c.name = 'from-the-browser' AND c.frozen = 1`); n != int64(len(want)) || first != want[0] {
		t.Errorf("frozen from the browser: %d puzzles, the first %d; want %d, the first %d", n, first, len(want), want[0])
	}

	// The puzzle page lists the tag as text; its × takes it off.
	pp := fmt.Sprintf("/puzzles/%d", ids[0])
	navigate(pp)
	if got := text("ul.tags a"); got != tag {
		t.Errorf("%s lists the tag as %q", pp, got)
	}
	submit(`form[action$="/untag"]`, map[string]string{"tag": tag})
	if at() != pp || l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE puzzle_id = ?`, ids[0]) != 0 {
		t.Errorf("after taking the tag off, at %s with %d tags", at(), l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE puzzle_id = ?`, ids[0]))
	}

	// The table's form takes the tag off the rest of the selection: no
	// puzzle has it, so the tags' page follows.
	navigate("/puzzles?collection=nb-coin&sort=givens")
	submit(`form[action="/puzzles/untag"]`, map[string]string{"tag": tag})
	if n := l.count(t, `SELECT COUNT(*) FROM puzzle_tags WHERE tag = ?`, tag); at() != "/tags" || n != 0 {
		t.Errorf("after taking the tag off the selection, at %s with %d puzzles tagged", at(), n)
	}

	// A rate: its page says running while the gate holds it, then, once
	// the rate is done, says so by itself (rate.js).
	navigate("/puzzles?collection=nb-coin")
	submit(`form[action="/puzzles/rate"]`, map[string]string{"rater": "gate"})
	if h := text("h1"); at() != "/rates/1" || h != "Rate 1: running" {
		t.Fatalf("after starting a rate, at %s: %q", at(), h)
	}
	g.open()
	for {
		h, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("h1") ? document.querySelector("h1").textContent : ""`))
		if err == nil && h == "Rate 1: done" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the open rate page did not come to say done: %q %v", h, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := text("td"); got != "gate" {
		t.Errorf("the done rate's page shows %q for its rater", got)
	}

	// Refused: the form without its token, then the right token from a
	// page of another origin.
	before := l.state(t)
	navigate("/puzzles?collection=nb-coin")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('form[action="/puzzles/tag"] [name="csrf"]').remove() === undefined`)); err != nil {
		t.Fatal(err)
	}
	submit(`form[action="/puzzles/tag"]`, map[string]string{"tag": "no-token"})
	if got := text("h1"); got != "403" {
		t.Errorf("a form without its token: %q at %s, want 403", got, at())
	}
	navigate("/puzzles")
	cookieTok, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`form[action="/puzzles/tag"] [name="csrf"]`)))
	if err != nil {
		t.Fatal(err)
	}
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>elsewhere</title><form method="post" action="%s/puzzles/tag">
<input type="hidden" name="csrf" value="%s"><input type="hidden" name="selection" value="">
<input name="tag" value="forged"><button type="submit">go</button></form>`, l.srv.URL, html.EscapeString(cookieTok))
	}))
	defer evil.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(evil.URL), chromedp.Evaluate[chromedp.Void](`window.curationBefore = true; undefined`),
		chromedp.Click(chromedp.CSS(`button`))); err != nil {
		t.Fatal(err)
	}
	afterSubmit()
	if got := text("h1"); got != "403" {
		t.Errorf("a form from another origin with the right token: %q at %s, want 403", got, at())
	}
	if after := l.state(t); after != before {
		t.Errorf("refused forms wrote: %s, then %s", before, after)
	}

	for _, p := range problems() {
		// The page elsewhere, and the two refusals, are this test's own.
		if strings.HasPrefix(p, "a request elsewhere: "+evil.URL+"/") || strings.Contains(p, "status of 403 (Forbidden) "+l.srv.URL+"/puzzles/tag") {
			continue
		}
		t.Errorf("Chromium: %s", p)
	}
}
