package francoga_test

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/francoga"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-*.txt")

// digestRun runs the solver and returns a line with the result's counters
// and a SHA-256 of the result and every step.
func digestRun(t *testing.T, info sudokulab.SolverInfo, set map[string]string, puzzle string, gens, seed int64) string {
	t.Helper()
	params, err := info.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := info.New(params)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	res, err := s.Solve(context.Background(), paperdata.MustGet(puzzle).Puzzle, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(seed),
		sudokulab.ObserverFunc(func(st sudokulab.Step) { fmt.Fprintf(h, "%+v\n", st) }))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "%+v %s\n", res, res.Grid)
	return fmt.Sprintf("%s gens=%d seed=%d: %s cost=%d evals=%d generations=%d sha256=%x",
		puzzle, gens, seed, res.Status, res.Cost, res.Evaluations, res.Generations, h.Sum(nil)[:12])
}

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
			lines = append(lines, fmt.Sprintf("%v ", tc.set)+digestRun(t, info, tc.set, tc.puzzle, tc.gens, seed))
		}
	}
	compareGolden(t, filepath.Join("testdata", "golden-prefilter-none.txt"), strings.Join(lines, "\n")+"\n")
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("runs differ from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
