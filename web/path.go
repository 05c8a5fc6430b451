package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"sudokulab"
	"sudokulab/raters"
)

// The solution path of a puzzle as the human rater finds it, step by step,
// as HoDoKu shows one: the grid with its candidates before the step, the
// digits the step places in green and the candidates it eliminates in red.
// The step is in the URL (?step=K), so each is a link and needs no script.

// pathTimeout bounds the logic solve of one puzzle; a solve cut short
// shows the steps found so far.
const pathTimeout = 10 * time.Second

// pathData is the path page.
type pathData struct {
	ID int64 `json:"id"`
	// Steps lists every step; Step is the one drawn (1-based, 0: the
	// puzzle before the first step).
	Steps []pathStep `json:"steps"`
	Step  int        `json:"step"`
	// Solved says whether the steps fill the grid; Stalled that the
	// techniques found no further step; CutShort that the solve ran out
	// of time; Contradiction that a step broke the rules.
	Solved        bool          `json:"solved"`
	Stalled       bool          `json:"stalled"`
	CutShort      bool          `json:"cut_short"`
	Contradiction bool          `json:"contradiction"`
	GridSVG       template.HTML `json:"-"`
	PrevURL       string        `json:"-"`
	NextURL       string        `json:"-"`
	Current       *pathStep     `json:"-"`
}

// pathStep is one step: its technique and what it changes, cells named
// r1c1 and candidates r1c1<>5 as HoDoKu writes them.
type pathStep struct {
	N            int      `json:"n"`
	Technique    string   `json:"technique"`
	Placements   []string `json:"placements"`
	Eliminations []string `json:"eliminations"`
	URL          string   `json:"url"`
}

// traceCache keeps the last few logic solves: stepping through a path
// asks for the same puzzle's again and again.
type traceCache struct {
	mu     sync.Mutex
	traces map[int64]cachedTrace
}

type cachedTrace struct {
	grid  string
	trace raters.Trace
	cut   bool
}

const traceCacheSize = 16

func (c *traceCache) get(ctx context.Context, id int64, g sudokulab.Grid) (raters.Trace, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.traces[id]; ok && t.grid == g.String() {
		return t.trace, t.cut, nil
	}
	sctx, cancel := context.WithTimeout(ctx, pathTimeout)
	defer cancel()
	tr, err := raters.SolveLogically(sctx, g)
	cut := false
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return raters.Trace{}, false, err
		}
		cut = true
	}
	if c.traces == nil || len(c.traces) >= traceCacheSize {
		c.traces = map[int64]cachedTrace{}
	}
	c.traces[id] = cachedTrace{g.String(), tr, cut}
	return tr, cut, nil
}

func (s *Server) path(r *http.Request) (view, error) {
	ctx := r.Context()
	p, err := s.puzzleOf(r)
	if err != nil {
		return view{}, err
	}
	id := p.ID
	tr, cut, err := s.traces.get(ctx, id, p.Givens)
	if err != nil {
		return view{}, err
	}
	d := pathData{ID: id, Solved: tr.Solved, CutShort: cut, Contradiction: tr.Contradiction,
		Stalled: !tr.Solved && !cut && !tr.Contradiction, Steps: []pathStep{}}
	geo := p.Givens.Geometry()
	base := fmt.Sprintf("/puzzles/%d/path", id)
	for i, st := range tr.Steps {
		ps := pathStep{N: i + 1, Technique: st.Technique.String(), URL: base + "?step=" + strconv.Itoa(i+1),
			Placements: []string{}, Eliminations: []string{}}
		for _, c := range st.Placements {
			ps.Placements = append(ps.Placements, fmt.Sprintf("%s=%c", geo.CellName(c.Cell), sudokulab.Symbols[c.Digit-1]))
		}
		for _, c := range st.Eliminations {
			ps.Eliminations = append(ps.Eliminations, fmt.Sprintf("%s<>%c", geo.CellName(c.Cell), sudokulab.Symbols[c.Digit-1]))
		}
		d.Steps = append(d.Steps, ps)
	}
	if v := r.URL.Query().Get("step"); v != "" {
		if d.Step, err = strconv.Atoi(v); err != nil || d.Step < 0 || d.Step > len(tr.Steps) {
			return view{}, sudokulab.Errorf(sudokulab.EINVALID, "step %q: want 0 to %d", v, len(tr.Steps))
		}
	} else if len(tr.Steps) > 0 {
		d.Step = 1
	}
	// The position before the step drawn.
	pos := raters.NewPosition(p.Givens)
	for _, st := range tr.Steps[:max(d.Step-1, 0)] {
		pos.Apply(st)
	}
	var cur raters.Step
	if d.Step > 0 {
		cur = tr.Steps[d.Step-1]
		d.Current = &d.Steps[d.Step-1]
	}
	d.GridSVG = candidatesSVG(pos, p.Givens, cur, fmt.Sprintf("puzzle %d before step %d", id, d.Step))
	if d.Step > 0 {
		d.PrevURL = base + "?step=" + strconv.Itoa(d.Step-1)
	}
	if d.Step < len(tr.Steps) {
		d.NextURL = base + "?step=" + strconv.Itoa(d.Step+1)
	}
	return view{Template: "path", Title: fmt.Sprintf("Puzzle %d, solution path", id), Data: d}, nil
}

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
	fmt.Fprintf(&b, `<svg class="grid path" xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 %d %d" role="img" aria-label="%s">`,
		side+4, side+4, template.HTMLEscapeString(label))
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
