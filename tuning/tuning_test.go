package tuning_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/runner"
	"sudokulab/solvers"
	"sudokulab/solvers/exact"
	"sudokulab/tuning"
)

// synthetic solves with the exact solver and reports an effort known in
// advance: lowest at x = 0.7 in mode fast, plus noise from the run's
// seed. A run over the evaluation budget ends unsolved.
type synthetic struct {
	x    float64
	fast bool
	// solves counts the runs; after stopAt of them it calls stop.
	solves *atomic.Int64
	stopAt int64
	stop   func()
}

func (s *synthetic) Solve(ctx context.Context, puzzle sudokulab.Grid, b sudokulab.Budget, rng *rand.Rand, obs sudokulab.Observer) (sudokulab.Result, error) {
	if ctx.Err() != nil {
		// Not a run: the runner hands back a claimed run unstarted.
		return sudokulab.Result{Grid: puzzle.Clone(), Cost: puzzle.Cost(), Status: sudokulab.StatusCanceled}, nil
	}
	if n := s.solves.Add(1); s.stop != nil && n == s.stopAt {
		s.stop()
	}
	ex, err := exact.Info().New(nil)
	if err != nil {
		return sudokulab.Result{}, err
	}
	res, err := ex.Solve(ctx, puzzle, sudokulab.Budget{}, rng, nil)
	if err != nil {
		return res, err
	}
	effort := int64(100 + 2000*(s.x-0.7)*(s.x-0.7) + float64(rng.IntN(40)))
	if !s.fast {
		effort += 200
	}
	out := sudokulab.Result{Grid: res.Grid, Status: sudokulab.StatusSolved, Evaluations: effort, Generations: 1}
	if b.MaxEvaluations > 0 && effort > b.MaxEvaluations {
		g := puzzle.Clone()
		out = sudokulab.Result{Grid: g, Cost: g.Cost(), Status: sudokulab.StatusUnsolved, Evaluations: b.MaxEvaluations, Generations: 1}
	}
	return out, nil
}

func registry(solves *atomic.Int64, stopAt int64, stop func()) *solvers.Registry {
	info := sudokulab.SolverInfo{
		Name: "synthetic", Summary: "a test solver of package tuning", Paper: "none",
		Params: []sudokulab.ParamSpec{
			{Name: "x", Kind: sudokulab.ParamFloat, Default: 0.1, Min: 0, Max: 1},
			{Name: "mode", Kind: sudokulab.ParamChoice, Default: "slow", Choices: []string{"slow", "fast"}},
		},
		New: func(p sudokulab.Params) (sudokulab.Solver, error) {
			return &synthetic{x: p.Float("x"), fast: p.String("mode") == "fast", solves: solves, stopAt: stopAt, stop: stop}, nil
		},
	}
	return solvers.NewRegistry(exact.Info(), info)
}

func newLab(t *testing.T) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for _, pp := range paperdata.All() {
		if pp.Puzzle.Geometry().N != 9 {
			continue
		}
		p := sudokulab.Puzzle{Givens: pp.Puzzle, Solution: pp.Solution}
		if _, _, err := db.AddPuzzle(context.Background(), d, &p); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func spec() tuning.Spec {
	return tuning.Spec{
		Name: "t1", Solver: "synthetic", Train: "id <= 6", Test: "id > 6 AND id <= 10",
		Budget: 150, Seed: 3, Objective: tuning.Effort, RunBudget: sudokulab.Budget{MaxEvaluations: 400},
	}
}

func count(t *testing.T, d *db.DB, query string) int64 {
	t.Helper()
	_, rows, err := d.Query(context.Background(), query, false)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(fmt.Sprint(rows[0][0]), 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestTuneOnTheLab tunes the synthetic solver through the work queue,
// wants the best region found and the race kept in SQL, and then kills
// a second tuning twice part-way and wants it, resumed, to end as the
// uninterrupted one did without repeating a run.
func TestTuneOnTheLab(t *testing.T) {
	ctx := context.Background()
	var solves atomic.Int64
	d := newLab(t)
	rep, err := tuning.Run(ctx, d, registry(&solves, 0, nil), spec(), tuning.Options{Runner: runner.Options{Jobs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	best := rep.Settings[0]
	x, _ := strconv.ParseFloat(best["x"], 64)
	if math.Abs(x-0.7) > 0.15 || best["mode"] != "fast" {
		t.Errorf("best %v, want x near 0.7 and mode fast", best)
	}
	if rep.Elites[0] != "t1-elite-1" || rep.Default != "t1-c1" {
		t.Errorf("elites %v default %s", rep.Elites, rep.Default)
	}
	runs := count(t, d, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 't1'`)
	t.Logf("uninterrupted: %d runs, %d solves", runs, solves.Load())
	if runs != int64(rep.Result.Runs) || runs > 150 || int64(solves.Load()) != runs+8 {
		t.Errorf("%d runs in the experiment, %d counted by the race, %d solves", runs, rep.Result.Runs, solves.Load())
	}
	if n := count(t, d, `SELECT COUNT(*) FROM tuning_candidates WHERE tuning_id = (SELECT id FROM tunings WHERE name = 't1')`); n != int64(len(rep.Result.Candidates)) {
		t.Errorf("%d candidate rows, %d candidates", n, len(rep.Result.Candidates))
	}
	if n := count(t, d, `SELECT COUNT(*) FROM tuning_steps WHERE alive = 0 AND test IS NOT NULL AND p_value < 0.05`); n == 0 {
		t.Errorf("no elimination recorded")
	}
	if n := count(t, d, `SELECT COUNT(*) FROM tunings WHERE name = 't1' AND state = 'done' AND best_config_id = (SELECT id FROM configs WHERE name = 't1-elite-1')`); n != 1 {
		t.Errorf("the tuning row is not done with its best configuration")
	}
	if rep.Test == nil || rep.Test.Overall.A.Runs != 4 || rep.Test.Overall.B.Solved != 4 || rep.Test.Overall.A.Solved != 0 {
		t.Errorf("test comparison %+v", rep.Test)
	}

	// Run again: nothing to do, the same answer.
	before := solves.Load()
	again, err := tuning.Run(ctx, d, registry(&solves, 0, nil), spec(), tuning.Options{Runner: runner.Options{Jobs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if solves.Load() != before || again.Elites[0] != rep.Elites[0] || again.Result.Runs != rep.Result.Runs {
		t.Errorf("run again: %d new solves, elites %v, runs %d", solves.Load()-before, again.Elites, again.Result.Runs)
	}

	// Killed twice and resumed, in a second lab.
	d2 := newLab(t)
	var solves2 atomic.Int64
	for _, stopAt := range []int64{17, 60} {
		kctx, cancel := context.WithCancel(ctx)
		_, err := tuning.Run(kctx, d2, registry(&solves2, stopAt, cancel), spec(), tuning.Options{Runner: runner.Options{Jobs: 1}})
		cancel()
		t.Logf("killed at %d: %d solves", stopAt, solves2.Load())
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("killed at solve %d: %v, want context.Canceled", stopAt, err)
		}
	}
	resumed, err := tuning.Run(ctx, d2, registry(&solves2, 0, nil), spec(), tuning.Options{Runner: runner.Options{Jobs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Result.Runs != rep.Result.Runs || len(resumed.Elites) != len(rep.Elites) {
		t.Fatalf("resumed: %d runs, elites %v; uninterrupted %d runs, %v", resumed.Result.Runs, resumed.Elites, rep.Result.Runs, rep.Elites)
	}
	for i := range rep.Settings {
		for k, v := range rep.Settings[i] {
			if resumed.Settings[i][k] != v {
				t.Errorf("elite %d: resumed %v, uninterrupted %v", i+1, resumed.Settings[i], rep.Settings[i])
			}
		}
	}
	runs2 := count(t, d2, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 't1'`)
	// Every run recorded once; the two cut short by the kills are the
	// only ones done twice (8 more are the test set's).
	if runs2 != runs || solves2.Load() != runs2+2+8 {
		t.Errorf("resumed: %d runs stored (uninterrupted %d), %d solves", runs2, runs, solves2.Load())
	}
}

// TestTwoRacers runs the same tuning twice at once on one lab, as two
// processes given the same command would: they share the runs, each
// recorded once, and end with the same elites, whichever renames them.
func TestTwoRacers(t *testing.T) {
	ctx := context.Background()
	d := newLab(t)
	var solves atomic.Int64
	s := spec()
	s.Test = ""
	reps := make([]tuning.Report, 2)
	errs := make(chan error, 2)
	for i := range reps {
		go func() {
			var err error
			reps[i], err = tuning.Run(ctx, d, registry(&solves, 0, nil), s, tuning.Options{Runner: runner.Options{Jobs: 1}})
			errs <- err
		}()
	}
	for range reps {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(reps[0].Elites, reps[0].Settings) != fmt.Sprint(reps[1].Elites, reps[1].Settings) || reps[0].Elites[0] != "t1-elite-1" {
		t.Errorf("two racers ended apart: %v %v / %v %v", reps[0].Elites, reps[0].Settings, reps[1].Elites, reps[1].Settings)
	}
	runs := count(t, d, `SELECT COUNT(*) FROM experiment_run_results WHERE experiment = 't1'`)
	if runs != int64(reps[0].Result.Runs) || solves.Load() > runs+2 {
		t.Errorf("%d runs stored, %d raced, %d solves", runs, reps[0].Result.Runs, solves.Load())
	}
}
