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
	info := nbcoin.Info()
	p, err := info.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := info.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
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
		{"box-credit-mean-ac3", map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox, nbcoin.ParamLearning: nbcoin.LearnMean, ac3.ParamName: ac3.AC3}},
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
