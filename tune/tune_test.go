package tune_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"sudokulab"
	"sudokulab/tune"
)

// TestEliminateFriedman checks a Friedman elimination worked by hand and
// in R: friedman.test gives chi-squared 18.305, p = 0.0010757; the rank
// sums are 10.5, 11.5, 15, 23.5 and 29.5, A = 329, and Conover's critical
// difference qt(0.975, 20) sqrt(2 (6*329 - sum R^2) / 20) = 6.0457, so
// the last two (13 and 19 above the best) go and the first three stay.
func TestEliminateFriedman(t *testing.T) {
	y := [][]float64{
		{1, 2, 3, 4, 9},
		{2, 1, 3, 5, 8},
		{1, 3, 2, 4, 7},
		{2, 2, 1, 6, 9},
		{1, 2, 4, 3, 8},
		{3, 1, 2, 5, 5},
	}
	v := tune.Eliminate(y, 0.95)
	if v.Test != "friedman" || math.Abs(v.P-0.00107566283289939) > 1e-12 {
		t.Errorf("test %s p %.15g, want friedman 0.00107566283289939 (R)", v.Test, v.P)
	}
	if want := []float64{10.5, 11.5, 15, 23.5, 29.5}; !slices.Equal(v.RankSums, want) {
		t.Errorf("rank sums %v, want %v", v.RankSums, want)
	}
	if want := []bool{true, true, true, false, false}; !slices.Equal(v.Keep, want) {
		t.Errorf("keep %v, want %v", v.Keep, want)
	}
	// At 99.9 % the same data drop nothing: p = 0.00108 is not below 0.001.
	if v := tune.Eliminate(y, 0.999); slices.Contains(v.Keep, false) {
		t.Errorf("at 0.999 keep %v, want all", v.Keep)
	}
}

// TestEliminateWilcoxon checks the test between two candidates against
// R's wilcox.test(x, y, paired = TRUE) (tied differences: the normal
// approximation): p = 0.020706 drops the worse; p = 0.26496 drops
// nothing; and irace's rule before the test.
func TestEliminateWilcoxon(t *testing.T) {
	x := []float64{2.1, 2.3, 0.7, 1.9, 1.2, 0.8, 1.0, 1.4}
	y := []float64{2.0, 3.1, 1.9, 2.5, 2.2, 1.7, 1.6, 2.9}
	for _, c := range []struct {
		a, b []float64
		p    float64
		keep []bool
	}{
		{x, y, 0.0207062164724888, []bool{true, false}},
		{y, x, 0.0207062164724888, []bool{false, true}},
		{[]float64{1, 2, 1, 2, 1, 3, 1, 1}, []float64{2, 1, 3, 2, 2, 1, 3, 4}, 0.264961510249061, []bool{true, true}},
		// One no worse on every instance: dropped at once, p = 0, as
		// irace's aux_friedman does, though the signed-rank test (two
		// differences, p = 0.3458) would keep both.
		{[]float64{1, 2, 1, 2, 1, 3}, []float64{1, 3, 1, 2, 1, 4}, 0, []bool{true, false}},
		{[]float64{1, 3, 1, 2, 1, 4}, []float64{1, 2, 1, 2, 1, 3}, 0, []bool{false, true}},
		{[]float64{5, 5, 5}, []float64{5, 5, 5}, 0, []bool{true, false}},
	} {
		m := make([][]float64, len(c.a))
		for i := range m {
			m[i] = []float64{c.a[i], c.b[i]}
		}
		v := tune.Eliminate(m, 0.95)
		if v.Test != "wilcoxon" || math.Abs(v.P-c.p) > 1e-9 || !slices.Equal(v.Keep, c.keep) {
			t.Errorf("%v vs %v: %s p %.15g keep %v, want wilcoxon %.15g %v", c.a, c.b, v.Test, v.P, v.Keep, c.p, c.keep)
		}
	}
}

// synthetic is a solver whose cost is known: lowest at x = 7.3, n = 20
// (on a log scale) and mode "b", plus noise that depends on the instance
// and the candidate only, so that a repeated run costs the same.
type synthetic struct {
	space tune.Space
	calls map[string]int
	log   []string
}

func (s *synthetic) Evaluate(ctx context.Context, inst tune.Instance, cands []*tune.Candidate) ([]float64, error) {
	out := make([]float64, len(cands))
	for i, c := range cands {
		set := c.Set(s.space)
		x, _ := strconv.ParseFloat(set["x"], 64)
		n, _ := strconv.ParseFloat(set["n"], 64)
		cost := (x-7.3)*(x-7.3) + 4*math.Pow(math.Log(n/20), 2)
		if set["mode"] != "b" {
			cost += 3
		}
		h := fnv.New64a()
		fmt.Fprint(h, inst.Item, inst.Seed, set)
		cost += float64(h.Sum64()%1000) / 1000 // noise in [0, 1)
		cost += float64(inst.Item%7) / 2       // harder and easier instances
		out[i] = cost
		key := fmt.Sprint(c.ID, "@", inst.Index)
		s.calls[key]++
		s.log = append(s.log, key)
	}
	return out, nil
}

func syntheticSpace(t *testing.T) tune.Space {
	info := sudokulab.SolverInfo{Name: "synthetic", Params: []sudokulab.ParamSpec{
		{Name: "x", Kind: sudokulab.ParamFloat, Default: 1.0, Min: 0, Max: 10},
		{Name: "n", Kind: sudokulab.ParamInt, Default: int64(1), Min: 1, Max: 1000},
		{Name: "mode", Kind: sudokulab.ParamChoice, Default: "a", Choices: []string{"a", "b", "c"}},
		{Name: "fixed", Kind: sudokulab.ParamInt, Default: int64(3), Min: 1, Max: 5},
	}}
	s, err := tune.SpaceOf(info, map[string]string{"x": "0..10", "n": "log:1..1000", "mode": "a|b|c"}, map[string]string{"fixed": "4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type steps struct{ got []tune.Step }

func (r *steps) Step(ctx context.Context, s tune.Step) error {
	r.got = append(r.got, s)
	return nil
}

func tuneSynthetic(t *testing.T, seed uint64, budget int) (tune.Result, *synthetic, *steps) {
	t.Helper()
	s := syntheticSpace(t)
	ev := &synthetic{space: s, calls: map[string]int{}}
	rec := &steps{}
	res, err := tune.Tune(context.Background(), s, 40, ev, tune.Options{Budget: budget, Rand: rand.New(rand.NewPCG(seed, 1)), Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	return res, ev, rec
}

// TestTuneFindsTheBest races the synthetic solver and wants its best
// region found, within the budget, each run asked for once.
func TestTuneFindsTheBest(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		res, ev, rec := tuneSynthetic(t, seed, 1000)
		if res.Runs > 1000 || res.Runs != len(ev.log) {
			t.Errorf("seed %d: %d runs counted, %d done, budget 1000", seed, res.Runs, len(ev.log))
		}
		for k, n := range ev.calls {
			if n > 1 {
				t.Errorf("seed %d: run %s done %d times", seed, k, n)
			}
		}
		if res.Iterations < 3 || len(res.Elites) == 0 {
			t.Fatalf("seed %d: %d iterations, %d elites", seed, res.Iterations, len(res.Elites))
		}
		best := res.Elites[0].Set(syntheticSpace(t))
		x, _ := strconv.ParseFloat(best["x"], 64)
		n, _ := strconv.ParseFloat(best["n"], 64)
		if math.Abs(x-7.3) > 1 || n < 10 || n > 40 || best["mode"] != "b" || best["fixed"] != "4" {
			t.Errorf("seed %d: best %v, want x near 7.3, n near 20, mode b, fixed 4 (stopped: %s)", seed, best, res.Stop)
		}
		// The first candidate is the initial one, the defaults.
		first := res.Candidates[0].Set(syntheticSpace(t))
		if first["x"] != "1" || first["n"] != "1" || first["mode"] != "a" {
			t.Errorf("seed %d: first candidate %v, want the defaults", seed, first)
		}
		eliminated := 0
		for _, st := range rec.got {
			for _, e := range st.Entries {
				if !e.Alive {
					eliminated++
					if st.Test == "" || !(st.P < 0.05) {
						t.Errorf("seed %d: candidate %d eliminated at step %d by %q p %v", seed, e.Candidate.ID, st.Number, st.Test, st.P)
					}
					if st.Number < 5 {
						t.Errorf("seed %d: candidate %d eliminated at step %d, before the first test", seed, e.Candidate.ID, st.Number)
					}
				}
			}
		}
		if eliminated == 0 {
			t.Errorf("seed %d: no candidate eliminated", seed)
		}
	}
}

// TestTuneDeterministic wants the same seed to give the same race: the
// same runs in the same order and the same elites.
func TestTuneDeterministic(t *testing.T) {
	a, evA, _ := tuneSynthetic(t, 7, 600)
	b, evB, _ := tuneSynthetic(t, 7, 600)
	if !slices.Equal(evA.log, evB.log) {
		t.Fatalf("same seed, different runs: %d vs %d", len(evA.log), len(evB.log))
	}
	if len(a.Elites) != len(b.Elites) || a.Elites[0].ID != b.Elites[0].ID {
		t.Errorf("same seed, different elites")
	}
	_, evC, _ := tuneSynthetic(t, 8, 600)
	if slices.Equal(evA.log, evC.log) {
		t.Errorf("seeds 7 and 8 raced alike")
	}
}

// TestBudgetPlan checks irace's numbers for 3 parameters: 3 iterations
// (floor(2 + log2 3)); the first races floor((1000/3) / (5+1)) = 55
// candidates.
func TestBudgetPlan(t *testing.T) {
	res, _, _ := tuneSynthetic(t, 1, 1000)
	first := 0
	for _, c := range res.Candidates {
		if c.Iteration == 1 {
			first++
		}
	}
	if first != 55 {
		t.Errorf("%d candidates in the first race, want 55", first)
	}
	if len(res.Elites) > 3 {
		t.Errorf("%d elites, want at most 3", len(res.Elites))
	}
}
