package francoga_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/solvers/francoga"
	"sudokulab/solvers/solvertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-*.txt")

// TestGoldenUnfiltered compares runs with prefilter none (the paper's
// behaviour) with testdata/golden-prefilter-none.txt, recorded before the
// prefilter was added: the parameter must not change what the same seed
// does. Regenerate with -update only for a deliberate change of behaviour.
func TestGoldenUnfiltered(t *testing.T) {
	info := francoga.Info()
	var lines []string
	for _, tc := range []struct {
		set    map[string]string
		puzzle string
		gens   int64
	}{
		{nil, "reseda-medium", 3000},
		{nil, "ai-escargot", 2000},
		{map[string]string{"population": "10", "mutation-col": "0.33", "mutation-box": "0.33", "mutation-element": "0.34"}, "reseda-medium", 3000},
		{map[string]string{"mutation-row": "0.25", "mutation-col": "0.25", "mutation-box": "0.25", "mutation-element": "0.25", "population": "30"}, "sato-no77", 2000},
		{map[string]string{"population": "100", "mutations": "60"}, "reseda-easy", 2000},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			lines = append(lines, fmt.Sprintf("%v ", tc.set)+solvertest.Digest(t, info, tc.set, tc.puzzle, tc.gens, seed))
		}
	}
	compareGolden(t, filepath.Join("testdata", "golden-prefilter-none.txt"), strings.Join(lines, "\n")+"\n")
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	solvertest.CompareGolden(t, path, got, *update)
}
