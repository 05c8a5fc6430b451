package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/tune"
)

// Tuning is a tuning whose race ran in the experiment (sudokulab tune
// --experiment NAME): what it tuned and how, its race iteration by
// iteration and as a picture, the parameter values of its final elites
// beside the first candidate's, and the comparison of the best elite with
// the first candidate on the test set.
type Tuning struct {
	Name, Solver string
	// Train and TestSet are the puzzle_catalog predicates of the
	// training and test puzzles (TestSet "" for none).
	Train, TestSet string
	// Objective is par10, effort or success; RunBudget says how each run
	// was bounded ("at most 10 000 000 evaluations").
	Objective, RunBudget string
	// Budget is the runs the race could do, Seed its seed.
	Budget, Seed int64
	// State is "racing" or "done"; Stop says why a finished tuning
	// stopped. Started and Finished are as stored.
	State, Stop       string
	Started, Finished string
	// Runs counts the race's runs: those of its steps' candidates that
	// had no cost yet (the elites reuse theirs).
	Runs int
	// Candidates counts the candidates raced; Eliminated those a test
	// dropped.
	Candidates, Eliminated int
	// Iterations has a row per race.
	Iterations []TuningIteration
	// Params are the tuned parameters with their ranges: the columns of
	// Elites.
	Params []TunedParam
	// First is the first candidate (the solver's defaults or the
	// preset's settings); Elites the final elites, best first.
	First  TunedConfig
	Elites []TunedConfig
	// Race is the race as drawn (DrawFigures draws it into Figure).
	Race   plots.RaceData
	Figure *Figure
	// TestExperiment names the experiment of the test runs (NAME-test);
	// Test compares the first candidate (A) with the best elite (B) there,
	// as tune does, on CPU seconds; nil with TestNote saying why not.
	TestExperiment string
	Test           *compare.Result
	TestNote       string
}

// TuningIteration is one race of a tuning.
type TuningIteration struct {
	Iteration int
	// Candidates raced, New of them sampled in this iteration (the rest
	// are the elites carried over), over Steps instances; Runs done;
	// Tests done and Eliminated candidates; Survivors alive at its end.
	Candidates, New, Steps, Runs, Tests, Eliminated, Survivors int
}

// TunedParam is a tuned parameter and the range it was tuned over.
type TunedParam struct {
	Name, Range string
}

// TunedConfig is a candidate as the elites table shows it.
type TunedConfig struct {
	// Rank among the final elites (0 for the first candidate when it is
	// not one).
	Rank              int
	Candidate, Parent int
	Iteration         int
	Config            string
	Values            []string
	// Changed marks the values that differ from the first candidate's.
	Changed []bool
	// Steps counts the race steps it ran in, MeanRank its mean rank at
	// its last one.
	Steps    int
	MeanRank float64
}

//go:embed tuning.html.tmpl
var tuningTemplate string

func init() {
	template.Must(page.New("tuning.html.tmpl").Parse(tuningTemplate))
}

// tunings reads the tunings raced in the experiment and compares each
// one's best elite with its first candidate on the test set.
func (b *builder) tunings() error {
	views, err := b.d.ExperimentTunings(b.ctx, b.o.Experiment)
	if err != nil {
		return readErr("tunings", err)
	}
	for _, v := range views {
		t, err := b.tuning(v)
		if err != nil {
			return fmt.Errorf("report: tuning %s: %w", v.Name, err)
		}
		b.rep.Tunings = append(b.rep.Tunings, t)
	}
	return nil
}

func (b *builder) tuning(v db.TuningView) (Tuning, error) {
	t := Tuning{
		Name: v.Name, Solver: v.Solver, Train: v.TrainWhere, TestSet: v.TestWhere, Objective: v.Objective,
		RunBudget: runBudget(v.Budget), Budget: v.BudgetRuns, Seed: v.Seed, State: v.State, Stop: v.StopReason,
		Started: v.StartedAt, Finished: v.FinishedAt, Candidates: len(v.Candidates),
	}
	var info *sudokulab.SolverInfo
	if i := slices.IndexFunc(b.o.Solvers, func(s sudokulab.SolverInfo) bool { return s.Name == v.Solver }); i >= 0 {
		info = &b.o.Solvers[i]
	}
	params, err := tunedParams(v.Space, info)
	if err != nil {
		return t, err
	}
	t.Params = params
	t.Iterations, t.Runs, t.Eliminated = raceIterations(v)
	for _, s := range v.Steps {
		t.Race.Entries = append(t.Race.Entries, plots.RaceEntry{Iteration: s.Iteration, Step: s.Step, Candidate: s.Candidate, Alive: s.Alive})
	}
	byRank := slices.Clone(v.Candidates)
	slices.SortFunc(byRank, func(x, y db.TuningCandidateView) int { return x.EliteRank - y.EliteRank })
	for _, c := range byRank {
		if c.EliteRank > 0 {
			t.Race.Elites = append(t.Race.Elites, c.Candidate)
		}
	}
	if len(v.Candidates) == 0 {
		b.tuningTest(&t)
		return t, nil
	}
	first, err := tunedConfig(v.Candidates[0], v.Steps, t.Params, nil)
	if err != nil {
		return t, err
	}
	t.First = first
	for _, c := range byRank {
		if c.EliteRank == 0 {
			continue
		}
		e, err := tunedConfig(c, v.Steps, t.Params, first.Values)
		if err != nil {
			return t, err
		}
		t.Elites = append(t.Elites, e)
	}
	b.tuningTest(&t)
	return t, nil
}

// tuningTest compares the first candidate with the best elite on the
// test set, as tune does at its end.
func (b *builder) tuningTest(t *Tuning) {
	t.TestExperiment = t.Name + "-test"
	switch {
	case strings.TrimSpace(t.TestSet) == "":
		t.TestNote = "No test set: the tuning was given no --test."
		return
	case len(t.Elites) == 0:
		t.TestNote = "No elites yet: the tuning is still racing."
		return
	case t.Elites[0].Config == t.First.Config:
		t.TestNote = "The best elite is the first candidate: nothing to compare on the test set."
		return
	}
	res, err := compare.Compute(b.ctx, b.d, compare.Options{
		A: t.First.Config, B: t.Elites[0].Config, Experiment: t.TestExperiment, Where: t.TestSet, Time: compare.CPU,
		Resamples: b.o.Resamples, Level: b.o.Level, Seed: b.o.Seed,
	})
	if err != nil {
		if sudokulab.ErrorCode(err) == sudokulab.ENOTFOUND {
			t.TestNote = fmt.Sprintf("The test runs are not recorded (experiment %s): run the same tune command again to do them.", t.TestExperiment)
			return
		}
		t.TestNote = "The test set could not be compared: " + err.Error()
		return
	}
	t.Test = res
}

// runBudget says how each run of a tuning was bounded.
func runBudget(b db.Budget) string {
	var parts []string
	if b.MaxEvaluations > 0 {
		parts = append(parts, Num(float64(b.MaxEvaluations))+" evaluations")
	}
	if b.MaxGenerations > 0 {
		parts = append(parts, Num(float64(b.MaxGenerations))+" generations")
	}
	if b.TimeoutMS > 0 {
		parts = append(parts, Duration(float64(b.TimeoutMS)/1000)+" of wall-clock time")
	}
	if len(parts) == 0 {
		return "no limit"
	}
	return "at most " + strings.Join(parts, " and ")
}

// tuningSpace is tunings.space: the command's --param, --set and
// --preset.
type tuningSpace struct {
	Param  map[string]string `json:"param"`
	Set    map[string]string `json:"set"`
	Preset string            `json:"preset"`
}

// tunedParams returns the parameters a tuning tuned with their ranges,
// as tune resolved them (package tune), in the solver's order; for a
// solver this sudokulab does not know, the --param names and ranges as
// given.
func tunedParams(space string, info *sudokulab.SolverInfo) ([]TunedParam, error) {
	var s tuningSpace
	if err := json.Unmarshal([]byte(space), &s); err != nil {
		return nil, fmt.Errorf("space %q: %w", space, err)
	}
	var out []TunedParam
	if info == nil {
		for name, r := range s.Param {
			out = append(out, TunedParam{Name: name, Range: r})
		}
		slices.SortFunc(out, func(x, y TunedParam) int { return strings.Compare(x.Name, y.Name) })
		return out, nil
	}
	var preset map[string]string
	if i := slices.IndexFunc(info.Presets, func(p sudokulab.Preset) bool { return p.Name == s.Preset }); i >= 0 {
		preset = info.Presets[i].Set
	}
	sp, err := tune.SpaceOf(*info, s.Param, s.Set, preset)
	if err != nil {
		return nil, fmt.Errorf("space %q: %w", space, err)
	}
	for _, p := range sp.Params {
		out = append(out, TunedParam{Name: p.Name, Range: paramRange(p)})
	}
	return out, nil
}

// paramRange writes a tuned parameter's range as --param takes it.
func paramRange(p tune.Param) string {
	if p.Kind == tune.Categorical {
		return strings.Join(p.Choices, "|")
	}
	r := value(p.Min) + ".." + value(p.Max)
	if p.Log {
		r = "log:" + r
	}
	return r
}

// tunedConfig is candidate c's row of the elites table: its values of
// params, marked where they differ from first's (nil: none marked).
func tunedConfig(c db.TuningCandidateView, steps []db.TuningStep, params []TunedParam, first []string) (TunedConfig, error) {
	tc := TunedConfig{Rank: c.EliteRank, Candidate: c.Candidate, Parent: c.Parent, Iteration: c.Iteration, Config: c.Config, MeanRank: math.NaN()}
	dec := json.NewDecoder(strings.NewReader(c.Params))
	dec.UseNumber()
	var set map[string]any
	if err := dec.Decode(&set); err != nil {
		return tc, fmt.Errorf("candidate %d: parameters %q: %w", c.Candidate, c.Params, err)
	}
	for i, p := range params {
		v, ok := set[p.Name]
		if !ok {
			return tc, fmt.Errorf("candidate %d has no parameter %s", c.Candidate, p.Name)
		}
		tc.Values = append(tc.Values, value(v))
		tc.Changed = append(tc.Changed, first != nil && !sameValue(tc.Values[i], first[i]))
	}
	for _, s := range steps {
		if s.Candidate == c.Candidate {
			tc.Steps++
			tc.MeanRank = s.MeanRank
		}
	}
	return tc, nil
}

// raceIterations sums a tuning's race up per iteration, and counts its
// runs and eliminations. A candidate ran on a step's instance unless it
// had a cost there from an earlier iteration: the elites reuse their runs.
func raceIterations(v db.TuningView) (its []TuningIteration, runs, eliminated int) {
	newIn := map[int]int{}
	for _, c := range v.Candidates {
		newIn[c.Iteration]++
	}
	type run struct {
		candidate    int
		puzzle, seed int64
	}
	ran := map[run]bool{}
	for i := 0; i < len(v.Steps); {
		j := i
		for j < len(v.Steps) && v.Steps[j].Iteration == v.Steps[i].Iteration {
			j++
		}
		steps := v.Steps[i:j]
		it := TuningIteration{Iteration: steps[0].Iteration, New: newIn[steps[0].Iteration]}
		cands := map[int]bool{}
		for k, s := range steps {
			cands[s.Candidate] = true
			if k == 0 || s.Step != steps[k-1].Step {
				it.Steps++
				if s.Test != "" {
					it.Tests++
				}
			}
			if r := (run{s.Candidate, s.PuzzleID, s.Seed}); !ran[r] {
				ran[r] = true
				it.Runs++
			}
			if !s.Alive {
				it.Eliminated++
			}
		}
		for _, s := range steps {
			if s.Step == steps[len(steps)-1].Step && s.Alive {
				it.Survivors++
			}
		}
		it.Candidates = len(cands)
		runs, eliminated = runs+it.Runs, eliminated+it.Eliminated
		its = append(its, it)
		i = j
	}
	return its, runs, eliminated
}

// drawRaces draws the race of each tuning of rep.
func drawRaces(rep *Report) {
	for i := range rep.Tunings {
		t := &rep.Tunings[i]
		fig := &Figure{ID: anchor("figure-race-", t.Name), Title: "The race of tuning " + t.Name}
		f, err := plots.Race(t.Race, plots.Options{})
		if err == nil {
			fig.SVG, err = svgOf(f)
		}
		if err != nil {
			fig.Err = err.Error()
		} else {
			fig.Caption = fmt.Sprintf("The race steps along x (one training instance each, iteration after iteration), the %d candidates along y: each candidate's line runs over the steps it raced and ends in a red cross where a test eliminated it; the final elites are in colour.", t.Candidates)
		}
		t.Figure = fig
	}
}
