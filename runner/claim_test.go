package runner_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
)

// sleepySolver solves after a pause: a slow run of known length.
type sleepySolver struct {
	instantSolver
	pause time.Duration
}

func (s sleepySolver) Solve(ctx context.Context, g sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	time.Sleep(s.pause)
	return s.instantSolver.Solve(ctx, g, b, rng, obs)
}

// claimLog is a queue in memory that keeps the size of every claim and
// the most items claimed and not yet completed at any time.
type claimLog struct {
	lateQueue
	mu      sync.Mutex
	claims  []int
	maxHeld int
}

func (q *claimLog) Claim(ctx context.Context, n int) ([]db.WorkItem, error) {
	items, err := q.lateQueue.Claim(ctx, n)
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(items) > 0 {
		q.claims = append(q.claims, n)
	}
	q.lateQueue.mu.Lock()
	q.maxHeld = max(q.maxHeld, len(q.running))
	q.lateQueue.mu.Unlock()
	return items, err
}

// TestSlowRunsClaimedPerIdleWorker has two workers do eight runs of 120
// ms each: runs that slow are claimed one per idle worker, never more
// than the workers, so that none waits in one worker's hands while
// another is idle (the steps of a tuning's race are a few runs each).
// The engine used to double its claims while the workers took them
// quickly, holding runs it had not started.
func TestSlowRunsClaimedPerIdleWorker(t *testing.T) {
	d := newDB(t)
	p := addPuzzles(t, d, "reseda-easy")[0]
	info := instantInfo(p.Solution)
	info.New = func(sudokulab.Params) (sudokulab.Solver, error) {
		return sleepySolver{instantSolver{p.Solution}, 120 * time.Millisecond}, nil
	}
	c := addConfig(t, d, info, "sleepy", nil)
	q := &claimLog{lateQueue: lateQueue{running: map[int64]db.WorkItem{}}}
	for seed := range int64(8) {
		q.pending = append(q.pending, db.WorkItem{ID: seed + 1, PuzzleID: p.ID, ConfigID: c.ID, Seed: seed, Trace: runner.DefaultTrace.String()})
	}
	const jobs = 2
	sum, err := runner.Work(context.Background(), q, fixedCatalog{d, map[int64]*runner.Config{c.ID: &c}}, runner.WorkOptions{
		Options: runner.Options{Jobs: jobs},
		Poll:    10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Recorded != 8 {
		t.Errorf("recorded %d runs, want 8", sum.Recorded)
	}
	for _, n := range q.claims {
		if n > jobs {
			t.Errorf("claims of %v runs with %d workers: want at most one per worker", q.claims, jobs)
			break
		}
	}
	// A finished run may wait for its commit while its worker starts the
	// next one.
	if q.maxHeld > 2*jobs {
		t.Errorf("%d runs held at once by %d workers, want at most %d", q.maxHeld, jobs, 2*jobs)
	}
}

// TestRunByWorkers leaves a plan to a worker on another handle, as tune
// --jobs 0 does, on every backend: Run records nothing itself and returns
// once the worker has done every run, which it counts as done by others.
func TestRunByWorkers(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) { runByWorkers(t, be.open(t)) })
	}
}

func runByWorkers(t *testing.T, open func(t testing.TB) *db.DB) {
	ctx := context.Background()
	d := open(t)
	reg := testRegistry()
	addPuzzles(t, d, "reseda-easy", "sato-no1")
	exactConfig(t, d)
	spec := runner.Spec{Experiment: "by-workers", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 3, ByWorkers: true}
	workerCtx, stopWorker := context.WithCancel(ctx)
	done := make(chan runner.Summary)
	w := open(t)
	go func() {
		// The worker waits for the experiment, which Run makes.
		sum, _ := runner.Run(workerCtx, w, reg, runner.Spec{Queued: true, Experiment: "by-workers", Follow: true}, runner.Options{Jobs: 1})
		done <- sum
	}()
	sum, err := runner.Run(ctx, d, reg, spec, runner.Options{Jobs: 1})
	stopWorker()
	worked := <-done
	if err != nil {
		t.Fatal(err)
	}
	if sum.Recorded != 0 || sum.ByOthers != 6 || worked.Recorded != 6 {
		t.Errorf("Run: %+v; worker: %+v; want the worker to record all 6 runs, Run none", sum, worked)
	}
	if sum.Left.Done() != true || len(sum.Held) != 1 || sum.Held[0].Runs != 6 {
		t.Errorf("Run returned with %+v left, %+v held; want all 6 runs held", sum.Left, sum.Held)
	}
	queued := spec
	queued.Queued, queued.Configs = true, nil
	if _, err := runner.Run(ctx, d, reg, queued, runner.Options{}); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("queued work left to other workers: %v, want EINVALID", err)
	}
}

// TestRunByWorkersQuickWorker: the workers may record a plan's runs the
// moment it is in the queue, before Run looks at what the experiment
// holds; those runs are done by others, not recorded before Run (Skipped),
// on every backend.
func TestRunByWorkersQuickWorker(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			d, w := workersLab(t, be.open(t))
			reg := testRegistry()
			var worked runner.Summary
			var werr error
			defer runner.SetAfterEnqueue(func() {
				worked, werr = runner.Run(ctx, w, reg, runner.Spec{Queued: true, Experiment: "quick"}, runner.Options{Jobs: 1})
			})()
			sum, err := runner.Run(ctx, d, reg, runner.Spec{Experiment: "quick", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 3, ByWorkers: true}, runner.Options{Jobs: 1})
			if err != nil || werr != nil {
				t.Fatalf("Run: %v; worker: %v", err, werr)
			}
			if worked.Recorded != 6 || sum.Skipped != 0 || sum.ByOthers != 6 || sum.Recorded != 0 {
				t.Errorf("Run: skipped %d, by others %d, recorded %d; the worker recorded %d: want 0, 6, 0 and 6",
					sum.Skipped, sum.ByOthers, sum.Recorded, worked.Recorded)
			}
		})
	}
}

// TestWorkerWaitsForExperiment starts a worker (without Follow) on an
// experiment that does not exist yet, on every backend: it says once that
// it waits, and when a plan is queued into the experiment later it does
// every run of it; a worker waiting so stops when its context ends.
func TestWorkerWaitsForExperiment(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			d, w := workersLab(t, be.open(t))
			reg := testRegistry()
			told := make(chan string, 2)
			type result struct {
				sum runner.Summary
				err error
			}
			done := make(chan result)
			go func() {
				sum, err := runner.Run(ctx, w, reg, runner.Spec{Queued: true, Experiment: "later"},
					runner.Options{Jobs: 1, WaitExperiment: func(name string) { told <- name }})
				done <- result{sum, err}
			}()
			if name := <-told; name != "later" {
				t.Errorf("told to wait for %q, want later", name)
			}
			if _, err := runner.Run(ctx, d, reg, runner.Spec{Experiment: "later", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 3, EnqueueOnly: true}, runner.Options{}); err != nil {
				t.Fatal(err)
			}
			r := <-done
			if r.err != nil || r.sum.Recorded != 6 || len(told) != 0 {
				t.Errorf("worker: %+v, %v, told %d more times; want the 6 runs recorded, told once", r.sum, r.err, len(told))
			}

			// Interrupted while it waits.
			stopCtx, stop := context.WithCancel(ctx)
			go func() {
				sum, err := runner.Run(stopCtx, w, reg, runner.Spec{Queued: true, Experiment: "never"},
					runner.Options{Jobs: 1, WaitExperiment: func(string) { stop() }})
				done <- result{sum, err}
			}()
			if r := <-done; !errors.Is(r.err, context.Canceled) || r.sum.Recorded != 0 {
				t.Errorf("interrupted worker: %+v, %v; want context.Canceled", r.sum, r.err)
			}
		})
	}
}

// TestUnclaimedTold: a plan left to workers tells once that its runs
// have waited unclaimed for the bound, counted from the first look that
// found runs waiting and none under way; runs under way start it again.
func TestUnclaimedTold(t *testing.T) {
	waiting, busy, done := db.WorkLeft{Pending: 4}, db.WorkLeft{Pending: 3, Running: 1}, db.WorkLeft{}
	s := time.Second
	tests := []struct {
		name string
		opts runner.Options
		left []db.WorkLeft
		at   []time.Duration
		want []bool
	}{
		{"no worker", runner.Options{Unclaimed: func(string) {}},
			[]db.WorkLeft{waiting, waiting, waiting, waiting}, []time.Duration{0, 29 * s, 30 * s, 90 * s}, []bool{false, false, true, false}},
		{"a worker for a while", runner.Options{Unclaimed: func(string) {}},
			[]db.WorkLeft{waiting, busy, waiting, waiting, waiting}, []time.Duration{0, 20 * s, 40 * s, 60 * s, 70 * s}, []bool{false, false, false, false, true}},
		{"nothing left to claim", runner.Options{Unclaimed: func(string) {}},
			[]db.WorkLeft{done, done}, []time.Duration{0, time.Hour}, []bool{false, false}},
		{"own bound", runner.Options{Unclaimed: func(string) {}, UnclaimedAfter: 5 * s},
			[]db.WorkLeft{waiting, waiting}, []time.Duration{0, 5 * s}, []bool{false, true}},
		{"no one to tell", runner.Options{},
			[]db.WorkLeft{waiting, waiting}, []time.Duration{0, time.Hour}, []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runner.UnclaimedTold(tt.opts, tt.left, tt.at); !slices.Equal(got, tt.want) {
				t.Errorf("told %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRunByWorkersTellsUnclaimed leaves a plan to workers with none
// running, on every backend: Run tells once that its runs wait unclaimed
// (the bound made a nanosecond, so that no clock is raced), and returns
// once the worker started then has done them.
func TestRunByWorkersTellsUnclaimed(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			d, w := workersLab(t, be.open(t))
			reg := testRegistry()
			told := make(chan string, 2)
			worked := make(chan error, 1)
			opts := runner.Options{Jobs: 1, UnclaimedAfter: time.Nanosecond, Unclaimed: func(exp string) {
				told <- exp
				go func() {
					_, err := runner.Run(ctx, w, reg, runner.Spec{Queued: true, Experiment: exp}, runner.Options{Jobs: 1})
					worked <- err
				}()
			}}
			sum, err := runner.Run(ctx, d, reg, runner.Spec{Experiment: "nobody", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 3, ByWorkers: true}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := <-worked; err != nil {
				t.Fatalf("worker: %v", err)
			}
			if len(told) != 1 || <-told != "nobody" || sum.ByOthers != 6 {
				t.Errorf("Run: %+v; want told once of experiment nobody, 6 runs done by others", sum)
			}
		})
	}
}

// workersLab opens a lab of two puzzles and the exact configuration with
// open, and a second handle on it for a worker.
func workersLab(t *testing.T, open func(t testing.TB) *db.DB) (d, worker *db.DB) {
	t.Helper()
	d = open(t)
	addPuzzles(t, d, "reseda-easy", "sato-no1")
	exactConfig(t, d)
	return d, open(t)
}
