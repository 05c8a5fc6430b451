package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/raters"
)

// The solution path of a puzzle, step by step, as HoDoKu shows one: the
// grid with its candidates before the step, the digits the step places in
// green and the candidates it eliminates in red. Two raters give one: the
// human rater's techniques (?rater=human, the default) and Sudoku
// Explainer's (?rater=se, 9x9 only), both found when asked. The step is in
// the URL (?step=K), so each is a link and needs no script.

// pathRaters are the raters whose paths the page draws, with what the page
// calls them.
var pathRaters = map[string]string{"human": "the human rater's techniques", "se": "Sudoku Explainer's techniques"}

// pathNames name the paths in the link from one to the other.
var pathNames = map[string]string{"human": "the human rater's path", "se": "Sudoku Explainer's path"}

// pathData is the path page.
type pathData struct {
	ID int64 `json:"id"`
	// Rater is the rater whose path it is: human or se; Name says it.
	Rater string `json:"rater"`
	Name  string `json:"-"`
	// Steps lists every step; Step is the one drawn (1-based, 0: the
	// puzzle before the first step).
	Steps []pathStep `json:"steps"`
	Step  int        `json:"step"`
	// Solved says whether the steps fill the grid; Stalled that the
	// techniques found no further step; CutShort that the search ran out
	// of time (Timeout); Contradiction that a step broke the rules.
	Solved        bool          `json:"solved"`
	Stalled       bool          `json:"stalled"`
	CutShort      bool          `json:"cut_short"`
	Contradiction bool          `json:"contradiction"`
	Timeout       string        `json:"-"`
	GridSVG       template.HTML `json:"-"`
	PrevURL       string        `json:"-"`
	NextURL       string        `json:"-"`
	// OtherURL is the other rater's path of the puzzle ("" when it has
	// none: se explains only 9x9 puzzles).
	OtherURL  string    `json:"-"`
	OtherName string    `json:"-"`
	Current   *pathStep `json:"-"`
}

// pathStep is one step: its technique and what it changes, cells named
// r1c1 and candidates r1c1<>5 as HoDoKu writes them. Difficulty is SE's
// rating of the step (se's path only).
type pathStep struct {
	N            int      `json:"n"`
	Technique    string   `json:"technique"`
	Difficulty   *float64 `json:"difficulty,omitempty"`
	Rating       string   `json:"-"`
	Placements   []string `json:"placements"`
	Eliminations []string `json:"eliminations"`
	URL          string   `json:"url"`
}

// solvedPath is a rater's path through a puzzle: each step's name, its
// difficulty (NaN for none) and what it changes.
type solvedPath struct {
	names          []string
	difficulties   []float64
	steps          []raters.Step
	solved, cut    bool
	stalled, wrong bool
}

// findPath finds rater's path through g within timeout.
func findPath(ctx context.Context, rater string, g sudokulab.Grid, timeout time.Duration) (solvedPath, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var p solvedPath
	if rater == "se" {
		tr, err := raters.ExplainSE(ctx, g)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return p, err
		}
		for _, st := range tr.Steps {
			p.names = append(p.names, st.Technique)
			p.difficulties = append(p.difficulties, st.Difficulty)
			p.steps = append(p.steps, st.Step)
		}
		p.cut, p.stalled = err != nil, tr.Beyond
		p.solved = !p.cut && !p.stalled
		return p, nil
	}
	tr, err := raters.SolveLogically(ctx, g)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return p, err
	}
	for _, st := range tr.Steps {
		p.names = append(p.names, st.Technique.String())
		p.difficulties = append(p.difficulties, math.NaN())
	}
	p.steps = tr.Steps
	p.solved, p.cut, p.wrong = tr.Solved, err != nil, tr.Contradiction
	p.stalled = !p.solved && !p.cut && !p.wrong
	return p, nil
}

// pathCache keeps the last few paths found: stepping through a path asks
// for the same one again and again. A path is found once, in the
// background of the requests that want it, within Options.PathTimeout; a
// request that goes away leaves it to finish for the next. close ends the
// searches under way and waits for them, so none outlives the server.
type pathCache struct {
	mu    sync.Mutex
	paths map[pathKey]*cachedPath
	// find finds a path: findPath, or a test's stand-in.
	find func(ctx context.Context, rater string, g sudokulab.Grid, timeout time.Duration) (solvedPath, error)
	// base is cancelled by close (stop); wg counts the searches under way.
	base context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

type pathKey struct {
	id    int64
	rater string
}

type cachedPath struct {
	grid  string
	ready chan struct{}
	path  solvedPath
	err   error
}

const pathCacheSize = 16

func newPathCache() *pathCache {
	base, stop := context.WithCancel(context.Background())
	return &pathCache{find: findPath, base: base, stop: stop}
}

func (c *pathCache) get(ctx context.Context, id int64, rater string, g sudokulab.Grid, timeout time.Duration) (solvedPath, error) {
	k := pathKey{id, rater}
	c.mu.Lock()
	e, ok := c.paths[k]
	if !ok || e.grid != g.String() {
		if err := c.base.Err(); err != nil {
			// Closed: close waits for the searches under way, and a new
			// one would start past its Wait.
			c.mu.Unlock()
			return solvedPath{}, err
		}
		if len(c.paths) >= pathCacheSize {
			for k, e := range c.paths {
				select {
				case <-e.ready:
					delete(c.paths, k)
				default: // still being found: its requests wait for it
				}
			}
		}
		if c.paths == nil {
			c.paths = map[pathKey]*cachedPath{}
		}
		e = &cachedPath{grid: g.String(), ready: make(chan struct{})}
		c.paths[k] = e
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer close(e.ready)
			e.path, e.err = c.find(c.base, rater, g, timeout)
		}()
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.path, e.err
	case <-ctx.Done():
		return solvedPath{}, ctx.Err()
	}
}

// close ends the searches under way and waits for them.
func (c *pathCache) close() {
	// Under mu, so that get starts no search once Wait may run.
	c.mu.Lock()
	c.stop()
	c.mu.Unlock()
	c.wg.Wait()
}

func (s *Server) path(r *http.Request) (view, error) {
	ctx := r.Context()
	p, err := s.puzzleOf(r)
	if err != nil {
		return view{}, err
	}
	id := p.ID
	q := r.URL.Query()
	rater := q.Get("rater")
	if rater == "" {
		rater = "human"
	}
	name, ok := pathRaters[rater]
	if !ok {
		return view{}, sudokulab.Errorf(sudokulab.EINVALID, "rater %q: want human or se", rater)
	}
	sp, err := s.paths.get(ctx, id, rater, p.Givens, s.o.PathTimeout)
	if err != nil {
		return view{}, err
	}
	d := pathData{ID: id, Rater: rater, Name: name, Solved: sp.solved, CutShort: sp.cut, Contradiction: sp.wrong,
		Stalled: sp.stalled, Timeout: s.o.PathTimeout.String(), Steps: []pathStep{}}
	geo := p.Givens.Geometry()
	base := fmt.Sprintf("/puzzles/%d/path?", id)
	stepURL := func(k int) string {
		v := url.Values{"step": {strconv.Itoa(k)}}
		if rater != "human" {
			v.Set("rater", rater)
		}
		return base + v.Encode()
	}
	for i, st := range sp.steps {
		ps := pathStep{N: i + 1, Technique: sp.names[i], Difficulty: finite(sp.difficulties[i]), URL: stepURL(i + 1),
			Placements: []string{}, Eliminations: []string{}}
		if ps.Difficulty != nil {
			ps.Rating = strconv.FormatFloat(*ps.Difficulty, 'f', 1, 64) // as SE writes it
		}
		for _, c := range st.Placements {
			ps.Placements = append(ps.Placements, fmt.Sprintf("%s=%c", geo.CellName(c.Cell), sudokulab.Symbols[c.Digit-1]))
		}
		for _, c := range st.Eliminations {
			ps.Eliminations = append(ps.Eliminations, fmt.Sprintf("%s<>%c", geo.CellName(c.Cell), sudokulab.Symbols[c.Digit-1]))
		}
		d.Steps = append(d.Steps, ps)
	}
	if v := q.Get("step"); v != "" {
		if d.Step, err = strconv.Atoi(v); err != nil || d.Step < 0 || d.Step > len(sp.steps) {
			return view{}, sudokulab.Errorf(sudokulab.EINVALID, "step %q: want 0 to %d", v, len(sp.steps))
		}
	} else if len(sp.steps) > 0 {
		d.Step = 1
	}
	// The position before the step drawn.
	pos := raters.NewPosition(p.Givens)
	for _, st := range sp.steps[:max(d.Step-1, 0)] {
		pos.Apply(st)
	}
	var cur raters.Step
	if d.Step > 0 {
		cur = sp.steps[d.Step-1]
		d.Current = &d.Steps[d.Step-1]
	}
	d.GridSVG = candidatesSVG(pos, p.Givens, cur, fmt.Sprintf("puzzle %d before step %d", id, d.Step))
	if d.Step > 0 {
		d.PrevURL = stepURL(d.Step - 1)
	}
	if d.Step < len(sp.steps) {
		d.NextURL = stepURL(d.Step + 1)
	}
	switch {
	case rater == "se":
		d.OtherURL, d.OtherName = base[:len(base)-1], pathNames["human"]
	case explainable(p.Givens):
		d.OtherURL, d.OtherName = base+"rater=se", pathNames["se"]
	}
	return view{Template: "path", Title: fmt.Sprintf("Puzzle %d, solution path", id), Data: d}, nil
}

// explainable says whether Sudoku Explainer explains g: a 9x9 grid with
// 3x3 boxes.
func explainable(g sudokulab.Grid) bool { return g.N() == 9 && g.Shape.BoxRows == 3 }

// candidatesSVG draws a position: the placed digits (givens shaded), and
// in each empty cell its candidates, laid out as the box is (box rows x
// box columns); the step's placements in green, its eliminations in red.
func candidatesSVG(pos *raters.Position, givens sudokulab.Grid, step raters.Step, label string) template.HTML {
	shape := givens.Shape
	n := givens.N()
	cell := 54
	if n > 9 {
		cell = 60
	}
	side := n * cell
	type key struct{ cell, digit int }
	place, elim, touched := map[key]bool{}, map[key]bool{}, map[int]bool{}
	for _, c := range step.Placements {
		place[key{c.Cell, c.Digit}], touched[c.Cell] = true, true
	}
	for _, c := range step.Eliminations {
		elim[key{c.Cell, c.Digit}], touched[c.Cell] = true, true
	}
	var b strings.Builder
	// A candidate of a 16x16 or 25x25 grid is too small to read at the
	// width of a 9x9: those are drawn larger (grid.css).
	class := "grid path"
	switch {
	case n > 16:
		class += " huge"
	case n > 9:
		class += " large"
	}
	fmt.Fprintf(&b, `<svg class="%s" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 %d %d" role="img" aria-label="%s">`,
		class, side+4, side+4, template.HTMLEscapeString(label))
	for i := range givens.Cells {
		x, y := i%n*cell, i/n*cell
		class := "cell"
		switch {
		case givens.Cells[i] != 0:
			class += " given"
		case touched[i]:
			class += " touched"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d"/>`, class, x, y, cell, cell)
		if v := pos.Value(i); v != 0 {
			text := "cell"
			if givens.Cells[i] != 0 {
				text = "cell given"
			}
			fmt.Fprintf(&b, `<text class="%s big" x="%d" y="%d">%c</text>`, text, x+cell/2, y+cell/2, sudokulab.Symbols[v-1])
			continue
		}
		// Candidates on a box-shaped mini grid.
		cw, ch := float64(cell)/float64(shape.BoxCols), float64(cell)/float64(shape.BoxRows)
		for d := 1; d <= n; d++ {
			if !pos.Has(i, d) {
				continue
			}
			class := "cand"
			switch {
			case place[key{i, d}]:
				class = "cand place"
			case elim[key{i, d}]:
				class = "cand elim"
			}
			r, c := (d-1)/shape.BoxCols, (d-1)%shape.BoxCols
			fmt.Fprintf(&b, `<text class="%s" x="%.1f" y="%.1f">%c</text>`, class,
				float64(x)+cw*(float64(c)+0.5), float64(y)+ch*(float64(r)+0.5), sudokulab.Symbols[d-1])
		}
	}
	gridLines(&b, shape, n, cell)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
