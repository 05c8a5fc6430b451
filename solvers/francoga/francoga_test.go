package francoga_test

import (
	"context"
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/francoga"
	"sudokulab/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, francoga.Info(), solvertest.Options{Params: map[string]string{"population": "100", "mutations": "60"}})
}

func grid4(t *testing.T, s string) sudokulab.Grid {
	t.Helper()
	g, err := sudokulab.ParseShape(s, sudokulab.Shape{BoxRows: 2, BoxCols: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCrossover: parent A is the 4x4 solution with r1c1 wrong (box 1, row
// 1 and column 1 miss a symbol), parent B the solution with r4c4 wrong.
// The box child takes box 1 from B and box 4 from A; the line child takes
// row (or column) 1 from B and row (column) 4 from A: both are the
// solution, whichever the coin chose and however ties fall.
func TestCrossover(t *testing.T) {
	empty := grid4(t, "................")
	solution := grid4(t, "1234"+"3412"+"2143"+"4321")
	a := grid4(t, "2234"+"3412"+"2143"+"4321")
	b := grid4(t, "1234"+"3412"+"2143"+"4324")
	for seed := int64(1); seed <= 8; seed++ {
		boxes, lines := francoga.CrossoverOf(empty, a, b, sudokulab.NewRand(seed))
		if !boxes.Equal(solution) || !lines.Equal(solution) {
			t.Errorf("seed %d: children %s and %s, want both %s", seed, boxes, lines, solution)
		}
	}
}

// TestMutationKinds checks that each kind of mutation keeps the givens
// and changes only what it should: a row swap keeps every row's symbols,
// a column swap every column's, a box swap every box's.
func TestMutationKinds(t *testing.T) {
	p := paperdata.MustGet("reseda-medium")
	tests := []struct {
		name    string
		weights [4]float64
		keep    func(m sudokulab.Missing) int // must stay 0 from the solution
	}{
		{"row", [4]float64{1, 0, 0, 0}, func(m sudokulab.Missing) int { return m.Rows }},
		{"column", [4]float64{0, 1, 0, 0}, func(m sudokulab.Missing) int { return m.Cols }},
		{"box", [4]float64{0, 0, 1, 0}, func(m sudokulab.Missing) int { return m.Boxes }},
		{"element", [4]float64{0, 0, 0, 1}, func(sudokulab.Missing) int { return 0 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := francoga.MutateOf(p.Puzzle, p.Solution, tc.weights, 20, sudokulab.NewRand(3))
			if g.Equal(p.Solution) {
				t.Error("20 mutations changed nothing")
			}
			if got := tc.keep(g.Missing()); got != 0 {
				t.Errorf("mutation broke the units it swaps in: %d missing", got)
			}
			for i, v := range p.Puzzle.Cells {
				if v != 0 && g.Cells[i] != v {
					t.Fatalf("given at %d changed", i)
				}
			}
		})
	}
}

func TestNoAllocationPerGeneration(t *testing.T) {
	info := francoga.Info()
	for _, set := range []map[string]string{nil, {ac3.ParamName: ac3.AC3}, {ac3.ParamName: ac3.GAC}} {
		params, err := info.Resolve(set)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := info.New(params)
		p := paperdata.MustGet("ai-escargot").Puzzle
		allocs := func(gens int64) float64 {
			return testing.AllocsPerRun(3, func() {
				s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(1), nil)
			})
		}
		if short, long := allocs(5), allocs(2000); long > short {
			t.Errorf("%v: %v allocations for 5 generations, %v for 2000", set, short, long)
		}
	}
}

// BenchmarkEscargot runs Tabla 3's settings, without and with the AC3
// prefilter, on AI Escargot (which AC3 does not solve); one op is one
// generation.
func BenchmarkEscargot(b *testing.B) {
	for _, pf := range []string{ac3.None, ac3.AC3} {
		b.Run(pf, func(b *testing.B) {
			info := francoga.Info()
			params, _ := info.Resolve(map[string]string{ac3.ParamName: pf})
			s, _ := info.New(params)
			p := paperdata.MustGet("ai-escargot").Puzzle
			b.ReportAllocs()
			done := int64(0)
			for seed := int64(1); done < int64(b.N); seed++ {
				res, _ := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: int64(b.N) - done}, sudokulab.NewRand(seed), nil)
				done += res.Generations
			}
			b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "gens/s")
		})
	}
}

// BenchmarkCaso1 runs Tabla 3's settings on Caso 1 (reseda-medium); one op
// is one generation.
func BenchmarkCaso1(b *testing.B) {
	info := francoga.Info()
	params, _ := info.Resolve(nil)
	s, _ := info.New(params)
	p := paperdata.MustGet("reseda-medium").Puzzle
	b.ReportAllocs()
	done := int64(0)
	for seed := int64(1); done < int64(b.N); seed++ {
		res, _ := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: int64(b.N) - done}, sudokulab.NewRand(seed), nil)
		done += res.Generations
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "gens/s")
}

// TestIncumbent: a population with nothing as good as the incumbent gets it
// in place of its worst individual; one with an equal individual is left
// alone (section 5.1.F: "si en la nueva población no hay un individuo mejor
// o igual a la incumbente, se reemplaza el peor individuo").
func TestIncumbent(t *testing.T) {
	empty := grid4(t, "................")
	cost0 := grid4(t, "1234"+"3412"+"2143"+"4321")
	cost3 := grid4(t, "2234"+"3412"+"2143"+"4321") // row 1, column 1, box 1 miss a symbol
	cost6 := grid4(t, "2234"+"3412"+"2143"+"4324")
	tests := []struct {
		name       string
		incumbent  sudokulab.Grid
		population []sudokulab.Grid
		want       []int
	}{
		{"worse population: worst replaced", cost0, []sudokulab.Grid{cost3, cost6, cost3}, []int{3, 0, 3}},
		{"equal individual: unchanged", cost3, []sudokulab.Grid{cost6, cost3, cost6}, []int{6, 3, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := francoga.IncumbentCase(empty, tc.incumbent, tc.population...)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("costs %v, want %v", got, tc.want)
			}
		})
	}
}

// TestConformancePropagate runs the suite with the propagate setting, and
// checks it with solvertest.Propagate.
func TestConformancePropagate(t *testing.T) {
	solvertest.Run(t, francoga.Info(), solvertest.Options{Params: map[string]string{"population": "100", "mutations": "60", ac3.PropagateParamName: ac3.PropagateHidden}})
	solvertest.Propagate(t, francoga.Info(), "sato-no106")
}

func TestConformancePrefilter(t *testing.T) {
	// AC3 alone solves the suite's easy puzzles; the GA itself runs in the
	// budget, cancel and no-solution checks, and in the tests below.
	for _, pf := range []string{ac3.AC3, ac3.GAC} {
		t.Run(pf, func(t *testing.T) {
			solvertest.Run(t, francoga.Info(), solvertest.Options{Params: map[string]string{"population": "100", "mutations": "60", ac3.ParamName: pf}})
		})
	}
}

// TestPrefilterDeterministic: with a prefilter, the same seed gives the same
// result and trajectory on a puzzle the filter does not solve.
func TestPrefilterDeterministic(t *testing.T) {
	set := map[string]string{ac3.ParamName: ac3.AC3}
	a := solvertest.Digest(t, francoga.Info(), set, "sato-no106", 300, 9)
	if b := solvertest.Digest(t, francoga.Info(), set, "sato-no106", 300, 9); a != b {
		t.Errorf("two runs with seed 9 differ:\n%s\n%s", a, b)
	}
}

// TestPrefilterKeepsDomains runs the GA with every kind of mutation after
// AC3 and GAC and checks that every individual of every generation stays
// within the pruned domains.
func TestPrefilterKeepsDomains(t *testing.T) {
	sixBySix, err := sudokulab.ParseShape("1....2"+"......"+"..3..."+"...4.."+"......"+"5....6", sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, pf := range []string{ac3.AC3, ac3.GAC} {
		for _, p := range []struct {
			name   string
			puzzle sudokulab.Grid
		}{
			{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle},
			{"sato-no106", paperdata.MustGet("sato-no106").Puzzle},
			{"6x6", sixBySix},
		} {
			t.Run(pf+"/"+p.name, func(t *testing.T) {
				s := francoga.Settings{Population: 20, Mutations: 40, Weights: [4]float64{0.25, 0.25, 0.25, 0.25}}
				e, d := francoga.NewFilteredEngine(s, p.puzzle, pf)
				seen := 0
				gens := e.Run(300, sudokulab.NewRand(5), func(gen int64, cells []uint8) {
					seen++
					if !d.Within(cells) {
						t.Fatalf("generation %d: %v leaves the domains", gen, cells)
					}
				})
				if want := 20 * int(gens+1); seen != want {
					t.Errorf("checked %d individuals, want %d", seen, want)
				}
			})
		}
	}
}

// TestPrefilterMutation: in the 4x4 puzzle below AC3 leaves box 1's free
// cells r1c1 and r1c2 with {2,3} (row 1 holds 4, the box 1) and r2c1 with
// {2,3,4}. From the solution, the only box swap within the domains in box
// 1 is r1c1 with r1c2, and an element mutation gives r1c1 or r1c2 only 2
// or 3.
func TestPrefilterMutation(t *testing.T) {
	puzzle := grid4(t, "...4"+".1.."+"...."+"....")
	solution := grid4(t, "2314"+"4132"+"1243"+"3421")
	d, _, err := ac3.Prune(puzzle)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		weights [4]float64
	}{
		{"box", [4]float64{0, 0, 1, 0}},
		{"element", [4]float64{0, 0, 0, 1}},
		{"all kinds", [4]float64{1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := sudokulab.NewRand(2)
			swapped := 0
			for round := range 200 {
				g := francoga.MutateFiltered(puzzle, solution, ac3.AC3, tc.weights, 1, rng)
				if !d.Within(g.Cells) {
					t.Fatalf("round %d: %s leaves the domains", round, g)
				}
				if tc.name == "box" {
					if g.Cells[4] != 4 || g.Cells[0]+g.Cells[1] != 5 {
						t.Fatalf("round %d: box 1 became %v", round, []uint8{g.Cells[0], g.Cells[1], g.Cells[4], g.Cells[5]})
					}
					if g.Cells[0] == 3 {
						swapped++
					}
				}
			}
			if tc.name == "box" && swapped == 0 {
				t.Error("box 1 was never swapped")
			}
		})
	}
}

// TestPrefilterNoSolution: a puzzle AC3 proves unsolvable ends unsolved at
// once, with a filled grid that keeps the givens.
func TestPrefilterNoSolution(t *testing.T) {
	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	g := sudokulab.MustParse("...1234.." + ".9......." + "........." + "5........" + "6........" + "7........" + "8........" + "........." + ".........")
	info := francoga.Info()
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
