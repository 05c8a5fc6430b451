package nbcoin_test

import (
	"testing"

	"sudokulab"
	"sudokulab/solvers/nbcoin"
	"sudokulab/solvers/solvertest"
)

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
				got := solvertest.Fingerprint(t, newSolver(t, set), tc.puzzle, tc.budget, tc.seed)
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
