package francoga_test

import (
	"context"
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
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
	params, _ := info.Resolve(nil)
	s, _ := info.New(params)
	p := paperdata.MustGet("ai-escargot").Puzzle
	allocs := func(gens int64) float64 {
		return testing.AllocsPerRun(3, func() {
			s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(1), nil)
		})
	}
	if short, long := allocs(5), allocs(2000); long > short {
		t.Errorf("%v allocations for 5 generations, %v for 2000", short, long)
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
