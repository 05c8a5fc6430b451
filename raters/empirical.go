package raters

import (
	"context"
	"fmt"

	"sudokulab"
	"sudokulab/db"
)

// Empirical rates a puzzle by what the runs already in the database say
// about a reference configuration (option config, required): the success
// rate and the expected running time ERT = total effort of all its runs /
// number of solved runs, the effort in the solver's unit (run_results.effort:
// evaluations, or search nodes for the exact solver; version 1 counted
// evaluations, which the exact solver no longer counts). It makes no new
// runs: the statistics are read once, when the rater is made.
//
// Value is the ERT in that unit, NULL when no run solved the puzzle or
// when it has no runs; the label is the configuration's name; details hold
// {"config", "runs", "solved", "success_rate", "evaluations"}. Runs that
// ended in an error are left out.
type Empirical struct {
	Config string
	stats  map[statKey]db.PuzzleRunStats
}

type statKey struct {
	shape sudokulab.Shape
	grid  string
}

var _ Rater = (*Empirical)(nil)

// EmpiricalInfo registers the empirical rater.
func EmpiricalInfo() Info {
	return Info{
		Name:    "empirical",
		Summary: "expected running time (ERT) of a reference configuration, from the runs in the database",
		NeedsDB: true,
		New:     NewEmpirical,
	}
}

// NewEmpirical reads the run statistics of the configuration named by the
// option config.
func NewEmpirical(ctx context.Context, env Env) (Rater, error) {
	o := newOptions("empirical", env.Options)
	config := o.string("config", "")
	if err := o.done(); err != nil {
		return nil, err
	}
	if config == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "rater empirical: option config (the reference configuration's name) is required")
	}
	if env.DB == nil {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "rater empirical: needs a database")
	}
	rows, err := db.ConfigRunStats(ctx, env.DB, config)
	if err != nil {
		return nil, fmt.Errorf("rater empirical: %w", err)
	}
	e := &Empirical{Config: config, stats: make(map[statKey]db.PuzzleRunStats, len(rows))}
	for _, s := range rows {
		e.stats[statKey{sudokulab.Shape{BoxRows: s.BoxRows, BoxCols: s.BoxCols}, s.Grid}] = s
	}
	return e, nil
}

func (e *Empirical) Name() string    { return "empirical" }
func (e *Empirical) Version() string { return "2" }
func (e *Empirical) Options() string { return mustJSON(map[string]string{"config": e.Config}) }

// Rate looks the puzzle up in the statistics read by NewEmpirical.
func (e *Empirical) Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error) {
	if err := ctx.Err(); err != nil {
		return sudokulab.Rating{}, fmt.Errorf("empirical: %w", err)
	}
	s := e.stats[statKey{puzzle.Shape, puzzle.String()}]
	r := base(e)
	r.Label = e.Config
	rate := 0.0
	if s.Runs > 0 {
		rate = float64(s.Solved) / float64(s.Runs)
	}
	if s.Solved > 0 {
		r.Value = ptr(float64(s.Evaluations) / float64(s.Solved))
	}
	r.Details = mustJSON(map[string]any{"config": e.Config, "runs": s.Runs, "solved": s.Solved,
		"success_rate": rate, "evaluations": s.Evaluations})
	return r, nil
}
