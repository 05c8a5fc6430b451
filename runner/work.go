package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// Queue is the shared work the engine draws on. The engine claims items in
// small batches, renews the lease on them while it runs them, records
// finished runs with their claims released in one transaction, and hands
// back what it did not finish. DBQueue implements it on the database; the
// engine's tests use fakes.
type Queue interface {
	// Claim takes at most n items for this worker; none means nothing is
	// claimable now.
	Claim(ctx context.Context, n int) ([]db.WorkItem, error)
	// Complete records finished items and reports which runs were new.
	Complete(ctx context.Context, done []db.FinishedWork) ([]bool, error)
	// Renew extends the lease on every item this worker holds.
	Renew(ctx context.Context) error
	// Release hands back every item this worker holds unfinished.
	Release(ctx context.Context) error
	// Left says what the queue still holds.
	Left(ctx context.Context) (db.WorkLeft, error)
}

// Catalog gives the puzzles and configurations that work items name.
type Catalog interface {
	Puzzle(ctx context.Context, id int64) (*sudokulab.Puzzle, error)
	Config(ctx context.Context, id int64) (*Config, error)
}

// WorkOptions tune Work. Zero values mean the documented defaults.
type WorkOptions struct {
	Options
	// Lease is how long a claim lasts without renewal; the engine renews
	// it every Lease/3. A worker killed outright loses its unfinished
	// claims to the others after at most Lease. 0 means DefaultLease.
	Lease time.Duration
	// Follow keeps the engine waiting for new work when the queue is
	// empty, until ctx is cancelled; otherwise it returns once nothing is
	// left to do or wait for.
	Follow bool
	// PlanDone, when not nil, is closed once the whole plan is in the
	// queue: until then an empty queue means "wait", not "done".
	PlanDone <-chan struct{}
	// Poll is the longest wait between looks at an empty queue; 0 means
	// one second.
	Poll time.Duration
	// Configs, when given, fixes the order of Summary.Configs.
	Configs []Config
	// MaxClaim bounds a claim; 0 means 256. The engine claims as many
	// items as its workers finish in about half a second, at least Jobs.
	MaxClaim int
}

// DefaultLease is the lease on claimed work when WorkOptions.Lease is 0.
const DefaultLease = 30 * time.Second

// Worker returns a name for this process in the work queue:
// host:pid:random, unique among processes.
func Worker(host string) string {
	if host == "" {
		host, _ = os.Hostname()
	}
	return fmt.Sprintf("%s:%d:%04x", host, os.Getpid(), sudokulab.NewRand(time.Now().UnixNano()).IntN(1<<16))
}

// job is one claimed item with what it needs to run.
type job struct {
	item   db.WorkItem
	puzzle *sudokulab.Puzzle
	config *Config
	trace  Trace
}

type finished struct {
	item   db.WorkItem
	run    *sudokulab.Run
	points []sudokulab.TrajectoryPoint
	config *Config
}

// Work does the work of a queue on opts.Jobs cores until nothing is left
// (or, with Follow, until ctx is cancelled). Every finished run is
// recorded with its trajectory in one transaction with the release of its
// claim. When ctx is cancelled the runs in progress are abandoned, every
// run that finished is still recorded, the unfinished claims are handed
// back for others to take at once, and the error is ctx's. Work hears
// opts.Progress about every recorded run but does not call its Start: the
// caller knows the plan.
func Work(ctx context.Context, q Queue, cat Catalog, opts WorkOptions) (Summary, error) {
	opts = opts.withDefaults()
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// counts follows the claimed items between the goroutines, so that the
	// writer commits at once when no other run is coming and the claimer
	// waits for the writer, not a timer, when only its own runs are left.
	counts := newCounts()
	jobCh := make(chan job, opts.Jobs)
	resCh := make(chan finished, opts.BatchRuns+2*opts.Jobs)
	var wg sync.WaitGroup
	for range opts.Jobs {
		wg.Go(func() { runJobs(runCtx, opts.Options, jobCh, resCh, counts) })
	}
	var claimer sync.WaitGroup
	claimer.Go(func() {
		defer close(jobCh)
		if err := claimLoop(runCtx, q, cat, opts, jobCh, counts); err != nil && runCtx.Err() == nil {
			stop(err)
		}
	})
	renewDone := make(chan struct{})
	go func() {
		defer close(renewDone)
		renewLoop(runCtx, q, opts.Lease/3)
	}()
	go func() {
		wg.Wait()
		close(resCh)
	}()

	// The writer outlives a cancelled ctx: finished runs are kept.
	wctx := context.WithoutCancel(ctx)
	w := &writer{q: q, counts: counts, tally: newTally(opts.Configs), progress: opts.Progress, stop: stop}
	w.loop(wctx, resCh, opts.BatchRuns, opts.BatchDelay)
	claimer.Wait()
	stop(nil)
	<-renewDone
	// Hand back what was claimed and not finished, so that others need
	// not wait for the lease to lapse.
	rerr := q.Release(wctx)
	sum := w.tally.sum
	switch cause := context.Cause(runCtx); {
	case w.err != nil:
		return sum, fmt.Errorf("record runs: %w", w.err)
	case ctx.Err() != nil:
		return sum, ctx.Err()
	case cause != nil && !errors.Is(cause, context.Canceled):
		return sum, cause
	case rerr != nil:
		return sum, fmt.Errorf("release unfinished work: %w", rerr)
	}
	return sum, nil
}

// withDefaults returns the options with their zero values replaced by the
// defaults they document.
func (o WorkOptions) withDefaults() WorkOptions {
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
	if o.BatchRuns <= 0 {
		o.BatchRuns = 64
	}
	if o.BatchDelay <= 0 {
		o.BatchDelay = 200 * time.Millisecond
	}
	if o.CodeVersion == "" {
		o.CodeVersion = CodeVersion()
	}
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.MaxClaim <= 0 {
		o.MaxClaim = 256
	}
	return o
}

// runJobs runs jobs one at a time until jobs is closed, handing each
// finished run to the writer; a run abandoned because ctx was cancelled
// is only uncounted.
func runJobs(ctx context.Context, opts Options, jobs <-chan job, results chan<- finished, counts *counts) {
	w := newWorker(opts)
	for j := range jobs {
		counts.waiting.Add(-1)
		counts.busy.Add(1)
		start := time.Now()
		f, ok := w.run(ctx, j)
		counts.runNanos.Add(int64(time.Since(start)))
		counts.runs.Add(1)
		counts.busy.Add(-1)
		signal(counts.free)
		if !ok {
			counts.unreceived.Add(-1)
			counts.held.Add(-1)
			continue
		}
		results <- f
	}
}

// renewLoop renews the lease on the claimed work every period until ctx
// ends. A failed renewal is tried again at the next tick: the lease
// outlives two failures.
func renewLoop(ctx context.Context, q Queue, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			q.Renew(ctx)
		}
	}
}

// writer commits finished runs in batches, each in one transaction with
// the release of its claims, and counts them.
type writer struct {
	q        Queue
	counts   *counts
	tally    *tally
	progress Progress
	// stop stops the workers when nothing more can be recorded.
	stop  context.CancelCauseFunc
	batch []finished
	// err is the first failed commit; later batches are dropped.
	err error
}

// loop takes finished runs until results is closed, committing a batch
// when it holds size runs, when it is delay old, when no other claimed
// run is under way (waiting would only delay the end of the plan), or at
// once when the runs are slow.
func (w *writer) loop(ctx context.Context, results <-chan finished, size int, delay time.Duration) {
	timer := time.NewTimer(delay)
	timer.Stop()
	for {
		select {
		case f, ok := <-results:
			if !ok {
				w.flush(ctx)
				return
			}
			if len(w.batch) == 0 {
				timer.Reset(delay)
			}
			w.batch = append(w.batch, f)
			// A slow run is committed at once: a commit costs little
			// beside it, and others may wait for it (a tuning's racer).
			if w.counts.unreceived.Add(-1) == 0 || len(w.batch) >= size || w.counts.slow() {
				w.flush(ctx)
			}
		case <-timer.C:
			w.flush(ctx)
		}
	}
}

// flush commits the batch and tells the progress about each run.
func (w *writer) flush(ctx context.Context) {
	batch := w.batch
	w.batch = w.batch[:0]
	if len(batch) == 0 || w.err != nil {
		return
	}
	done := make([]db.FinishedWork, len(batch))
	for i, f := range batch {
		done[i] = db.FinishedWork{WorkID: f.item.ID, Run: f.run, Points: f.points}
	}
	inserted, err := w.q.Complete(ctx, done)
	w.counts.held.Add(-int64(len(batch)))
	signal(w.counts.flushed)
	if err != nil {
		w.err = err
		w.stop(err) // nothing more can be recorded: stop the workers
		return
	}
	for i, f := range batch {
		dup := !inserted[i]
		w.tally.add(f, dup)
		if w.progress != nil {
			w.progress.Recorded(Outcome{Run: f.run, Config: f.config, Duplicate: dup})
		}
	}
}

// tally counts the recorded runs, per configuration in plan order and
// then in the order first met.
type tally struct {
	sum Summary
	idx map[int64]int
}

func newTally(configs []Config) *tally {
	t := &tally{idx: map[int64]int{}}
	for _, c := range configs {
		t.idx[c.ID] = len(t.sum.Configs)
		t.sum.Configs = append(t.sum.Configs, ConfigSummary{Name: c.Name})
	}
	return t
}

// add counts one committed run; dup says another process recorded it
// first.
func (t *tally) add(f finished, dup bool) {
	if dup {
		t.sum.Duplicates++
		return
	}
	t.sum.Recorded++
	i, ok := t.idx[f.config.ID]
	if !ok {
		i = len(t.sum.Configs)
		t.idx[f.config.ID] = i
		t.sum.Configs = append(t.sum.Configs, ConfigSummary{Name: f.config.Name})
	}
	cs := &t.sum.Configs[i]
	cs.Runs++
	switch f.run.Status {
	case sudokulab.StatusSolved:
		cs.Solved++
		cs.SolvedEvaluations += f.run.Evaluations
		cs.SolvedGenerations += f.run.Generations
		if f.run.Nodes != nil {
			cs.SolvedNodes += *f.run.Nodes
		}
	case sudokulab.StatusError:
		cs.Errors++
	}
}

// claimLoop claims work and hands it to the workers until nothing is left
// (unless opts.Follow) or ctx ends. Claims of quick runs grow, so that
// claiming costs little per run; slow runs are claimed one per idle
// worker when it is idle, so that a dying worker loses little and the
// end of a plan, or of a small batch such as a step of a tuning's race,
// is shared between the workers instead of waiting in one's hands.
func claimLoop(ctx context.Context, q Queue, cat Catalog, opts WorkOptions, jobs chan<- job, counts *counts) error {
	n := opts.Jobs
	traces := map[string]Trace{}
	for ctx.Err() == nil {
		want, slow := n, counts.slow()
		if slow {
			want = opts.Jobs - int(counts.busy.Load()+counts.waiting.Load())
			if want <= 0 {
				select {
				case <-ctx.Done():
				case <-counts.free:
				}
				continue
			}
		}
		start := time.Now()
		items, err := q.Claim(ctx, want)
		if err != nil {
			return err
		}
		counts.held.Add(int64(len(items)))
		counts.unreceived.Add(int64(len(items)))
		if len(items) == 0 {
			done, err := waitForWork(ctx, q, opts, counts)
			if done || err != nil {
				return err
			}
			continue
		}
		for _, it := range items {
			p, err := cat.Puzzle(ctx, it.PuzzleID)
			if err != nil {
				return fmt.Errorf("work item %d: %w", it.ID, err)
			}
			c, err := cat.Config(ctx, it.ConfigID)
			if err != nil {
				return fmt.Errorf("work item %d: %w", it.ID, err)
			}
			tr, ok := traces[it.Trace]
			if !ok {
				if tr, err = ParseTrace(it.Trace); err != nil {
					return fmt.Errorf("work item %d: %w", it.ID, err)
				}
				traces[it.Trace] = tr
			}
			counts.waiting.Add(1)
			select {
			case jobs <- job{item: it, puzzle: p, config: c, trace: tr}:
			case <-ctx.Done():
				return nil
			}
		}
		// The workers took the batch in this long: aim at half a second.
		switch took := time.Since(start); {
		case slow:
		case took < 250*time.Millisecond && len(items) == n:
			n = min(2*n, opts.MaxClaim)
		case took > 2*time.Second:
			n = max(opts.Jobs, n/2)
		}
	}
	return nil
}

// busyPoll is the longest wait between looks at a queue with nothing to
// claim while other processes' runs of a tenth of a second or less are
// under way: their end often brings new work (the next step of a
// tuning's race) or the end of the plan, and a look is one read. Longer
// runs are looked at every sixteenth of this worker's mean run time.
const busyPoll = 25 * time.Millisecond

// waitForWork waits after a claim that found nothing, looking at the
// queue with reads only (a claim writes), until a claim may find work;
// it reports done when nothing is left to do or wait for and
// opts.Follow is false. The looks start 10ms apart and back off up to
// opts.Poll, or up to busyPoll while other processes' runs are under way.
func waitForWork(ctx context.Context, q Queue, opts WorkOptions, counts *counts) (done bool, err error) {
	idle := 10 * time.Millisecond
	for looked := false; ; looked = true {
		// Whether the plan is whole is read before what is left: the
		// plan may be completed between the two reads, and a finished
		// plan seen with a count taken before it was whole would end
		// the loop with its work still pending.
		whole := planDone(opts.PlanDone)
		left, err := q.Left(ctx)
		if err != nil {
			return false, err
		}
		if !opts.Follow && whole && left.Done() {
			return true, nil
		}
		if looked && left.Claimable() {
			return false, nil
		}
		held := counts.held.Load()
		if left.Pending == 0 && left.Lapsed == 0 && left.Running > 0 && left.Running <= held {
			// Only this worker's own runs are left: look again when
			// the writer has committed some.
			select {
			case <-counts.flushed:
			default:
			}
			select {
			case <-ctx.Done():
			case <-counts.flushed:
			case <-time.After(opts.Poll):
			}
			return false, nil
		}
		limit := opts.Poll
		if left.Running > held {
			limit = min(limit, max(busyPoll, counts.meanRun()/16))
		}
		select {
		case <-ctx.Done():
			return false, nil
		case <-time.After(min(idle, limit)):
		}
		idle = min(2*idle, opts.Poll)
	}
}

// counts are the engine's counts of claimed items.
type counts struct {
	// held counts the items claimed and not yet committed; unreceived
	// those claimed and not yet handed to the writer.
	held, unreceived atomic.Int64
	// waiting counts the items handed to the workers and not yet started,
	// busy the workers running one; runs and runNanos the runs finished
	// and the time they took, whose mean decides how much to claim.
	waiting, busy, runs, runNanos atomic.Int64
	// flushed is signalled after every commit, free after every run.
	flushed, free chan struct{}
}

func newCounts() *counts {
	return &counts{flushed: make(chan struct{}, 1), free: make(chan struct{}, 1)}
}

// slowRun is the mean run time from which the engine claims one run per
// idle worker: a run held while another worker is idle would delay the
// end of a small batch of work (a race step of sudokulab tune) by a whole
// run, and a claim costs little beside such a run.
const slowRun = 100 * time.Millisecond

// meanRun is the mean time of the runs finished so far, 0 before any.
func (c *counts) meanRun() time.Duration {
	n := c.runs.Load()
	if n == 0 {
		return 0
	}
	return time.Duration(c.runNanos.Load() / n)
}

// slow reports whether the runs finished so far took slowRun or more on
// average, or none has finished yet: until then a run may be slow.
func (c *counts) slow() bool { return c.runs.Load() == 0 || c.meanRun() >= slowRun }

// signal wakes whoever waits on ch, without blocking.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// planDone reports whether the plan is wholly in the queue.
func planDone(c <-chan struct{}) bool {
	if c == nil {
		return true
	}
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// DBQueue is the work queue in a database, seen by one worker.
type DBQueue struct {
	DB *db.DB
	// Worker names this process (see Worker).
	Worker string
	// ExperimentID limits claims to one experiment; 0 claims from any.
	ExperimentID int64
	// Lease is the claim's duration; 0 means DefaultLease.
	Lease time.Duration
	// MaxAttempts bounds the claims on one item; 0 means
	// db.DefaultMaxAttempts.
	MaxAttempts int
}

var _ Queue = (*DBQueue)(nil)

func (q *DBQueue) lease() time.Duration {
	if q.Lease <= 0 {
		return DefaultLease
	}
	return q.Lease
}

// Claim implements Queue.
func (q *DBQueue) Claim(ctx context.Context, n int) ([]db.WorkItem, error) {
	return db.ClaimWork(ctx, q.DB, db.Claim{Worker: q.Worker, ExperimentID: q.ExperimentID, N: n, Lease: q.lease(), MaxAttempts: q.MaxAttempts})
}

// Complete implements Queue: one transaction for the batch.
func (q *DBQueue) Complete(ctx context.Context, done []db.FinishedWork) (inserted []bool, err error) {
	err = q.DB.WithTx(ctx, func(tx *sqlx.Tx) error {
		inserted, err = db.CompleteWork(ctx, tx, done)
		return err
	})
	return inserted, err
}

// Renew implements Queue.
func (q *DBQueue) Renew(ctx context.Context) error {
	_, err := db.RenewWork(ctx, q.DB, q.Worker, q.lease())
	return err
}

// Release implements Queue.
func (q *DBQueue) Release(ctx context.Context) error {
	_, err := db.ReleaseWork(ctx, q.DB, q.Worker)
	return err
}

// Left implements Queue.
func (q *DBQueue) Left(ctx context.Context) (left db.WorkLeft, err error) {
	err = q.DB.Retry(ctx, func() (err error) {
		left, err = db.RemainingWork(ctx, q.DB, q.ExperimentID, q.MaxAttempts)
		return err
	})
	return left, err
}

// DBCatalog reads puzzles and configurations from a database once each,
// and builds the configurations' solvers from a registry. Its reads are
// tried again, as every database call of the work is, when the database
// is busy or its server restarts (see db.DB.Retry).
type DBCatalog struct {
	DB       *db.DB
	Registry Registry

	mu      sync.Mutex
	puzzles map[int64]*sudokulab.Puzzle
	configs map[int64]*Config
}

var _ Catalog = (*DBCatalog)(nil)

// Puzzle implements Catalog.
func (c *DBCatalog) Puzzle(ctx context.Context, id int64) (*sudokulab.Puzzle, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.puzzles[id]; ok {
		return p, nil
	}
	var p *sudokulab.Puzzle
	err := c.DB.Retry(ctx, func() (err error) {
		p, err = db.GetPuzzle(ctx, c.DB, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if c.puzzles == nil {
		c.puzzles = map[int64]*sudokulab.Puzzle{}
	}
	c.puzzles[id] = p
	return p, nil
}

// Config implements Catalog. A configuration whose solver this program
// does not have is an EINVALID error: an older sudokulab cannot do its
// work.
func (c *DBCatalog) Config(ctx context.Context, id int64) (*Config, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rc, ok := c.configs[id]; ok {
		return rc, nil
	}
	var stored *sudokulab.Config
	err := c.DB.Retry(ctx, func() (err error) {
		stored, err = db.GetConfigByID(ctx, c.DB, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	rc, err := withSolver(stored, c.Registry)
	if err != nil {
		return nil, err
	}
	if c.configs == nil {
		c.configs = map[int64]*Config{}
	}
	c.configs[id] = &rc
	return &rc, nil
}
