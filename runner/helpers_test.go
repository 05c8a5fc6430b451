package runner_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/runner"
	"sudokulab/solvers/exact"
)

// openDB opens (creating) the database file at path, closed at cleanup.
func openDB(t testing.TB, path string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// newDB returns a fresh database in a temporary directory.
func newDB(t testing.TB) *db.DB {
	t.Helper()
	return openDB(t, filepath.Join(t.TempDir(), "lab.db"))
}

// addPuzzles stores the named paper puzzles, with their solutions.
func addPuzzles(t testing.TB, d *db.DB, names ...string) []sudokulab.Puzzle {
	t.Helper()
	out := make([]sudokulab.Puzzle, len(names))
	for i, name := range names {
		pp := paperdata.MustGet(name)
		p := sudokulab.Puzzle{Givens: pp.Puzzle, Solution: pp.Solution}
		if _, _, err := db.AddPuzzle(context.Background(), d, &p); err != nil {
			t.Fatalf("add puzzle %s: %v", name, err)
		}
		out[i] = p
	}
	return out
}

// addConfig stores a configuration of info named name with the parameters
// set (nil for the defaults) and returns it ready for a Plan.
func addConfig(t testing.TB, d *db.DB, info sudokulab.SolverInfo, name string, set map[string]string) runner.Config {
	t.Helper()
	params, err := info.Resolve(set)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	c := sudokulab.Config{Name: name, Solver: info.Name, Params: params.Canonical(), Description: "runner test"}
	if _, _, err := db.EnsureConfig(context.Background(), d, &c); err != nil {
		t.Fatalf("add config %s: %v", name, err)
	}
	return runner.Config{Config: c, Info: info, Params: params}
}

// exactConfig stores the exact solver's configuration.
func exactConfig(t testing.TB, d *db.DB) runner.Config {
	return addConfig(t, d, exact.Info(), "exact", nil)
}

// lsConfig stores a local search configuration.
func lsConfig(t testing.TB, d *db.DB, name string, set map[string]string) runner.Config {
	return addConfig(t, d, localSearchInfo(), name, set)
}

func seeds(from, to int64) []int64 {
	var out []int64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// stored is a run as read back, with its trajectory.
type stored struct {
	run    sudokulab.Run
	points []sudokulab.TrajectoryPoint
}

// identity is a run's full identity.
type identity struct {
	puzzle, config, seed       int64
	maxEvals, maxGens, timeout int64
}

func (s stored) id() identity {
	r := s.run
	return identity{r.PuzzleID, r.ConfigID, r.Seed, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS}
}

// loadRuns reads every run of the database, with its trajectory, in id
// order.
func loadRuns(t testing.TB, d *db.DB) []stored {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	if err := d.SelectContext(ctx, &ids, `SELECT id FROM runs ORDER BY id`); err != nil {
		t.Fatalf("list runs: %v", err)
	}
	out := make([]stored, len(ids))
	for i, id := range ids {
		r, err := db.GetRun(ctx, d, id)
		if err != nil {
			t.Fatalf("get run %d: %v", id, err)
		}
		pts, err := db.RunTrajectory(ctx, d, id)
		if err != nil {
			t.Fatalf("trajectory of run %d: %v", id, err)
		}
		out[i] = stored{run: *r, points: pts}
	}
	return out
}

// countRuns returns the number of rows of runs.
func countRuns(t testing.TB, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM runs`); err != nil {
		t.Fatalf("count runs: %v", err)
	}
	return n
}

// planIdentities returns the identities of every run of the plan.
func planIdentities(p runner.Plan) map[identity]bool {
	out := map[identity]bool{}
	for _, pz := range p.Puzzles {
		for _, c := range p.Configs {
			for _, s := range p.Seeds {
				out[identity{pz.ID, c.ID, s, p.Budget.MaxEvaluations, p.Budget.MaxGenerations, p.Timeout.Milliseconds()}] = true
			}
		}
	}
	return out
}

// checkExactlyPlan checks that the stored runs are the plan's runs, each
// once.
func checkExactlyPlan(t *testing.T, runs []stored, plans ...runner.Plan) {
	t.Helper()
	want := map[identity]bool{}
	for _, p := range plans {
		for k := range planIdentities(p) {
			want[k] = true
		}
	}
	got := map[identity]int{}
	for _, s := range runs {
		got[s.id()]++
	}
	for k, n := range got {
		if n > 1 {
			t.Errorf("run %+v stored %d times", k, n)
		}
		if !want[k] {
			t.Errorf("run %+v stored but not in the plan", k)
		}
	}
	for k := range want {
		if got[k] == 0 {
			t.Errorf("run %+v of the plan is missing", k)
		}
	}
	if len(runs) != len(want) {
		t.Errorf("%d runs stored, the plan has %d", len(runs), len(want))
	}
}

// checkRun checks what holds for every stored run: a final status (never
// canceled), a checked solution, a consistent trajectory, the budget of
// its plan and its provenance.
func checkRun(t *testing.T, s stored, plan runner.Plan, puzzles map[int64]sudokulab.Puzzle) {
	t.Helper()
	r := s.run
	name := fmt.Sprintf("run %d (puzzle %d, config %d, seed %d)", r.ID, r.PuzzleID, r.ConfigID, r.Seed)
	if !r.Status.Valid() || r.Status == sudokulab.StatusCanceled {
		t.Errorf("%s: status %q", name, r.Status)
	}
	if (r.Status == sudokulab.StatusError) != (r.Error != "") {
		t.Errorf("%s: status %s with error %q", name, r.Status, r.Error)
	}
	if r.Status == sudokulab.StatusSolved {
		p := puzzles[r.PuzzleID]
		if err := sudokulab.CheckSolution(p.Givens, r.FinalGrid); err != nil {
			t.Errorf("%s: solved, but the final grid is no solution: %v", name, err)
		}
		if r.BestCost == nil || *r.BestCost != 0 {
			t.Errorf("%s: solved with best cost %v", name, r.BestCost)
		}
	}
	if r.BestCost != nil && len(r.FinalGrid.Cells) > 0 && *r.BestCost != r.FinalGrid.Cost() {
		t.Errorf("%s: best cost %d, final grid costs %d", name, *r.BestCost, r.FinalGrid.Cost())
	}
	if r.MaxEvaluations != plan.Budget.MaxEvaluations || r.MaxGenerations != plan.Budget.MaxGenerations || r.TimeoutMS != plan.Timeout.Milliseconds() {
		t.Errorf("%s: budget %d evaluations, %d generations, %d ms; plan %+v, %v", name, r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS, plan.Budget, plan.Timeout)
	}
	// A plan without an experiment runs in one named after it.
	if r.ExperimentID != plan.ExperimentID && (plan.ExperimentID != 0 || r.ExperimentID == 0) {
		t.Errorf("%s: experiment %d, plan %d", name, r.ExperimentID, plan.ExperimentID)
	}
	if r.CodeVersion == "" || r.Host == "" {
		t.Errorf("%s: code version %q, host %q", name, r.CodeVersion, r.Host)
	}
	if r.StartedAt.IsZero() || r.FinishedAt.Before(r.StartedAt) {
		t.Errorf("%s: started %v, finished %v", name, r.StartedAt, r.FinishedAt)
	}
	if r.WallSeconds == nil || *r.WallSeconds < 0 {
		t.Errorf("%s: wall seconds %v", name, r.WallSeconds)
	}
	prevBest, prevElapsed, prevRestarts := 0, 0.0, int64(0)
	for i, p := range s.points {
		if p.Restarts < prevRestarts || p.Restarts > r.Restarts {
			t.Errorf("%s: restarts %d at seq %d, after %d, run ended with %d", name, p.Restarts, i, prevRestarts, r.Restarts)
		}
		prevRestarts = p.Restarts
		if p.RunID != r.ID || p.Seq != i {
			t.Errorf("%s: point %d has run %d seq %d", name, i, p.RunID, p.Seq)
		}
		if i > 0 && p.BestCost > prevBest {
			t.Errorf("%s: best cost rises from %d to %d at seq %d", name, prevBest, p.BestCost, i)
		}
		if p.ElapsedSeconds < prevElapsed {
			t.Errorf("%s: elapsed goes back from %v to %v at seq %d", name, prevElapsed, p.ElapsedSeconds, i)
		}
		prevBest, prevElapsed = p.BestCost, p.ElapsedSeconds
	}
}

// expectedPoints re-runs the solver of a stored run outside the engine,
// with the same seed, budget and trace, and returns the points it should
// have stored. Only for runs bounded by their budget, not by time.
func expectedPoints(t *testing.T, c runner.Config, puzzle sudokulab.Puzzle, plan runner.Plan, seed int64, trace runner.Trace) []sudokulab.TrajectoryPoint {
	t.Helper()
	s, err := c.Info.New(c.Params)
	if err != nil {
		t.Fatalf("new %s: %v", c.Name, err)
	}
	rec := runner.NewRecorder(trace)
	rec.Reset()
	if _, err := s.Solve(context.Background(), puzzle.Givens, plan.Budget, sudokulab.NewRand(seed), rec); err != nil {
		return nil
	}
	return append([]sudokulab.TrajectoryPoint(nil), rec.Finish()...)
}

// pointKey is a point without its run id and elapsed time, which differ
// from one execution to the next.
type pointKey struct {
	Seq                               int
	Generation, Evaluations, Restarts int64
	BestCost                          int
	CurrentCost, Convergence          float64
	HasCurrent, HasConvergence        bool
}

func keysOf(pts []sudokulab.TrajectoryPoint) []pointKey {
	out := make([]pointKey, len(pts))
	for i, p := range pts {
		out[i] = pointKey{Seq: p.Seq, Generation: p.Generation, Evaluations: p.Evaluations, Restarts: p.Restarts, BestCost: p.BestCost}
		if p.CurrentCost != nil {
			out[i].CurrentCost, out[i].HasCurrent = *p.CurrentCost, true
		}
		if p.Convergence != nil {
			out[i].Convergence, out[i].HasConvergence = *p.Convergence, true
		}
	}
	return out
}

// byID indexes puzzles and configurations of a plan by id.
func puzzlesByID(ps []sudokulab.Puzzle) map[int64]sudokulab.Puzzle {
	m := map[int64]sudokulab.Puzzle{}
	for _, p := range ps {
		m[p.ID] = p
	}
	return m
}

func configsByID(cs []runner.Config) map[int64]runner.Config {
	m := map[int64]runner.Config{}
	for _, c := range cs {
		m[c.ID] = c
	}
	return m
}

// progress records what Execute tells it and can cancel the run.
type progress struct {
	mu            sync.Mutex
	starts        int
	todo, already int
	outcomes      []runner.Outcome
	// cancelAfter, if cancel is set, cancels after that many recorded
	// outcomes; 0 cancels in Start.
	cancelAfter int
	cancel      context.CancelFunc
}

func (p *progress) Start(todo, recorded int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starts++
	p.todo, p.already = todo, recorded
	if p.cancel != nil && p.cancelAfter == 0 {
		p.cancel()
	}
}

func (p *progress) Recorded(o runner.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.outcomes = append(p.outcomes, o)
	if p.cancel != nil && p.cancelAfter > 0 && len(p.outcomes) >= p.cancelAfter {
		p.cancel()
	}
}
