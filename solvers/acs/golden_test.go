package acs_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/solvers/acs"
	"sudokulab/solvers/solvertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

// TestGolden compares whole runs of fixed seeds (their counters and a hash
// of every step and the result, solvertest.Digest) with testdata/golden.txt,
// so that a refactoring cannot change what a seed does. Regenerate with
// -update only for a deliberate change of behaviour.
func TestGolden(t *testing.T) {
	info := acs.Info()
	var lines []string
	for _, tc := range []struct {
		set    map[string]string
		puzzle string
		gens   int64
	}{
		{nil, "ai-escargot", 200},
		{nil, "sato-sd3", 200},
		{map[string]string{acs.ParamGreedy: acs.GreedyEq1}, "ai-escargot", 200},
		{map[string]string{acs.ParamBVE: "0"}, "sato-no106", 200},
		{map[string]string{acs.ParamAnts: "3", acs.ParamQ0: "0.5", acs.ParamRho: "0.5", acs.ParamXi: "0.3"}, "sato-no77", 200},
		{map[string]string{acs.ParamAntPropagation: acs.PropagateFixpoint}, "ai-escargot", 200},
		{map[string]string{acs.ParamAntPropagation: acs.PropagateFixpoint, acs.ParamAnts: "3"}, "sato-sd3", 200},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			lines = append(lines, fmt.Sprintf("%v ", tc.set)+solvertest.Digest(t, info, tc.set, tc.puzzle, tc.gens, seed))
		}
	}
	solvertest.CompareGolden(t, filepath.Join("testdata", "golden.txt"), strings.Join(lines, "\n")+"\n", *update)
}
