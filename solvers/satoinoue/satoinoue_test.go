package satoinoue_test

import (
	"context"
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/satoinoue"
	"sudokulab/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, satoinoue.Info(), solvertest.Options{})
}

func TestConformanceVariants(t *testing.T) {
	for _, set := range []map[string]string{
		{"variant": satoinoue.VariantMutCross},
		{"disparity": "true", "population": "50"},
		{"elitism": "2", "mutation-scope": "individual", "population": "60"},
		{"selection": "global"},
		{"selection": "pool", "mutation-draw": "any"},
		{"variant": satoinoue.VariantMutation, "mutation-draw": "any", "restart": "50"},
	} {
		t.Run(fmt.Sprint(set), func(t *testing.T) {
			solvertest.Run(t, satoinoue.Info(), solvertest.Options{Params: set, Easy: []string{"sato-no1"}, Seeds: 2})
		})
	}
}

// mustGrid parses a 4x4 grid with 2x2 boxes.
func mustGrid(t *testing.T, s string) sudokulab.Grid {
	t.Helper()
	g, err := sudokulab.ParseShape(s, sudokulab.Shape{BoxRows: 2, BoxCols: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCrossover checks Fig. 3's operator on a hand-made 4x4 pair: parent A
// is the solution with rows 3 and 4 broken by a swap in box 3, parent B the
// solution with rows 1 and 2 (and columns 1 and 2) broken by a swap in
// box 1. The row child takes band 1 from A and band 2 from B, giving the
// solution; the column child takes stack 1 from A (B's columns there miss
// symbols) and stack 2 is the same in both, so it equals A.
func TestCrossover(t *testing.T) {
	empty := mustGrid(t, "................")
	solution := mustGrid(t, "1234"+"3412"+"2143"+"4321")
	a := mustGrid(t, "1234"+"3412"+"4143"+"2321")
	b := mustGrid(t, "4234"+"3112"+"2143"+"4321")
	for seed := int64(1); seed <= 4; seed++ {
		ind := satoinoue.NewTestEngine(empty, a, b)
		if ind[0].Cost() != 2 || ind[1].Cost() != 4 {
			t.Fatalf("parent costs %d and %d, want 2 and 4", ind[0].Cost(), ind[1].Cost())
		}
		rows, cols := satoinoue.Crossover(ind[0], ind[1], sudokulab.NewRand(seed))
		if got := string(rows.Cells()); got != string(solution.Cells) || rows.Cost() != 0 {
			t.Errorf("seed %d: row child %v cost %d, want the solution, cost 0", seed, rows.Cells(), rows.Cost())
		}
		if got := string(cols.Cells()); got != string(a.Cells) || cols.Cost() != 2 {
			t.Errorf("seed %d: column child %v cost %d, want parent A, cost 2", seed, cols.Cells(), cols.Cost())
		}
	}
}

// TestSwap checks the incremental cost of a swap on a hand-made 4x4 grid.
func TestSwap(t *testing.T) {
	empty := mustGrid(t, "................")
	tests := []struct {
		name    string
		i, j    int
		want    int
		rowMiss [4]int
	}{
		{"same column: rows 3 and 4 lose a symbol each", 8, 12, 2, [4]int{0, 0, 1, 1}},
		{"diagonal: two rows and two columns", 0, 5, 4, [4]int{1, 1, 0, 0}},
		{"same row: two columns", 0, 1, 2, [4]int{0, 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := satoinoue.NewTestEngine(empty, mustGrid(t, "1234"+"3412"+"2143"+"4321"))[0]
			satoinoue.Swap(x, tc.i, tc.j)
			g := sudokulab.Grid{Shape: empty.Shape, Cells: x.Cells()}
			if x.Cost() != tc.want || g.Cost() != tc.want {
				t.Errorf("cost %d (recount %d), want %d", x.Cost(), g.Cost(), tc.want)
			}
			for r, m := range tc.rowMiss {
				if x.RowMissing(r) != m {
					t.Errorf("row %d misses %d, want %d", r+1, x.RowMissing(r), m)
				}
			}
		})
	}
}

// TestOperatorsKeepInvariants fills, mutates and crosses individuals of
// puzzles of several shapes and checks that givens stay, boxes stay
// permutations and the incremental cost equals a recount.
func TestOperatorsKeepInvariants(t *testing.T) {
	sixBySix, err := sudokulab.ParseShape("1....2"+"......"+"..3..."+"...4.."+"......"+"5....6", sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
		{"sato-no106", paperdata.MustGet("sato-no106").Puzzle},
		{"6x6 with 2x3 boxes", sixBySix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := sudokulab.NewRand(1)
			full := tc.puzzle.Clone()
			ind := satoinoue.NewTestEngine(tc.puzzle, full, full)
			check := func(what string, x satoinoue.Individual) {
				t.Helper()
				g := sudokulab.Grid{Shape: tc.puzzle.Shape, Cells: x.Cells()}
				m := g.Missing()
				if m.Boxes != 0 {
					t.Fatalf("%s: boxes miss %d symbols", what, m.Boxes)
				}
				if x.Cost() != m.Total() {
					t.Fatalf("%s: kept cost %d, recount %d", what, x.Cost(), m.Total())
				}
				for i, v := range tc.puzzle.Cells {
					if v != 0 && g.Cells[i] != v {
						t.Fatalf("%s: given at %d changed", what, i)
					}
				}
			}
			for round := 0; round < 200; round++ {
				satoinoue.RandomFill(ind[0], rng)
				satoinoue.RandomFill(ind[1], rng)
				check("fill", ind[0])
				satoinoue.Mutate(ind[0], 0.5, rng)
				check("mutate", ind[0])
				rows, cols := satoinoue.Crossover(ind[0], ind[1], rng)
				check("row child", rows)
				check("column child", cols)
				satoinoue.Mutate(rows, 1, rng)
				check("mutated row child", rows)
			}
		})
	}
}

// TestNoAllocationPerGeneration shows that a longer run allocates no more
// than a short one: all state is made before the first generation.
func TestNoAllocationPerGeneration(t *testing.T) {
	for _, set := range []map[string]string{nil, {"disparity": "true"}, {"variant": "mut-cross", "elitism": "3"}, {"selection": "plus"}, {"avoid-givens": "true"},
		{"selection": "pool", "mutation-draw": "any", "restart": "20"},
		{ac3.ParamName: ac3.AC3}, {ac3.ParamName: ac3.GAC, "disparity": "true", "avoid-givens": "true"}} {
		s := solvertest.New(t, satoinoue.Info(), set)
		p := paperdata.MustGet("ai-escargot").Puzzle
		allocs := func(gens int64) float64 {
			return testing.AllocsPerRun(3, func() {
				s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(1), nil)
			})
		}
		if short, long := allocs(5), allocs(300); long > short {
			t.Errorf("%v: %v allocations for 5 generations, %v for 300", set, short, long)
		}
	}
}

func TestRejectsRepeatedGivenInBox(t *testing.T) {
	g := mustGrid(t, "1..."+".1.."+"...."+"....")
	s, err := satoinoue.New(satoinoue.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(context.Background(), g, sudokulab.Budget{MaxGenerations: 1}, sudokulab.NewRand(1), nil); err == nil {
		t.Error("no error for a box repeating a given")
	}
}

// BenchmarkEscargot runs the paper's settings (mut+cross+LS, population
// 150, 2 children per parent) and the other variants on AI Escargot: one
// op is one generation.
func BenchmarkEscargot(b *testing.B) {
	for _, bc := range []struct {
		name string
		set  map[string]string
	}{
		{"mut-cross-ls", nil},
		{"disparity", map[string]string{"disparity": "true"}},
		{"mut-cross", map[string]string{"variant": "mut-cross"}},
		{"mut-cross-ls-ac3", map[string]string{ac3.ParamName: ac3.AC3}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			info := satoinoue.Info()
			params, _ := info.Resolve(bc.set)
			s, _ := info.New(params)
			p := paperdata.MustGet("ai-escargot").Puzzle
			b.ReportAllocs()
			b.ResetTimer()
			// Runs that solve the puzzle early are followed by runs with
			// the next seeds until b.N generations are done.
			done := int64(0)
			for seed := int64(1); done < int64(b.N); seed++ {
				res, _ := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: int64(b.N) - done}, sudokulab.NewRand(seed), nil)
				done += res.Generations
			}
			b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "gens/s")
		})
	}
}

// TestConformancePropagate runs the suite with the propagate setting, and
// checks it with solvertest.Propagate.
func TestConformancePropagate(t *testing.T) {
	solvertest.Run(t, satoinoue.Info(), solvertest.Options{Params: map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}, Easy: []string{"sato-no27", "sato-no1"}})
	solvertest.Propagate(t, satoinoue.Info(), "sato-no106")
}

func TestConformancePrefilter(t *testing.T) {
	for _, pf := range []string{ac3.AC3, ac3.GAC} {
		t.Run(pf, func(t *testing.T) {
			// AC3 alone solves reseda-easy and sato-no1; sato-no27 first
			// keeps the GA busy for a few generations, deterministically.
			solvertest.Run(t, satoinoue.Info(), solvertest.Options{Params: map[string]string{ac3.ParamName: pf}, Easy: []string{"sato-no27", "reseda-easy", "sato-no1"}})
		})
	}
}

// TestPrefilterKeepsDomains runs generations of several settings after
// AC3 and GAC and checks that every individual of every population, and
// every child, stays within the pruned domains, keeps its boxes
// permutations and its cost equal to a recount.
func TestPrefilterKeepsDomains(t *testing.T) {
	sixBySix, err := sudokulab.ParseShape("1....2"+"......"+"..3..."+"...4.."+"......"+"5....6", sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	if err != nil {
		t.Fatal(err)
	}
	puzzles := []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
		{"sato-no106", paperdata.MustGet("sato-no106").Puzzle},
		{"6x6", sixBySix},
	}
	settings := []satoinoue.Settings{
		{Population: 30},
		{Population: 30, Disparity: true},
		{Population: 30, Variant: satoinoue.VariantMutCross, Elitism: 2, AvoidGivens: true},
		{Population: 30, Variant: satoinoue.VariantMutation, MutationScope: satoinoue.ScopeIndividual},
		{Population: 30, Selection: satoinoue.SelectionPlus, Crossover: 1},
	}
	for _, pf := range []string{ac3.AC3, ac3.GAC} {
		for _, p := range puzzles {
			for si, s := range settings {
				t.Run(fmt.Sprintf("%s/%s/%d", pf, p.name, si), func(t *testing.T) {
					rng := sudokulab.NewRand(int64(si + 1))
					e, d := satoinoue.NewFilteredEngine(s, p.puzzle, pf, rng)
					check := func(gen int, what string, x satoinoue.Individual) {
						t.Helper()
						g := sudokulab.Grid{Shape: p.puzzle.Shape, Cells: x.Cells()}
						if !d.Within(g.Cells) {
							t.Fatalf("generation %d: %s %v leaves the domains", gen, what, g)
						}
						m := g.Missing()
						if m.Boxes != 0 || x.Cost() != m.Total() {
							t.Fatalf("generation %d: %s: boxes miss %d, kept cost %d, recount %d", gen, what, m.Boxes, x.Cost(), m.Total())
						}
					}
					for gen := 0; gen <= 40; gen++ {
						if gen > 0 {
							e.Generation(rng)
						}
						cur, kids := e.Individuals()
						for _, x := range cur {
							check(gen, "individual", x)
						}
						for _, x := range kids[:min(len(kids), 2*len(cur))] {
							if gen > 0 {
								check(gen, "child", x)
							}
						}
					}
				})
			}
		}
	}
}

// TestPrefilterMutation: in the 4x4 puzzle below, AC3 leaves box 1's free
// cells r1c1 and r1c2 with {2,3} (row 1 holds 4, the box 1) and r2c1 with
// {2,3,4}, so every filling puts 4 in r2c1 and the only swap within the
// domains is r1c1 with r1c2: a mutation at rate 1 must make exactly it.
// GAC fixes r2c1 to 4 (a hidden single), which then never moves either.
func TestPrefilterMutation(t *testing.T) {
	puzzle := mustGrid(t, "...4"+".1.."+"...."+"....")
	for _, pf := range []string{ac3.AC3, ac3.GAC} {
		t.Run(pf, func(t *testing.T) {
			rng := sudokulab.NewRand(1)
			e, _ := satoinoue.NewFilteredEngine(satoinoue.Settings{Population: 4}, puzzle, pf, rng)
			cur, _ := e.Individuals()
			for _, x := range cur {
				c := x.Cells()
				if c[4] != 4 || c[0]+c[1] != 5 {
					t.Fatalf("filling %v: want r2c1 = 4 and {r1c1, r1c2} = {2, 3}", c)
				}
			}
			x := cur[0]
			for round := range 50 {
				before := append([]uint8(nil), x.Cells()...)
				satoinoue.Mutate(x, 1, rng)
				after := x.Cells()
				if after[0] != before[1] || after[1] != before[0] || after[4] != 4 {
					t.Fatalf("round %d: box 1 went from %v to %v, want r1c1 and r1c2 swapped", round, before[:6], after[:6])
				}
			}
		})
	}
}

// TestPrefilterNoSolution: a puzzle AC3 proves unsolvable ends unsolved at
// once, with a filled grid that keeps the givens.
func TestPrefilterNoSolution(t *testing.T) {
	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	g := sudokulab.MustParse("...1234.." + ".9......." + "........." + "5........" + "6........" + "7........" + "8........" + "........." + ".........")
	info := satoinoue.Info()
	params, err := info.Resolve(map[string]string{ac3.ParamName: ac3.AC3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := info.New(params)
	if err != nil {
		t.Fatal(err)
	}
	var steps int
	res, err := s.Solve(context.Background(), g, sudokulab.Budget{MaxGenerations: 1000}, sudokulab.NewRand(1), sudokulab.ObserverFunc(func(sudokulab.Step) { steps++ }))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sudokulab.StatusUnsolved || res.Generations != 0 || steps != 1 || !res.Grid.Full() || res.Cost != res.Grid.Cost() {
		t.Errorf("status %s after %d generations and %d steps, grid %s cost %d; want unsolved at once with a full grid", res.Status, res.Generations, steps, res.Grid, res.Cost)
	}
	for i, v := range g.Cells {
		if v != 0 && res.Grid.Cells[i] != v {
			t.Fatalf("given at %d changed", i)
		}
	}
}

// TestMutationDrawAny checks the help-array reading of the mutation on a
// 9x9 puzzle whose only free cells are two cells of box 1: the literal
// draw swaps them at every box mutation, the "any" draw only when both of
// its two distinct draws among the box's 9 cells hit them, with
// probability 2/72.
func TestMutationDrawAny(t *testing.T) {
	sol := paperdata.MustGet("sato-no1").Solution
	puzzle := sol.Clone()
	puzzle.Cells[0], puzzle.Cells[1] = 0, 0
	const tries = 7200
	for _, tc := range []struct {
		draw     string
		min, max int
	}{
		{satoinoue.DrawFree, tries, tries},
		{satoinoue.DrawAny, 150, 250}, // expected 200, sd 14
	} {
		ind := satoinoue.NewTestEngineSettings(satoinoue.Settings{MutationDraw: tc.draw}, puzzle, sol)[0]
		rng := sudokulab.NewRand(1)
		swaps := 0
		for range tries {
			before := ind.Cells()[0]
			satoinoue.Mutate(ind, 1, rng)
			if ind.Cells()[0] != before {
				swaps++
			}
			if c := ind.Cost(); c != 0 && c != 2 {
				t.Fatalf("%s: cost %d after swapping two cells of one row, want 0 or 2", tc.draw, c)
			}
		}
		if swaps < tc.min || swaps > tc.max {
			t.Errorf("draw %s: %d swaps in %d box mutations, want %d to %d", tc.draw, swaps, tries, tc.min, tc.max)
		}
	}
}

// TestRestart checks that Restart starts new attempts when the best stops
// improving: on AI Escargot with a restart after 10 generations without a
// better best, a 300-generation run restarts, reports the restarts in its
// steps and result, and never loses its best grid.
func TestRestart(t *testing.T) {
	s := solvertest.New(t, satoinoue.Info(), map[string]string{"restart": "10", "population": "20"})
	p := paperdata.MustGet("ai-escargot").Puzzle
	var last sudokulab.Step
	var drops int
	r, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 300}, sudokulab.NewRand(3), sudokulab.ObserverFunc(func(st sudokulab.Step) {
		if st.Restarts < last.Restarts || st.BestCost > last.BestCost && st.Generation > 0 {
			t.Fatalf("generation %d: restarts %d, best %d after %d, %d", st.Generation, st.Restarts, st.BestCost, last.Restarts, last.BestCost)
		}
		if st.Restarts > last.Restarts && st.CurrentCost > last.CurrentCost {
			drops++ // a fresh population is worse on average than an evolved one
		}
		last = st
	}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Restarts == 0 || r.Restarts != last.Restarts {
		t.Fatalf("result restarts %d, last step %d: want the same, more than 0", r.Restarts, last.Restarts)
	}
	if drops == 0 {
		t.Errorf("no restart raised the population's mean cost: the population was not renewed")
	}
	for i, v := range p.Cells {
		if v != 0 && r.Grid.Cells[i] != v {
			t.Fatalf("cell %d holds %d, the given is %d", i, r.Grid.Cells[i], v)
		}
	}
	if r.Cost != last.BestCost {
		t.Errorf("result cost %d, best cost of the steps %d", r.Cost, last.BestCost)
	}
}

// TestSelectionPool checks selection=pool: every child survives, so the
// population the next tournaments draw from holds Children times the
// population (the default, per-parent selection, keeps one per parent).
func TestSelectionPool(t *testing.T) {
	p := paperdata.MustGet("sato-no27").Puzzle
	for _, tc := range []struct {
		selection string
		want      int
	}{{satoinoue.SelectionPool, 20}, {satoinoue.SelectionPerParent, 10}} {
		e, _ := satoinoue.NewFilteredEngine(satoinoue.Settings{Population: 10, Selection: tc.selection}, p, ac3.None, sudokulab.NewRand(1))
		rng := sudokulab.NewRand(2)
		for range 3 {
			e.Generation(rng)
		}
		if cur, _ := e.Individuals(); len(cur) != tc.want {
			t.Errorf("selection %s: population of %d after 3 generations of 10 parents x 2 children, want %d", tc.selection, len(cur), tc.want)
		}
	}
}
