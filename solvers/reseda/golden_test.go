package reseda_test

import (
	"testing"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/reseda"
	"sudokulab/solvers/solvertest"
)

// TestGolden pins the Result and Steps of fixed seeds, recorded before the
// prefilter parameter existed: prefilter none (the default) must keep
// RESEDA exactly as it was.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, puzzle string
		set          map[string]string
		budget       sudokulab.Budget
		seed         int64
		want         string
	}{
		{"defaults", "reseda-hard", nil, sudokulab.Budget{MaxGenerations: 300}, 1, "77daf3d82bb033a0"},
		{"27-zones", "ai-escargot", map[string]string{reseda.ParamZones: reseda.ZonesUnits, reseda.ParamAttempts: "1"}, sudokulab.Budget{MaxGenerations: 400}, 2, "7de8944672c5d292"},
		{"permutations-only", "reseda-medium", map[string]string{reseda.ParamPrecompute: "false"}, sudokulab.Budget{MaxGenerations: 200}, 3, "ffcb102f4ceab372"},
		{"univariate", "reseda-easy", map[string]string{reseda.ParamPermutations: "false", reseda.ParamZones: reseda.ZonesBoxes}, sudokulab.Budget{MaxGenerations: 200}, 4, "30fa9884a7b1542a"},
		{"groups", "reseda-medium", map[string]string{reseda.ParamSelection: reseda.SelectGroups}, sudokulab.Budget{MaxEvaluations: 15000}, 5, "f1eb46980ab212e5"},
		// Recorded when propagate was added: none is the default.
		{"propagate-none", "reseda-hard", map[string]string{ac3.PropagateParamName: ac3.PropagateNone}, sudokulab.Budget{MaxGenerations: 300}, 1, "77daf3d82bb033a0"},
		{"propagate-hidden", "ai-escargot", map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}, sudokulab.Budget{MaxGenerations: 200}, 7, "ccad6b92235966b6"},
		{"brute-force", "ai-escargot", map[string]string{reseda.ParamBruteForce: "true", reseda.ParamZones: reseda.ZonesDiagonal}, sudokulab.Budget{MaxGenerations: 300}, 6, "97e76ddfd916c1d2"},
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

// TestAC3SameAsPrecompute checks a consequence of arc consistency on the
// not-equal constraints: on a puzzle where AC3 fixes no cell (AI Escargot)
// it removes exactly the symbols the givens exclude, so with the
// pre-computation on, a first resolution with prefilter=ac3 runs exactly as
// with prefilter=none. (Partial restarts may differ: when a restart zone
// leaves a free cell no candidate, none falls back to every symbol and ac3
// to the cell's domain.)
func TestAC3SameAsPrecompute(t *testing.T) {
	set := map[string]string{reseda.ParamZones: reseda.ZonesNone, reseda.ParamAttempts: "1"}
	for seed := range int64(4) {
		none := solvertest.Fingerprint(t, newSolver(t, set), "ai-escargot", sudokulab.Budget{}, seed)
		if got := solvertest.Fingerprint(t, newSolver(t, with(set, "prefilter", "ac3")), "ai-escargot", sudokulab.Budget{}, seed); got != none {
			t.Errorf("seed %d: ac3 fingerprint %s, none %s", seed, got, none)
		}
	}
}
