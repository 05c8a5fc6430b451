package nbcoin_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/nbcoin"
)

// withinDomains fails unless every cell of g is in its domain.
func withinDomains(t *testing.T, what string, d *ac3.Domains, g []uint8) {
	t.Helper()
	for i, v := range g {
		if !d.Has(i, v) {
			t.Fatalf("%s: cell %d holds %d, outside its domain %s", what, i, v, d.Domain(i))
		}
	}
}

// TestPrefilterDomains checks that with prefilter=ac3 the models start
// uniform over the pruned domains, stay 0 outside them while learning, and
// every sampled grid stays within them, for each sampling order.
func TestPrefilterDomains(t *testing.T) {
	for _, tc := range []struct {
		name, puzzle string
		set          map[string]string
	}{
		{"random", "sato-no106", nil},
		{"sequential", "sato-no77", map[string]string{nbcoin.ParamOrder: nbcoin.OrderSequential}},
		{"greedy", "ai-escargot", map[string]string{nbcoin.ParamOrder: nbcoin.OrderGreedy}},
		{"no-precompute-mean", "sato-no27", map[string]string{nbcoin.ParamPrecompute: "false", nbcoin.ParamLearning: nbcoin.LearnMean}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			puzzle := paperdata.MustGet(tc.puzzle).Puzzle
			e := nbcoin.NewEngine(puzzle.Shape, with(tc.set, ac3.ParamName, ac3.AC3))
			d, fixed := e.Restrict(puzzle)
			e.Init(fixed)
			for i := range fixed {
				if fixed[i] != 0 {
					continue
				}
				for k, x := range e.M(i) {
					want := 0.0
					if d.Has(i, uint8(k+1)) {
						want = 1 / float64(d.Domain(i).Len())
					}
					if x != want {
						t.Fatalf("cell %d: model %v, want uniform over %s", i, e.M(i), d.Domain(i))
					}
				}
			}
			rng := sudokulab.NewRand(5)
			for range 60 {
				e.Generation(rng)
				for _, g := range e.Samples() {
					withinDomains(t, "sample", d, g)
				}
				for i := range fixed {
					for k, x := range e.M(i) {
						if x != 0 && !d.Has(i, uint8(k+1)) {
							t.Fatalf("model(%d, %d) = %v outside the domain %s", i, k+1, x, d.Domain(i))
						}
					}
				}
			}
		})
	}
}

// TestPrefilterDeadEnd forces a dead end (a cell whose candidates are all
// used in its box): the box is filled afresh within the domains.
func TestPrefilterDeadEnd(t *testing.T) {
	puzzle := paperdata.MustGet("sato-no106").Puzzle
	e := nbcoin.NewEngine(puzzle.Shape, map[string]string{ac3.ParamName: ac3.AC3, nbcoin.ParamOrder: nbcoin.OrderSequential})
	d, fixed := e.Restrict(puzzle)
	e.Init(fixed)
	// Make the free cells of box 0 all favour the same symbol of the
	// first free cell's domain, so that later cells often find it used.
	geo := puzzle.Geometry()
	rng := sudokulab.NewRand(9)
	g := make([]uint8, len(fixed))
	for _, i := range geo.Units[2*9] {
		if fixed[i] == 0 {
			m := make([]float64, 9)
			for k := range m {
				if d.Has(i, uint8(k+1)) {
					m[k] = 1e-9
				}
			}
			m[d.Domain(i).Min()-1] = 1
			e.SetM(i, m...)
		}
	}
	for range 200 {
		e.Sample(rng, g)
		withinDomains(t, "dead end", d, g)
	}
}

// TestPrefilterSolve checks Solve with prefilter=ac3: the best grid keeps
// to the domains, and a puzzle AC3 proves unsolvable ends at once,
// unsolved, with a filled grid that keeps the givens.
func TestPrefilterSolve(t *testing.T) {
	puzzle := paperdata.MustGet("sato-no106").Puzzle
	d, _, err := ac3.Prune(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	res, err := newSolver(t, map[string]string{ac3.ParamName: ac3.AC3}).Solve(context.Background(), puzzle, sudokulab.Budget{MaxGenerations: 100}, sudokulab.NewRand(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	withinDomains(t, "best grid", d, res.Grid.Cells)

	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	bad := sudokulab.MustParse("...1234.." + ".9......." + "........." + "5........" + "6........" + "7........" + "8........" + "........." + ".........")
	rec := &recorder{}
	res, err = newSolver(t, map[string]string{ac3.ParamName: ac3.AC3}).Solve(context.Background(), bad, sudokulab.Budget{}, sudokulab.NewRand(1), rec)
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
