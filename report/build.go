package report

import (
	"cmp"
	"context"
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
	"sudokulab/plots"
	"sudokulab/stats"
)

// Defaults of Options.
const (
	DefaultResamples = 1000
	DefaultLevel     = 0.95
	// DefaultMaxPuzzles is the most puzzles the per-group table shows one
	// by one; with more it groups them by collection.
	DefaultMaxPuzzles = 30
	// DefaultMaxAllPairs is the most configurations compared pair by
	// pair (10 pairs); with more each is compared with the best.
	DefaultMaxAllPairs = 5
)

// Options choose the experiment a report is about and how it computes.
type Options struct {
	// Experiment names the experiment (required).
	Experiment string
	// Solvers are the registered solvers, whose papers, counting and
	// parameter declarations describe the configurations.
	Solvers []sudokulab.SolverInfo
	// Resamples is the number of bootstrap resamples of every ERT
	// interval; 0 means DefaultResamples.
	Resamples int
	// Level is the confidence level of every interval; 0 means
	// DefaultLevel.
	Level float64
	// Seed seeds the bootstrap: the same seed gives the same page.
	Seed uint64
	// MaxPuzzles and MaxAllPairs: 0 means DefaultMaxPuzzles and
	// DefaultMaxAllPairs.
	MaxPuzzles, MaxAllPairs int
	// Now is the time the report says it was made; zero means now.
	Now time.Time
	// Generator names what made the report ("sudokulab v1.2").
	Generator string
}

func (o Options) withDefaults() Options {
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	if o.MaxPuzzles == 0 {
		o.MaxPuzzles = DefaultMaxPuzzles
	}
	if o.MaxAllPairs == 0 {
		o.MaxAllPairs = DefaultMaxAllPairs
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o
}

// run is one run of the experiment as the tables see it.
type run struct {
	config, solver string
	id, puzzle     int64
	// key is the rest of the run's identity: seed and budget.
	key    [4]int64
	status string
	solved bool
	// effort in unit (NaN when not recorded), time in seconds (CPU or
	// wall, as the report's TimeUnit; NaN when not recorded).
	effort, wall, cpu float64
	unit              string
	codeVersion       string
}

func (r run) analysed() bool {
	return r.status == "solved" || r.status == "unsolved" || r.status == "timeout"
}

// builder holds what Build reads while it computes.
type builder struct {
	ctx  context.Context
	d    *db.DB
	o    Options
	rng  *rand.Rand
	rep  *Report
	runs []run // analysed runs, by configuration (byte order), puzzle, seed and budget
	all  []run // every run, canceled and failed ones too, in the same order
	// useCPU is true when every analysed run has its CPU time.
	useCPU bool
}

// Build reads the report of experiment o.Experiment from d, on read-only
// connections: it writes nothing. An unknown experiment, or one without
// runs, is an ENOTFOUND error. The pictures are left to the caller
// (Report.Figures).
func Build(ctx context.Context, d *db.DB, o Options) (*Report, error) {
	o = o.withDefaults()
	if o.Experiment == "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "report: name the experiment (--experiment NAME; sudokulab experiments list)")
	}
	if !(o.Level > 0 && o.Level < 1) {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "report: confidence level %v: want a number between 0 and 1, such as 0.95", o.Level)
	}
	b := &builder{ctx: ctx, d: d, o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x7e9047)),
		rep: &Report{Level: o.Level, Resamples: o.Resamples}}
	steps := []func() error{b.experiment, b.loadRuns, b.summary, b.ranking, b.configTable, b.groupTable, b.comparisons, b.settings, b.provenance, b.tunings}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return b.rep, nil
}

// readErr wraps an error reading what from the database.
func readErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("report: %s: %w", what, err)
}

func (b *builder) experiment() error {
	e, ok, err := b.d.ExperimentHead(b.ctx, b.o.Experiment)
	if err != nil {
		return readErr("experiment", err)
	}
	if !ok {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "report: no experiment called %q (sudokulab experiments list)", b.o.Experiment)
	}
	b.rep.Experiment = Experiment{Name: e.Name, Description: e.Description, Created: e.Created}
	b.rep.Title = "Experiment " + b.rep.Experiment.Name
	return nil
}

func (b *builder) loadRuns() error {
	read, err := b.d.ExperimentRuns(b.ctx, b.o.Experiment)
	if err != nil {
		return readErr("runs", err)
	}
	if len(read) == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "report: experiment %q has no runs yet (sudokulab experiments show %s)", b.o.Experiment, b.o.Experiment)
	}
	s := &b.rep.Summary
	configs, puzzles := map[string]bool{}, map[int64]bool{}
	b.useCPU = true
	for _, e := range read {
		r := run{config: e.Config, solver: e.Solver, puzzle: e.Puzzle, status: e.Status, solved: e.Solved,
			effort: e.Effort, unit: e.EffortUnit, wall: e.Wall, cpu: e.CPU, id: e.ID,
			key: [4]int64{e.Seed, e.MaxEvaluations, e.MaxGenerations, e.TimeoutMS}, codeVersion: e.CodeVersion}
		s.Runs++
		b.all = append(b.all, r)
		configs[r.config], puzzles[r.puzzle] = true, true
		switch r.status {
		case "canceled":
			s.Canceled++
		case "error":
			s.Errors++
		}
		if !r.analysed() {
			continue
		}
		s.Analysed++
		if r.solved {
			s.Solved++
		}
		if math.IsNaN(r.cpu) {
			b.useCPU = false
		}
		b.runs = append(b.runs, r)
	}
	s.Configs, s.Puzzles = len(configs), len(puzzles)
	// The bootstrap draws in this order, and sums in it: sorted here by
	// the runs' identity, not in SQL by id, so that a lab merged into
	// another (other ids, another collation) gives the same report.
	byIdentity := func(x, y run) int {
		return cmp.Or(strings.Compare(x.config, y.config), cmp.Compare(x.puzzle, y.puzzle),
			slices.Compare(x.key[:], y.key[:]), cmp.Compare(x.id, y.id))
	}
	slices.SortFunc(b.runs, byIdentity)
	slices.SortFunc(b.all, byIdentity)
	if s.Analysed == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "report: experiment %q has no finished runs (%d canceled, %d errors)", b.o.Experiment, s.Canceled, s.Errors)
	}
	b.rep.TimeUnit = map[compare.Measure]string{compare.CPU: "CPU seconds", compare.Seconds: "wall-clock seconds"}[compare.TimeMeasure(b.useCPU)]
	units := map[string]bool{}
	for _, r := range b.runs {
		units[r.unit] = true
	}
	if len(units) == 1 {
		b.rep.Unit = b.runs[0].unit
	}
	if s.Canceled+s.Errors > 0 {
		b.note("%d runs that were canceled or failed with an error are left out of the tables.", s.Canceled+s.Errors)
	}
	var noEffort []string
	for _, r := range b.runs {
		if math.IsNaN(r.effort) && !slices.Contains(noEffort, r.config) {
			noEffort = append(noEffort, r.config)
		}
	}
	if len(noEffort) > 0 {
		b.note("Runs without their effort recorded (the exact solver's runs from before migration 5 count no search nodes) are left out of the ERT in effort, of: %s.", strings.Join(noEffort, ", "))
	}
	return nil
}

func (b *builder) note(format string, args ...any) {
	b.rep.Notes = append(b.rep.Notes, fmt.Sprintf(format, args...))
}

func (b *builder) summary() error {
	s := &b.rep.Summary
	var err error
	if s.Planned, s.Pending, err = b.d.ExperimentWork(b.ctx, b.o.Experiment); err != nil {
		return readErr("work", err)
	}
	if s.Pending > 0 {
		b.note("The experiment is not finished: %d of its %d planned runs are still to do; the tables count the %d recorded.", s.Pending, s.Planned, s.Runs)
	}
	s.FirstRun, s.LastRun, err = b.d.ExperimentDates(b.ctx, b.o.Experiment)
	return readErr("dates", err)
}

// seconds returns a run's time in the report's time unit.
func (b *builder) seconds(r run) float64 {
	if b.useCPU {
		return r.cpu
	}
	return r.wall
}

// successRow summarises runs of one configuration (in order of puzzle).
func (b *builder) successRow(config, group string, runs []run) SuccessRow {
	row := SuccessRow{Config: config, Group: group, Solver: runs[0].solver, Unit: runs[0].unit}
	var effort, times [][]stats.Run
	var solvedEffort, solvedTime []float64
	var lastPuzzle int64 = -1
	for _, r := range runs {
		if r.puzzle != lastPuzzle {
			row.Puzzles++
			effort, times = append(effort, nil), append(times, nil)
			lastPuzzle = r.puzzle
		}
		row.Success.Runs++
		if r.solved {
			row.Success.Solved++
		}
		if !math.IsNaN(r.effort) {
			effort[len(effort)-1] = append(effort[len(effort)-1], stats.Run{Effort: r.effort, Solved: r.solved})
			if r.solved {
				solvedEffort = append(solvedEffort, r.effort)
			}
		}
		if t := b.seconds(r); !math.IsNaN(t) {
			times[len(times)-1] = append(times[len(times)-1], stats.Run{Effort: t, Solved: r.solved})
			if r.solved {
				solvedTime = append(solvedTime, t)
			}
		}
	}
	row.Success.Low, row.Success.High = plots.Wilson(row.Success.Solved, row.Success.Runs, b.o.Level)
	row.ERT = stats.BootstrapERT(nonEmpty(effort), b.o.Resamples, b.o.Level, b.rng)
	row.Time = stats.BootstrapERT(nonEmpty(times), b.o.Resamples, b.o.Level, b.rng)
	row.MedianEffort, row.MedianTime = stats.Median(solvedEffort), stats.Median(solvedTime)
	return row
}

func nonEmpty(strata [][]stats.Run) [][]stats.Run {
	return slices.DeleteFunc(strata, func(s []stats.Run) bool { return len(s) == 0 })
}

// byConfig splits runs (sorted by configuration) into each
// configuration's, in order.
func byConfig(runs []run) (names []string, groups [][]run) {
	for i, r := range runs {
		if i == 0 || r.config != runs[i-1].config {
			names = append(names, r.config)
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], r)
	}
	return names, groups
}

// better orders rows best first: higher success rate, then lower ERT in
// time (which compares across solvers), then name.
func better(a, b SuccessRow) int {
	ra, rb := a.Success.Value(), b.Success.Value()
	if ra != rb {
		return cmp.Compare(rb, ra)
	}
	if c := cmp.Compare(nanLast(a.Time.Estimate), nanLast(b.Time.Estimate)); c != 0 {
		return c
	}
	return strings.Compare(a.Config, b.Config)
}

func nanLast(x float64) float64 {
	if math.IsNaN(x) {
		return math.Inf(1)
	}
	return x
}

func (b *builder) configTable() error {
	names, groups := byConfig(b.runs)
	for i, name := range names {
		b.rep.Configs = append(b.rep.Configs, b.successRow(name, "", groups[i]))
	}
	slices.SortStableFunc(b.rep.Configs, better)
	return nil
}

func (b *builder) groupTable() error {
	if b.rep.Summary.Puzzles < 2 {
		return nil
	}
	// Group names of the puzzles: "#12 label (24 givens)", or their
	// collections.
	var ids []int64
	for _, r := range b.runs {
		if !slices.Contains(ids, r.puzzle) {
			ids = append(ids, r.puzzle)
		}
	}
	slices.Sort(ids)
	byPuzzle := len(ids) <= b.o.MaxPuzzles
	groupsOf := map[int64][]string{}
	var order []string
	if byPuzzle {
		b.rep.GroupBy = "puzzle"
		ps, err := b.d.ExperimentPuzzles(b.ctx, b.o.Experiment)
		if err != nil {
			return readErr("puzzles", err)
		}
		for _, p := range ps {
			name := fmt.Sprintf("#%d", p.ID)
			if p.Label != "" {
				name += " " + p.Label
			}
			name += fmt.Sprintf(" (%dx%d, %d givens)", p.Size, p.Size, p.Givens)
			groupsOf[p.ID] = []string{name}
			order = append(order, name)
		}
	} else {
		b.rep.GroupBy = "collection"
		ms, err := b.d.ExperimentMemberships(b.ctx, b.o.Experiment)
		if err != nil {
			return readErr("collections", err)
		}
		shared := false
		for _, m := range ms {
			id, c := m.Puzzle, m.Collection
			if m.InNone {
				c = noCollection
			}
			groupsOf[id] = append(groupsOf[id], c)
			shared = shared || len(groupsOf[id]) > 1
			if !slices.Contains(order, c) {
				order = append(order, c)
			}
		}
		slices.SortFunc(order, func(x, y string) int {
			return cmp.Or(cmp.Compare(boolInt(x == noCollection), boolInt(y == noCollection)), strings.Compare(x, y))
		})
		b.rep.GroupNote = fmt.Sprintf("%d puzzles, more than %d: grouped by collection.", len(ids), b.o.MaxPuzzles)
		if shared {
			b.rep.GroupNote += " Some puzzles are in more than one collection: their runs count in each."
		}
	}
	names, runsOf := byConfig(b.runs)
	for _, g := range order {
		var rows []SuccessRow
		for i, name := range names {
			var in []run
			for _, r := range runsOf[i] {
				if slices.Contains(groupsOf[r.puzzle], g) {
					in = append(in, r)
				}
			}
			if len(in) > 0 {
				rows = append(rows, b.successRow(name, g, in))
			}
		}
		slices.SortStableFunc(rows, better)
		b.rep.Groups = append(b.rep.Groups, rows...)
	}
	return nil
}

// noCollection is the group of puzzles in no collection, listed last.
const noCollection = "(in no collection)"

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (b *builder) comparisons() error {
	rows := b.rep.Configs
	c := &b.rep.Comparisons
	var pairs [][2]string
	switch n := len(rows); {
	case n < 2:
		c.Why = "One configuration: nothing to compare."
		return nil
	case n <= b.o.MaxAllPairs:
		c.Mode = "every pair"
		c.Why = fmt.Sprintf("%d configurations: every pair is compared (%d pairs), the better by success rate as A.", n, n*(n-1)/2)
		for i := range rows {
			for j := i + 1; j < n; j++ {
				pairs = append(pairs, [2]string{rows[i].Config, rows[j].Config})
			}
		}
	default:
		c.Mode = "against the best"
		c.Best = rows[0].Config
		c.Why = fmt.Sprintf("%d configurations, more than %d: each is compared with the best, %s (A: the highest success rate, then the lowest ERT in %s), %d pairs.",
			n, b.o.MaxAllPairs, c.Best, b.rep.TimeUnit, n-1)
		for _, r := range rows[1:] {
			pairs = append(pairs, [2]string{c.Best, r.Config})
		}
	}
	names, runsOf := byConfig(b.runs)
	of := func(name string) []run { return runsOf[slices.Index(names, name)] }
	for _, p := range pairs {
		c.Pairs = append(c.Pairs, b.pair(p[0], p[1], of(p[0]), of(p[1])))
	}
	return nil
}

// pair compares configurations a and b on their runs: in their effort
// when both count it in one unit and have it recorded, else in the
// report's time unit.
func (b *builder) pair(a, bName string, ra, rb []run) Pair {
	p := Pair{A: a, B: bName}
	// As compare decides: efforts in one unit, else times.
	unit, mixed := compare.EffortUnit([]compare.ConfigUnit{{Config: a, Unit: ra[0].unit}, {Config: bName, Unit: rb[0].unit}})
	useEffort := mixed == nil
	for _, r := range append(slices.Clone(ra), rb...) {
		if math.IsNaN(r.effort) {
			useEffort = false
		}
	}
	measure := compare.Evaluations
	switch {
	case useEffort:
	case mixed != nil:
		p.Note = fmt.Sprintf("%s: times in %s.", mixed, b.rep.TimeUnit)
	default:
		p.Note = fmt.Sprintf("Some runs have no effort recorded: times in %s.", b.rep.TimeUnit)
	}
	if !useEffort {
		measure = compare.TimeMeasure(b.useCPU)
		unit = compare.UnitOf(measure)
	}
	var runs []compare.Run
	for side, rs := range [][]run{ra, rb} {
		for _, r := range rs {
			t := r.effort
			if !useEffort {
				t = b.seconds(r)
			}
			runs = append(runs, compare.Run{B: side == 1, Puzzle: r.puzzle, Solved: r.solved, Time: t})
		}
	}
	p.Result = compare.Analyze(runs, unit, compare.Options{
		A: a, B: bName, Experiment: b.o.Experiment, Time: measure,
		Resamples: b.o.Resamples, Level: b.o.Level, Seed: b.o.Seed,
	})
	return p
}

func (b *builder) settings() error {
	rows, err := b.d.ExperimentConfigs(b.ctx, b.o.Experiment)
	if err != nil {
		return readErr("configurations", err)
	}
	slices.SortFunc(rows, func(x, y db.ConfigRow) int { return strings.Compare(x.Name, y.Name) })
	collections, err := b.d.ExperimentCollections(b.ctx, b.o.Experiment)
	if err != nil {
		return fmt.Errorf("report: collections: %w", err)
	}
	names, runsOf := byConfig(b.all)
	for _, row := range rows {
		c := Config{Name: row.Name, Solver: row.Solver, Description: row.Description, Preset: row.Preset}
		var info *sudokulab.SolverInfo
		for i := range b.o.Solvers {
			if b.o.Solvers[i].Name == c.Solver {
				info = &b.o.Solvers[i]
			}
		}
		if info != nil {
			c.Summary, c.Paper, c.Counting = info.Summary, info.Paper, info.Counting
		}
		params, err := params(row.Params, info)
		if err != nil {
			return fmt.Errorf("report: configuration %s: %w", c.Name, err)
		}
		c.Params = params
		if i := slices.Index(names, c.Name); i >= 0 {
			c.Plan = plan(b.o.Experiment, c.Name, runsOf[i], collections)
		}
		b.rep.Settings = append(b.rep.Settings, c)
	}
	return nil
}

// params lists a configuration's stored parameters (canonical JSON) in
// the order its solver declares them, then any it does not declare.
func params(text string, info *sudokulab.SolverInfo) ([]Param, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("parameters %q: %w", text, err)
	}
	var out []Param
	seen := map[string]bool{}
	if info != nil {
		for _, spec := range info.Params {
			v, ok := m[spec.Name]
			if !ok {
				continue
			}
			seen[spec.Name] = true
			p := Param{Name: spec.Name, Value: value(v), Default: value(spec.Default), Range: spec.Range(), Section: spec.Section, Doc: spec.Doc}
			p.Changed = !sameValue(p.Value, p.Default)
			out = append(out, p)
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, Param{Name: k, Value: value(m[k])})
	}
	return out, nil
}

// value writes a parameter value.
func value(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}

// sameValue compares two written values, numbers by value (1 and 1.0).
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	return ea == nil && eb == nil && fa == fb
}

func (b *builder) provenance() error {
	p := &b.rep.Provenance
	p.Database, p.Engine = b.d.Path(), b.d.Engine()
	p.Generated, p.Generator = b.o.Now, b.o.Generator
	v, err := b.d.Version(b.ctx)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	p.SchemaVersion = v
	p.Runs = b.rep.Summary.Runs
	p.FirstRun, p.LastRun = b.rep.Summary.FirstRun, b.rep.Summary.LastRun
	for _, c := range []struct {
		by string
		to *[]Count
	}{{db.ByCodeVersion, &p.CodeVersions}, {db.ByHost, &p.Hosts}} {
		origins, err := b.d.ExperimentOrigins(b.ctx, b.o.Experiment, c.by)
		if err != nil {
			return readErr(c.by, err)
		}
		for _, o := range origins {
			v := o.Value
			if v == "" {
				v = "(not recorded)"
			}
			*c.to = append(*c.to, Count{Value: v, Runs: o.Runs, FirstRun: o.FirstRun, LastRun: o.LastRun})
		}
	}
	return nil
}
