package web_test

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"sudokulab/web"
)

// TestExperimentFigures: the experiment page shows the pictures of plot
// that its runs can draw: all seven, then, once no run has trajectory
// points, those not drawn from them, the others answering 404 with plot's
// message (not the picture kept from before the change). The ranking
// pictures of all its configurations cannot be drawn (no puzzle was run
// by every one): the page says why instead of showing them.
func TestExperimentFigures(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		shown := func() []string {
			page := l.getHTML(t, "/experiments/example-samples")
			var data struct {
				Figures []struct{ Kind, URL, Error, Command string } `json:"figures"`
			}
			l.getJSON(t, "/experiments/example-samples.json", &data)
			var kinds []string
			for _, f := range data.Figures {
				kinds = append(kinds, f.Kind)
				switch {
				case f.Error == "" && f.URL != "/experiments/example-samples/"+f.Kind+".svg":
					t.Errorf("%s: URL %q", f.Kind, f.URL)
				case f.Error == "" && !strings.Contains(page, `<img class="plot" src="`+f.URL+`"`):
					t.Errorf("the JSON lists %s, the page does not show it", f.Kind)
				case f.Error != "" && (f.URL != "" || !strings.Contains(page, "Not drawn: "+html.EscapeString(f.Error))):
					t.Errorf("%s not drawn (%s): URL %q, or the page does not say why", f.Kind, f.Error, f.URL)
				}
				if want := "sudokulab plot " + f.Kind + " --experiment example-samples -o " + f.Kind + ".svg"; f.Command != want {
					t.Errorf("%s: command %q, want %q", f.Kind, f.Command, want)
				}
			}
			if n := strings.Count(page, "<figure>"); n != len(kinds) {
				t.Errorf("the page shows %d pictures, the JSON lists %v", n, kinds)
			}
			return kinds
		}
		all := "success ecdf convergence ert cd profile aggecdf"
		if got := shown(); strings.Join(got, " ") != all {
			t.Errorf("the page shows %v, want %v", got, all)
		}
		if page := l.getHTML(t, "/experiments/example-samples"); !strings.Contains(page, "Not drawn: compare: no puzzle has a score of every one of the 80 configurations") {
			t.Error("the page does not say why the critical-difference diagram of 80 configurations is not drawn")
		}
		// Drawn (and kept, on SQLite) before the change, drawn again after.
		for range 2 {
			if code, _, _ := l.get(t, "/experiments/example-samples/convergence.svg"); code != http.StatusOK {
				t.Fatalf("convergence.svg: %d", code)
			}
		}
		l.exec(t, `DELETE FROM trajectory_points`)
		if got := shown(); strings.Join(got, " ") != "success ecdf cd profile" {
			t.Errorf("without trajectory points the page shows %v, want success, ecdf, cd and profile", got)
		}
		code, _, body := l.get(t, "/experiments/example-samples/convergence.svg")
		if code != http.StatusNotFound || !strings.Contains(body, "no runs with trajectory points") {
			t.Errorf("convergence.svg without points: %d %s", code, body)
		}
		if code, _, _ := l.get(t, "/experiments/no-such/ecdf.svg"); code != http.StatusNotFound {
			t.Errorf("ecdf.svg of an unknown experiment: %d, want 404", code)
		}
	})
}

// TestFigureAskedAtOnce: requests that ask at once for a picture not yet
// drawn wait for the one drawing and get the same picture (the race
// detector checks that they share the kept picture without writing to
// it), on a server with the default FacetsLag, whose keeper computes in
// the background.
func TestFigureAskedAtOnce(t *testing.T) {
	srv := newLab(t).serveWith(t, web.Options{})
	for _, kind := range []string{"success", "ecdf", "convergence", "ert"} {
		url := srv.URL + "/experiments/example-samples/" + kind + ".svg"
		bodies := make([][]byte, 4)
		errs := make([]error, len(bodies))
		var wg sync.WaitGroup
		for i := range bodies {
			wg.Go(func() {
				resp, err := http.Get(url)
				if err != nil {
					errs[i] = err
					return
				}
				defer resp.Body.Close()
				bodies[i], errs[i] = io.ReadAll(resp.Body)
				if errs[i] == nil && resp.StatusCode != http.StatusOK {
					errs[i] = fmt.Errorf("status %d: %s", resp.StatusCode, bodies[i])
				}
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s, request %d: %v", kind, i+1, err)
			}
			if !bytes.Equal(bodies[i], bodies[0]) {
				t.Errorf("%s: request %d got another picture than request 1", kind, i+1)
			}
		}
	}
}

// TestFigureSettings: the page's query sets plot's flags of each picture
// (its kind's prefixed, the configurations for all), which the picture's
// URL and command carry, the form shows chosen and a reload keeps; the
// form's empty fields are left out of the URL by a redirect; a bad or
// unknown setting is refused with plot's message.
func TestFigureSettings(t *testing.T) {
	l := newLab(t)
	const page = "/experiments/example-samples"
	var data struct {
		Figures []struct{ Kind, URL, Error, Command string } `json:"figures"`
	}
	l.getJSON(t, page+".json?config=exact&config=acs-eq1&ecdf.x=cpu&ert.log-y=false&cd.measure=par&top=3", &data)
	want := map[string][2]string{
		"ecdf": {"/experiments/example-samples/ecdf.svg?config=exact&config=acs-eq1&top=3&x=cpu",
			"sudokulab plot ecdf --experiment example-samples --config exact --config acs-eq1 --top 3 --x=cpu -o ecdf.svg"},
		"ert": {"/experiments/example-samples/ert.svg?config=exact&config=acs-eq1&log-y=false&top=3",
			"sudokulab plot ert --experiment example-samples --config exact --config acs-eq1 --top 3 --log-y=false -o ert.svg"},
		"cd": {"/experiments/example-samples/cd.svg?config=exact&config=acs-eq1&measure=par&top=3",
			"sudokulab plot cd --experiment example-samples --config exact --config acs-eq1 --top 3 --measure=par -o cd.svg"},
		"success": {"/experiments/example-samples/success.svg?config=exact&config=acs-eq1&top=3",
			"sudokulab plot success --experiment example-samples --config exact --config acs-eq1 --top 3 -o success.svg"},
	}
	for _, f := range data.Figures {
		w, ok := want[f.Kind]
		if !ok {
			continue
		}
		delete(want, f.Kind)
		if f.URL != w[0] || f.Command != w[1] || f.Error != "" {
			t.Errorf("%s: URL %q, command %q, error %q; want %q, %q", f.Kind, f.URL, f.Command, f.Error, w[0], w[1])
		}
	}
	if len(want) > 0 {
		t.Errorf("the page has no pictures %v", want)
	}
	// The form shows what the query chose.
	form := l.getHTML(t, page+"?config=exact&ecdf.x=cpu")
	for _, s := range []string{`<details open>`, `<input type="checkbox" name="config" value="exact" checked>`,
		`<input type="checkbox" name="config" value="acs-eq1">`, `<option selected>cpu</option>`, `<select name="ert.log-y"><option value="">true (default)</option>`} {
		if !strings.Contains(form, s) {
			t.Errorf("the page's form has no %s", s)
		}
	}
	// Another setting, another picture.
	_, _, plain := l.get(t, "/experiments/example-samples/ecdf.svg")
	code, _, cpu := l.get(t, "/experiments/example-samples/ecdf.svg?x=cpu")
	if code != http.StatusOK || cpu == plain {
		t.Errorf("ecdf.svg?x=cpu: %d, the same picture as ecdf.svg: %v", code, cpu == plain)
	}
	// The form's fields left empty.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(l.srv.URL + page + "?top=&ecdf.x=cpu&ert.x=&config=exact")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != page+"?config=exact&ecdf.x=cpu" {
		t.Errorf("the form's empty fields: %s to %q, want a redirect to the URL without them", resp.Status, loc)
	}
	for path, msg := range map[string]string{
		page + "?ecdf.level=2":                                 "--level 2: want a confidence level",
		page + "?ecdf.x=nodes":                                 `plot ecdf: --x "nodes"`,
		page + "?top=x":                                        `--top "x"`,
		"/experiments/example-samples/ecdf.svg?nope=1":         `plot ecdf takes no setting "nope"`,
		"/experiments/example-samples/ert.svg?log-y=sometimes": `--log-y "sometimes"`,
	} {
		code, _, body := l.get(t, path)
		if code != http.StatusBadRequest || !strings.Contains(body, html.EscapeString(msg)) {
			t.Errorf("%s: %d %s, want 400 saying %s", path, code, body, msg)
		}
	}
}

// TestFigureErrorKept: a ranking picture that cannot be drawn (80
// configurations that share no puzzle) is tried once, not each time the
// experiment page is shown, while the lab is unchanged; its picture's URL
// answers 404 with the reason, from what was kept.
func TestFigureErrorKept(t *testing.T) {
	l := newLab(t)
	s := l.server(t, web.Options{})
	drawn := map[string]int{}
	web.CountFigureDraws(s, drawn)
	// The lab's requests go to this server from now on.
	l.srv = httptest.NewServer(s)
	defer l.srv.Close()
	get := func(path string) (int, string) {
		code, _, body := l.get(t, path)
		return code, body
	}
	for range 3 {
		if code, page := get("/experiments/example-samples"); code != http.StatusOK || !strings.Contains(page, "Not drawn: compare:") {
			t.Fatalf("the experiment page: %d, or it does not say why cd is not drawn", code)
		}
	}
	if code, body := get("/experiments/example-samples/cd.svg"); code != http.StatusNotFound || !strings.Contains(body, "no puzzle has a score of every one") {
		t.Errorf("cd.svg: %d %s", code, body)
	}
	if drawn["cd"] != 1 || drawn["profile"] != 1 {
		t.Errorf("drawn %v: want cd and profile tried once each", drawn)
	}
}
