package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Instance is one training instance of a race: a puzzle of the training
// set (Item, an index into it) and the seed of the runs on it. irace
// pairs each instance with a seed in the same way (§3.2).
type Instance struct {
	// Index numbers the instances in the order the tuning draws them,
	// from 1.
	Index int
	Item  int
	Seed  int64
}

// Evaluator gives the cost of candidates on an instance, lower better.
// The tuning asks for each candidate and instance at most once.
type Evaluator interface {
	Evaluate(ctx context.Context, inst Instance, cands []*Candidate) ([]float64, error)
}

// Prefetcher is an Evaluator that can start runs before the race asks
// for their costs. At its start a race tells it every run of its steps up
// to the first test: those depend on no test, so a lab whose runs are
// done by several workers can hand them all out at once instead of one
// step at a time. Evaluate is then asked for each step's costs as
// without it.
type Prefetcher interface {
	Prefetch(ctx context.Context, ahead []Ahead) error
}

// Ahead is the runs of one step that the race will ask for: its instance
// and the candidates without a cost on it.
type Ahead struct {
	Instance   Instance
	Candidates []*Candidate
}

// Recorder hears what the race does, to keep it. A nil Recorder in
// Options hears nothing.
type Recorder interface {
	// Step is told of each race step once its test, if any, is done.
	Step(ctx context.Context, s Step) error
}

// Step is one step of a race: the candidates alive at its start run on
// its instance, and then, at a test, some may be eliminated.
type Step struct {
	Iteration, Number int
	Instance          Instance
	// Test names the test done after the step ("friedman", "wilcoxon"),
	// empty for none; P is its p-value.
	Test string
	P    float64
	// Entries holds a line per candidate alive at the step's start.
	Entries []Entry
}

// Entry is one candidate in a race step.
type Entry struct {
	Candidate *Candidate
	// Cost is the candidate's cost on the step's instance; MeanRank its
	// rank among the step's candidates averaged over the race's
	// instances so far.
	Cost, MeanRank float64
	// Alive is false once the step's test eliminated it.
	Alive bool
}

// Options set a tuning up. Zero values mean the defaults irace uses.
type Options struct {
	// Budget is the number of runs the tuning may do (irace's
	// maxExperiments). It must be positive.
	Budget int
	// FirstTest is the number of instances a race runs before its first
	// elimination test; 0 means 5 (irace's firstTest). EachTest is the
	// number of instances between tests; 0 means 1 (irace's eachTest).
	FirstTest, EachTest int
	// Confidence is the confidence level of the elimination tests; 0
	// means 0.95.
	Confidence float64
	// Iterations is the number of iterations the budget is spread over;
	// 0 means floor(2 + log2(len(Space.Params))) (§3.3). MinSurvival is
	// the number of candidates at or below which a race stops; 0 means
	// the same number.
	Iterations, MinSurvival int
	// ElitistLimit stops a race after that many tests in a row without
	// an elimination, once the elites' previous instances are done; 0
	// means 2 (irace's elitistLimit), negative means no limit.
	ElitistLimit int
	// Rand draws the candidates and the instances. It must not be nil.
	Rand *rand.Rand
	// Recorder hears every step; nil means none.
	Recorder Recorder
}

func (o Options) withDefaults(params int) Options {
	if o.FirstTest == 0 {
		o.FirstTest = 5
	}
	if o.EachTest == 0 {
		o.EachTest = 1
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	n := int(math.Floor(2 + math.Log2(float64(params))))
	if o.Iterations == 0 {
		o.Iterations = n
	}
	if o.MinSurvival == 0 {
		o.MinSurvival = n
	}
	if o.ElitistLimit == 0 {
		o.ElitistLimit = 2
	}
	return o
}

// MinBudget is the smallest budget, in runs, whose first iteration races
// more than opts.MinSurvival candidates up to the first test over a space
// of params parameters (opts' zero fields as their defaults): Tune stops
// before it races anything on less, with no elite.
func MinBudget(params int, opts Options) int {
	o := opts.withDefaults(params)
	return o.Iterations * (o.MinSurvival + 1) * (o.FirstTest + o.EachTest)
}

// maxCandidates caps the candidates of one race, as irace's
// maxConfigurations does.
const maxCandidates = 1024

// Result is what a tuning found.
type Result struct {
	// Elites are the final elite candidates, best first (§3.1: irace
	// returns the elites of the last race).
	Elites []*Candidate
	// Candidates lists every candidate raced, by ID.
	Candidates []*Candidate
	// Runs counts the evaluations done; Iterations the races run.
	Runs, Iterations int
	// Stop says why the tuning stopped.
	Stop string
	// SoftRestarts lists the iterations whose sampling models were
	// widened because new candidates came out nearly the same as others.
	SoftRestarts []int
}

// Tune configures by iterated racing (§3.1 and §3.3): in iteration j of
// N_iter = floor(2 + log2(N_param)) it races N_j = floor((B_j + saved) /
// max(T_first + T_each min(5, j), T_old + 1)) candidates on B_j =
// floor(remaining / (N_iter - j + 1)) runs, saved being the runs the
// elites already did on the T_old instances seen before (§3.5, elitist
// iterated racing; irace's computeNbConfigurations); the first iteration
// races the space's initial candidates and uniform samples, the later
// ones the elites and candidates sampled around them. It goes on past
// N_iter while the budget allows, and stops when it would race no more
// than the elites or MinSurvival candidates, or could not race the new
// ones up to the first test. ev must be deterministic for a given
// candidate and instance for the same seed to give the same tuning.
func Tune(ctx context.Context, s Space, items int, ev Evaluator, opts Options) (Result, error) {
	if len(s.Params) == 0 {
		return Result{}, errors.New("tune: the space has no parameter to tune")
	}
	if items < 1 {
		return Result{}, errors.New("tune: no training instance")
	}
	if least := MinBudget(len(s.Params), opts); opts.Budget < least {
		return Result{}, fmt.Errorf("tune: a budget of %d runs races nothing over %d parameters: want at least %d", opts.Budget, len(s.Params), least)
	}
	if opts.Rand == nil {
		return Result{}, errors.New("tune: no random source")
	}
	o := opts.withDefaults(len(s.Params))
	t := &tuning{space: s, opts: o, ev: ev, items: items, results: map[[2]int]float64{}, byID: map[int]*Candidate{}}
	return t.run(ctx)
}

// tuning is the state of one Tune call.
type tuning struct {
	space Space
	opts  Options
	ev    Evaluator
	items int
	// instances is the stream of instances drawn so far; seen counts
	// those a race has used.
	instances []Instance
	seen      int
	// results holds the cost of each (candidate ID, instance index).
	results map[[2]int]float64
	byID    map[int]*Candidate
	all     []*Candidate
	runs    int
	// restarts lists the iterations whose models were soft-restarted.
	restarts []int
}

func (t *tuning) run(ctx context.Context) (Result, error) {
	o := t.opts
	remaining := o.Budget
	iters := o.Iterations
	var elites []*Candidate
	res := Result{}
	for it := 1; ; it++ {
		if remaining <= 0 {
			res.Stop = "the budget is spent"
			break
		}
		iters = max(iters, it)
		budget := remaining / (iters - it + 1)
		nOld, newInst := 0, 0
		if it > 1 {
			nOld, newInst = t.seen, 1
		}
		per := max(o.FirstTest+o.EachTest*min(5, it), roundUp(nOld+newInst, o.EachTest))
		n := min((budget+len(elites)*nOld)/per, maxCandidates)
		switch {
		case n <= o.MinSurvival:
			res.Stop = fmt.Sprintf("the budget left (%d runs) races no more than %d candidates", remaining, o.MinSurvival)
		case it > 1 && n <= len(elites):
			res.Stop = fmt.Sprintf("the budget left (%d runs) races no candidate beside the elites", remaining)
		case (n-len(elites))*o.FirstTest+len(elites)*min(newInst, o.FirstTest) > budget:
			res.Stop = fmt.Sprintf("the budget left (%d runs) cannot race new candidates up to the first test", remaining)
		}
		if res.Stop != "" {
			break
		}
		cands, err := t.candidates(it, iters, n, elites)
		if err != nil {
			return res, err
		}
		survivors, used, err := t.race(ctx, it, cands, elites, budget)
		if err != nil {
			return res, err
		}
		remaining -= used
		elites = survivors[:min(len(survivors), o.MinSurvival)]
		res.Iterations = it
	}
	res.Elites, res.Candidates, res.Runs, res.SoftRestarts = elites, t.all, t.runs, t.restarts
	return res, nil
}

func roundUp(x, d int) int { return x + (d-x%d)%d }

// candidates returns the candidates of iteration it: the elites first,
// then new ones up to n. After the first iteration, when a new candidate
// is nearly the same as another of the race (see similar), the models
// it came from are widened and the new candidates drawn again, once
// (irace's soft restart).
func (t *tuning) candidates(it, iters, n int, elites []*Candidate) ([]*Candidate, error) {
	cands := slices.Clone(elites)
	if it == 1 {
		for _, set := range t.space.Initial {
			if len(cands) == n {
				break
			}
			v := make([]float64, len(t.space.Params))
			for i, p := range t.space.Params {
				x, err := p.parse(set[p.Name])
				if err != nil {
					return nil, fmt.Errorf("initial candidate: %w", err)
				}
				v[i] = x
			}
			cands = append(cands, t.add(it, 0, v))
		}
	} else {
		updateModels(t.space, elites, t.byID, it, iters, n-len(elites))
	}
	vals, parents := t.sample(it, n-len(cands), cands, elites)
	if it > 1 {
		if restart := similar(t.space, elites, vals, parents); len(restart) > 0 {
			restartModels(t.space, restart, n-len(elites))
			t.restarts = append(t.restarts, it)
			vals, parents = t.sample(it, n-len(cands), cands, elites)
		}
	}
	for i, v := range vals {
		cands = append(cands, t.add(it, parents[i], v))
	}
	return cands, nil
}

// sample draws count new candidates' values, and their parents' IDs:
// uniformly in the first iteration, else around elites. A duplicate of a
// candidate in cands or of one drawn before would only spend runs: it is
// drawn again, a bounded number of times.
func (t *tuning) sample(it, count int, cands, elites []*Candidate) ([][]float64, []int) {
	rng := t.opts.Rand
	var vals [][]float64
	var parents []int
	dup := func(v []float64) bool {
		return slices.ContainsFunc(cands, func(c *Candidate) bool { return slices.Equal(c.Values, v) }) ||
			slices.ContainsFunc(vals, func(w []float64) bool { return slices.Equal(w, v) })
	}
	for range count {
		var v []float64
		parent := 0
		for try := 0; ; try++ {
			if it == 1 {
				v = sampleUniform(t.space, rng)
			} else {
				e := pickParent(elites, rng)
				v, parent = sampleAround(t.space, e, rng), e.ID
			}
			if try == 100 || !dup(v) {
				break
			}
		}
		vals, parents = append(vals, v), append(parents, parent)
	}
	return vals, parents
}

func (t *tuning) add(it, parent int, v []float64) *Candidate {
	c := &Candidate{ID: len(t.all) + 1, Iteration: it, Parent: parent, Values: v}
	t.all = append(t.all, c)
	t.byID[c.ID] = c
	return c
}

// instance returns the race's i-th instance of the stream (0-based),
// drawing more as needed: each pass over the training set in a new
// random order, each instance with a new seed (irace's
// generateInstances with sampleInstances).
func (t *tuning) instance(i int) Instance {
	for len(t.instances) <= i {
		for _, item := range t.opts.Rand.Perm(t.items) {
			t.instances = append(t.instances, Instance{Index: len(t.instances) + 1, Item: item, Seed: t.opts.Rand.Int64N(math.MaxInt32)})
		}
	}
	return t.instances[i]
}

// race races cands (the elites first) on at most budget new runs (§3.3,
// §3.5): the instances are one new instance, then those seen before, in
// order, then new ones; a candidate is run on an instance only where it
// has no cost yet, so the elites reuse their earlier runs. From step
// FirstTest on, every EachTest steps, Eliminate drops candidates; an
// elite is kept regardless while instances it ran before are ahead. The
// race stops when no more than MinSurvival candidates are alive, when
// the next test's runs would pass the budget, after ElitistLimit tests in
// a row without an elimination, or when one candidate is left. It
// returns the survivors best first by rank sum, and the runs it did.
func (t *tuning) race(ctx context.Context, it int, cands, elites []*Candidate, budget int) ([]*Candidate, int, error) {
	o := t.opts
	var order []int
	if it > 1 {
		order = append(order, t.seen)
		for i := range t.seen {
			order = append(order, i)
		}
	}
	next := len(order) // t.seen+1 after the first race, else 0
	alive := make([]bool, len(cands))
	for i := range alive {
		alive[i] = true
	}
	if err := t.prefetch(ctx, cands, order, next); err != nil {
		return nil, 0, err
	}
	used, quiet := 0, 0
	for step := 1; ; step++ {
		if step > len(order) {
			order = append(order, next)
			next++
		}
		inst := t.instance(order[step-1])
		live := t.liveOf(cands, alive)
		var todo []*Candidate
		for _, c := range live {
			if _, ok := t.results[[2]int{c.ID, inst.Index}]; !ok {
				todo = append(todo, c)
			}
		}
		protected := t.protected(cands, order, step)
		if step > o.FirstTest {
			if len(live) <= o.MinSurvival {
				break
			}
			if (step-1)%o.EachTest == 0 && used+len(todo)*o.EachTest > budget {
				break
			}
		}
		if len(live) < 2 || (o.ElitistLimit > 0 && quiet >= o.ElitistLimit) {
			break
		}
		if len(todo) > 0 {
			costs, err := t.ev.Evaluate(ctx, inst, todo)
			if err != nil {
				return nil, used, err
			}
			if len(costs) != len(todo) {
				return nil, used, fmt.Errorf("tune: the evaluator gave %d costs for %d candidates", len(costs), len(todo))
			}
			for i, c := range todo {
				if math.IsNaN(costs[i]) {
					return nil, used, fmt.Errorf("tune: candidate %d has no cost on instance %d", c.ID, inst.Index)
				}
				t.results[[2]int{c.ID, inst.Index}] = costs[i]
			}
			used += len(todo)
			t.runs += len(todo)
		}
		t.seen = max(t.seen, order[step-1]+1)
		rec := Step{Iteration: it, Number: step, Instance: inst, P: math.NaN()}
		matrix := t.matrix(live, order[:step])
		before := len(live)
		if step >= o.FirstTest && step%o.EachTest == 0 && len(live) > 1 && len(todo) > 0 {
			v := Eliminate(matrix, o.Confidence)
			rec.Test, rec.P = v.Test, v.P
			for j, c := range live {
				if !v.Keep[j] && !protected[c.ID] {
					alive[slices.Index(cands, c)] = false
				}
			}
		}
		sums := rankSums(matrix)
		for j, c := range live {
			rec.Entries = append(rec.Entries, Entry{
				Candidate: c, Cost: t.results[[2]int{c.ID, inst.Index}],
				MeanRank: sums[j] / float64(step), Alive: alive[slices.Index(cands, c)],
			})
		}
		if len(protected) == 0 && step > o.FirstTest && step%o.EachTest == 0 {
			if len(t.liveOf(cands, alive)) == before {
				quiet++
			} else {
				quiet = 0
			}
		}
		if o.Recorder != nil {
			if err := o.Recorder.Step(ctx, rec); err != nil {
				return nil, used, err
			}
		}
	}
	// The survivors, best first by their rank sums over the instances
	// every one of them ran (irace's overall.ranks).
	live := t.liveOf(cands, alive)
	var done []int
	for _, i := range order {
		if t.hasAll(live, t.instance(i).Index) {
			done = append(done, i)
		}
	}
	sums := rankSums(t.matrix(live, done))
	idx := make([]int, len(live))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(sums[a], sums[b]) })
	out := make([]*Candidate, len(live))
	for i, j := range idx {
		out[i] = live[j]
	}
	return out, used, nil
}

// prefetch tells a Prefetcher the runs of the race's steps up to its
// first test: every candidate runs on each of their instances where it
// has no cost yet, as no test drops one before, and the race reaches its
// first test (Tune checks the budget allows it). The instances are drawn
// in the order the steps would draw them, so the tuning stays the same.
func (t *tuning) prefetch(ctx context.Context, cands []*Candidate, order []int, next int) error {
	p, ok := t.ev.(Prefetcher)
	if !ok || len(cands) < 2 {
		return nil
	}
	var ahead []Ahead
	for step := 1; step <= t.opts.FirstTest; step++ {
		i := next + step - 1 - len(order)
		if step <= len(order) {
			i = order[step-1]
		}
		inst := t.instance(i)
		a := Ahead{Instance: inst}
		for _, c := range cands {
			if _, ok := t.results[[2]int{c.ID, inst.Index}]; !ok {
				a.Candidates = append(a.Candidates, c)
			}
		}
		if len(a.Candidates) > 0 {
			ahead = append(ahead, a)
		}
	}
	return p.Prefetch(ctx, ahead)
}

func (t *tuning) liveOf(cands []*Candidate, alive []bool) []*Candidate {
	var live []*Candidate
	for i, c := range cands {
		if alive[i] {
			live = append(live, c)
		}
	}
	return live
}

// protected returns the elites that have a cost on an instance the race
// reaches after step: irace keeps them alive until then.
func (t *tuning) protected(cands []*Candidate, order []int, step int) map[int]bool {
	p := map[int]bool{}
	for _, c := range cands {
		for _, i := range order[min(step, len(order)):] {
			if i >= len(t.instances) {
				continue
			}
			if _, ok := t.results[[2]int{c.ID, t.instances[i].Index}]; ok {
				p[c.ID] = true
				break
			}
		}
	}
	return p
}

func (t *tuning) hasAll(cands []*Candidate, index int) bool {
	for _, c := range cands {
		if _, ok := t.results[[2]int{c.ID, index}]; !ok {
			return false
		}
	}
	return true
}

// matrix returns the costs of cands (columns) on the instances at the
// given stream positions (rows).
func (t *tuning) matrix(cands []*Candidate, rows []int) [][]float64 {
	m := make([][]float64, len(rows))
	for r, i := range rows {
		m[r] = make([]float64, len(cands))
		for j, c := range cands {
			m[r][j] = t.results[[2]int{c.ID, t.instance(i).Index}]
		}
	}
	return m
}

func rankSums(m [][]float64) []float64 {
	if len(m) == 0 {
		return nil
	}
	sums := make([]float64, len(m[0]))
	for _, row := range m {
		for j, r := range midRanks(row) {
			sums[j] += r
		}
	}
	return sums
}
