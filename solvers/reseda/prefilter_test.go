package reseda_test

import (
	"context"
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/reseda"
)

// withinDomains fails unless every cell of g is in its domain and the cells
// the prefilter fixed hold their value.
func withinDomains(t *testing.T, what string, d *ac3.Domains, g []uint8) {
	t.Helper()
	if !d.Within(g) {
		for i, v := range g {
			if !d.Has(i, v) {
				t.Fatalf("%s: cell %d holds %d, outside its domain %s", what, i, v, d.Domain(i))
			}
		}
	}
}

// TestPrefilterDomains checks that with prefilter=ac3 the probabilities are
// 0 outside the pruned domains and every sampled grid stays within them,
// in the first resolution and in a partial restart, for each sampling
// variant.
func TestPrefilterDomains(t *testing.T) {
	for _, tc := range []struct {
		name, puzzle string
		set          map[string]string
	}{
		{"both", "ai-escargot", nil},
		{"permutations-only", "sato-no77", map[string]string{reseda.ParamPrecompute: "false"}},
		{"univariate", "sato-no106", map[string]string{reseda.ParamPermutations: "false"}},
		{"low-alpha", "ai-escargot", map[string]string{reseda.ParamAlpha: "0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			puzzle := paperdata.MustGet(tc.puzzle).Puzzle
			e := reseda.NewEngine(puzzle.Shape, with(tc.set, ac3.ParamName, ac3.AC3))
			d := e.Restrict(puzzle)
			fixed := d.Grid().Cells
			rng := sudokulab.NewRand(7)
			check := func(stage string) {
				for i := range fixed {
					for k, x := range e.P(i) {
						if x != 0 && !d.Has(i, uint8(k+1)) {
							t.Fatalf("%s: p(%d, %d) = %v outside the domain %s", stage, i, k+1, x, d.Domain(i))
						}
					}
				}
			}
			e.Init(fixed)
			check("init")
			for i := range fixed {
				if fixed[i] != 0 {
					continue
				}
				for k, x := range e.P(i) {
					want := 0.0
					if d.Has(i, uint8(k+1)) {
						want = 1 / float64(d.Domain(i).Len())
					}
					if x != want {
						t.Fatalf("cell %d: p %v, want uniform over %s", i, e.P(i), d.Domain(i))
					}
				}
			}
			for step := range 40 {
				e.Step(rng)
				for j, g := range e.Samples() {
					withinDomains(t, "resolution", d, g)
					if step == 39 && j == 0 {
						// A partial restart on the first row of this sample.
						restart := slices.Clone(fixed)
						copy(restart[:9], g[:9])
						e.Init(restart)
					}
				}
				check("step")
			}
			check("restart init")
			for range 20 {
				e.Step(rng)
				for _, g := range e.Samples() {
					withinDomains(t, "restart", d, g)
				}
				check("restart step")
			}
		})
	}
}

// TestPrefilterSolve checks Solve with prefilter=ac3: the best grid keeps
// to the domains, and a puzzle AC3 proves unsolvable ends at once,
// unsolved, with a filled grid that keeps the givens.
func TestPrefilterSolve(t *testing.T) {
	puzzle := paperdata.MustGet("ai-escargot").Puzzle
	d, _, err := ac3.Prune(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []map[string]string{
		{ac3.ParamName: ac3.AC3, reseda.ParamZones: reseda.ZonesUnits, reseda.ParamAttempts: "1"},
		{ac3.ParamName: ac3.AC3, reseda.ParamBruteForce: "true"},
	} {
		res, err := newSolver(t, set).Solve(context.Background(), puzzle, sudokulab.Budget{MaxGenerations: 200}, sudokulab.NewRand(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		withinDomains(t, "best grid", d, res.Grid.Cells)
	}

	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	bad := sudokulab.MustParse("...1234...9................5........6........7........8..........................")
	rec := &recorder{}
	res, err := newSolver(t, map[string]string{ac3.ParamName: ac3.AC3}).Solve(context.Background(), bad, sudokulab.Budget{}, sudokulab.NewRand(1), rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sudokulab.StatusUnsolved || res.Generations != 0 || len(rec.steps) != 0 {
		t.Errorf("status %s after %d generations and %d steps, want unsolved at once", res.Status, res.Generations, len(rec.steps))
	}
	for i, v := range res.Grid.Cells {
		if v == 0 || (bad.Cells[i] != 0 && v != bad.Cells[i]) {
			t.Fatalf("cell %d holds %d in %s", i, v, res.Grid)
		}
	}
	if res.Cost != res.Grid.Cost() || res.Cost == 0 {
		t.Errorf("cost %d, grid cost %d", res.Cost, res.Grid.Cost())
	}
}

// TestPrefilterDeadEnd forces the dead end of permutation sampling (no
// remaining cell of a box has probability on an unused symbol): with the
// permutations alone and ac3, the remaining cells still draw within their
// domains.
func TestPrefilterDeadEnd(t *testing.T) {
	puzzle := paperdata.MustGet("ai-escargot").Puzzle
	e := reseda.NewEngine(puzzle.Shape, map[string]string{ac3.ParamName: ac3.AC3, reseda.ParamPrecompute: "false"})
	d := e.Restrict(puzzle)
	fixed := d.Grid().Cells
	e.Init(fixed)
	geo := puzzle.Geometry()
	for _, i := range geo.Units[2*9] { // box 0
		if fixed[i] == 0 {
			e.SetP(i, make([]float64, 9)...)
		}
	}
	rng := sudokulab.NewRand(3)
	g := make([]uint8, len(fixed))
	for range 200 {
		e.Sample(rng, g)
		withinDomains(t, "dead end", d, g)
	}
}
