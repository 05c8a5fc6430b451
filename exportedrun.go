package sudokulab

// Effort units, the values of ExportedRun.EffortUnit and of the view
// run_results' effort_unit.
const (
	// EffortEvaluations counts cost-function evaluations (every solver
	// but exact).
	EffortEvaluations = "evaluations"
	// EffortNodes counts the search nodes of the exact solver: its
	// guesses plus the root, which it also records as generations.
	EffortNodes = "nodes"
)

// ExportedRun is a run read for export: the run as stored, with the names
// and puzzle facts it is exported under. db.ExportRuns reads it and the
// writers of package runexport write it.
type ExportedRun struct {
	// Run is the row of runs; FinalGrid is left empty.
	Run Run
	// Experiment is the name of the selected experiment, or without one
	// the experiment that recorded the run ("" if none).
	Experiment string
	// Config and Solver name the configuration and its solver; Params
	// are its parameters, the JSON object of configs.params.
	Config, Solver string
	Params         string
	// PuzzleLabel is the smallest of the puzzle's non-empty labels in its
	// collections, or "" when it has none.
	PuzzleLabel string
	// Size is the side of the grid and Givens its filled cells.
	Size, Givens int
	// Effort is the run's work in EffortUnit (EffortEvaluations, or
	// EffortNodes for the exact solver), as the view run_results computes
	// it; nil (NULL) when unknown, as for exact runs recorded before
	// migration 5.
	Effort     *int64
	EffortUnit string
}

// FreeCells is the number of cells the solver fills: Size*Size - Givens.
func (r *ExportedRun) FreeCells() int { return r.Size*r.Size - r.Givens }

// FinalEffort is the run's work in its effort unit: Effort when known,
// else the counter that holds it (generations for nodes, since the exact
// solver records its nodes as generations; evaluations otherwise).
func (r *ExportedRun) FinalEffort() int64 {
	switch {
	case r.Effort != nil:
		return *r.Effort
	case r.EffortUnit == EffortNodes:
		return r.Run.Generations
	}
	return r.Run.Evaluations
}

// PointEffort is the run's work, in its effort unit, at trajectory point
// p: the point's generation for nodes, its evaluations otherwise.
func (r *ExportedRun) PointEffort(p *TrajectoryPoint) int64 {
	if r.EffortUnit == EffortNodes {
		return p.Generation
	}
	return p.Evaluations
}
