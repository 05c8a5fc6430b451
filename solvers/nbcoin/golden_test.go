package nbcoin_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/nbcoin"
)

// fingerprint runs s and hashes its Result and every Step.
func fingerprint(t *testing.T, s sudokulab.Solver, puzzle string, budget sudokulab.Budget, seed int64) string {
	t.Helper()
	rec := &recorder{}
	res, err := s.Solve(context.Background(), paperdata.MustGet(puzzle).Puzzle, budget, sudokulab.NewRand(seed), rec)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%v %d %v %d %d %d\n", res.Grid.Cells, res.Cost, res.Status, res.Evaluations, res.Generations, res.Restarts)
	for _, st := range rec.steps {
		fmt.Fprintf(h, "%+v\n", st)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// TestGolden pins the Result and Steps of fixed seeds, recorded before the
// prefilter parameter existed: prefilter none (the default) must keep
// NB-COIN exactly as it was.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, puzzle string
		set          map[string]string
		budget       sudokulab.Budget
		seed         int64
		want         string
	}{
		{"defaults", "sato-no77", nil, sudokulab.Budget{MaxGenerations: 300}, 1, "176b93c7c4087af5"},
		{"mean", "sato-no106", map[string]string{nbcoin.ParamLearning: nbcoin.LearnMean}, sudokulab.Budget{MaxGenerations: 300}, 2, "fabf704d8a7dc0e6"},
		{"sequential", "sato-no27", map[string]string{nbcoin.ParamOrder: nbcoin.OrderSequential}, sudokulab.Budget{MaxGenerations: 300}, 3, "a20c981a743d2786"},
		{"greedy", "sato-no1", map[string]string{nbcoin.ParamOrder: nbcoin.OrderGreedy, nbcoin.ParamPrecompute: "false"}, sudokulab.Budget{MaxEvaluations: 20000}, 4, "745e27e3c52da82e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, set := range []map[string]string{tc.set, with(tc.set, "prefilter", "none")} {
				got := fingerprint(t, newSolver(t, set), tc.puzzle, tc.budget, tc.seed)
				if got != tc.want {
					t.Errorf("%v: fingerprint %s, want %s", set, got, tc.want)
				}
			}
		})
	}
}

// with returns a copy of set with k=v.
func with(set map[string]string, k, v string) map[string]string {
	c := map[string]string{k: v}
	for a, b := range set {
		if a != k {
			c[a] = b
		}
	}
	return c
}
