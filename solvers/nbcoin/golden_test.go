package nbcoin_test

import (
	"testing"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/nbcoin"
	"sudokulab/solvers/solvertest"
)

// TestGolden pins the Result and Steps of fixed seeds, the first four
// recorded before the prefilter parameter existed: prefilter none (the
// default) must keep NB-COIN exactly as it was, and so must the defaults
// of neighbour-weight (1) and restart-schedule (fixed). The last four pin
// the neighbour reading and the restart schedules.
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
		// Recorded when the parameters below were added: the fixed
		// schedule with restart 0 is the default.
		{"fixed-schedule", "sato-no77", map[string]string{nbcoin.ParamRestartSchedule: "fixed", nbcoin.ParamNeighbour: "1"}, sudokulab.Budget{MaxGenerations: 300}, 1, "176b93c7c4087af5"},
		{"neighbour", "sato-no77", map[string]string{nbcoin.ParamNeighbour: "0", nbcoin.ParamLearning: nbcoin.LearnMean}, sudokulab.Budget{MaxGenerations: 300}, 1, "2044fd5a7b085b40"},
		{"neighbour-weight", "sato-no106", map[string]string{nbcoin.ParamNeighbour: "0.3", nbcoin.ParamCredit: nbcoin.CreditBox}, sudokulab.Budget{MaxGenerations: 200}, 2, "5a909bcdb6aa270e"},
		{"luby", "sato-no106", map[string]string{nbcoin.ParamRestart: "5", nbcoin.ParamRestartSchedule: "luby", nbcoin.ParamCredit: nbcoin.CreditBox}, sudokulab.Budget{MaxGenerations: 200}, 3, "42baa7cb3c775a51"},
		// Recorded when propagate was added: none is the default.
		{"propagate-none", "sato-no77", map[string]string{ac3.PropagateParamName: ac3.PropagateNone}, sudokulab.Budget{MaxGenerations: 300}, 1, "176b93c7c4087af5"},
		{"propagate-hidden", "sato-no106", map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}, sudokulab.Budget{MaxGenerations: 200}, 2, "37786aa71b85ece8"},
		{"geometric", "sato-no106", map[string]string{nbcoin.ParamRestart: "5", nbcoin.ParamRestartSchedule: "geometric", nbcoin.ParamRestartFactor: "1.5"}, sudokulab.Budget{MaxGenerations: 200}, 3, "a375c311e95458c5"},
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
