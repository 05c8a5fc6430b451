package raters

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sudokulab"
	"sudokulab/raters/se"
)

// SE rates a 9x9 puzzle as Sudoku Explainer 1.2.1 does (package
// raters/se): Value is ER, the difficulty of the hardest step on SE's scale
// (1.0 single to 11.x nested dynamic forcing chains, 20.0 when SE's
// techniques do not solve the puzzle); Label is "ER/EP/ED", the form of
// the forum's lists; Details hold er, ep and ed with the technique of each
// (er_technique, ep_technique, ed_technique), steps (the step count) and
// path, the steps in order as "difficulty technique [rXcY=V]".
//
// TimeLimit (option time-limit, a Go duration; default 0, none) bounds
// the time spent on one puzzle: a rating cut short by it is stored as
// partial, with Value NULL, Label "partial" and the hardest steps so far
// as er_at_least, ep and ed in Details (ep and ed only when reached, and
// then final), never as a rating it is not. Puzzles of other shapes get a
// rating with Value NULL and Label "not 9x9": SE's scale is defined for
// 9x9 only.
type SE struct {
	TimeLimit time.Duration
}

var _ Rater = (*SE)(nil)

// SETimeout is the se rater's default time limit of one rating (Info.Timeout).
const SETimeout = 5 * time.Minute

// SEInfo registers the se rater.
func SEInfo() Info {
	return Info{
		Name:    "se",
		Summary: "Sudoku Explainer 1.2.1 rating (serate's SE121 techniques): ER value, ER/EP/ED label, path in details",
		// The forum's hardest puzzles take 5 to 40 s of CPU each
		// (docs/ratings.md); with every core busy, and more processes
		// than cores, a rating takes several times its CPU time.
		Timeout: SETimeout,
		New: func(ctx context.Context, env Env) (Rater, error) {
			o := newOptions("se", env.Options)
			s := &SE{}
			if v := o.string("time-limit", "0s"); v != "" {
				d, err := time.ParseDuration(v)
				if err != nil || d < 0 {
					o.fail("time-limit", "%q: want a duration such as 30s, or 0 for none", v)
				}
				s.TimeLimit = d
			}
			return s, o.done()
		},
	}
}

func (s *SE) Name() string    { return "se" }
func (s *SE) Version() string { return "1" }
func (s *SE) Options() string {
	return mustJSON(map[string]string{"time-limit": s.TimeLimit.String()})
}

// errTimeLimit is the cause of a rating's context when time-limit ends it.
var errTimeLimit = errors.New("se: time limit")

// Rate computes ER, EP and ED.
func (s *SE) Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error) {
	if err := puzzle.Validate(); err != nil {
		return sudokulab.Rating{}, err
	}
	r := base(s)
	if puzzle.N() != 9 || puzzle.Shape.BoxRows != 3 {
		r.Label = "not 9x9"
		return r, nil
	}
	var values [81]int
	for i, v := range puzzle.Cells {
		values[i] = int(v)
	}
	rctx := ctx
	if s.TimeLimit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeoutCause(ctx, s.TimeLimit, errTimeLimit)
		defer cancel()
	}
	res, err := se.Rate(rctx, values)
	partial := err != nil && ctx.Err() == nil && errors.Is(context.Cause(rctx), errTimeLimit)
	if err != nil && !partial {
		return sudokulab.Rating{}, fmt.Errorf("se: %w", err)
	}
	path := make([]string, len(res.Steps))
	for i, st := range res.Steps {
		path[i] = fmt.Sprintf("%.1f %s", st.Difficulty, st.Technique)
		if st.Cell >= 0 {
			path[i] += fmt.Sprintf(" r%dc%d=%d", st.Cell/9+1, st.Cell%9+1, st.Value)
		}
	}
	details := map[string]any{"steps": len(res.Steps), "path": path}
	reached := func(d float64, tech string, key string) {
		if tech != "" {
			details[key] = d
			details[key+"_technique"] = tech
		}
	}
	reached(res.EP, res.EPTechnique, "ep")
	reached(res.ED, res.EDTechnique, "ed")
	if partial {
		details["partial"] = true
		details["er_at_least"] = res.ER
		details["time_limit"] = s.TimeLimit.String()
		r.Label = "partial"
		r.Details = mustJSON(details)
		return r, nil
	}
	reached(res.ER, res.ERTechnique, "er")
	r.Value = ptr(res.ER)
	r.Label = fmt.Sprintf("%.1f/%.1f/%.1f", res.ER, res.EP, res.ED)
	r.Details = mustJSON(details)
	return r, nil
}
