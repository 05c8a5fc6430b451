// Package tuning runs sudokulab tune on the lab: package tune's iterated
// race, each step's runs put in the work queue of the tuning's experiment
// through runner.Run (so that any sudokulab worker on the experiment
// helps), every candidate stored as a configuration, the race kept in the
// tables tunings, tuning_candidates and tuning_steps, and the costs read
// back from the stored runs. A tuning killed and started again with the
// same settings samples the same candidates and races them on the same
// instances, finds their runs recorded, and so repeats none.
package tuning

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/tune"
)

// The objectives: what a run costs.
const (
	// PAR10 is the penalized average runtime: a solved run costs its CPU
	// seconds, any other ten times the timeout.
	PAR10 = "par10"
	// Success costs 0 for a solved run and 1 for any other.
	Success = "success"
	// Effort is PAR10 on the solver's effort: a solved run costs its
	// effort (evaluations or nodes), any other ten times the evaluation
	// budget.
	Effort = "effort"
)

// Spec is a tuning as a person asks for it.
type Spec struct {
	// Name names the tuning, its experiment and its candidates'
	// configurations (NAME-cN, the final elites NAME-elite-K); empty
	// means "tune-" and a hash of the settings (see Name).
	Name   string
	Solver string
	// Train and Test are predicates over puzzle_catalog choosing the
	// training and test puzzles; Test may be empty (no test).
	Train, Test string
	// Ranges gives the tuned parameters' ranges (--param), Fixed the
	// fixed ones (--set), Preset a preset whose settings make the first
	// candidate (empty: the solver's defaults).
	Ranges, Fixed map[string]string
	Preset        string
	// Budget is the number of runs of the race; Seed seeds it.
	Budget int
	Seed   uint64
	// Objective is PAR10, Success or Effort; empty means PAR10 when a
	// timeout bounds the runs, else Effort.
	Objective string
	// RunBudget and Timeout bound each run.
	RunBudget sudokulab.Budget
	Timeout   time.Duration
	// TestSeeds is the number of runs per test puzzle and configuration;
	// 0 means 1.
	TestSeeds int
	// Lease is how long a claim on a run lasts without renewal (the wait
	// for the runs of a killed racer); 0 means runner.DefaultLease.
	Lease time.Duration
}

// Report is what a tuning did and found.
type Report struct {
	Name     string
	Resumed  bool
	Training int
	Result   tune.Result
	// Elites names the final elites' configurations, best first, with
	// their settings; Default names the first candidate's.
	Elites  []string
	Default string
	// Settings holds each elite's tuned settings, best first.
	Settings []map[string]string
	// Test compares the best elite (B) with the default (A) on the test
	// set; nil without a test set or when the best is the default.
	Test *compare.Result
}

// name returns the tuning's name: Name, or for a tuning given without one: "tune-" and the
// start of a hash of its settings, so the same command resumes the same
// tuning.
func (s Spec) name(space string) string {
	if s.Name != "" {
		return s.Name
	}
	h := sha256.New()
	fmt.Fprintf(h, "solver %q\ntrain %q\ntest %q\nspace %s\nobjective %s\nbudget %d\nseed %d\nrun %d %d %d\n",
		s.Solver, s.Train, s.Test, space, s.Objective, s.Budget, s.Seed,
		s.RunBudget.MaxEvaluations, s.RunBudget.MaxGenerations, s.Timeout.Milliseconds())
	return "tune-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// objective resolves the default objective and checks the run budget
// makes it defined.
func (s Spec) objective() (string, error) {
	obj := s.Objective
	if obj == "" {
		obj = Effort
		if s.Timeout > 0 {
			obj = PAR10
		}
	}
	switch obj {
	case PAR10:
		if s.Timeout <= 0 {
			return "", sudokulab.Errorf(sudokulab.EINVALID, "--objective par10 needs --timeout: an unsolved run costs ten times it")
		}
	case Effort:
		if s.RunBudget.MaxEvaluations <= 0 {
			return "", sudokulab.Errorf(sudokulab.EINVALID, "--objective effort needs --max-evaluations: an unsolved run costs ten times it")
		}
	case Success:
	default:
		return "", sudokulab.Errorf(sudokulab.EINVALID, "--objective %q: want par10, success or effort", obj)
	}
	return obj, nil
}

// prepared is a spec checked and resolved against the lab.
type prepared struct {
	spec  Spec // with its objective resolved
	space tune.Space
	// spaceJSON is the space as the command gave it, as tunings.space
	// stores it.
	spaceJSON string
	name      string
	train     []int64
}

// prepare resolves the space, the objective, the name and the training
// set of a spec, reading the lab only.
func prepare(ctx context.Context, d *db.DB, reg runner.Registry, spec Spec) (prepared, error) {
	var p prepared
	info, err := reg.Lookup(spec.Solver)
	if err != nil {
		return p, err
	}
	var preset map[string]string
	if spec.Preset != "" {
		i := slices.IndexFunc(info.Presets, func(p sudokulab.Preset) bool { return p.Name == spec.Preset })
		if i < 0 {
			return p, sudokulab.Errorf(sudokulab.EINVALID, "solver %s has no preset %q", spec.Solver, spec.Preset)
		}
		preset = info.Presets[i].Set
	}
	if p.space, err = tune.SpaceOf(info, spec.Ranges, spec.Fixed, preset); err != nil {
		return p, sudokulab.WrapError(sudokulab.EINVALID, err, "tune")
	}
	if spec.Objective, err = spec.objective(); err != nil {
		return p, err
	}
	if spec.Budget < 1 {
		return p, sudokulab.Errorf(sudokulab.EINVALID, "--budget %d: want a number of runs above 0", spec.Budget)
	}
	b, err := json.Marshal(map[string]any{"param": spec.Ranges, "set": spec.Fixed, "preset": spec.Preset})
	if err != nil {
		return p, err
	}
	p.spec, p.spaceJSON, p.name = spec, string(b), spec.name(string(b))
	if p.train, err = db.SelectedPuzzles(ctx, d, spec.Train, 0); err != nil {
		return p, fmt.Errorf("training set: %w", err)
	}
	if len(p.train) == 0 {
		return p, sudokulab.Errorf(sudokulab.EINVALID, "--train %q selects no puzzle", spec.Train)
	}
	return p, nil
}

// Options say how a tuning does its runs and what it tells.
type Options struct {
	// Runner is how this process does runs.
	Runner runner.Options
	// ByWorkers leaves every run to sudokulab worker processes on the
	// tuning's experiment: the racer only queues each step and waits.
	ByWorkers bool
	// Step, if not nil, hears of every race step once it is recorded.
	Step func(tune.Step)
}

// Run tunes as spec says, or resumes the tuning of the same name, and
// compares the best elite with the first candidate on the test set. The
// runs are done by this process (opts.Runner) and any worker on the
// tuning's experiment.
func Run(ctx context.Context, d *db.DB, reg runner.Registry, spec Spec, opts Options) (Report, error) {
	p, err := prepare(ctx, d, reg, spec)
	if err != nil {
		return Report{}, err
	}
	spec, space, name, train := p.spec, p.space, p.name, p.train
	if least := tune.MinBudget(len(space.Params), tune.Options{}); spec.Budget < least {
		return Report{}, sudokulab.Errorf(sudokulab.EINVALID, "--budget %d: a race over %d parameters needs at least %d runs", spec.Budget, len(space.Params), least)
	}
	expID, err := db.EnsureExperiment(ctx, d, name, "sudokulab tune of "+spec.Solver)
	if err != nil {
		return Report{}, err
	}
	row := &db.Tuning{
		Name: name, ExperimentID: expID, Solver: spec.Solver, TrainWhere: spec.Train, TestWhere: spec.Test,
		Space: p.spaceJSON, Objective: spec.Objective, BudgetRuns: int64(spec.Budget), Seed: int64(spec.Seed),
		Budget: db.Budget{MaxEvaluations: spec.RunBudget.MaxEvaluations, MaxGenerations: spec.RunBudget.MaxGenerations, TimeoutMS: spec.Timeout.Milliseconds()},
	}
	rep := Report{Name: name, Training: len(train)}
	if rep.Resumed, err = db.EnsureTuning(ctx, d, row); err != nil {
		return rep, err
	}
	l := &lab{d: d, reg: reg, spec: spec, space: space, row: row, train: train, opts: opts, configs: map[int]runner.Config{}}
	// The race is replayed from its start: the same seed samples the same
	// candidates and instances, whose runs are found recorded.
	rep.Result, err = tune.Tune(ctx, space, len(train), l, tune.Options{
		Budget: spec.Budget, Rand: rand.New(rand.NewPCG(spec.Seed, 0x7475e)), Recorder: l,
	})
	if err != nil {
		return rep, err
	}
	if err := l.finish(ctx, &rep); err != nil {
		return rep, err
	}
	return rep, l.test(ctx, &rep)
}

// lab is the tune.Evaluator and tune.Recorder of a tuning on the lab.
type lab struct {
	d     *db.DB
	reg   runner.Registry
	spec  Spec
	space tune.Space
	row   *db.Tuning
	train []int64
	opts  Options
	// configs holds each candidate's configuration, by candidate ID.
	configs map[int]runner.Config
}

// config stores a candidate as a configuration, or finds the stored one
// with its settings, and records it as the tuning's candidate.
func (l *lab) config(ctx context.Context, c *tune.Candidate) (runner.Config, error) {
	if rc, ok := l.configs[c.ID]; ok {
		return rc, nil
	}
	name := fmt.Sprintf("%s-c%d", l.row.Name, c.ID)
	desc := fmt.Sprintf("candidate %d of tuning %s (iteration %d)", c.ID, l.row.Name, c.Iteration)
	rc, _, err := runner.EnsureConfig(ctx, l.d, l.reg, name, l.spec.Solver, c.Set(l.space), desc, false)
	if err != nil && ctx.Err() == nil {
		// Another racer on the same tuning stored it meanwhile: find it.
		rc, _, err = runner.EnsureConfig(ctx, l.d, l.reg, name, l.spec.Solver, c.Set(l.space), desc, false)
	}
	if err != nil {
		return rc, fmt.Errorf("candidate %d: %w", c.ID, err)
	}
	err = db.AddTuningCandidate(ctx, l.d, db.TuningCandidate{
		TuningID: l.row.ID, Candidate: c.ID, Iteration: c.Iteration, Parent: c.Parent, ConfigID: rc.ID,
	})
	if err != nil {
		return rc, err
	}
	l.configs[c.ID] = rc
	return rc, nil
}

// names returns the configurations of cands, stored if new: their names
// (each once) and their ids (one per candidate).
func (l *lab) names(ctx context.Context, cands []*tune.Candidate) (names []string, ids []int64, err error) {
	ids = make([]int64, len(cands))
	for i, c := range cands {
		rc, err := l.config(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		ids[i] = rc.ID
		// By its current name: another racer on the same tuning that
		// finished first has renamed the elites.
		c, err := db.GetConfigByID(ctx, l.d, rc.ID)
		if err != nil {
			return nil, nil, err
		}
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names, ids, nil
}

// Evaluate runs the candidates on the instance through the work queue of
// the tuning's experiment, and reads their costs from the stored runs.
func (l *lab) Evaluate(ctx context.Context, inst tune.Instance, cands []*tune.Candidate) ([]float64, error) {
	puzzle := l.train[inst.Item]
	names, ids, err := l.names(ctx, cands)
	if err != nil {
		return nil, err
	}
	_, runErr := runner.Run(ctx, l.d, l.reg, runner.Spec{
		Experiment: l.row.Name, PuzzleIDs: []int64{puzzle}, Configs: names,
		FirstSeed: inst.Seed, Seeds: 1, Budget: l.spec.RunBudget, Timeout: l.spec.Timeout, Lease: l.spec.Lease,
		ByWorkers: l.opts.ByWorkers,
	}, l.opts.Runner)
	if runErr != nil && ctx.Err() != nil {
		return nil, runErr
	}
	outcomes, err := db.RunOutcomes(ctx, l.d, puzzle, inst.Seed, l.row.Budget, ids)
	if err != nil {
		return nil, err
	}
	// Run refuses to call the experiment's work done while another
	// racer's step waits in its queue; this step needs only its own runs.
	if runErr != nil && len(outcomes) < len(names) {
		return nil, runErr
	}
	return l.costs(outcomes, ids)
}

// Prefetch puts the runs of a race's steps up to its first test into the
// work queue of the tuning's experiment at once: the workers share them
// all, instead of the few runs of one step at a time, while Evaluate
// waits for the first step. Each step's runs are found recorded, or
// queued, when Evaluate asks for them.
func (l *lab) Prefetch(ctx context.Context, ahead []tune.Ahead) error {
	for _, a := range ahead {
		names, _, err := l.names(ctx, a.Candidates)
		if err != nil {
			return err
		}
		_, err = runner.Run(ctx, l.d, l.reg, runner.Spec{
			Experiment: l.row.Name, PuzzleIDs: []int64{l.train[a.Instance.Item]}, Configs: names,
			FirstSeed: a.Instance.Seed, Seeds: 1, Budget: l.spec.RunBudget, Timeout: l.spec.Timeout, Lease: l.spec.Lease,
			EnqueueOnly: true,
		}, runner.Options{})
		if err != nil {
			return fmt.Errorf("queue the runs up to the first test: %w", err)
		}
	}
	return nil
}

// cpuTicks is the resolution, per second, at which par10 compares the
// CPU time of solved runs: CPU time is counted in whole milliseconds, the
// rest dropped. Below it the thread CPU clock measures the machine,
// not the configuration: runs that solve at once (16x16 grids that
// propagation settles, 11 evaluations) took from 0.04 to 0.9 ms with no
// relation to the parameters, which made every such instance a coin toss
// in the Friedman ranks; counted in milliseconds they tie, and the test
// hears only the instances where the configurations differ.
const cpuTicks = 1000

// cpuCost is the par10 cost of a solved run of cpu CPU seconds.
func cpuCost(cpu float64) float64 {
	return math.Floor(cpu*cpuTicks) / cpuTicks
}

// costs turns the runs of the configurations ids into costs by the
// objective. Efforts in different units do not compare: the effort
// objective refuses them, and par10 compares on CPU seconds.
func (l *lab) costs(outcomes []db.RunOutcome, ids []int64) ([]float64, error) {
	byConfig := map[int64]db.RunOutcome{}
	var units []compare.ConfigUnit
	for _, o := range outcomes {
		byConfig[o.ConfigID] = o
		units = append(units, compare.ConfigUnit{Config: strconv.FormatInt(o.ConfigID, 10), Unit: o.EffortUnit})
	}
	if l.row.Objective == Effort {
		if _, mixed := compare.EffortUnit(units); mixed != nil {
			return nil, mixed.Err("--objective par10")
		}
	}
	out := make([]float64, len(ids))
	for i, id := range ids {
		o, ok := byConfig[id]
		if !ok {
			return nil, fmt.Errorf("tuning %s: the run of configuration %d is not recorded", l.row.Name, id)
		}
		solved := o.Status == string(sudokulab.StatusSolved)
		switch l.row.Objective {
		case Success:
			out[i] = 1
			if solved {
				out[i] = 0
			}
		case Effort:
			out[i] = 10 * float64(l.row.Budget.MaxEvaluations)
			if solved {
				out[i] = float64(o.Effort)
			}
		case PAR10:
			out[i] = 10 * float64(l.row.Budget.TimeoutMS) / 1000
			if solved {
				if o.CPUSeconds == nil {
					return nil, fmt.Errorf("tuning %s: a run of configuration %d has no CPU time, which par10 compares", l.row.Name, id)
				}
				out[i] = cpuCost(*o.CPUSeconds)
			}
		}
	}
	return out, nil
}

// Step stores a race step's rows.
func (l *lab) Step(ctx context.Context, s tune.Step) error {
	rows := make([]db.TuningStep, len(s.Entries))
	for i, e := range s.Entries {
		rows[i] = db.TuningStep{
			Iteration: s.Iteration, Step: s.Number, Candidate: e.Candidate.ID,
			PuzzleID: l.train[s.Instance.Item], Seed: s.Instance.Seed,
			Cost: e.Cost, MeanRank: e.MeanRank, Test: s.Test, P: s.P, Alive: e.Alive,
		}
	}
	if err := db.AddTuningSteps(ctx, l.d, l.row.ID, rows); err != nil {
		return err
	}
	if l.opts.Step != nil {
		l.opts.Step(s)
	}
	return nil
}

// finish names the final elites NAME-elite-K (a candidate that is a
// configuration stored before the tuning keeps its name) and marks the
// tuning done.
func (l *lab) finish(ctx context.Context, rep *Report) error {
	res := rep.Result
	var elites []int
	for k, e := range res.Elites {
		rc, err := l.config(ctx, e)
		if err != nil {
			return err
		}
		elite := fmt.Sprintf("%s-elite-%d", l.row.Name, k+1)
		if rc.Name == fmt.Sprintf("%s-c%d", l.row.Name, e.ID) {
			if err := db.RenameConfig(ctx, l.d, rc.ID, elite); err != nil {
				return err
			}
			rc.Name = elite
			l.configs[e.ID] = rc
		}
		elites = append(elites, e.ID)
		rep.Elites = append(rep.Elites, rc.Name)
		set := map[string]string{}
		for _, p := range l.space.Params {
			set[p.Name] = e.Set(l.space)[p.Name]
		}
		rep.Settings = append(rep.Settings, set)
	}
	l.row.RunsUsed, l.row.Iterations, l.row.StopReason = int64(res.Runs), int64(res.Iterations), res.Stop
	if len(res.Elites) > 0 {
		l.row.BestConfigID = l.configs[res.Elites[0].ID].ID
	}
	if len(res.Candidates) > 0 {
		rc, err := l.config(ctx, res.Candidates[0])
		if err != nil {
			return err
		}
		rep.Default = rc.Name
	}
	return db.FinishTuning(ctx, l.d, l.row, elites)
}

// test runs the first candidate and the best elite on the test set, in
// the experiment NAME-test, and compares them on CPU seconds.
func (l *lab) test(ctx context.Context, rep *Report) error {
	if strings.TrimSpace(l.spec.Test) == "" || len(rep.Elites) == 0 || rep.Elites[0] == rep.Default {
		return nil
	}
	seeds := max(l.spec.TestSeeds, 1)
	exp := l.row.Name + "-test"
	_, err := runner.Run(ctx, l.d, l.reg, runner.Spec{
		Experiment: exp, Where: l.spec.Test, Configs: []string{rep.Default, rep.Elites[0]},
		FirstSeed: 1, Seeds: seeds, Budget: l.spec.RunBudget, Timeout: l.spec.Timeout, Lease: l.spec.Lease,
		ByWorkers: l.opts.ByWorkers,
	}, l.opts.Runner)
	if err != nil {
		return fmt.Errorf("test set: %w", err)
	}
	rep.Test, err = compare.Compute(ctx, l.d, compare.Options{
		A: rep.Default, B: rep.Elites[0], Experiment: exp, Where: l.spec.Test, Time: compare.CPU, Seed: l.spec.Seed,
	})
	if err != nil {
		return fmt.Errorf("test set: %w", err)
	}
	return nil
}
