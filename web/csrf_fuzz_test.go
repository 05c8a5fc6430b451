package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"sudokulab"
)

// FuzzCSRFCheck: a POST is taken exactly when it carries a cookie, the
// token that is the cookie's MAC, and an Origin (or, without one, a
// Referer) naming this server or none; the cookie's value comes back
// whatever bytes it holds.
func FuzzCSRFCheck(f *testing.F) {
	g, err := newCSRFGuard()
	if err != nil {
		f.Fatal(err)
	}
	f.Add("abc", "", "http://127.0.0.1:8080", "", true)
	f.Add("abc", "x", "null", "", false)
	f.Add("", "", "", "http://evil.example/", true)
	f.Add("n", "n", "", "", true)
	f.Fuzz(func(t *testing.T, nonce, token, origin, referer string, rightToken bool) {
		if rightToken {
			token = g.mac(nonce)
		}
		r := httptest.NewRequest("POST", "http://127.0.0.1:8080/puzzles/tag", strings.NewReader(url.Values{csrfField: {token}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", origin)
		r.Header.Set("Referer", referer)
		r.AddCookie(&http.Cookie{Name: g.cookie, Value: nonce})
		if err := r.ParseForm(); err != nil {
			t.Skip() // not a form this test can send
		}
		c, cerr := r.Cookie(g.cookie)
		sent := cerr == nil && c.Value != ""
		from := origin
		if from == "" {
			from = referer
		}
		want := sent && token == g.mac(c.Value) && (from == "" || sameHost(from, "127.0.0.1:8080"))
		if got := g.check(r) == nil; got != want {
			t.Errorf("cookie %q (sent %v) token %q origin %q referer %q: taken %v, want %v", nonce, sent, token, origin, referer, got, want)
		}
	})
}

// FuzzSelectionQuery: any text in a form's selection field is a query of
// the puzzle table without page token or size, or an EINVALID error.
func FuzzSelectionQuery(f *testing.F) {
	for _, s := range []string{"", "collection=a&sort=givens&desc=1&next=x&size=3", "givens=x", "level.human=hard&count=unique",
		"shape=3x3&givens=17", "%zz", "nocollection=1&sort=rating:se"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sel string) {
		r := httptest.NewRequest("POST", "/puzzles/freeze", nil)
		r.PostForm = url.Values{"selection": {sel}}
		q, cq, err := selectionQuery(r)
		if err != nil {
			if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("selection %q: %v, want an EINVALID error", sel, err)
			}
			return
		}
		if q.Has("next") || q.Has("size") || cq.After != "" || cq.Limit != 0 {
			t.Errorf("selection %q: %v %+v keeps a page token or size", sel, q, cq)
		}
		if cq.Sort != q.Get("sort") || cq.Desc != (q.Get("desc") == "1") || cq.Filter.Collection != q.Get("collection") {
			t.Errorf("selection %q: %+v, not its query %v", sel, cq, q)
		}
	})
}
