package raters

import (
	"context"
	"encoding/json"

	"sudokulab"
	"sudokulab/raters/se"
)

// SEPath is the solution path the se rater keeps in a rating's Details:
// the steps in order and the technique of the hardest step (ER), of the
// hardest before the first placement (EP) and of the first step (ED),
// each "" when not reached.
type SEPath struct {
	Steps       []string `json:"path"`
	ERTechnique string   `json:"er_technique"`
	EPTechnique string   `json:"ep_technique"`
	EDTechnique string   `json:"ed_technique"`
}

// ReadSEPath reads the path of a rating's details; ok is false when the
// details hold no path (another rater's, or none).
func ReadSEPath(details string) (p SEPath, ok bool) {
	if details == "" || json.Unmarshal([]byte(details), &p) != nil || len(p.Steps) == 0 {
		return SEPath{}, false
	}
	return p, true
}

// SEStep is one step of Sudoku Explainer's path with what it changes: its
// technique and rating as SE names them, and as a Step (Technique left
// zero) the digit it places and the candidates it eliminates, to apply to
// a Position.
type SEStep struct {
	Technique  string
	Difficulty float64
	Step       Step
}

// SETrace is Sudoku Explainer's path through a puzzle.
type SETrace struct {
	Steps []SEStep
	// Beyond says SE's techniques found no further step before the grid
	// was full (its rating 20.0, "Beyond solver").
	Beyond bool
}

// ExplainSE finds the se rater's path through a 9x9 puzzle, the path its
// rating keeps in its details, with each step's placement and
// eliminations. When ctx ends first it returns the steps found so far
// with ctx's error.
func ExplainSE(ctx context.Context, puzzle sudokulab.Grid) (SETrace, error) {
	if err := puzzle.Validate(); err != nil {
		return SETrace{}, err
	}
	if puzzle.N() != 9 || puzzle.Shape.BoxRows != 3 {
		return SETrace{}, sudokulab.Errorf(sudokulab.EINVALID, "Sudoku Explainer explains 9x9 puzzles with 3x3 boxes, not %s", puzzle.Shape)
	}
	var values [81]int
	for i, v := range puzzle.Cells {
		values[i] = int(v)
	}
	res, err := se.Rate(ctx, values)
	if err != nil && !res.Partial {
		return SETrace{}, sudokulab.WrapError(sudokulab.EINVALID, err, "se")
	}
	tr := SETrace{Beyond: err == nil && res.ERTechnique == seBeyond}
	for _, st := range res.Steps {
		s := SEStep{Technique: st.Technique, Difficulty: st.Difficulty}
		if st.Cell >= 0 {
			s.Step.Placements = []Candidate{{st.Cell, st.Value}}
		}
		for _, e := range st.Eliminations {
			s.Step.Eliminations = append(s.Step.Eliminations, Candidate{e.Cell, e.Value})
		}
		tr.Steps = append(tr.Steps, s)
	}
	return tr, err
}

// seBeyond is the technique se.Rate names when its techniques stall.
const seBeyond = "Beyond solver"
