package web

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"

	"sudokulab"
	"sudokulab/db"
)

// puzzleData is a puzzle's page: the grid and its solution drawn, every
// rating side by side, the collections listing it, the puzzles of the lab
// that are the same up to symmetry, and every run on it.
type puzzleData struct {
	ID            int64              `json:"id"`
	Shape         string             `json:"shape"`
	Size          int                `json:"size"`
	Givens        int                `json:"givens"`
	Grid          string             `json:"grid"`
	Solution      string             `json:"solution,omitempty"`
	SolutionCount *int               `json:"solution_count"`
	CountStatus   string             `json:"count_status,omitempty"`
	Count         string             `json:"-"`
	SymmetryForm  string             `json:"symmetry_form,omitempty"`
	Collections   []db.Listing       `json:"collections"`
	Tags          []db.PuzzleTag     `json:"tags"`
	Ratings       []sudokulab.Rating `json:"ratings"`
	Equivalents   []int64            `json:"symmetry_equivalents"`
	Runs          table              `json:"runs"`
	GridSVG       template.HTML      `json:"-"`
	SolutionSVG   template.HTML      `json:"-"`
	// SEPath is the se rating's solution path: a step per line, its
	// rating and technique, as Sudoku Explainer lists it.
	SEPath []string `json:"-"`
	// Explainable says Sudoku Explainer's path can be drawn (a 9x9
	// puzzle); PathTimeout bounds the finding of a path.
	Explainable bool                 `json:"-"`
	PathTimeout string               `json:"-"`
	Conflicts   []sudokulab.Conflict `json:"conflicts,omitempty"`
}

// pathID reads the numeric id of the path's {id}.
func pathID(r *http.Request, what string) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, notFound("no %s %q: %ss are numbered from 1", what, s, what)
	}
	return id, nil
}

// puzzleOf reads the puzzle the path's {id} names.
func (s *Server) puzzleOf(r *http.Request) (*sudokulab.Puzzle, error) {
	id, err := pathID(r, "puzzle")
	if err != nil {
		return nil, err
	}
	return db.GetPuzzle(r.Context(), s.db, id)
}

// runLinks are the links of a run table's columns.
var runLinks = map[string]string{"id": "/runs/", "experiment": "/experiments/", "puzzle_id": "/puzzles/"}

func (s *Server) puzzle(r *http.Request) (view, error) {
	ctx := r.Context()
	p, err := s.puzzleOf(r)
	if err != nil {
		return view{}, err
	}
	id := p.ID
	d := puzzleData{ID: p.ID, Shape: p.Givens.Shape.String(), Size: p.Givens.N(), Givens: p.Givens.Givens(),
		Grid: p.Givens.String(), SolutionCount: p.SolutionCount, CountStatus: p.CountStatus, SymmetryForm: p.SymmetryForm,
		Conflicts: p.Givens.Conflicts(), Count: countText(p), Explainable: explainable(p.Givens), PathTimeout: s.o.PathTimeout.String()}
	d.GridSVG = gridSVG(p.Givens, p.Givens, d.Conflicts, "puzzle "+strconv.FormatInt(id, 10))
	if p.Solution.Cells != nil {
		d.Solution = p.Solution.String()
		d.SolutionSVG = gridSVG(p.Solution, p.Givens, nil, "solution of puzzle "+strconv.FormatInt(id, 10))
	}
	if d.Tags, err = db.PuzzleTags(ctx, s.db, id); err != nil {
		return view{}, err
	}
	if d.Collections, err = db.PuzzleListings(ctx, s.db, id); err != nil {
		return view{}, err
	}
	if d.Ratings, err = db.PuzzleRatings(ctx, s.db, id); err != nil {
		return view{}, err
	}
	if d.Ratings == nil {
		d.Ratings = []sudokulab.Rating{}
	}
	for _, rt := range d.Ratings {
		var details struct {
			Path []string `json:"path"`
		}
		if rt.Rater == "se" && json.Unmarshal([]byte(rt.Details), &details) == nil {
			d.SEPath = details.Path
		}
	}
	if d.Equivalents, err = db.SymmetryEquivalents(ctx, s.db, id); err != nil {
		return view{}, err
	}
	if d.Equivalents == nil {
		d.Equivalents = []int64{}
	}
	runs, err := db.RunTable(ctx, s.db, "puzzle_id = "+strconv.FormatInt(id, 10), 0)
	if err != nil {
		return view{}, err
	}
	d.Runs = tableOf(runs)
	d.Runs.Links = runLinks
	return view{Template: "puzzle", Title: "Puzzle " + strconv.FormatInt(id, 10), Data: d}, nil
}

// puzzleSVG serves a puzzle's grid as an SVG picture (?solution=1: its
// solution, givens shaded).
func (s *Server) puzzleSVG(w http.ResponseWriter, r *http.Request) {
	p, err := s.puzzleOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id := p.ID
	g := p.Givens
	if r.URL.Query().Get("solution") == "1" {
		if p.Solution.Cells == nil {
			s.fail(w, r, notFound("puzzle %d has no known solution", id))
			return
		}
		g = p.Solution
	}
	writeGridSVG(w, gridSVG(g, p.Givens, g.Conflicts(), "puzzle "+strconv.FormatInt(id, 10)))
}

// countText says how many solutions the puzzle has.
func countText(p *sudokulab.Puzzle) string {
	switch {
	case p.SolutionCount == nil && p.CountStatus == sudokulab.CountUndetermined:
		return "solution count undetermined (the count ran out of time)"
	case p.SolutionCount == nil:
		return "solutions not counted"
	case *p.SolutionCount == 0:
		return "no solution"
	case *p.SolutionCount == 1:
		return "one solution"
	}
	return "two or more solutions"
}
