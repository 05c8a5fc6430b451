package runner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/db"
)

// Spec is a plan as a person gives it: the puzzles by a selection, the
// configurations by name, the seeds and the budget, and how to do it. Run
// resolves it against the database, puts it in the work queue of its
// experiment and does it; with Queued it plans nothing and does the work
// already queued, as sudokulab worker does.
type Spec struct {
	// Experiment names the experiment that holds the plan's work, created
	// if needed; empty means one named after the plan (see PlanName).
	// With Queued it names the experiment whose work to do.
	Experiment string
	// The plan's puzzles are those of the view puzzle_catalog that match
	// the predicate Where, belong to the collection Collection and have
	// one of the PuzzleIDs (an empty condition is left out), at most Limit
	// of them by id when Limit is positive.
	Where, Collection string
	PuzzleIDs         []int64
	Limit             int
	// Configs names stored configurations. Solver, when not empty, adds
	// the configuration of that solver with the Params settings over its
	// defaults, stored under a name of its own if new.
	Configs []string
	Solver  string
	Params  map[string]string
	// Seeds runs of each puzzle and configuration use the seeds FirstSeed,
	// FirstSeed+1, ...
	FirstSeed int64
	Seeds     int
	// Budget and Timeout bound each run; zero values mean no limit.
	Budget  sudokulab.Budget
	Timeout time.Duration
	// Trace selects the stored trajectory points.
	Trace Trace
	// Shard and Shards select the Shard-th (1-based) of Shards
	// deterministic slices of the plan (see db.PlanSpec); zero means the
	// whole plan.
	Shard, Shards int
	// EnqueueOnly puts the plan in the queue and returns: workers do it.
	// ByWorkers puts it in the queue and waits until other processes
	// (sudokulab worker) have done it, doing no run itself.
	EnqueueOnly, ByWorkers bool
	// Queued plans nothing: Run does the work already in the queue, of
	// Experiment (waited for while it does not exist, see
	// Options.WaitExperiment) or of every experiment. Follow then
	// keeps it waiting for new work once the queue is empty, until ctx is
	// cancelled.
	Queued, Follow bool
	// Lease is how long a claim on work lasts without renewal; 0 means
	// DefaultLease.
	Lease time.Duration
}

// Run does what spec says, the one way every command takes to a recorded
// run: it resolves the selection and the configurations, makes sure of
// the experiment, tells opts.Begin, and then puts the plan in the work
// queue while it works on it, until the whole plan is recorded by this
// process or others working on the same experiment. When ctx is
// cancelled the runs in progress are abandoned, every run that finished
// is still recorded, the rest is handed back, and the error is ctx's. The
// summary says what was done, and what the experiment holds
// (Summary.Held).
func Run(ctx context.Context, d *db.DB, reg Registry, spec Spec, opts Options) (Summary, error) {
	if err := spec.Check(); err != nil {
		return Summary{}, err
	}
	if spec.Queued {
		return serve(ctx, d, reg, spec, opts)
	}
	p, err := resolve(ctx, d, reg, spec)
	if err != nil {
		return Summary{}, err
	}
	return p.do(ctx, d, opts)
}

// Check refuses a spec that cannot be done, in the words of the flags of
// sudokulab run that set its fields. Run checks its spec; a command checks
// it before it opens the database.
func (s Spec) Check() error {
	planned := len(s.Configs) > 0 || s.Solver != ""
	switch {
	case s.Queued && planned:
		return sudokulab.Errorf(sudokulab.EINVALID, "a spec of queued work plans nothing: it names no configuration")
	case s.Queued && s.ByWorkers:
		return sudokulab.Errorf(sudokulab.EINVALID, "a spec of queued work does it: it cannot leave it to other workers")
	case s.Queued:
	case !planned:
		return sudokulab.Errorf(sudokulab.EINVALID, "say what to run: --config NAME or --solver NAME")
	case len(s.Params) > 0 && s.Solver == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "--set needs --solver")
	case s.Seeds < 1:
		return sudokulab.Errorf(sudokulab.EINVALID, "--runs %d: want at least 1", s.Seeds)
	case s.FirstSeed > math.MaxInt64-int64(s.Seeds-1):
		return sudokulab.Errorf(sudokulab.EINVALID, "--seed %d --runs %d: the last seed would pass the largest, %d", s.FirstSeed, s.Seeds, int64(math.MaxInt64))
	case s.Budget.MaxEvaluations < 0 || s.Budget.MaxGenerations < 0 || s.Timeout < 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "budgets cannot be negative (0 means no limit)")
	}
	if s.Lease != 0 {
		return CheckLease(s.Lease)
	}
	return nil
}

// MinLease is the shortest lease on work: a claim is renewed at a third
// of it, so shorter leases would lapse under a loaded machine.
const MinLease = 3 * time.Second

// CheckLease refuses a lease shorter than MinLease, in the words of
// --lease.
func CheckLease(lease time.Duration) error {
	if lease < MinLease {
		return sudokulab.Errorf(sudokulab.EINVALID, "--lease %v: want at least 3s", lease)
	}
	return nil
}

// ParseShard reads a shard given as K/N, the K-th of N slices of a plan
// (Spec.Shard and Spec.Shards); "" is the whole plan (0, 0).
func ParseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, sudokulab.Errorf(sudokulab.EINVALID, "--shard %q: want K/N with 1 <= K <= N, such as 3/8", s)
	}
	return k, n, nil
}

// queued is a plan resolved against the database, ready for the queue.
type queued struct {
	spec       db.PlanSpec
	experiment string
	puzzles    int
	configs    []Config
	cat        *DBCatalog
	lease      time.Duration
	// whileWorking enqueues the plan while the work is under way (a plan
	// of any size starts at once); otherwise it is enqueued first, so
	// that what was recorded before is known exactly at the start.
	whileWorking, enqueueOnly, byWorkers bool
	// poll is WorkOptions.Poll.
	poll time.Duration
}

// resolve checks the selection, finds the configurations and makes sure
// of the experiment.
func resolve(ctx context.Context, d *db.DB, reg Registry, s Spec) (queued, error) {
	q := queued{
		spec: db.PlanSpec{
			Limit: s.Limit, FirstSeed: s.FirstSeed, SeedCount: int64(s.Seeds),
			Budget: db.Budget{MaxEvaluations: s.Budget.MaxEvaluations, MaxGenerations: s.Budget.MaxGenerations, TimeoutMS: s.Timeout.Milliseconds()},
			Trace:  s.Trace.String(), Shard: s.Shard, Shards: s.Shards,
		},
		cat:   &DBCatalog{DB: d, Registry: reg},
		lease: s.Lease, whileWorking: !s.ByWorkers, enqueueOnly: s.EnqueueOnly, byWorkers: s.ByWorkers,
	}
	var err error
	if q.spec.Where, err = db.SelectionPredicate(ctx, d, s.Where, s.Collection, s.PuzzleIDs); err != nil {
		return q, err
	}
	if q.puzzles, err = db.CountPlanPuzzles(ctx, d, q.spec); err != nil {
		return q, err
	}
	if q.puzzles == 0 {
		return q, sudokulab.Errorf(sudokulab.EINVALID, "no puzzle matches the selection; try sudokulab puzzles list with the same flags")
	}
	for _, name := range s.Configs {
		c, err := LoadConfig(ctx, d, reg, name)
		if err != nil {
			return q, err
		}
		q.configs = append(q.configs, c)
	}
	if s.Solver != "" {
		c, _, err := EnsureConfig(ctx, d, reg, "", s.Solver, s.Params, "", false)
		if err != nil {
			return q, err
		}
		q.configs = append(q.configs, c)
	}
	for _, c := range q.configs {
		q.spec.ConfigIDs = append(q.spec.ConfigIDs, c.ID)
	}
	q.experiment = s.Experiment
	if q.experiment == "" {
		q.experiment = PlanName(q.spec)
	}
	q.spec.ExperimentID, err = db.EnsureExperiment(ctx, d, q.experiment, "")
	return q, err
}

// PlanName names the experiment of a plan given without one: "run-" and
// the start of a hash of what selects the plan, so that the same command
// always lands in the same experiment, resuming it, and several processes
// given the same command share one plan. Names stored by earlier versions
// stay valid: a plan selecting its puzzles by predicate and its seeds by
// count is hashed as it always was.
func PlanName(spec db.PlanSpec) string {
	h := sha256.New()
	fmt.Fprintf(h, "where %q\nlimit %d\nconfigs %v\nseeds %d+%d\nbudget %d %d %d\nshard %d/%d\n",
		spec.Where, spec.Limit, spec.ConfigIDs, spec.FirstSeed, spec.SeedCount,
		spec.Budget.MaxEvaluations, spec.Budget.MaxGenerations, spec.Budget.TimeoutMS, spec.Shard, spec.Shards)
	if spec.PuzzleIDs != nil {
		fmt.Fprintf(h, "puzzles %v\n", spec.PuzzleIDs)
	}
	if spec.Seeds != nil {
		fmt.Fprintf(h, "seed list %v\n", spec.Seeds)
	}
	return "run-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// do puts the plan in the queue and works on it.
func (p queued) do(ctx context.Context, d *db.DB, opts Options) (Summary, error) {
	sum := p.summary()
	if opts.Begin != nil {
		opts.Begin(sum)
	}
	if p.enqueueOnly {
		var err error
		if sum.Enqueued, err = db.Enqueue(ctx, d, p.spec, nil); err != nil {
			return sum, fmt.Errorf("enqueue the plan: %w", err)
		}
		sum.Left, err = db.RemainingWork(ctx, d, p.spec.ExperimentID, 0)
		return sum, err
	}
	// What the experiment holds of the plan already, looked at before the
	// plan goes into the queue: other processes may record its runs at
	// once (tune --jobs 0's workers do), and those are not from before.
	before, err := db.PlanDone(ctx, d, p.spec)
	if err != nil {
		return sum, err
	}
	if !p.whileWorking {
		if sum.Enqueued, err = db.Enqueue(ctx, d, p.spec, nil); err != nil {
			return sum, err
		}
		if afterEnqueue != nil {
			afterEnqueue()
		}
		// The runs found recorded by other experiments as the plan went
		// into the queue were recorded before this call too.
		before += sum.Enqueued.Linked
	}
	if opts.Progress != nil {
		opts.Progress.Start(int(max(0, int64(sum.Total)-before)), int(before))
	}
	q := &DBQueue{DB: d, Worker: Worker(opts.Host), ExperimentID: p.spec.ExperimentID, Lease: p.lease}
	ws, err := p.work(ctx, d, q, opts, &sum)
	// Another process on the experiment may queue its plan just after
	// the work ran out (irace's target runners, two at a time, each a
	// sudokulab run in one experiment): the work goes on with it, as it
	// would have had it come a moment earlier, and what is left is judged
	// on the same look at the queue that let the work end. A few rounds:
	// work that this process cannot do is still reported left.
	var left db.WorkLeft
	for round := 0; err == nil; round++ {
		if afterWork != nil {
			afterWork()
		}
		if left, err = q.Left(ctx); err != nil {
			return sum, err
		}
		if p.byWorkers || !left.Claimable() || round == maxWorkRounds {
			break
		}
		var more Summary
		more, err = Work(ctx, q, p.cat, WorkOptions{Options: opts, Lease: p.lease, Configs: p.configs, Poll: p.poll})
		ws.add(more)
	}
	sum.Recorded, sum.Duplicates = ws.Recorded, ws.Duplicates
	sum.Skipped = int(before)
	if p.whileWorking {
		// As above, for the plan put in the queue while the work went on.
		sum.Skipped += int(sum.Enqueued.Linked)
	}
	// Work lists the plan's configurations first, in plan order.
	copy(sum.Configs, ws.Configs)
	if err != nil {
		return sum, err
	}
	return sum, p.finish(ctx, d, left, &sum)
}

// summary is what is known of the plan before any work.
func (p queued) summary() Summary {
	seeds := int64(len(p.spec.Seeds))
	if p.spec.Seeds == nil {
		seeds = p.spec.SeedCount
	}
	sum := Summary{
		Experiment: p.experiment, ExperimentID: p.spec.ExperimentID, Puzzles: p.puzzles,
		Planned: int64(p.puzzles) * int64(len(p.configs)) * seeds,
	}
	sum.Total = int(sum.Planned)
	if p.spec.Shards > 0 {
		share := sum.Planned / int64(p.spec.Shards)
		if int64(p.spec.Shard-1) < sum.Planned%int64(p.spec.Shards) {
			share++
		}
		sum.Total = int(share)
	}
	for _, c := range p.configs {
		sum.Configs = append(sum.Configs, ConfigSummary{Name: c.Name})
	}
	return sum
}

// work runs the workers on the queue, the plan going into it meanwhile
// when p.whileWorking. An error enqueueing stops the work and is returned.
func (p queued) work(ctx context.Context, d *db.DB, q *DBQueue, opts Options, sum *Summary) (Summary, error) {
	wopts := WorkOptions{Options: opts, Lease: p.lease, Configs: p.configs, Poll: p.poll}
	if p.byWorkers {
		return Summary{}, waitForWorkers(ctx, d, q, wopts.withDefaults(), p.experiment)
	}
	if !p.whileWorking {
		return Work(ctx, q, p.cat, wopts)
	}
	// The plan goes into the queue in short transactions while the
	// workers already take from it; other processes on the same
	// experiment share it.
	planDone := make(chan struct{})
	wopts.PlanDone = planDone
	var enqErr error
	workCtx, cancelWork := context.WithCancelCause(ctx)
	defer cancelWork(nil)
	go func() {
		defer close(planDone)
		sum.Enqueued, enqErr = db.Enqueue(workCtx, d, p.spec, nil)
		if enqErr != nil {
			cancelWork(enqErr)
		}
	}()
	ws, err := Work(workCtx, q, p.cat, wopts)
	cancelWork(nil)
	<-planDone
	if enqErr != nil && !errors.Is(enqErr, context.Canceled) {
		return ws, fmt.Errorf("enqueue the plan: %w", enqErr)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return ws, err
}

// waitForWorkers waits until the queue of q holds nothing left to do or
// wait for, doing none of it: it looks 10ms after the start, backing off
// up to busyPoll while there is work, up to opts.Poll while there is none
// (a worker lost its claims, whose lease must lapse). On SQLite it counts
// what is left only when another connection has committed since it last
// counted (db.ChangeWatch), or opts.Poll after: a look then costs a
// tenth of a count. Once runs have waited with none under way for
// opts.UnclaimedAfter, it tells opts.Unclaimed the experiment's name.
func waitForWorkers(ctx context.Context, d *db.DB, q Queue, opts WorkOptions, experiment string) error {
	watch, err := d.WatchChanges(ctx)
	if err != nil {
		return err
	}
	defer watch.Close()
	idle, limit := 10*time.Millisecond, opts.Poll
	var seen int64
	var counted time.Time
	unclaimed := newUnclaimedWatch(opts.Options)
	for {
		v, ok, err := watch.Version(ctx)
		if err != nil {
			return err
		}
		if !ok || v != seen || time.Since(counted) >= opts.Poll {
			left, err := q.Left(ctx)
			if err != nil {
				return err
			}
			if left.Done() {
				return nil
			}
			if unclaimed.look(left, time.Now()) {
				opts.Unclaimed(experiment)
			}
			seen, counted = v, time.Now()
			limit = opts.Poll
			if left.Pending > 0 || left.Running > 0 {
				limit = min(limit, busyPoll)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(idle, limit)):
		}
		idle = min(2*idle, opts.Poll)
	}
}

// unclaimedWatch tells, from looks at the queue of a plan left to other
// processes, when its runs have waited with none under way for long
// enough to say so, once.
type unclaimedWatch struct {
	after time.Duration
	since time.Time // since when runs have waited with none under way
	told  bool
}

// newUnclaimedWatch returns the watch of opts (told already when no one
// is to hear it).
func newUnclaimedWatch(opts Options) *unclaimedWatch {
	return &unclaimedWatch{after: cmp.Or(opts.UnclaimedAfter, DefaultUnclaimedAfter), told: opts.Unclaimed == nil}
}

// look takes what is left at time now and reports whether it is the
// time to tell.
func (u *unclaimedWatch) look(left db.WorkLeft, now time.Time) bool {
	if left.Running > 0 || !left.Claimable() {
		u.since = time.Time{}
		return false
	}
	if u.since.IsZero() {
		u.since = now
	}
	if u.told || now.Sub(u.since) < u.after {
		return false
	}
	u.told = true
	return true
}

// finish checks, on left (the last look at the queue), that the plan is
// done, and counts what the experiment holds.
func (p queued) finish(ctx context.Context, d *db.DB, left db.WorkLeft, sum *Summary) error {
	sum.Left, sum.Abandoned = left, int(left.Abandoned)
	if left.Claimable() {
		// The workers stopped with the plan unfinished: never report
		// success for work not done.
		return fmt.Errorf("the workers stopped with %d runs of experiment %s waiting (%d recorded here): run the same command again to do them",
			left.Pending+left.Lapsed, sum.experimentName(), sum.Recorded)
	}
	sum.ByOthers = max(0, sum.Total-sum.Skipped-sum.Recorded-sum.Duplicates-sum.Abandoned)
	var err error
	sum.Held, err = db.ExperimentRunCounts(ctx, d, p.spec.ExperimentID, p.spec.ConfigIDs)
	return err
}

// afterWork, when set (by tests), is called each time the work of a
// plan ran out, before the queue is looked at again.
var afterWork func()

// afterEnqueue, when set (by tests), is called once a plan left to other
// processes (ByWorkers) is in the queue.
var afterEnqueue func()

// maxWorkRounds bounds how many times a run goes back to work that
// others queued into its experiment as its own ran out.
const maxWorkRounds = 3

// add counts into s what another Work call on the same configurations
// did.
func (s *Summary) add(o Summary) {
	s.Recorded += o.Recorded
	s.Duplicates += o.Duplicates
	for i := range min(len(s.Configs), len(o.Configs)) {
		c, m := &s.Configs[i], o.Configs[i]
		c.Runs += m.Runs
		c.Solved += m.Solved
		c.SolvedEvaluations += m.SolvedEvaluations
		c.SolvedGenerations += m.SolvedGenerations
		c.SolvedNodes += m.SolvedNodes
		c.Errors += m.Errors
	}
}

// ConfigNames lists the names of Configs.
func (s *Summary) ConfigNames() []string {
	names := make([]string, len(s.Configs))
	for i, c := range s.Configs {
		names[i] = c.Name
	}
	return names
}

// experimentName names the summary's experiment in a message.
func (s *Summary) experimentName() string {
	if s.Experiment != "" {
		return s.Experiment
	}
	return fmt.Sprint("#", s.ExperimentID)
}

// serve does the work queued for spec.Experiment (for every experiment
// when it is empty), as sudokulab worker does.
func serve(ctx context.Context, d *db.DB, reg Registry, spec Spec, opts Options) (Summary, error) {
	sum := Summary{Experiment: spec.Experiment, Worker: Worker(opts.Host)}
	if spec.Experiment != "" {
		var err error
		if sum.ExperimentID, err = awaitExperiment(ctx, d, spec.Experiment, opts.WaitExperiment); err != nil {
			return sum, err
		}
	}
	q := &DBQueue{DB: d, Worker: sum.Worker, ExperimentID: sum.ExperimentID, Lease: spec.Lease}
	left, err := q.Left(ctx)
	if err != nil {
		return sum, err
	}
	sum.Left, sum.Total = left, int(left.Pending+left.Lapsed)
	if opts.Begin != nil {
		opts.Begin(sum)
	}
	if opts.Progress != nil {
		opts.Progress.Start(sum.Total, 0)
	}
	ws, err := Work(ctx, q, &DBCatalog{DB: d, Registry: reg}, WorkOptions{Options: opts, Lease: spec.Lease, Follow: spec.Follow})
	sum.Recorded, sum.Duplicates, sum.Configs = ws.Recorded, ws.Duplicates, ws.Configs
	return sum, err
}

// experimentPoll is the longest wait between looks for an experiment
// that does not exist yet.
const experimentPoll = time.Second

// awaitExperiment returns the id of the experiment called name. One that
// does not exist yet is waited for (told once to wait, when not nil),
// and then its first work, so that a worker started before the run that
// creates it does not find its queue empty between the two; the looks
// start 10ms apart and back off up to experimentPoll. Like every read of
// the work, the looks outlive a busy database or a server restart (see
// db.DB.Retry). When ctx ends first the error is ctx's.
func awaitExperiment(ctx context.Context, d *db.DB, name string, wait func(string)) (int64, error) {
	idle := 10 * time.Millisecond
	sleep := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(idle):
		}
		idle = min(2*idle, experimentPoll)
		return nil
	}
	var id int64
	waited := false
	for {
		err := d.Retry(ctx, func() (err error) {
			id, err = db.ExperimentID(ctx, d, name)
			return err
		})
		if err == nil {
			break
		}
		if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
			return 0, err
		}
		if !waited && wait != nil {
			wait(name)
		}
		waited = true
		if err := sleep(); err != nil {
			return 0, err
		}
	}
	for waited {
		var has bool
		err := d.Retry(ctx, func() (err error) {
			has, err = db.HasWork(ctx, d, id)
			return err
		})
		if err != nil || has {
			return id, err
		}
		if err := sleep(); err != nil {
			return 0, err
		}
	}
	return id, nil
}
