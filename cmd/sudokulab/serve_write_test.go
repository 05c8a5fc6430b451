package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestServeWrite: serve --write takes a tag posted from its own page with
// the page's token; serve without it has no such route (404, or 405 where
// a page has the path).
func TestServeWrite(t *testing.T) {
	for _, write := range []bool{false, true} {
		args := []string{"--addr", "127.0.0.1:0"}
		if write {
			args = append(args, "--write")
		}
		base, _, stop := startServe(t, args...)
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(base + "puzzles/1")
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		token := ""
		if m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindSubmatch(page); m != nil {
			token = string(m[1])
		}
		if (token != "") != write {
			t.Errorf("serve (--write %v): the puzzle page's token is %q", write, token)
		}
		req, _ := http.NewRequest("POST", base+"puzzles/1/tags", strings.NewReader(url.Values{"csrf": {token}, "tag": {"from-serve"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", strings.TrimSuffix(base, "/"))
		resp, err = client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if write && resp.StatusCode != http.StatusSeeOther || !write && resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("serve (--write %v): POST a tag: %s", write, resp.Status)
		}
		resp, err = http.Get(base + "puzzles/1.json")
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Tags []struct {
				Tag string `json:"tag"`
			} `json:"tags"`
		}
		err = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if err != nil || (len(p.Tags) == 1) != write {
			t.Errorf("serve (--write %v): puzzle 1's tags after the POST: %+v %v", write, p.Tags, err)
		}
		stop()
	}
}
