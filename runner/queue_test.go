package runner_test

// The work queue under the engine, on both backends: several workers share
// one plan and finish it exactly once; a worker that dies loses its claims
// to the others; and the throughput benchmarks of the issue (claim and
// record with a solver that returns at once; the speed-up from one worker
// to two on runs of about 10 ms). Run the benchmarks with
//
//	go test ./runner/ -run '^$' -bench 'ClaimRecord|WorkersSpeedup' -benchtime 3x -count 6 > queue.txt
//	benchstat -col /workers queue.txt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/pgtest"
	"sudokulab/runner"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// backends opens a fresh database of each engine; every handle on the
// same database is opened through the returned function, as separate
// processes would.
var backends = []struct {
	name string
	open func(t testing.TB) func(t testing.TB) *db.DB
}{
	{"sqlite", func(t testing.TB) func(t testing.TB) *db.DB {
		path := filepath.Join(t.TempDir(), "lab.db")
		return func(t testing.TB) *db.DB { return openDB(t, path) }
	}},
	{"postgres", func(t testing.TB) func(t testing.TB) *db.DB {
		dsn := pgtest.DSN(t)
		return func(t testing.TB) *db.DB { return openDB(t, dsn) }
	}},
}

// instantSolver returns the puzzle's solution at once: the engine's own
// cost, with nothing else in the way.
type instantSolver struct{ solution sudokulab.Grid }

func (s instantSolver) Solve(ctx context.Context, g sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	if obs != nil {
		obs.Observe(sudokulab.Step{Generation: 0, Evaluations: 1, BestCost: 0})
	}
	return sudokulab.Result{Status: sudokulab.StatusSolved, Grid: s.solution.Clone(), Evaluations: 1}, nil
}

func instantInfo(solution sudokulab.Grid) sudokulab.SolverInfo {
	return sudokulab.SolverInfo{
		Name: "test-instant", Summary: "returns the known solution at once (runner tests)", Paper: "none",
		New: func(sudokulab.Params) (sudokulab.Solver, error) { return instantSolver{solution}, nil },
	}
}

// queuePlan stores a puzzle and configurations, enqueues a plan of
// configs x seeds runs in a new experiment, and returns the catalog the
// workers use.
func queuePlan(t testing.TB, d *db.DB, exp string, seeds int64, budget db.Budget, configs ...runner.Config) (int64, map[int64]*runner.Config) {
	t.Helper()
	ctx := context.Background()
	id, err := db.EnsureExperiment(ctx, d, exp, "")
	if err != nil {
		t.Fatal(err)
	}
	var puzzles []int64
	for _, p := range addPuzzles(t, d, "reseda-easy") {
		puzzles = append(puzzles, p.ID)
	}
	spec := db.PlanSpec{ExperimentID: id, PuzzleIDs: puzzles, FirstSeed: 1, SeedCount: seeds, Budget: budget, Trace: runner.DefaultTrace.String()}
	cat := map[int64]*runner.Config{}
	for i := range configs {
		spec.ConfigIDs = append(spec.ConfigIDs, configs[i].ID)
		cat[configs[i].ID] = &configs[i]
	}
	if _, err := db.Enqueue(ctx, d, spec, nil); err != nil {
		t.Fatal(err)
	}
	return id, cat
}

// fixedCatalog serves stored configurations whose solvers are given here
// (test solvers are in no registry).
type fixedCatalog struct {
	d       *db.DB
	configs map[int64]*runner.Config
}

func (c fixedCatalog) Puzzle(ctx context.Context, id int64) (*sudokulab.Puzzle, error) {
	return db.GetPuzzle(ctx, c.d, id)
}

func (c fixedCatalog) Config(ctx context.Context, id int64) (*runner.Config, error) {
	if rc, ok := c.configs[id]; ok {
		return rc, nil
	}
	return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no configuration %d", id)
}

// TestWorkersShareAPlan runs four workers, each with its own database
// handle, on one plan: every planned run is recorded exactly once, and
// the work is shared.
func TestWorkersShareAPlan(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			open := be.open(t)
			d := open(t)
			// Runs of some 20 ms and claims of at most 4, so that no
			// worker takes the whole plan before the others start.
			ls := lsConfig(t, d, "ls", map[string]string{"delay_us": "1000", "restart": "0"})
			exp, cfgs := queuePlan(t, d, "share", 60, db.Budget{MaxGenerations: 20_000}, ls)
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				sums []runner.Summary
			)
			for i := range 4 {
				h := open(t)
				wg.Go(func() {
					// Leases that cannot lapse: under the race detector on a
					// loaded machine 5 s did, and lapsed work is run twice
					// (TestWorkerDeathHandsOver is about that).
					q := &runner.DBQueue{DB: h, Worker: fmt.Sprintf("w%d", i), ExperimentID: exp, Lease: time.Hour}
					sum, err := runner.Work(ctx, q, fixedCatalog{h, cfgs}, runner.WorkOptions{
						Options:  runner.Options{Jobs: 1, Host: fmt.Sprintf("host%d", i), BatchRuns: 4},
						Poll:     20 * time.Millisecond,
						MaxClaim: 4,
					})
					if err != nil {
						t.Errorf("worker %d: %v", i, err)
					}
					mu.Lock()
					sums = append(sums, sum)
					mu.Unlock()
				})
			}
			wg.Wait()
			recorded, dups, busy := 0, 0, 0
			for _, s := range sums {
				recorded += s.Recorded
				dups += s.Duplicates
				if s.Recorded > 0 {
					busy++
				}
			}
			if recorded != 60 || dups != 0 {
				t.Errorf("workers recorded %d runs and %d duplicates, want 60 and 0 (%+v)", recorded, dups, sums)
			}
			if busy < 2 {
				t.Errorf("only %d of 4 workers recorded runs: %+v", busy, sums)
			}
			checkQueueDone(t, d, exp, 60)
		})
	}
}

// checkQueueDone checks that every item of the experiment is done with
// its own run, each run recorded once and linked to the experiment.
func checkQueueDone(t *testing.T, d *db.DB, exp int64, want int) {
	t.Helper()
	ctx := context.Background()
	var done, runs, distinct, links int
	if err := d.GetContext(ctx, &done, d.Rebind(`SELECT COUNT(*) FROM work WHERE experiment_id = ? AND state = 'done' AND run_id IS NOT NULL`), exp); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &runs, `SELECT COUNT(*) FROM runs`); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &distinct, `SELECT COUNT(DISTINCT run_id) FROM work`); err != nil {
		t.Fatal(err)
	}
	if err := d.GetContext(ctx, &links, d.Rebind(`SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = ?`), exp); err != nil {
		t.Fatal(err)
	}
	if done != want || runs != want || distinct != want || links != want {
		t.Errorf("%d items done, %d runs, %d distinct runs of items, %d links; want %d of each", done, runs, distinct, links, want)
	}
}

// TestWorkerDeathHandsOver lets a worker claim work and vanish without a
// word (as after SIGKILL): another worker takes its runs over once the
// lease lapses, and the plan finishes with every run recorded once.
func TestWorkerDeathHandsOver(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			open := be.open(t)
			d := open(t)
			ls := lsConfig(t, d, "ls", nil)
			exp, cfgs := queuePlan(t, d, "death", 20, db.Budget{MaxGenerations: 20_000}, ls)
			lease := 1500 * time.Millisecond
			dead, err := db.ClaimWork(ctx, d, db.Claim{Worker: "dead", ExperimentID: exp, N: 5, Lease: lease})
			if err != nil || len(dead) != 5 {
				t.Fatalf("claim: %d items, %v", len(dead), err)
			}
			start := time.Now()
			// The live worker's own leases cannot lapse, however loaded
			// the machine: only the dead worker's do.
			q := &runner.DBQueue{DB: open(t), Worker: "alive", ExperimentID: exp, Lease: time.Hour}
			sum, err := runner.Work(ctx, q, fixedCatalog{d, cfgs}, runner.WorkOptions{
				Options: runner.Options{Jobs: 2}, Lease: time.Hour, Poll: 50 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Recorded != 20 {
				t.Errorf("the live worker recorded %d runs, want all 20", sum.Recorded)
			}
			if took := time.Since(start); took < lease {
				t.Errorf("finished after %v, before the dead worker's lease of %v lapsed", took, lease)
			}
			checkQueueDone(t, d, exp, 20)
			var attempts int
			if err := d.GetContext(ctx, &attempts, d.Rebind(`SELECT MAX(attempts) FROM work WHERE id = ?`), dead[0].ID); err != nil || attempts != 2 {
				t.Errorf("attempts of a taken-over item: %d, %v; want 2", attempts, err)
			}
		})
	}
}

// TestWorkInterruptReleases cancels a worker: the runs that finished are
// recorded, the rest is handed back at once (not after the lease) and a
// second worker finishes the plan.
func TestWorkInterruptReleases(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	ls := lsConfig(t, d, "ls-slow", map[string]string{"restart": "0", "delay_us": "1000"})
	exp, cfgs := queuePlan(t, d, "interrupt", 20, db.Budget{MaxGenerations: 20_000}, ls)
	cctx, cancel := context.WithCancel(ctx)
	prog := &progress{cancelAfter: 3, cancel: cancel}
	q := &runner.DBQueue{DB: d, Worker: "first", ExperimentID: exp, Lease: time.Hour}
	budget := runner.WorkOptions{Options: runner.Options{Jobs: 2, BatchRuns: 1, Progress: prog}, Lease: time.Hour, Poll: 20 * time.Millisecond}
	sum, err := runner.Work(cctx, q, fixedCatalog{d, cfgs}, budget)
	if err != context.Canceled {
		t.Fatalf("Work: %v, want context.Canceled", err)
	}
	left, err := db.RemainingWork(ctx, d, exp, 0)
	if err != nil {
		t.Fatal(err)
	}
	if left.Running != 0 || left.Pending != int64(20-sum.Recorded) {
		t.Errorf("after the interrupt: %+v with %d recorded; want the rest pending at once", left, sum.Recorded)
	}
	q2 := &runner.DBQueue{DB: d, Worker: "second", ExperimentID: exp, Lease: time.Hour}
	budget.Progress = nil
	sum2, err := runner.Work(ctx, q2, fixedCatalog{d, cfgs}, budget)
	if err != nil || sum.Recorded+sum2.Recorded != 20 {
		t.Fatalf("second worker: %+v, %v; first recorded %d", sum2, err, sum.Recorded)
	}
	checkQueueDone(t, d, exp, 20)
}

// BenchmarkClaimRecord measures claim-and-record throughput with a solver
// that returns at once: 2,000 runs per op, each with one trajectory
// point, claimed, recorded and released by workers each with their own
// database handle (as separate processes). Goals: 5,000 runs/s on SQLite
// with one worker, 2,000 runs/s on PostgreSQL with 8.
func BenchmarkClaimRecord(b *testing.B) {
	const runsPerOp = 2000
	for _, be := range backends {
		for _, workers := range []int{1, 8} {
			b.Run("backend="+be.name+"/workers="+strconv.Itoa(workers), func(b *testing.B) {
				ctx := context.Background()
				open := be.open(b)
				d := open(b)
				puzzle := addPuzzles(b, d, "reseda-easy")[0]
				info := instantInfo(puzzle.Solution)
				cfg := addConfig(b, d, info, "instant", nil)
				cfgs := map[int64]*runner.Config{cfg.ID: &cfg}
				handles := make([]*db.DB, workers)
				for i := range handles {
					handles[i] = open(b)
				}
				b.ResetTimer()
				for i := range b.N {
					b.StopTimer()
					exp, err := db.EnsureExperiment(ctx, d, fmt.Sprint("bench-", i), "")
					if err != nil {
						b.Fatal(err)
					}
					spec := db.PlanSpec{ExperimentID: exp, PuzzleIDs: []int64{puzzle.ID}, ConfigIDs: []int64{cfg.ID},
						FirstSeed: int64(i) * runsPerOp, SeedCount: runsPerOp, Trace: runner.DefaultTrace.String()}
					if _, err := db.Enqueue(ctx, d, spec, nil); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					var (
						wg    sync.WaitGroup
						mu    sync.Mutex
						total int
					)
					for w := range workers {
						wg.Go(func() {
							q := &runner.DBQueue{DB: handles[w], Worker: fmt.Sprint("w", w), ExperimentID: exp}
							sum, err := runner.Work(ctx, q, fixedCatalog{handles[w], cfgs}, runner.WorkOptions{
								Options: runner.Options{Jobs: 1, BatchRuns: 256, BatchDelay: 20 * time.Millisecond},
								Poll:    10 * time.Millisecond,
							})
							if err != nil {
								b.Error(err)
							}
							mu.Lock()
							total += sum.Recorded
							mu.Unlock()
						})
					}
					wg.Wait()
					if total != runsPerOp {
						b.Fatalf("recorded %d runs, want %d", total, runsPerOp)
					}
				}
				b.ReportMetric(float64(b.N*runsPerOp)/b.Elapsed().Seconds(), "runs/s")
			})
		}
	}
}

// BenchmarkWorkersSpeedup runs 100 runs of about 10 ms (the local search
// on AI Escargot for 250,000 iterations, never solved) per op on one
// worker and on two, on SQLite: on 2 cores the goal is a speed-up of at
// least 1.9.
func BenchmarkWorkersSpeedup(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(jobs), func(b *testing.B) {
			executeBench(b, "ai-escargot", map[string]string{"restart": "0"}, sudokulab.Budget{MaxGenerations: 250_000}, 100,
				runner.Options{Jobs: jobs, Trace: runner.DefaultTrace})
		})
	}
}

// lateQueue is a work queue in memory whose plan becomes whole during a
// call of Left: after Left has counted an empty queue and before it
// returns, the plan is enqueued and PlanDone closed, as when run's enqueue
// commits between the claim loop's two looks.
type lateQueue struct {
	mu       sync.Mutex
	plan     []db.WorkItem
	pending  []db.WorkItem
	running  map[int64]db.WorkItem
	done     int
	planDone chan struct{}
}

func (q *lateQueue) Claim(ctx context.Context, n int) ([]db.WorkItem, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	n = min(n, len(q.pending))
	items := append([]db.WorkItem(nil), q.pending[:n]...)
	q.pending = q.pending[n:]
	for _, it := range items {
		q.running[it.ID] = it
	}
	return items, nil
}

func (q *lateQueue) Complete(ctx context.Context, done []db.FinishedWork) ([]bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	inserted := make([]bool, len(done))
	for i, f := range done {
		if _, ok := q.running[f.WorkID]; ok {
			delete(q.running, f.WorkID)
			q.done++
			inserted[i] = true
		}
	}
	return inserted, nil
}

func (q *lateQueue) Renew(ctx context.Context) error { return nil }

func (q *lateQueue) Release(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for id, it := range q.running {
		q.pending = append(q.pending, it)
		delete(q.running, id)
	}
	return nil
}

func (q *lateQueue) Left(ctx context.Context) (db.WorkLeft, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	left := db.WorkLeft{Pending: int64(len(q.pending)), Running: int64(len(q.running))}
	if q.plan != nil {
		q.pending, q.plan = q.plan, nil
		close(q.planDone)
	}
	return left, nil
}

// TestWorkPlanWholeDuringLeft completes the plan while the claim loop
// counts an empty queue: the engine must not take that count, older than
// the plan, for the end of the plan, but go on and record every run.
func TestWorkPlanWholeDuringLeft(t *testing.T) {
	d := newDB(t)
	c := exactConfig(t, d)
	p := addPuzzles(t, d, "reseda-easy")[0]
	q := &lateQueue{running: map[int64]db.WorkItem{}, planDone: make(chan struct{})}
	for seed := range int64(15) {
		q.plan = append(q.plan, db.WorkItem{ID: seed + 1, PuzzleID: p.ID, ConfigID: c.ID, Seed: seed, Trace: runner.DefaultTrace.String()})
	}
	sum, err := runner.Work(context.Background(), q, fixedCatalog{d, map[int64]*runner.Config{c.ID: &c}}, runner.WorkOptions{
		Options:  runner.Options{Jobs: 2},
		PlanDone: q.planDone,
		Poll:     10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Recorded != 15 || q.done != 15 || len(q.pending) != 0 {
		t.Errorf("recorded %d runs, the queue has %d done and %d pending; want all 15 done", sum.Recorded, q.done, len(q.pending))
	}
}

// TestCatalogOutlivesCut cuts off the session that reads a work item's
// puzzle, and then its configuration, as a restart of the PostgreSQL
// server does: the catalog tries again on a new session and returns them,
// instead of ending the worker.
func TestCatalogOutlivesCut(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	d := openDB(t, dsn)
	p := addPuzzles(t, d, "reseda-easy")[0]
	c := exactConfig(t, d)
	cat := &runner.DBCatalog{DB: d, Registry: testRegistry()}
	err := pgtest.CutWaiting(t, dsn, "puzzles", func() error {
		got, err := cat.Puzzle(ctx, p.ID)
		if err == nil && got.Givens.String() != p.Givens.String() {
			t.Errorf("puzzle %d read back as %s", p.ID, got.Givens)
		}
		return err
	})
	if err != nil {
		t.Errorf("Puzzle across the cut: %v", err)
	}
	err = pgtest.CutWaiting(t, dsn, "configs", func() error {
		got, err := cat.Config(ctx, c.ID)
		if err == nil && got.Name != c.Name {
			t.Errorf("configuration %d read back as %q", c.ID, got.Name)
		}
		return err
	})
	if err != nil {
		t.Errorf("Config across the cut: %v", err)
	}
}
