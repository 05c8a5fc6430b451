// Package compare compares two solver configurations on the runs a lab
// holds: per puzzle and over all puzzles both ran on, their success
// counts with Fisher's exact test, their times to solve with the log-rank
// test (runs that did not solve censored at the time or effort they spent)
// and the Mann-Whitney U test on the solved runs, and their expected
// running times (ERT) with bootstrap confidence intervals; the per-puzzle
// p-values of each test are adjusted for multiple comparisons with Holm's
// method. The statistics are in package stats; this package reads the
// runs (Load) and tabulates the comparison (Analyze, Result.Table).
//
// `sudokulab compare` prints Result.Table; the report command shows the
// same table. Compute does both steps on an open database.
package compare

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/stats"
)

// Measure names what time to solve is measured in.
type Measure string

// The measures of time to solve.
const (
	// Seconds is wall-clock time: runs.wall_seconds.
	Seconds Measure = "seconds"
	// CPU is the CPU time of the search: runs.cpu_seconds (NULL for runs
	// recorded before migration 5, which are then left out of the time
	// statistics).
	CPU Measure = "cpu"
	// Evaluations is the solver's own effort: run_results.effort,
	// evaluations for the stochastic solvers and search nodes for the
	// exact solver (run_results.effort_unit says which).
	Evaluations Measure = "evaluations"
)

// ParseMeasure returns the Measure named s (seconds, cpu or evaluations),
// or an EINVALID error.
func ParseMeasure(s string) (Measure, error) {
	switch m := Measure(s); m {
	case Seconds, CPU, Evaluations:
		return m, nil
	}
	return "", sudokulab.Errorf(sudokulab.EINVALID, "--time %q: want seconds, cpu or evaluations", s)
}

// Defaults of Options.
const (
	DefaultResamples = 1000
	DefaultLevel     = 0.95
)

// Options choose the runs to compare and how.
type Options struct {
	// A and B name the two configurations; A's columns end in _a.
	A, B string
	// Experiment, when set, keeps only the runs that belong to the named
	// experiment (experiment_runs), else every run of A and B counts.
	Experiment string
	// Where, when set, is a SQL predicate over the puzzle_catalog view
	// choosing the puzzles (the --where of every command).
	Where string
	// Time is the measure of time to solve; "" means Evaluations.
	Time Measure
	// Resamples is the number of bootstrap resamples of each ERT
	// interval; 0 means DefaultResamples.
	Resamples int
	// Level is the confidence level of the ERT intervals; 0 means
	// DefaultLevel.
	Level float64
	// Seed seeds the bootstrap: the same seed gives the same intervals.
	Seed uint64
}

// withDefaults fills in the zero fields.
func (o Options) withDefaults() Options {
	if o.Time == "" {
		o.Time = Evaluations
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	return o
}

// Run is one run as the comparison sees it.
type Run struct {
	// B is true for a run of configuration B, false for A.
	B      bool
	Puzzle int64
	Solved bool
	// Time is the run's time to solve, or for a run that did not solve
	// the time it spent (where it is censored); NaN when not recorded.
	Time float64
}

// Side is what one configuration did on a puzzle (or overall).
type Side struct {
	// Runs counts the runs that ended solved, unsolved or timeout;
	// canceled runs and errors are left out.
	Runs, Solved int
	// MedianSolved is the median time of the solved runs (NaN if none).
	MedianSolved float64
	// ERT is the expected running time with its bootstrap interval, in
	// the unit of Result.Unit (NaN if no run has its time recorded).
	ERT stats.Interval
}

// Row is the comparison on one puzzle, or over all (Puzzle 0).
type Row struct {
	Puzzle int64
	A, B   Side
	// Fisher is Fisher's exact test of solved/unsolved by configuration.
	Fisher stats.FisherResult
	// LogRank compares the times to solve, unsolved runs censored.
	LogRank stats.LogRankResult
	// MannWhitney compares the times of the solved runs; U is A's.
	MannWhitney stats.MannWhitneyResult
	// FisherHolm, LogRankHolm and MannWhitneyHolm are the two-sided
	// p-values adjusted by Holm's method across the puzzles (NaN in the
	// overall row, which is not one of the family).
	FisherHolm, LogRankHolm, MannWhitneyHolm float64
}

// Result is a comparison of two configurations.
type Result struct {
	Options Options
	// Unit is the unit of the times, medians and ERTs: "seconds", "cpu
	// seconds", or the effort unit ("evaluations" or "nodes").
	Unit string
	// Puzzles has one row per puzzle either configuration ran on, by
	// puzzle id.
	Puzzles []Row
	// Overall compares the configurations on the puzzles both ran on:
	// counts pooled, the log-rank test stratified by puzzle, Mann-Whitney
	// on the pooled solved runs, ERT pooled with the bootstrap resampling
	// within each puzzle.
	Overall Row
	// SharedPuzzles is the number of puzzles in Overall.
	SharedPuzzles int
	// Untimed counts the runs without a recorded time in the measure
	// chosen (such as CPU time of runs older than migration 5): they count
	// in the success counts and Fisher's test, not in the time statistics.
	Untimed int
}

// Compute reads the runs o chooses from d (on a read-only connection) and
// compares them.
func Compute(ctx context.Context, d *db.DB, o Options) (*Result, error) {
	o = o.withDefaults()
	runs, unit, err := Load(ctx, d, o)
	if err != nil {
		return nil, err
	}
	return Analyze(runs, unit, o), nil
}

// Load reads the runs of configurations o.A and o.B that ended solved,
// unsolved or timeout, on the puzzles o.Where chooses, in experiment
// o.Experiment if set, with their time in measure o.Time, and returns them
// with the unit of that time. An unknown configuration or experiment is an
// ENOTFOUND error; comparing efforts in different units (nodes and
// evaluations) is an EINVALID one.
func Load(ctx context.Context, d *db.DB, o Options) ([]Run, string, error) {
	o = o.withDefaults()
	if o.A == "" || o.B == "" {
		return nil, "", sudokulab.Errorf(sudokulab.EINVALID, "compare: two configurations needed")
	}
	if o.A == o.B {
		return nil, "", sudokulab.Errorf(sudokulab.EINVALID, "compare: --config %s twice: name two different configurations", o.A)
	}
	sel := db.RunSelection{Experiment: o.Experiment, Configs: []string{o.A, o.B}, Where: o.Where}
	if err := sel.Check(); err != nil {
		return nil, "", err
	}
	if err := db.RequireSelected(ctx, d, sel); err != nil {
		return nil, "", fmt.Errorf("compare: %w", err)
	}
	unit := UnitOf(o.Time)
	timeOf, ok := map[Measure]func(db.RankedRun) *float64{
		Seconds:     func(r db.RankedRun) *float64 { return r.Wall },
		CPU:         func(r db.RankedRun) *float64 { return r.CPU },
		Evaluations: func(r db.RankedRun) *float64 { return r.Effort },
	}[o.Time]
	if !ok {
		return nil, "", sudokulab.Errorf(sudokulab.EINVALID, "compare: unknown time measure %q", o.Time)
	}
	read, err := d.FinishedRuns(ctx, sel)
	if err != nil {
		return nil, "", fmt.Errorf("compare: %w", err)
	}
	// Read by configuration; Analyze takes each side's runs of a puzzle
	// in run order, which this keeps.
	slices.SortStableFunc(read, func(x, y db.RankedRun) int { return cmp.Compare(x.Puzzle, y.Puzzle) })
	units := map[string]string{}
	runs := make([]Run, 0, len(read))
	for _, r := range read {
		t := math.NaN()
		if p := timeOf(r); p != nil {
			t = *p
		}
		runs = append(runs, Run{B: r.Config == o.B, Puzzle: r.Puzzle, Solved: r.Solved, Time: t})
		if r.EffortUnit != "" {
			units[r.Config] = r.EffortUnit
		}
	}
	if o.Time == Evaluations {
		var mixed *Mixed
		unit, mixed = EffortUnit([]ConfigUnit{{Config: o.A, Unit: units[o.A]}, {Config: o.B, Unit: units[o.B]}})
		if mixed != nil {
			return nil, "", fmt.Errorf("compare: %w", mixed.Err("--time cpu", "--time seconds"))
		}
	}
	return runs, unit, nil
}

// Analyze compares the runs (as Load returns them, measured in unit).
// It is deterministic: the bootstrap draws from one generator seeded with
// o.Seed, puzzle by puzzle in id order, A before B, then overall.
func Analyze(runs []Run, unit string, o Options) *Result {
	o = o.withDefaults()
	res := &Result{Options: o, Unit: unit}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5ad0c0))
	byPuzzle := map[int64][2][]Run{}
	var ids []int64
	for _, r := range runs {
		if math.IsNaN(r.Time) {
			res.Untimed++
		}
		g, ok := byPuzzle[r.Puzzle]
		if !ok {
			ids = append(ids, r.Puzzle)
		}
		if r.B {
			g[1] = append(g[1], r)
		} else {
			g[0] = append(g[0], r)
		}
		byPuzzle[r.Puzzle] = g
	}
	slices.Sort(ids)
	var shared [][2][]Run
	for _, id := range ids {
		g := byPuzzle[id]
		res.Puzzles = append(res.Puzzles, compareRow(id, [][2][]Run{g}, o, rng))
		if len(g[0]) > 0 && len(g[1]) > 0 {
			shared = append(shared, g)
		}
	}
	res.SharedPuzzles = len(shared)
	res.Overall = compareRow(0, shared, o, rng)
	res.Overall.FisherHolm, res.Overall.LogRankHolm, res.Overall.MannWhitneyHolm = math.NaN(), math.NaN(), math.NaN()
	holm := func(p func(Row) float64, set func(*Row, float64)) {
		ps := make([]float64, len(res.Puzzles))
		for i, r := range res.Puzzles {
			ps[i] = p(r)
		}
		for i, v := range stats.Holm(ps) {
			set(&res.Puzzles[i], v)
		}
	}
	holm(func(r Row) float64 { return r.Fisher.TwoSided }, func(r *Row, v float64) { r.FisherHolm = v })
	holm(func(r Row) float64 { return r.LogRank.P }, func(r *Row, v float64) { r.LogRankHolm = v })
	holm(func(r Row) float64 { return r.MannWhitney.P }, func(r *Row, v float64) { r.MannWhitneyHolm = v })
	return res
}

// compareRow compares A's and B's runs of the given puzzles (strata).
func compareRow(puzzle int64, strata [][2][]Run, o Options, rng *rand.Rand) Row {
	row := Row{Puzzle: puzzle}
	var lr []stats.Stratum
	var solvedTimes [2][]float64
	var ert [2][][]stats.Run
	sides := [2]*Side{&row.A, &row.B}
	for _, g := range strata {
		var st stats.Stratum
		for side, rs := range g {
			var timed []stats.Run
			for _, r := range rs {
				sides[side].Runs++
				if r.Solved {
					sides[side].Solved++
				}
				if math.IsNaN(r.Time) {
					continue
				}
				timed = append(timed, stats.Run{Effort: r.Time, Solved: r.Solved})
				ob := stats.Observation{Time: r.Time, Event: r.Solved}
				if side == 0 {
					st.A = append(st.A, ob)
				} else {
					st.B = append(st.B, ob)
				}
				if r.Solved {
					solvedTimes[side] = append(solvedTimes[side], r.Time)
				}
			}
			if len(timed) > 0 {
				ert[side] = append(ert[side], timed)
			}
		}
		lr = append(lr, st)
	}
	row.Fisher = stats.FisherExact(row.A.Solved, row.A.Runs-row.A.Solved, row.B.Solved, row.B.Runs-row.B.Solved)
	if row.A.Runs == 0 || row.B.Runs == 0 {
		row.Fisher = stats.FisherResult{Less: math.NaN(), Greater: math.NaN(), TwoSided: math.NaN()}
	}
	row.LogRank = stats.StratifiedLogRank(lr)
	row.MannWhitney = stats.MannWhitney(solvedTimes[0], solvedTimes[1], stats.TwoSided)
	for side := range 2 {
		sides[side].MedianSolved = stats.Median(solvedTimes[side])
		sides[side].ERT = stats.BootstrapERT(ert[side], o.Resamples, o.Level, rng)
	}
	return row
}

// Columns are the columns of Table, in order.
var Columns = []string{
	"puzzle", "runs_a", "solved_a", "runs_b", "solved_b", "fisher_p", "fisher_p_holm",
	"median_a", "median_b", "logrank_p", "logrank_p_holm", "mw_u", "mw_p", "mw_p_holm",
	"ert_a", "ert_a_low", "ert_a_high", "ert_b", "ert_b_low", "ert_b_high",
}

// Table returns the comparison as a table of Columns: one row per puzzle
// (puzzle is its id), then the overall row (puzzle "all"). P-values are
// rounded to 4 significant digits, times and ERTs to 6; a value that could
// not be computed is nil (NULL), an infinite ERT or bound the string "inf".
func (r *Result) Table() db.Table {
	t := db.Table{Columns: slices.Clone(Columns)}
	for _, row := range r.Puzzles {
		t.Rows = append(t.Rows, row.cells(row.Puzzle))
	}
	t.Rows = append(t.Rows, r.Overall.cells("all"))
	return t
}

func (row Row) cells(puzzle any) []any {
	return []any{
		puzzle, int64(row.A.Runs), int64(row.A.Solved), int64(row.B.Runs), int64(row.B.Solved),
		sig(row.Fisher.TwoSided, 4), sig(row.FisherHolm, 4),
		sig(row.A.MedianSolved, 6), sig(row.B.MedianSolved, 6),
		sig(row.LogRank.P, 4), sig(row.LogRankHolm, 4),
		sig(row.MannWhitney.U, 6), sig(row.MannWhitney.P, 4), sig(row.MannWhitneyHolm, 4),
		sig(row.A.ERT.Estimate, 6), sig(row.A.ERT.Low, 6), sig(row.A.ERT.High, 6),
		sig(row.B.ERT.Estimate, 6), sig(row.B.ERT.Low, 6), sig(row.B.ERT.High, 6),
	}
}
