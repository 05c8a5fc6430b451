package web_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"sudokulab/web"
)

// TestExperimentFigures: the experiment page shows the pictures of plot
// that its runs can draw: all four, then, once no run has trajectory
// points, success and ECDF only, the others answering 404 with plot's
// message (not the picture kept from before the change).
func TestExperimentFigures(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		all := []string{"success", "ecdf", "convergence", "ert"}
		shown := func() []string {
			page := l.getHTML(t, "/experiments/example-samples")
			var data struct {
				Figures []struct{ Kind, URL string } `json:"figures"`
			}
			l.getJSON(t, "/experiments/example-samples.json", &data)
			var kinds []string
			for i, k := range all {
				if strings.Contains(page, `<img class="plot" src="/experiments/example-samples/`+k+`.svg"`) {
					kinds = append(kinds, k)
					if i >= len(data.Figures) || data.Figures[i].Kind != k || data.Figures[i].URL != "/experiments/example-samples/"+k+".svg" {
						t.Errorf("the JSON lists the pictures %+v, the page shows %s", data.Figures, k)
					}
				}
			}
			if len(data.Figures) != len(kinds) {
				t.Errorf("the JSON lists %d pictures, the page shows %v", len(data.Figures), kinds)
			}
			return kinds
		}
		if got := shown(); strings.Join(got, " ") != strings.Join(all, " ") {
			t.Errorf("the page shows %v, want %v", got, all)
		}
		// Drawn (and kept, on SQLite) before the change, drawn again after.
		for range 2 {
			if code, _, _ := l.get(t, "/experiments/example-samples/convergence.svg"); code != http.StatusOK {
				t.Fatalf("convergence.svg: %d", code)
			}
		}
		l.exec(t, `DELETE FROM trajectory_points`)
		if got := shown(); strings.Join(got, " ") != "success ecdf" {
			t.Errorf("without trajectory points the page shows %v, want success and ecdf", got)
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
