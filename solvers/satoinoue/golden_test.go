package satoinoue_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/solvers/satoinoue"
	"sudokulab/solvers/solvertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-*.txt")

// TestGoldenUnfiltered compares runs with prefilter none (the paper's
// behaviour) with testdata/golden-prefilter-none.txt, recorded before the
// prefilter was added: the parameter must not change what the same seed
// does. Regenerate with -update only for a deliberate change of behaviour.
func TestGoldenUnfiltered(t *testing.T) {
	info := satoinoue.Info()
	var lines []string
	for _, tc := range []struct {
		set    map[string]string
		puzzle string
		gens   int64
	}{
		{nil, "sato-no1", 2000},
		{nil, "ai-escargot", 150},
		{map[string]string{"disparity": "true"}, "sato-no77", 100},
		{map[string]string{"variant": "mut-cross", "elitism": "2"}, "sato-no106", 300},
		{map[string]string{"variant": "mutation", "mutation-scope": "individual"}, "sato-no27", 300},
		{map[string]string{"selection": "plus", "avoid-givens": "true", "population": "40"}, "ai-escargot", 300},
		{map[string]string{"selection": "global"}, "sato-no27", 100},
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
