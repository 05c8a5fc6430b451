package db_test

// The work queue on every backend: enqueueing in bounded transactions and
// in shards, claims by concurrent workers on separate pools, leases that
// lapse, late finishers, releases and the counts of what is left.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/pgtest"
)

// TestQueue runs the queue scenarios on every backend.
func TestQueue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		scenarios := []scenario{
			{"EnqueueShards", queueEnqueueShards},
			{"ConcurrentClaims", queueConcurrentClaims},
			{"LeaseLapses", queueLeaseLapses},
			{"ReleaseAndLinks", queueReleaseAndLinks},
		}
		if b.name == "postgres" {
			// On SQLite a claim waits for the one writer instead.
			scenarios = append(scenarios, scenario{"SkipLocked", queueSkipLocked})
		}
		runScenarios(t, b, scenarios)
	})
}

// genPuzzles stores n distinct puzzles (random subsets of the classic
// solution) in the collection "gen" and returns their ids in id order.
func genPuzzles(t *testing.T, d *db.DB, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	var ids []int64
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		ids = ids[:0]
		col, err := db.EnsureCollection(ctx, tx, "gen", "")
		if err != nil {
			return err
		}
		for len(ids) < n {
			b := []byte(classicSolution)
			for i := range b {
				if rng.IntN(3) > 0 {
					b[i] = '.'
				}
			}
			id, created, err := db.AddPuzzle(ctx, tx, &sudokulab.Puzzle{Givens: sudokulab.MustParse(string(b))})
			if err != nil {
				return err
			}
			if !created {
				continue
			}
			if err := db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: col, PuzzleID: id}); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids
}

// configs stores n configurations and returns their ids.
func configs(t *testing.T, d *db.DB, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		id, _, err := db.EnsureConfig(context.Background(), d, &sudokulab.Config{Name: fmt.Sprint("c", i), Solver: "s", Params: fmt.Sprintf(`{"i":%d}`, i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// workKey is a work row's run identity within its experiment.
type workKey struct{ puzzle, config, seed int64 }

// workOf lists the work of an experiment.
func workOf(t *testing.T, d *db.DB, exp int64) []workKey {
	t.Helper()
	rows, err := d.QueryxContext(context.Background(), d.Rebind(`SELECT puzzle_id, config_id, seed FROM work WHERE experiment_id = ? ORDER BY id`), exp)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []workKey
	for rows.Next() {
		var k workKey
		if err := rows.Scan(&k.puzzle, &k.config, &k.seed); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// queueEnqueueShards enqueues a plan larger than one enqueue transaction
// whole and in four shards (each in its own experiment): the shards are
// disjoint, their union is the plan, and each holds the runs at its
// positions of plan order.
func queueEnqueueShards(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzles := genPuzzles(t, d, 600)
	cfgs := configs(t, d, 2)
	const seeds, firstSeed, shards = 3, 7, 4
	spec := db.PlanSpec{Where: "collection = 'gen'", ConfigIDs: cfgs, FirstSeed: firstSeed, SeedCount: seeds, Budget: db.Budget{MaxEvaluations: 1000}, Trace: "every:10"}
	// The plan in order, and each identity's position.
	var plan []workKey
	pos := map[workKey]int{}
	for _, p := range puzzles {
		for _, c := range cfgs {
			for s := range int64(seeds) {
				k := workKey{p, c, firstSeed + s}
				pos[k] = len(plan)
				plan = append(plan, k)
			}
		}
	}
	exp := func(name string) int64 {
		id, err := db.EnsureExperiment(ctx, d, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	whole := spec
	whole.ExperimentID = exp("whole")
	var progress []int
	res, err := db.Enqueue(ctx, d, whole, func(r db.EnqueueResult) { progress = append(progress, r.Puzzles) })
	if err != nil || res.Puzzles != len(puzzles) || res.Planned != int64(len(plan)) || res.Added != int64(len(plan)) || res.Linked != 0 {
		t.Fatalf("Enqueue = %+v, %v; want %d puzzles, %d runs", res, err, len(puzzles), len(plan))
	}
	if len(progress) < 2 || progress[len(progress)-1] != len(puzzles) {
		t.Errorf("progress %v: want several steps, ending at %d puzzles", progress, len(puzzles))
	}
	got := workOf(t, d, whole.ExperimentID)
	if !slices.Equal(got, plan) {
		t.Fatalf("whole plan: %d rows, want %d in plan order", len(got), len(plan))
	}
	var trace string
	if err := d.QueryRowxContext(ctx, d.Rebind(`SELECT MIN(trace) || MAX(trace) || MIN(max_evaluations) || MAX(state) FROM work WHERE experiment_id = ?`), whole.ExperimentID).Scan(&trace); err != nil || trace != "every:10every:101000pending" {
		t.Fatalf("work rows: %q, %v", trace, err)
	}
	// Enqueueing again adds nothing.
	if again, err := db.Enqueue(ctx, d, whole, nil); err != nil || again.Added != 0 || again.Planned != res.Planned {
		t.Fatalf("Enqueue again = %+v, %v", again, err)
	}

	seen := map[workKey]int{}
	for k := 1; k <= shards; k++ {
		s := spec
		s.ExperimentID = exp(fmt.Sprint("shard", k))
		s.Shard, s.Shards = k, shards
		res, err := db.Enqueue(ctx, d, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := workOf(t, d, s.ExperimentID)
		if res.Planned != int64(len(rows)) || res.Added != res.Planned {
			t.Errorf("shard %d: Enqueue = %+v, %d rows", k, res, len(rows))
		}
		for _, w := range rows {
			p, ok := pos[w]
			if !ok || p%shards != k-1 {
				t.Fatalf("shard %d holds %+v at plan position %d (in plan: %v)", k, w, p, ok)
			}
			if prev, ok := seen[w]; ok {
				t.Fatalf("%+v is in shards %d and %d", w, prev, k)
			}
			seen[w] = k
		}
	}
	if len(seen) != len(plan) {
		t.Fatalf("the shards hold %d runs, the plan %d", len(seen), len(plan))
	}
	// A limit keeps the first puzzles; a bad shard or predicate is refused.
	lim := spec
	lim.ExperimentID, lim.Limit = exp("limited"), 5
	if res, err := db.Enqueue(ctx, d, lim, nil); err != nil || res.Puzzles != 5 || res.Planned != 5*2*seeds {
		t.Fatalf("Enqueue with a limit = %+v, %v", res, err)
	}
	bad := spec
	bad.ExperimentID, bad.Shard, bad.Shards = whole.ExperimentID, 5, 4
	if _, err := db.Enqueue(ctx, d, bad, nil); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("shard 5/4: %v", err)
	}
	bad = spec
	bad.ExperimentID, bad.Where = whole.ExperimentID, "no_such_column = 1"
	if _, err := db.Enqueue(ctx, d, bad, nil); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("bad predicate: %v", err)
	}
	if n, err := db.CountPlanPuzzles(ctx, d, spec); err != nil || n != len(puzzles) {
		t.Errorf("CountPlanPuzzles = %d, %v", n, err)
	}
}

// queueConcurrentClaims has workers on three pools (as three processes
// would have) claim small batches at once until the queue is empty: every
// item is claimed exactly once.
func queueConcurrentClaims(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzles := genPuzzles(t, d, 12)
	cfgs := configs(t, d, 2)
	exp, err := db.EnsureExperiment(ctx, d, "e", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: exp, PuzzleIDs: puzzles, ConfigIDs: cfgs, SeedCount: 5}, nil)
	if err != nil || res.Planned != 120 {
		t.Fatalf("Enqueue = %+v, %v", res, err)
	}
	pools := []*db.DB{d}
	for range 2 {
		o, err := db.Open(ctx, d.Path())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { o.Close() })
		pools = append(pools, o)
	}
	var (
		mu      sync.Mutex
		claimed = map[int64]string{}
		errs    []error
		wg      sync.WaitGroup
	)
	for i := range 6 {
		worker := fmt.Sprint("w", i)
		pool := pools[i%len(pools)]
		wg.Go(func() {
			for {
				items, err := db.ClaimWork(ctx, pool, db.Claim{Worker: worker, ExperimentID: exp, N: 3, Lease: time.Minute})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				for _, it := range items {
					if prev, ok := claimed[it.ID]; ok {
						errs = append(errs, fmt.Errorf("item %d claimed by %s and %s", it.ID, prev, worker))
					}
					claimed[it.ID] = worker
					if it.Attempts != 1 || it.ExperimentID != exp {
						errs = append(errs, fmt.Errorf("item %+v", it))
					}
				}
				mu.Unlock()
				if err != nil || len(items) == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(claimed) != 120 {
		t.Fatalf("%d items claimed, want 120", len(claimed))
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM work WHERE state = 'running' AND attempts = 1"); n != 120 {
		t.Fatalf("%d items running", n)
	}
	left, err := db.RemainingWork(ctx, d, exp, 0)
	if err != nil || left != (db.WorkLeft{Running: 120}) || left.Claimable() || left.Done() {
		t.Fatalf("RemainingWork = %+v, %v", left, err)
	}
	// Every worker renews what it holds, and nobody else.
	var held int64
	for i := range 6 {
		n, err := db.RenewWork(ctx, d, fmt.Sprint("w", i), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		held += n
	}
	if held != 120 {
		t.Fatalf("workers renewed %d items, want 120", held)
	}
}

// finish returns the finished work of an item: an unsolved run with four
// trajectory points (CompleteWork takes their Seq as it is).
func finish(w db.WorkItem, evaluations int64) db.FinishedWork {
	pts := makePoints(4)
	for i := range pts {
		pts[i].Seq = i
	}
	return db.FinishedWork{WorkID: w.ID, Run: &sudokulab.Run{ExperimentID: w.ExperimentID, PuzzleID: w.PuzzleID, ConfigID: w.ConfigID,
		Seed: w.Seed, MaxEvaluations: w.MaxEvaluations, MaxGenerations: w.MaxGenerations, TimeoutMS: w.TimeoutMS,
		Status: sudokulab.StatusUnsolved, Evaluations: evaluations, BestCost: intp(3)}, Points: pts}
}

func complete(t *testing.T, d *db.DB, done ...db.FinishedWork) []bool {
	t.Helper()
	var inserted []bool
	err := d.WithTx(context.Background(), func(tx *sqlx.Tx) (err error) {
		inserted, err = db.CompleteWork(context.Background(), tx, done)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return inserted
}

// queueLeaseLapses lets one worker's lease run out: the item is claimed
// again (unless it has had its attempts), a renewed lease is not, and the
// first worker finishing late records nothing twice.
func queueLeaseLapses(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzles := genPuzzles(t, d, 3)
	cfgs := configs(t, d, 1)
	exp, _ := db.EnsureExperiment(ctx, d, "e", "")
	if _, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: exp, PuzzleIDs: puzzles, ConfigIDs: cfgs, Seeds: []int64{1}}, nil); err != nil {
		t.Fatal(err)
	}
	claim := func(worker string, n int, lease time.Duration, maxAttempts int) []db.WorkItem {
		t.Helper()
		items, err := db.ClaimWork(ctx, d, db.Claim{Worker: worker, ExperimentID: exp, N: n, Lease: lease, MaxAttempts: maxAttempts})
		if err != nil {
			t.Fatal(err)
		}
		return items
	}
	// b holds its item for a minute; r's lease runs out and r renews it
	// for a minute; a's runs out later and a does not renew it. Leases run
	// out by waiting for longer than they last, never by racing one: a
	// loaded machine can make a wait longer, not shorter.
	const lapse = time.Millisecond
	b := claim("b", 1, time.Minute, 0)
	r := claim("r", 1, lapse, 0)
	time.Sleep(50 * lapse)
	if n, err := db.RenewWork(ctx, d, "r", time.Minute); err != nil || n != 1 {
		t.Fatalf("RenewWork = %d, %v", n, err)
	}
	a := claim("a", 5, time.Minute, 0)
	if more := claim("c", 5, time.Minute, 0); len(more) != 0 {
		t.Fatalf("claimed %+v from a queue where every lease is live", more)
	}
	if len(a) != 1 || len(r) != 1 || len(b) != 1 || a[0].ID == r[0].ID || b[0].ID == a[0].ID || b[0].ID == r[0].ID {
		t.Fatalf("claims a %+v, r %+v, b %+v", a, r, b)
	}
	if n, err := db.RenewWork(ctx, d, "a", lapse); err != nil || n != 1 {
		t.Fatalf("RenewWork of a = %d, %v", n, err)
	}
	time.Sleep(50 * lapse)
	left, err := db.RemainingWork(ctx, d, exp, 0)
	if err != nil || left != (db.WorkLeft{Running: 2, Lapsed: 1}) || !left.Claimable() {
		t.Fatalf("RemainingWork = %+v, %v; want 2 running, 1 lapsed", left, err)
	}
	// With one attempt allowed, the lapsed item is abandoned.
	if left, err := db.RemainingWork(ctx, d, exp, 1); err != nil || left != (db.WorkLeft{Running: 2, Abandoned: 1}) {
		t.Fatalf("RemainingWork with 1 attempt = %+v, %v", left, err)
	}
	if got := claim("c", 5, time.Minute, 1); len(got) != 0 {
		t.Fatalf("claimed abandoned work %+v", got)
	}
	again := claim("c", 5, time.Minute, 0)
	if len(again) != 1 || again[0].ID != a[0].ID || again[0].Attempts != 2 {
		t.Fatalf("claim after the lapse = %+v; want a's item, second attempt", again)
	}
	// c finishes first; a, finishing late, adds no second run.
	if ins := complete(t, d, finish(again[0], 10)); !slices.Equal(ins, []bool{true}) {
		t.Fatalf("CompleteWork by c = %v", ins)
	}
	if ins := complete(t, d, finish(a[0], 20)); !slices.Equal(ins, []bool{false}) {
		t.Fatalf("CompleteWork by late a = %v", ins)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM runs WHERE puzzle_id = ? AND evaluations = 10", a[0].PuzzleID); n != 1 || countOf(t, d, "SELECT COUNT(*) FROM runs") != 1 {
		t.Fatalf("runs after the late finish: %d of c's, %d in all", n, countOf(t, d, "SELECT COUNT(*) FROM runs"))
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM trajectory_points"); n != 4 {
		t.Fatalf("%d trajectory points, want the 4 of one run", n)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = ?", exp); n != 1 {
		t.Fatalf("%d runs linked to the experiment", n)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM work w JOIN runs r ON r.id = w.run_id WHERE w.id = ? AND w.state = 'done' AND w.lease_until IS NULL", a[0].ID); n != 1 {
		t.Fatal("the item is not done with its run")
	}
	complete(t, d, finish(r[0], 30), finish(b[0], 40))
	if left, err := db.RemainingWork(ctx, d, exp, 0); err != nil || !left.Done() || left.Claimable() {
		t.Fatalf("RemainingWork at the end = %+v, %v", left, err)
	}
	if p, err := db.ExperimentDetail(ctx, d, "e"); err != nil || len(p.Rows) != 1 || asInt(t, rowMap(p.Columns, p.Rows[0])["done"]) != 3 {
		t.Fatalf("ExperimentDetail = %v, %v", p, err)
	}
}

// queueReleaseAndLinks records runs before their plan is enqueued (they
// are linked, done at once), and has a worker hand back what it holds.
func queueReleaseAndLinks(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzles := genPuzzles(t, d, 4)
	cfgs := configs(t, d, 1)
	old, _ := db.EnsureExperiment(ctx, d, "old", "")
	exp, _ := db.EnsureExperiment(ctx, d, "new", "")
	budget := db.Budget{MaxGenerations: 50}
	var earlier []int64
	for _, p := range puzzles[:2] {
		id, err := db.InsertRun(ctx, d, &sudokulab.Run{ExperimentID: old, PuzzleID: p, ConfigID: cfgs[0], Seed: 2, MaxGenerations: 50, Status: sudokulab.StatusSolved, BestCost: intp(0)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		earlier = append(earlier, id)
	}
	// The same identity with another budget is not the plan's.
	if _, err := db.InsertRun(ctx, d, &sudokulab.Run{PuzzleID: puzzles[2], ConfigID: cfgs[0], Seed: 2, MaxGenerations: 51, Status: sudokulab.StatusSolved}, nil); err != nil {
		t.Fatal(err)
	}
	res, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: exp, PuzzleIDs: puzzles, ConfigIDs: cfgs, Seeds: []int64{1, 2}, Budget: budget}, nil)
	if err != nil || res.Planned != 8 || res.Added != 8 || res.Linked != 2 {
		t.Fatalf("Enqueue = %+v, %v; want 8 planned, 2 linked", res, err)
	}
	for _, id := range earlier {
		if n := countOf(t, d, "SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = ? AND run_id = ?", exp, id); n != 1 {
			t.Errorf("run %d is not linked to the new experiment", id)
		}
		if n := countOf(t, d, "SELECT COUNT(*) FROM work WHERE experiment_id = ? AND run_id = ? AND state = 'done'", exp, id); n != 1 {
			t.Errorf("run %d's work is not done", id)
		}
	}
	if left, err := db.RemainingWork(ctx, d, exp, 0); err != nil || left != (db.WorkLeft{Pending: 6}) {
		t.Fatalf("RemainingWork = %+v, %v", left, err)
	}
	held, err := db.ClaimWork(ctx, d, db.Claim{Worker: "quitter", ExperimentID: exp, N: 4, Lease: time.Minute})
	if err != nil || len(held) != 4 {
		t.Fatalf("ClaimWork = %+v, %v", held, err)
	}
	for _, w := range held {
		if w.Seed == 2 && (w.PuzzleID == puzzles[0] || w.PuzzleID == puzzles[1]) {
			t.Errorf("claimed linked work %+v", w)
		}
	}
	if n, err := db.ReleaseWork(ctx, d, "quitter"); err != nil || n != 4 {
		t.Fatalf("ReleaseWork = %d, %v", n, err)
	}
	if n, err := db.ReleaseWork(ctx, d, "quitter"); err != nil || n != 0 {
		t.Fatalf("ReleaseWork again = %d, %v", n, err)
	}
	// Released work goes to the next worker at once, on its first attempt;
	// a claim of any experiment (0) finds it too.
	all, err := db.ClaimWork(ctx, d, db.Claim{Worker: "next", N: 10, Lease: time.Minute})
	if err != nil || len(all) != 6 {
		t.Fatalf("ClaimWork after the release = %+v, %v", all, err)
	}
	for i, w := range all {
		if w.Attempts != 1 || w.MaxGenerations != 50 || (i > 0 && all[i-1].ID >= w.ID) {
			t.Errorf("item %d: %+v", i, w)
		}
	}
	var done []db.FinishedWork
	for _, w := range all {
		done = append(done, finish(w, 5))
	}
	if ins := complete(t, d, done...); slices.Contains(ins, false) {
		t.Fatalf("CompleteWork = %v", ins)
	}
	if n := countOf(t, d, "SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = ?", exp); n != 8 {
		t.Fatalf("%d runs linked to the experiment, want 8", n)
	}
	if left, err := db.RemainingWork(ctx, d, 0, 0); err != nil || !left.Done() {
		t.Fatalf("RemainingWork = %+v, %v", left, err)
	}
}

// queueSkipLocked holds row locks on the first items in a transaction of
// its own while a worker claims: the claim skips the locked rows at once
// (FOR UPDATE SKIP LOCKED) instead of waiting, and gets them once the
// transaction ends.
func queueSkipLocked(t *testing.T, d *db.DB) {
	ctx := context.Background()
	puzzles := genPuzzles(t, d, 4)
	cfgs := configs(t, d, 1)
	exp, _ := db.EnsureExperiment(ctx, d, "e", "")
	if _, err := db.Enqueue(ctx, d, db.PlanSpec{ExperimentID: exp, PuzzleIDs: puzzles, ConfigIDs: cfgs, Seeds: []int64{1}}, nil); err != nil {
		t.Fatal(err)
	}
	tx, err := d.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var locked []int64
	if err := tx.SelectContext(ctx, &locked, `SELECT id FROM work ORDER BY id LIMIT 2 FOR UPDATE`); err != nil || len(locked) != 2 {
		t.Fatalf("locking rows: %v, %v", locked, err)
	}
	// A claim that waited for the locks would wait for ever: the minute
	// only ends the test, so a loaded machine cannot fail it.
	quick, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	start := time.Now()
	items, err := db.ClaimWork(quick, d, db.Claim{Worker: "w", ExperimentID: exp, N: 4, Lease: time.Minute})
	if err != nil || len(items) != 2 || slices.Contains(locked, items[0].ID) || slices.Contains(locked, items[1].ID) {
		t.Fatalf("ClaimWork beside locked rows %v = %+v, %v (after %v); want the other two at once", locked, items, err, time.Since(start))
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	rest, err := db.ClaimWork(ctx, d, db.Claim{Worker: "w", ExperimentID: exp, N: 4, Lease: time.Minute})
	if err != nil || len(rest) != 2 || rest[0].ID != locked[0] || rest[1].ID != locked[1] {
		t.Fatalf("ClaimWork after the lock = %+v, %v; want %v", rest, err, locked)
	}
}

// TestEnqueueOutlivesCut cuts off the session that reads the plan's
// puzzles, as a restart of the PostgreSQL server does: Enqueue tries again
// on a new session and queues the whole plan, where it took the lost
// session for a bad predicate before.
func TestEnqueueOutlivesCut(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	d, err := db.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	genPuzzles(t, d, 5)
	exp, err := db.EnsureExperiment(ctx, d, "cut", "")
	if err != nil {
		t.Fatal(err)
	}
	spec := db.PlanSpec{ExperimentID: exp, ConfigIDs: configs(t, d, 1), Where: "collection = 'gen'", FirstSeed: 1, SeedCount: 2}
	var res db.EnqueueResult
	err = pgtest.CutWaiting(t, dsn, "puzzles", func() (err error) {
		res, err = db.Enqueue(ctx, d, spec, nil)
		return err
	})
	if err != nil || res.Added != 10 {
		t.Fatalf("Enqueue across the cut: %+v, %v; want 10 runs added", res, err)
	}
}

// TestEnqueueSeedsPastTheLargest asks for seeds that would wrap around to
// negative ones: Enqueue and PlanDone refuse them, and the last seed that
// fits is taken.
func TestEnqueueSeedsPastTheLargest(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	genPuzzles(t, d, 1)
	exp, err := db.EnsureExperiment(ctx, d, "seeds", "")
	if err != nil {
		t.Fatal(err)
	}
	spec := db.PlanSpec{ExperimentID: exp, ConfigIDs: configs(t, d, 1), FirstSeed: math.MaxInt64, SeedCount: 3}
	_, err = db.Enqueue(ctx, d, spec, nil)
	wantCode(t, err, sudokulab.EINVALID)
	_, err = db.PlanDone(ctx, d, spec)
	wantCode(t, err, sudokulab.EINVALID)
	spec.FirstSeed = math.MaxInt64 - 2
	if res, err := db.Enqueue(ctx, d, spec, nil); err != nil || res.Added != 3 {
		t.Fatalf("the last three seeds: %+v, %v", res, err)
	}
	if n := countOf(t, d, `SELECT COUNT(*) FROM work WHERE seed < 0`); n != 0 {
		t.Errorf("%d negative seeds queued", n)
	}
}
