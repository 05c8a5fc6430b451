package nbcoin_test

import (
	"context"
	"reflect"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/nbcoin"
	"sudokulab/solvers/solvertest"
)

func newSolver(t testing.TB, set map[string]string) sudokulab.Solver {
	t.Helper()
	return solvertest.New(t, nbcoin.Info(), set)
}

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"mean-learning", map[string]string{nbcoin.ParamLearning: nbcoin.LearnMean}},
		{"greedy-order", map[string]string{nbcoin.ParamOrder: nbcoin.OrderGreedy}},
		{"ac3", map[string]string{ac3.ParamName: ac3.AC3}},
		{"ac3-greedy-order", map[string]string{ac3.ParamName: ac3.AC3, nbcoin.ParamOrder: nbcoin.OrderGreedy}},
		{"ac3-no-precompute", map[string]string{ac3.ParamName: ac3.AC3, nbcoin.ParamPrecompute: "false"}},
		{"gac", map[string]string{ac3.ParamName: ac3.GAC}},
		{"box-credit", map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox}},
		{"box-credit-restart", map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox, nbcoin.ParamRestart: "20"}},
		{"box-credit-mean-ac3", map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox, nbcoin.ParamLearning: nbcoin.LearnMean, ac3.ParamName: ac3.AC3}},
		{"neighbour", map[string]string{nbcoin.ParamNeighbour: "0"}},
		{"neighbour-weight-greedy", map[string]string{nbcoin.ParamNeighbour: "0.5", nbcoin.ParamOrder: nbcoin.OrderGreedy}},
		{"neighbour-ac3", map[string]string{nbcoin.ParamNeighbour: "0", ac3.ParamName: ac3.AC3}},
		{"luby-restart", map[string]string{nbcoin.ParamRestart: "10", nbcoin.ParamRestartSchedule: "luby"}},
		{"geometric-restart-neighbour", map[string]string{nbcoin.ParamRestart: "10", nbcoin.ParamRestartSchedule: "geometric", nbcoin.ParamNeighbour: "0"}},
		{"propagate-hidden", map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}},
		{"propagate-singles-neighbour-ac3", map[string]string{ac3.PropagateParamName: ac3.PropagateSingles, nbcoin.ParamNeighbour: "0", ac3.ParamName: ac3.AC3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			solvertest.Run(t, nbcoin.Info(), solvertest.Options{Params: tc.set})
		})
	}
}

type recorder struct{ steps []sudokulab.Step }

func (r *recorder) Observe(s sudokulab.Step) { r.steps = append(r.steps, s) }

// TestSteps checks the counters: one step per generation, the population
// size of evaluations per full generation, no restart, a convergence
// measure in (0, 1].
func TestSteps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		puzzle string
		budget sudokulab.Budget
	}{
		{"solved", "sato-no1", sudokulab.Budget{MaxGenerations: 10_000}},
		{"generation budget", "sato-no106", sudokulab.Budget{MaxGenerations: 50}},
		{"evaluation budget", "sato-no106", sudokulab.Budget{MaxEvaluations: 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(t, nil)
			rec := &recorder{}
			res, err := s.Solve(context.Background(), paperdata.MustGet(tc.puzzle).Puzzle, tc.budget, sudokulab.NewRand(5), rec)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(rec.steps)) != res.Generations || res.Restarts != 0 {
				t.Fatalf("%d steps, %d generations, %d restarts", len(rec.steps), res.Generations, res.Restarts)
			}
			for j, st := range rec.steps {
				prev := sudokulab.Step{}
				if j > 0 {
					prev = rec.steps[j-1]
				}
				if st.Generation != int64(j+1) || st.Restarts != 0 || st.Convergence <= 0 || st.Convergence > 1 {
					t.Fatalf("step %d: %+v", j, st)
				}
				if d := st.Evaluations - prev.Evaluations; d != 150 && j != len(rec.steps)-1 {
					t.Fatalf("step %d made %d evaluations, want 150", j, d)
				}
			}
			last := rec.steps[len(rec.steps)-1]
			if last.Evaluations != res.Evaluations || last.BestCost != res.Cost {
				t.Errorf("last step %+v, result %+v", last, res)
			}
			if b := tc.budget.MaxEvaluations; b > 0 && res.Evaluations != b {
				t.Errorf("%d evaluations, budget %d", res.Evaluations, b)
			}
			if tc.name == "solved" && res.Status != sudokulab.StatusSolved {
				t.Errorf("status %s", res.Status)
			}
		})
	}
}

// TestReuse checks that a solver reused for another puzzle repeats
// itself.
func TestReuse(t *testing.T) {
	s := newSolver(t, nil)
	a, b := paperdata.MustGet("sato-no77").Puzzle, paperdata.MustGet("reseda-easy").Puzzle
	budget := sudokulab.Budget{MaxGenerations: 100}
	first, err := s.Solve(context.Background(), a, budget, sudokulab.NewRand(4), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(context.Background(), b, budget, sudokulab.NewRand(1), nil); err != nil {
		t.Fatal(err)
	}
	again, err := s.Solve(context.Background(), a, budget, sudokulab.NewRand(4), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("reused solver: %+v, fresh: %+v", again, first)
	}
}

// TestPresets checks that the presets resolve and that no two share their
// settings, which the configs table would refuse.
func TestPresets(t *testing.T) {
	info := nbcoin.Info()
	seen := map[string]string{}
	for _, p := range info.Presets {
		params, err := info.Resolve(p.Set)
		if err != nil {
			t.Fatalf("preset %s: %v", p.Name, err)
		}
		if _, err := info.New(params); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
		if other, dup := seen[params.Canonical()]; dup {
			t.Errorf("presets %s and %s have the same settings", other, p.Name)
		}
		seen[params.Canonical()] = p.Name
	}
	if _, ok := seen[mustDefaults(t).Canonical()]; !ok {
		t.Errorf("no preset has the defaults, Table I's settings")
	}
}

func mustDefaults(t *testing.T) sudokulab.Params {
	info := nbcoin.Info()
	p, err := info.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRestart checks parameter restart: on sato-no106 with a restart after
// 5 generations without a better grid, a 200-generation run restarts, its
// steps count the restarts, a restart resets the models to the initial
// ones (the convergence measure drops back to its value after
// initialisation), and the best cost never rises.
func TestRestart(t *testing.T) {
	p := paperdata.MustGet("sato-no106").Puzzle
	s := newSolver(t, map[string]string{nbcoin.ParamRestart: "5", nbcoin.ParamPopulation: "30"})
	var steps []sudokulab.Step
	r, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 200}, sudokulab.NewRand(2),
		sudokulab.ObserverFunc(func(st sudokulab.Step) { steps = append(steps, st) }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Restarts == 0 || r.Restarts != steps[len(steps)-1].Restarts {
		t.Fatalf("result restarts %d, last step %d: want equal and more than 0", r.Restarts, steps[len(steps)-1].Restarts)
	}
	var resets []float64
	for i := 1; i < len(steps); i++ {
		prev, st := steps[i-1], steps[i]
		if st.BestCost > prev.BestCost || st.Restarts < prev.Restarts {
			t.Fatalf("generation %d: best %d restarts %d after %d, %d", st.Generation, st.BestCost, st.Restarts, prev.BestCost, prev.Restarts)
		}
		if st.Restarts > prev.Restarts {
			resets = append(resets, st.Convergence)
		}
	}
	for _, c := range resets[1:] {
		if c != resets[0] {
			t.Fatalf("convergence after restarts %v: want the initial models' value every time", resets)
		}
	}
	if resets[0] >= steps[resets0(steps)-1].Convergence {
		t.Errorf("convergence %v after a restart, %v before: the models were not reset", resets[0], steps[resets0(steps)-1].Convergence)
	}
}

// resets0 returns the index of the first step that restarted.
func resets0(steps []sudokulab.Step) int {
	for i := 1; i < len(steps); i++ {
		if steps[i].Restarts > steps[i-1].Restarts {
			return i
		}
	}
	return 0
}
