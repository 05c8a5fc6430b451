package web

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/plots"
)

// runData is a run's page: what ran (configuration, parameters, puzzle,
// seed, budget), how it ended, its trajectory and its final grid with the
// conflicts marked.
type runData struct {
	ID                 int64                `json:"id"`
	Experiment         string               `json:"experiment,omitempty"`
	Config             string               `json:"config"`
	Solver             string               `json:"solver"`
	Params             string               `json:"params"`
	PuzzleID           int64                `json:"puzzle_id"`
	Seed               int64                `json:"seed"`
	MaxEvaluations     int64                `json:"max_evaluations"`
	MaxGenerations     int64                `json:"max_generations"`
	TimeoutMS          int64                `json:"timeout_ms"`
	Status             string               `json:"status"`
	Evaluations        int64                `json:"evaluations"`
	Generations        int64                `json:"generations"`
	Restarts           int64                `json:"restarts"`
	BestCost           *int                 `json:"best_cost"`
	WallSeconds        *float64             `json:"wall_seconds"`
	CPUSeconds         *float64             `json:"cpu_seconds"`
	PrefilterRevisions *int64               `json:"prefilter_revisions"`
	Nodes              *int64               `json:"nodes"`
	Guesses            *int64               `json:"guesses"`
	Error              string               `json:"error,omitempty"`
	CodeVersion        string               `json:"code_version"`
	Host               string               `json:"host"`
	StartedAt          string               `json:"started_at"`
	FinishedAt         string               `json:"finished_at"`
	FinalGrid          string               `json:"final_grid,omitempty"`
	Conflicts          []sudokulab.Conflict `json:"conflicts"`
	Points             int                  `json:"trajectory_points"`
	FinalSVG           template.HTML        `json:"-"`
	ParamList          []param              `json:"-"`
}

// param is one parameter of a configuration, as the run page lists it.
type param struct{ Name, Value string }

// paramsOf lists the parameters of a canonical JSON object, sorted by
// name; nil when the text is no JSON object.
func paramsOf(params string) []param {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(params), &m) != nil {
		return nil
	}
	out := make([]param, 0, len(m))
	for k, v := range m {
		out = append(out, param{k, string(v)})
	}
	slices.SortFunc(out, func(a, b param) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (s *Server) run(r *http.Request) (view, error) {
	ctx := r.Context()
	id, err := pathID(r, "run")
	if err != nil {
		return view{}, err
	}
	run, err := db.GetRun(ctx, s.db, id)
	if err != nil {
		return view{}, err
	}
	c, err := db.GetConfigByID(ctx, s.db, run.ConfigID)
	if err != nil {
		return view{}, err
	}
	p, err := db.GetPuzzle(ctx, s.db, run.PuzzleID)
	if err != nil {
		return view{}, err
	}
	d := runData{ID: run.ID, Config: c.Name, Solver: c.Solver, Params: c.Params, PuzzleID: run.PuzzleID, Seed: run.Seed,
		MaxEvaluations: run.MaxEvaluations, MaxGenerations: run.MaxGenerations, TimeoutMS: run.TimeoutMS,
		Status: string(run.Status), Evaluations: run.Evaluations, Generations: run.Generations, Restarts: run.Restarts,
		BestCost: run.BestCost, WallSeconds: run.WallSeconds, CPUSeconds: run.CPUSeconds,
		PrefilterRevisions: run.PrefilterRevisions, Nodes: run.Nodes, Guesses: run.Guesses, Error: run.Error,
		CodeVersion: run.CodeVersion, Host: run.Host, StartedAt: db.FormatTime(run.StartedAt), FinishedAt: db.FormatTime(run.FinishedAt),
		Conflicts: []sudokulab.Conflict{}, ParamList: paramsOf(c.Params)}
	if run.ExperimentID != 0 {
		if d.Experiment, err = db.ExperimentName(ctx, s.db, run.ExperimentID); err != nil {
			return view{}, err
		}
	}
	if run.FinalGrid.Cells != nil {
		d.FinalGrid = run.FinalGrid.String()
		if cs := run.FinalGrid.Conflicts(); cs != nil {
			d.Conflicts = cs
		}
		d.FinalSVG = gridSVG(run.FinalGrid, p.Givens, d.Conflicts, "final grid of run "+strconv.FormatInt(id, 10))
	}
	points, err := db.RunTrajectory(ctx, s.db, id)
	if err != nil {
		return view{}, err
	}
	d.Points = len(points)
	return view{Template: "run", Title: "Run " + strconv.FormatInt(id, 10), Data: d}, nil
}

// trajectorySVG draws a run's best cost over its generations (plots'
// convergence picture of one run).
func (s *Server) trajectorySVG(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, err := pathID(r, "run")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	run, err := db.GetRun(ctx, s.db, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	points, err := db.RunTrajectory(ctx, s.db, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(points) == 0 {
		s.fail(w, r, notFound("run %d has no trajectory points (recorded with --trace none)", id))
		return
	}
	t := plots.Trajectory{Config: "run " + strconv.FormatInt(id, 10), Panel: "puzzle " + strconv.FormatInt(run.PuzzleID, 10),
		Used: float64(run.Generations)}
	for _, p := range points {
		t.X = append(t.X, float64(p.Generation))
		t.Best = append(t.Best, float64(p.BestCost))
	}
	var budgets []float64
	if run.MaxGenerations > 0 {
		budgets = []float64{float64(run.MaxGenerations)}
	}
	fig, err := plots.Convergence(plots.ConvergenceData{Runs: []plots.Trajectory{t}, XLabel: "generations", Budgets: budgets},
		plots.Options{Title: "Run " + strconv.FormatInt(id, 10) + ": best cost by generation"})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeFigure(w, r, s, fig)
}

// writeFigure answers with a picture of plots as SVG, under a policy that
// allows only its own inline styles.
func writeFigure(w http.ResponseWriter, r *http.Request, s *Server, fig *plots.Figure) {
	var b bytes.Buffer
	if err := fig.WriteSVG(&b); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Write(b.Bytes())
}
