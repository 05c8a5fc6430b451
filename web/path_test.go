package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/web"
)

// pathJSON is the JSON of a path page.
type pathJSON struct {
	Rater string `json:"rater"`
	Steps []struct {
		N            int      `json:"n"`
		Technique    string   `json:"technique"`
		Difficulty   *float64 `json:"difficulty"`
		Placements   []string `json:"placements"`
		Eliminations []string `json:"eliminations"`
		URL          string   `json:"url"`
	} `json:"steps"`
	Solved   bool `json:"solved"`
	CutShort bool `json:"cut_short"`
}

// checkPath reads the path at path (JSON) of puzzle 10 (sato-no106,
// which needs eliminations): the path solves it, its placements in order
// fill the givens to the solution, some step eliminates, and the first
// such step's page draws its eliminations.
func checkPath(t *testing.T, l *lab, path string) pathJSON {
	t.Helper()
	var p pathJSON
	var puzzle struct{ Grid, Solution string }
	l.getJSON(t, path, &p)
	l.getJSON(t, "/puzzles/10.json", &puzzle)
	if !p.Solved || p.CutShort || len(p.Steps) == 0 {
		t.Fatalf("%s: solved %v, cut short %v, %d steps", path, p.Solved, p.CutShort, len(p.Steps))
	}
	grid := []byte(puzzle.Grid)
	drawn := false
	for _, s := range p.Steps {
		for _, pl := range s.Placements {
			var r, c int
			var d byte
			if _, err := fmt.Sscanf(pl, "r%dc%d=%c", &r, &c, &d); err != nil {
				t.Fatalf("placement %q: %v", pl, err)
			}
			grid[(r-1)*9+c-1] = d
		}
		if len(s.Eliminations) > 0 && !drawn {
			drawn = true
			page := l.getHTML(t, s.URL)
			if n := strings.Count(page, `class="cand elim"`); n != len(s.Eliminations) {
				t.Errorf("%s step %d (%s): %d candidates drawn eliminated, want %d", path, s.N, s.Technique, n, len(s.Eliminations))
			}
		}
	}
	if string(grid) != puzzle.Solution {
		t.Errorf("%s: the placements give\n%s, want\n%s", path, grid, puzzle.Solution)
	}
	if !drawn {
		t.Errorf("%s: no step eliminates a candidate: the drawing of eliminations is not tested", path)
	}
	return p
}

// TestSolutionPath steps through the human rater's path (checkPath); a
// step past the end is refused.
func TestSolutionPath(t *testing.T) {
	l := newLab(t)
	p := checkPath(t, l, "/puzzles/10/path.json")
	if p.Rater != "human" {
		t.Errorf("rater %q, want human", p.Rater)
	}
	if code, _, _ := l.get(t, fmt.Sprintf("/puzzles/10/path.json?step=%d", len(p.Steps)+1)); code != http.StatusBadRequest {
		t.Errorf("a step past the end: %d, want 400", code)
	}
}

// TestSEPathDrawn steps through Sudoku Explainer's path (checkPath): its
// steps are the se rating's, each links to its page with rater=se kept;
// the puzzle page and the human path link to it, and a puzzle that is not
// 9x9 has none.
func TestSEPathDrawn(t *testing.T) {
	onEngines(t, func(t *testing.T, l *lab) {
		p := checkPath(t, l, "/puzzles/10/path.json?rater=se")
		if p.Rater != "se" {
			t.Errorf("rater %q, want se", p.Rater)
		}
		var stored string
		if err := l.w.QueryRowContext(context.Background(), l.w.Rebind(`SELECT details FROM ratings WHERE puzzle_id = 10 AND rater = 'se'`)).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		for i, s := range p.Steps {
			if s.Difficulty == nil || !strings.Contains(stored, fmt.Sprintf("%.1f %s", *s.Difficulty, s.Technique)) {
				t.Errorf("step %d: %v %q, not a step of the stored se path", i+1, s.Difficulty, s.Technique)
			}
			if want := fmt.Sprintf("/puzzles/10/path?rater=se&step=%d", i+1); s.URL != want {
				t.Errorf("step %d links to %s, want %s", i+1, s.URL, want)
			}
		}
		if page := l.getHTML(t, p.Steps[1].URL); !strings.Contains(page, `href="/puzzles/10/path?rater=se&amp;step=3"`) {
			t.Error("the next step's link leaves the se path")
		}
		if page := l.getHTML(t, "/puzzles/10"); !strings.Contains(page, `href="/puzzles/10/path?rater=se"`) {
			t.Error("the puzzle page does not link to the se path")
		}
		if page := l.getHTML(t, "/puzzles/10/path"); !strings.Contains(page, `href="/puzzles/10/path?rater=se"`) {
			t.Error("the human path does not link to the se path")
		}
		// A 4x4 puzzle has a human path, but no se path.
		l.exec(t, `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens) VALUES ('12..34..........', 4, 2, 2, 4)`)
		small := l.count(t, `SELECT MAX(id) FROM puzzles`)
		if page := l.getHTML(t, fmt.Sprintf("/puzzles/%d", small)); strings.Contains(page, "rater=se") {
			t.Error("a 4x4 puzzle's page links to an se path")
		}
		if code, _, body := l.get(t, fmt.Sprintf("/puzzles/%d/path.json?rater=se", small)); code != http.StatusBadRequest || !strings.Contains(body, "9x9") {
			t.Errorf("se path of a 4x4 puzzle: %d %s", code, body)
		}
		if code, _, _ := l.get(t, "/puzzles/10/path.json?rater=nobody"); code != http.StatusBadRequest {
			t.Errorf("an unknown rater's path: %d, want 400", code)
		}
	})
}

// TestPathCutShort: a path not found within the server's PathTimeout is
// shown cut short, and the page says so.
func TestPathCutShort(t *testing.T) {
	l := newLab(t)
	srv := l.serveWith(t, web.Options{PathTimeout: time.Nanosecond})
	for _, rater := range []string{"human", "se"} {
		resp, err := http.Get(srv.URL + "/puzzles/10/path?rater=" + rater)
		if err != nil {
			t.Fatal(err)
		}
		page, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "cut short after 1ns") {
			t.Errorf("%s path within 1ns: %d, the page does not say it was cut short", rater, resp.StatusCode)
		}
	}
}

// TestLargePathDrawnLarger: the path of a 16x16 puzzle is drawn with the
// class that gives it the width to read its candidates.
func TestLargePathDrawnLarger(t *testing.T) {
	l := newLab(t)
	rng := sudokulab.NewRand(1)
	g := generator.RandomSolution(sudokulab.Shape{BoxRows: 4, BoxCols: 4}, rng)
	for i := range g.Cells {
		if rng.IntN(10) < 3 {
			g.Cells[i] = 0
		}
	}
	l.exec(t, `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens) VALUES (?, 16, 4, 4, ?)`, g.String(), g.Givens())
	id := l.count(t, `SELECT MAX(id) FROM puzzles`)
	page := l.getHTML(t, fmt.Sprintf("/puzzles/%d/path", id))
	if !strings.Contains(page, `<svg class="grid path large"`) {
		t.Error("the path of a 16x16 puzzle is not drawn large")
	}
	if page := l.getHTML(t, "/puzzles/10/path"); !strings.Contains(page, `<svg class="grid path"`) {
		t.Error("the path of a 9x9 puzzle is not drawn at its width")
	}
}

// TestCloseEndsPathSearch: a solution path still being found when its
// request went away is ended by Server.Close, which returns only once the
// search has; a request after Close starts none.
func TestCloseEndsPathSearch(t *testing.T) {
	l := newLab(t)
	s := l.server(t, web.Options{PathTimeout: time.Hour})
	started, ended := make(chan struct{}), make(chan struct{})
	searches := 0
	web.SetPathFinder(s, func(ctx context.Context) error {
		searches++
		close(started)
		defer close(ended)
		<-ctx.Done()
		return ctx.Err()
	})
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/puzzles/10/path", nil)
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	<-started
	cancel() // the request goes away; the search goes on for the next
	<-answered
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
	default:
		t.Fatal("Close returned while a solution path was still being found")
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/puzzles/11/path", nil))
	if searches != 1 {
		t.Errorf("%d searches, want 1: a request after Close started one", searches)
	}
}
