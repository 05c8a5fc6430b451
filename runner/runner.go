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
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
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
}

// Summary counts what Execute did, per configuration in plan order.
type Summary struct {
	Total, Skipped, Recorded, Duplicates int
	Configs                              []ConfigSummary
}

// ConfigSummary counts the runs of one configuration recorded by one
// Execute.
type ConfigSummary struct {
	Name              string
	Runs, Solved      int
	SolvedEvaluations int64 // summed over solved runs
	SolvedGenerations int64
	Errors            int
}

// CodeVersion returns the version of the running binary: the environment
// variable SUDOKULAB_CODE_VERSION if set, else from the build information
// the module version, or the VCS revision (with "+dirty" for a modified
// tree), or "devel" (go run and -buildvcs=false builds carry no revision).
func CodeVersion() string {
	if v := os.Getenv("SUDOKULAB_CODE_VERSION"); v != "" {
		return v
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
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
	return "devel"
}

type job struct {
	puzzle *sudokulab.Puzzle
	config *Config
	seed   int64
}

type finished struct {
	run    *sudokulab.Run
	points []sudokulab.TrajectoryPoint
	config *Config
}

// Execute does the runs of the plan that are not recorded yet. It returns
// when all are recorded, or when ctx is cancelled: then the runs in
// progress are abandoned, every run that finished is still recorded, and
// the error is ctx's. A run is recorded with its trajectory in one
// transaction, so the database never holds half a run.
func Execute(ctx context.Context, d *db.DB, plan Plan, opts Options) (Summary, error) {
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	if opts.BatchRuns <= 0 {
		opts.BatchRuns = 64
	}
	if opts.BatchDelay <= 0 {
		opts.BatchDelay = 200 * time.Millisecond
	}
	if opts.CodeVersion == "" {
		opts.CodeVersion = CodeVersion()
	}
	if opts.Host == "" {
		opts.Host, _ = os.Hostname()
	}
	sum := Summary{Total: plan.Total()}
	idx := map[int64]int{}
	ids := make([]int64, len(plan.Configs))
	for i := range plan.Configs {
		c := &plan.Configs[i]
		idx[c.ID] = i
		ids[i] = c.ID
		sum.Configs = append(sum.Configs, ConfigSummary{Name: c.Name})
	}
	done, err := db.RecordedRuns(ctx, d, ids, budgetKey(plan))
	if err != nil {
		return sum, err
	}
	var jobs []job
	for i := range plan.Puzzles {
		for j := range plan.Configs {
			for _, seed := range plan.Seeds {
				p, c := &plan.Puzzles[i], &plan.Configs[j]
				if done[db.RunKey{PuzzleID: p.ID, ConfigID: c.ID, Seed: seed}] {
					sum.Skipped++
					continue
				}
				jobs = append(jobs, job{puzzle: p, config: c, seed: seed})
			}
		}
	}
	if opts.Progress != nil {
		opts.Progress.Start(len(jobs), sum.Skipped)
	}
	if len(jobs) == 0 {
		return sum, ctx.Err()
	}

	jobCh := make(chan job)
	// Workers stop when ctx is done or when recording has failed.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	// Room for a whole batch, so that workers keep running while the
	// writer commits the previous one.
	resCh := make(chan finished, opts.BatchRuns+2*opts.Jobs)
	var wg sync.WaitGroup
	for range min(opts.Jobs, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker(plan, opts)
			for j := range jobCh {
				if f, ok := w.run(runCtx, j); ok {
					resCh <- f
				}
			}
		}()
	}
	go func() {
		defer close(jobCh)
		for _, j := range jobs {
			select {
			case jobCh <- j:
			case <-runCtx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(resCh)
	}()

	// The writer outlives a cancelled ctx: finished runs are kept.
	wctx := context.WithoutCancel(ctx)
	var batch []finished
	var points []sudokulab.TrajectoryPoint
	var werr error
	flush := func() {
		if len(batch) == 0 || werr != nil {
			batch = batch[:0]
			return
		}
		var dup []bool
		werr = d.WithTx(wctx, func(tx *sqlx.Tx) error {
			dup = dup[:0]
			points = points[:0]
			for _, f := range batch {
				id, inserted, err := db.InsertRunIfNew(wctx, tx, f.run, nil)
				if err != nil {
					return err
				}
				dup = append(dup, !inserted)
				if inserted {
					for _, p := range f.points {
						p.RunID = id
						points = append(points, p)
					}
				}
			}
			// The points of the whole batch in one call: the full-size
			// INSERT is prepared once, not once per run.
			return db.InsertPoints(wctx, tx, points)
		})
		if werr != nil {
			stop() // nothing more can be recorded: stop the workers
		}
		if werr == nil {
			for i, f := range batch {
				cs := &sum.Configs[idx[f.run.ConfigID]]
				if dup[i] {
					sum.Duplicates++
				} else {
					sum.Recorded++
					cs.Runs++
					switch f.run.Status {
					case sudokulab.StatusSolved:
						cs.Solved++
						cs.SolvedEvaluations += f.run.Evaluations
						cs.SolvedGenerations += f.run.Generations
					case sudokulab.StatusError:
						cs.Errors++
					}
				}
				if opts.Progress != nil {
					opts.Progress.Recorded(Outcome{Run: f.run, Config: f.config, Duplicate: dup[i]})
				}
			}
		}
		batch = batch[:0]
	}
	timer := time.NewTimer(opts.BatchDelay)
	timer.Stop()
	for {
		select {
		case f, ok := <-resCh:
			if !ok {
				flush()
				if werr != nil {
					return sum, fmt.Errorf("record runs: %w", werr)
				}
				return sum, ctx.Err()
			}
			if len(batch) == 0 {
				timer.Reset(opts.BatchDelay)
			}
			batch = append(batch, f)
			if len(batch) >= opts.BatchRuns {
				flush()
			}
		case <-timer.C:
			flush()
		}
	}
}

func budgetKey(p Plan) db.Budget {
	return db.Budget{MaxEvaluations: p.Budget.MaxEvaluations, MaxGenerations: p.Budget.MaxGenerations, TimeoutMS: p.Timeout.Milliseconds()}
}

// worker runs jobs one at a time, keeping one solver per configuration and
// one Recorder.
type worker struct {
	plan    Plan
	opts    Options
	rec     *Recorder
	solvers map[int64]sudokulab.Solver
}

func newWorker(plan Plan, opts Options) *worker {
	return &worker{plan: plan, opts: opts, rec: NewRecorder(opts.Trace), solvers: map[int64]sudokulab.Solver{}}
}

// run does one job. It reports false for a run abandoned because ctx was
// cancelled: such a run is not recorded.
func (w *worker) run(ctx context.Context, j job) (finished, bool) {
	c := j.config
	r := &sudokulab.Run{
		ExperimentID: w.plan.ExperimentID, PuzzleID: j.puzzle.ID, ConfigID: c.ID, Seed: j.seed,
		MaxEvaluations: w.plan.Budget.MaxEvaluations, MaxGenerations: w.plan.Budget.MaxGenerations,
		TimeoutMS: w.plan.Timeout.Milliseconds(), CodeVersion: w.opts.CodeVersion, Host: w.opts.Host,
	}
	fail := func(err error) (finished, bool) {
		r.Status, r.Error = sudokulab.StatusError, err.Error()
		r.FinishedAt = time.Now()
		wall := r.FinishedAt.Sub(r.StartedAt).Seconds()
		r.WallSeconds = &wall
		return finished{run: r, config: c}, true
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
	if w.plan.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, w.plan.Timeout)
		defer cancel()
	}
	w.rec.Reset()
	res, err := solveSafely(rctx, s, j.puzzle.Givens, w.plan.Budget, sudokulab.NewRand(j.seed), w.rec)
	if ctx.Err() != nil {
		return finished{}, false // interrupted: not a finished run
	}
	if err != nil {
		// A solver that failed, or panicked, may be left in a bad state:
		// the next run of this configuration gets a new one.
		delete(w.solvers, c.ID)
		return fail(err)
	}
	points := w.rec.Points()
	r.FinishedAt = time.Now()
	wall := r.FinishedAt.Sub(r.StartedAt).Seconds()
	r.WallSeconds = &wall
	r.Status, r.Evaluations, r.Generations, r.Restarts = res.Status, res.Evaluations, res.Generations, res.Restarts
	if err := checkResult(j.puzzle.Givens, res); err != nil {
		r.Status, r.Error = sudokulab.StatusError, err.Error()
	}
	if len(res.Grid.Cells) == len(j.puzzle.Givens.Cells) && res.Grid.Shape == j.puzzle.Givens.Shape {
		r.FinalGrid = res.Grid
		cost := res.Grid.Cost()
		r.BestCost = &cost
	}
	return finished{run: r, points: points, config: c}, true
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
	g := res.Grid
	if g.Shape != puzzle.Shape || len(g.Cells) != len(puzzle.Cells) {
		return fmt.Errorf("solver returned a %s grid of %d cells for a %s puzzle", g.Shape, len(g.Cells), puzzle.Shape)
	}
	for i, v := range puzzle.Cells {
		if v != 0 && g.Cells[i] != v {
			return fmt.Errorf("solver changed the given at %s", puzzle.Geometry().CellName(i))
		}
	}
	if res.Status == sudokulab.StatusSolved {
		if err := sudokulab.CheckSolution(puzzle, g); err != nil {
			return fmt.Errorf("solver claimed a solution that is wrong: %w", err)
		}
	}
	return nil
}
