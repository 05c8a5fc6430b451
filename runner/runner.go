// Package runner is the run engine: it runs solver configurations on
// puzzles with seeds, on every core, checks every claimed solution, and
// records each finished run with its trajectory through one batching
// writer. Work already recorded is skipped, so an interrupted experiment
// resumes where it stopped.
package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/cputime"
)

// Config is a stored configuration together with its solver.
type Config struct {
	sudokulab.Config
	Info   sudokulab.SolverInfo
	Params sudokulab.Params
}

// Plan is the cross product of puzzles, configurations and seeds, all run
// with one budget. Each combination is one run.
type Plan struct {
	Puzzles []sudokulab.Puzzle
	Configs []Config
	Seeds   []int64
	Budget  sudokulab.Budget
	// Timeout limits each run's wall time; 0 means none.
	Timeout time.Duration
	// ExperimentID groups the runs; 0 means no experiment.
	ExperimentID int64
}

// Total returns the number of runs in the plan.
func (p *Plan) Total() int { return len(p.Puzzles) * len(p.Configs) * len(p.Seeds) }

// Outcome is one finished run, as reported to a Progress.
type Outcome struct {
	Run    *sudokulab.Run
	Config *Config
	// Duplicate is true when another process recorded the same run first;
	// this one was dropped.
	Duplicate bool
}

// Progress hears about the engine's work. Its methods are called from one
// goroutine.
type Progress interface {
	// Start is called once with the number of runs to do and the number
	// already recorded before this call.
	Start(todo, recorded int)
	// Recorded is called for every run once it is committed.
	Recorded(Outcome)
}

// Options tune Execute. Zero values mean the documented defaults.
type Options struct {
	// Jobs is the number of runs at a time; 0 means every core.
	Jobs int
	// Trace selects the stored trajectory points; the zero Trace stores
	// none (use DefaultTrace for the default policy).
	Trace Trace
	// Progress, if not nil, hears about the work.
	Progress Progress
	// CodeVersion and Host are recorded on every run; empty means
	// CodeVersion() and the host name.
	CodeVersion, Host string
	// BatchRuns and BatchDelay bound how many finished runs wait, and for
	// how long, before the writer commits them in one transaction. 0 means
	// 64 runs and 200ms.
	BatchRuns  int
	BatchDelay time.Duration
	// Begin, if not nil, is called by Run and Execute once before any
	// work with what is known then: the experiment, the size of the plan
	// (Total, of its shard), the configurations' names, and for a worker
	// without a plan its name and what the queue holds (Left).
	Begin func(Summary)
	// WaitExperiment, if not nil, is told once when Run with Spec.Queued
	// waits for its experiment, which does not exist yet: a worker
	// started before the run or tune that creates it waits for it, and
	// then for its first work, as it waits for work.
	WaitExperiment func(name string)
	// Unclaimed, if not nil, is told once per Run when a plan left to
	// other processes (Spec.ByWorkers) has had runs waiting and none under
	// way for UnclaimedAfter (0 means 30 seconds): no worker may be
	// running. It hears the experiment's name.
	Unclaimed      func(experiment string)
	UnclaimedAfter time.Duration
}

// DefaultUnclaimedAfter is Options.UnclaimedAfter when it is 0.
const DefaultUnclaimedAfter = 30 * time.Second

// Summary counts what Execute or Work did, per configuration in plan
// order.
type Summary struct {
	// Total is the number of runs in the plan; Skipped those recorded
	// before this call; Recorded those this call recorded; Duplicates
	// those it did but found recorded by another process first (whose
	// lease had lapsed); ByOthers those other processes sharing the work
	// recorded meanwhile; Abandoned those left undone after their workers
	// died db.DefaultMaxAttempts times.
	Total, Skipped, Recorded, Duplicates, ByOthers, Abandoned int
	// Configs counts the runs this call recorded per configuration.
	Configs []ConfigSummary

	// Experiment and ExperimentID say which experiment holds the work
	// (Experiment is empty for a Plan given with its ExperimentID); Worker
	// names this process in the queue (Run without a plan).
	Experiment   string
	ExperimentID int64
	Worker       string
	// Puzzles is the number of puzzles of the plan, Planned its runs
	// (all shards), Enqueued what putting it in the queue did.
	Puzzles  int
	Planned  int64
	Enqueued db.EnqueueResult
	// Left is what the queue held at the end (at the start, for Run
	// without a plan).
	Left db.WorkLeft
	// Held counts, per configuration of the plan, the runs its experiment
	// holds once the plan is done, those linked from other experiments
	// included (as the view experiment_run_results does).
	Held []db.ExperimentConfigRuns
}

// ConfigSummary counts the runs of one configuration recorded by one
// Execute.
type ConfigSummary struct {
	Name              string
	Runs, Solved      int
	SolvedEvaluations int64 // summed over solved runs
	SolvedGenerations int64
	// SolvedNodes sums the tree-search nodes of solved runs: the effort of
	// a solver that counts no evaluations (the exact solver).
	SolvedNodes int64
	Errors      int
}

// CodeVersion returns the version of the running binary: the environment
// variable SUDOKULAB_CODE_VERSION if set, else from the build information
// the module version, or the VCS revision (with "+dirty" for a modified
// tree); go run, go test and -buildvcs=false builds carry no revision, so
// then the revision of the git checkout the source was compiled from (see
// sourceVersion), and "devel" only when there is none.
func CodeVersion() string {
	if v := os.Getenv("SUDOKULAB_CODE_VERSION"); v != "" {
		return v
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return sourceVersion()
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return rev + dirty
	}
	return sourceVersion()
}

// Execute does the runs of the plan that are not recorded yet, as Run
// does a Spec: it puts the plan in the work queue of its experiment (one
// named after the plan by PlanName when it has none, so that repeating the
// same plan resumes it), then works on it until the whole plan is
// recorded, by this process or others working on the same experiment at
// the same time. When ctx is cancelled the runs in progress are abandoned,
// every run that finished is still recorded, and the error is ctx's. A run
// is recorded with its trajectory in one transaction, so the database
// never holds half a run.
func Execute(ctx context.Context, d *db.DB, plan Plan, opts Options) (Summary, error) {
	if plan.Total() == 0 {
		sum := Summary{}
		for _, c := range plan.Configs {
			sum.Configs = append(sum.Configs, ConfigSummary{Name: c.Name})
		}
		if opts.Progress != nil {
			opts.Progress.Start(0, 0)
		}
		return sum, ctx.Err()
	}
	p := queued{
		spec: db.PlanSpec{
			ExperimentID: plan.ExperimentID,
			PuzzleIDs:    make([]int64, len(plan.Puzzles)),
			ConfigIDs:    make([]int64, len(plan.Configs)),
			Seeds:        plan.Seeds,
			Budget:       db.Budget{MaxEvaluations: plan.Budget.MaxEvaluations, MaxGenerations: plan.Budget.MaxGenerations, TimeoutMS: plan.Timeout.Milliseconds()},
			Trace:        opts.Trace.String(),
		},
		puzzles: len(plan.Puzzles),
		configs: plan.Configs,
		// The plan's puzzles and configurations are at hand: the workers
		// need not read them.
		cat:  &DBCatalog{DB: d, configs: map[int64]*Config{}, puzzles: map[int64]*sudokulab.Puzzle{}},
		poll: 100 * time.Millisecond,
	}
	for i := range plan.Puzzles {
		p.spec.PuzzleIDs[i] = plan.Puzzles[i].ID
		p.cat.puzzles[plan.Puzzles[i].ID] = &plan.Puzzles[i]
	}
	for i := range plan.Configs {
		p.spec.ConfigIDs[i] = plan.Configs[i].ID
		p.cat.configs[plan.Configs[i].ID] = &plan.Configs[i]
	}
	if p.spec.ExperimentID == 0 {
		var err error
		p.experiment = PlanName(p.spec)
		if p.spec.ExperimentID, err = db.EnsureExperiment(ctx, d, p.experiment, ""); err != nil {
			return p.summary(), err
		}
	}
	return p.do(ctx, d, opts)
}

// worker runs jobs one at a time, keeping one solver per configuration and
// one Recorder per trace policy.
type worker struct {
	opts    Options
	recs    map[Trace]*Recorder
	solvers map[int64]sudokulab.Solver
}

func newWorker(opts Options) *worker {
	return &worker{opts: opts, recs: map[Trace]*Recorder{}, solvers: map[int64]sudokulab.Solver{}}
}

// run does one job. It reports false for a run abandoned because ctx was
// cancelled: such a run is not recorded.
func (w *worker) run(ctx context.Context, j job) (finished, bool) {
	c, it := j.config, j.item
	r := &sudokulab.Run{
		ExperimentID: it.ExperimentID, PuzzleID: j.puzzle.ID, ConfigID: c.ID, Seed: it.Seed,
		MaxEvaluations: it.MaxEvaluations, MaxGenerations: it.MaxGenerations,
		TimeoutMS: it.TimeoutMS, CodeVersion: w.opts.CodeVersion, Host: w.opts.Host,
	}
	fail := func(err error) (finished, bool) {
		r.Status, r.Error = sudokulab.StatusError, err.Error()
		r.FinishedAt = time.Now()
		wall := r.FinishedAt.Sub(r.StartedAt).Seconds()
		r.WallSeconds = &wall
		return finished{item: it, run: r, config: c}, true
	}
	r.StartedAt = time.Now()
	s, ok := w.solvers[c.ID]
	if !ok {
		var err error
		if s, err = c.Info.New(c.Params); err != nil {
			return fail(fmt.Errorf("new %s: %w", c.Info.Name, err))
		}
		w.solvers[c.ID] = s
	}
	rctx := ctx
	if it.TimeoutMS > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, time.Duration(it.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	rec, ok := w.recs[j.trace]
	if !ok {
		rec = NewRecorder(j.trace)
		w.recs[j.trace] = rec
	}
	rec.Reset()
	budget := sudokulab.Budget{MaxEvaluations: it.MaxEvaluations, MaxGenerations: it.MaxGenerations}
	// The search runs on a thread of its own while its CPU clock is read.
	runtime.LockOSThread()
	cpu0, cpuOK := cputime.Thread()
	res, err := solveSafely(rctx, s, j.puzzle.Givens, budget, sudokulab.NewRand(it.Seed), rec)
	cpu1, _ := cputime.Thread()
	runtime.UnlockOSThread()
	if ctx.Err() != nil {
		return finished{}, false // interrupted: not a finished run
	}
	if err != nil {
		// A solver that failed, or panicked, may be left in a bad state:
		// the next run of this configuration gets a new one.
		delete(w.solvers, c.ID)
		return fail(err)
	}
	points := rec.Points()
	r.FinishedAt = time.Now()
	wall := r.FinishedAt.Sub(r.StartedAt).Seconds()
	r.WallSeconds = &wall
	r.Status, r.Evaluations, r.Generations, r.Restarts = res.Status, res.Evaluations, res.Generations, res.Restarts
	if cpuOK {
		cpu := (cpu1 - cpu0).Seconds()
		r.CPUSeconds = &cpu
	}
	r.PrefilterRevisions, r.Nodes, r.Guesses = positive(res.PrefilterRevisions), positive(res.Nodes), positive(res.Guesses)
	if res.Nodes > 0 {
		r.Guesses = &res.Guesses // a tree search that never guessed made 0 guesses, not NULL
	}
	if err := checkResult(j.puzzle.Givens, res); err != nil {
		r.Status, r.Error = sudokulab.StatusError, err.Error()
	}
	if len(res.Grid.Cells) == len(j.puzzle.Givens.Cells) && res.Grid.Shape == j.puzzle.Givens.Shape {
		r.FinalGrid = res.Grid
		cost := res.Grid.Cost()
		r.BestCost = &cost
	}
	return finished{item: it, run: r, points: points, config: c}, true
}

// positive returns &n for a count above 0 and nil (NULL: the solver does
// not count it) otherwise.
func positive(n int64) *int64 {
	if n <= 0 {
		return nil
	}
	return &n
}

// solveSafely runs the solver, turning a panic into an error so that one
// bad run is recorded as such instead of ending the experiment.
func solveSafely(ctx context.Context, s sudokulab.Solver, p sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (res sudokulab.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("solver panicked: %v", v)
		}
	}()
	return s.Solve(ctx, p, b, rng, obs)
}

// checkResult verifies what a solver returned: a status, an untouched
// puzzle, and for a claimed solution a grid that obeys the rules.
func checkResult(puzzle sudokulab.Grid, res sudokulab.Result) error {
	if !res.Status.Valid() {
		return fmt.Errorf("solver returned status %q", res.Status)
	}
	if err := sudokulab.CheckFinalGrid(puzzle, res.Grid, res.Status == sudokulab.StatusSolved); err != nil {
		return fmt.Errorf("solver returned a wrong grid: %w", err)
	}
	return nil
}
