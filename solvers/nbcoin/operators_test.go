package nbcoin_test

import (
	"math"
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/nbcoin"
)

var small = sudokulab.Shape{BoxRows: 2, BoxCols: 2}

// grid4 parses a 4x4 grid.
func grid4(s string) []uint8 {
	g, err := sudokulab.ParseShape(s, small)
	if err != nil {
		panic(err)
	}
	return g.Cells
}

const blank4 = "................"

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestInit checks the models of section IV (Fig. 7) on a hand-made 4x4
// puzzle:
//
//	1 . | . .
//	. . | 3 .
//	----+----
//	. 2 | . .
//	. . | . .
func TestInit(t *testing.T) {
	puzzle := grid4("1..." + "..3." + ".2.." + "....")
	for _, tc := range []struct {
		name string
		set  map[string]string
		cell int
		want []float64
	}{
		{"given", nil, 0, []float64{1, 0, 0, 0}},
		{"r1c2: 1 in its box and row, 2 in its column", nil, 1, []float64{0, 0, 0.5, 0.5}},
		{"r2c2: a single candidate has probability 1", nil, 5, []float64{0, 0, 0, 1}},
		{"r4c4 sees no given", nil, 15, []float64{0.25, 0.25, 0.25, 0.25}},
		{"without pre-computation: 1/n", map[string]string{nbcoin.ParamPrecompute: "false"}, 1, []float64{0.25, 0.25, 0.25, 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := nbcoin.NewEngine(small, tc.set)
			e.Init(puzzle)
			if got := e.M(tc.cell); !near(got, tc.want) {
				t.Errorf("M = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCost(t *testing.T) {
	for _, name := range []string{"sato-no1", "sato-no106", "ai-escargot"} {
		p := paperdata.MustGet(name)
		e := nbcoin.NewEngine(p.Puzzle.Shape, nil)
		e.Init(p.Puzzle.Cells)
		g := make([]uint8, 81)
		rng := sudokulab.NewRand(1)
		for range 50 {
			e.Sample(rng, g)
			m := sudokulab.Grid{Shape: sudokulab.Classic, Cells: g}.Missing()
			if m.Boxes != 0 {
				t.Fatalf("%s: a box is not a permutation: %v", name, g)
			}
			// Cost = 2N^2 - Sato and Inoue's fitness (section II, eq. 1).
			if got, want := e.Cost(g), 162-m.SatoInoueFitness(9); got != want {
				t.Fatalf("%s: cost %d, 162 - fitness = %d", name, got, want)
			}
		}
	}
	if got := nbcoin.NewEngine(small, nil).Cost(grid4("1234" + "3412" + "2143" + "4321")); got != 0 {
		t.Errorf("solved 4x4: cost %d", got)
	}
}

func TestSample(t *testing.T) {
	oneHot := func(k int) []float64 {
		m := make([]float64, 4)
		m[k-1] = 1
		return m
	}
	for _, order := range []string{nbcoin.OrderRandom, nbcoin.OrderSequential, nbcoin.OrderGreedy} {
		t.Run(order+": a permutation model is drawn as it is", func(t *testing.T) {
			e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamOrder: order})
			e.Init(grid4(blank4))
			for j, i := range []int{0, 1, 4, 5} {
				e.SetM(i, oneHot([]int{3, 1, 4, 2}[j])...)
			}
			g := make([]uint8, 16)
			rng := sudokulab.NewRand(1)
			for range 20 {
				e.Sample(rng, g)
				if got := [4]uint8{g[0], g[1], g[4], g[5]}; got != [4]uint8{3, 1, 4, 2} {
					t.Fatalf("box 0 = %v, want [3 1 4 2]", got)
				}
			}
		})
	}
	t.Run("sequential: the first position takes a contested symbol", func(t *testing.T) {
		// r1c1 and r1c2 both want 1; r2c1 wants 2, r2c2 wants 3. Visited
		// in order, r1c1 takes 1; r1c2 has no mass on the unused 2, 3 and
		// 4 and draws one of them uniformly; r2c1 and r2c2 take their
		// symbol if it is still unused, else what is left.
		e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamOrder: nbcoin.OrderSequential})
		e.Init(grid4(blank4))
		for j, i := range []int{0, 1, 4, 5} {
			e.SetM(i, oneHot([]int{1, 1, 2, 3}[j])...)
		}
		g := make([]uint8, 16)
		rng := sudokulab.NewRand(1)
		seen := map[uint8]bool{}
		for range 200 {
			e.Sample(rng, g)
			if g[0] != 1 {
				t.Fatalf("r1c1 = %d, want 1", g[0])
			}
			box := []uint8{g[0], g[1], g[4], g[5]}
			slices.Sort(box)
			if !slices.Equal(box, []uint8{1, 2, 3, 4}) {
				t.Fatalf("box 0 = %v, not a permutation", []uint8{g[0], g[1], g[4], g[5]})
			}
			seen[g[1]] = true
		}
		if len(seen) != 3 {
			t.Errorf("r1c2 took %v, want each of 2, 3 and 4", seen)
		}
	})
	t.Run("givens are kept and boxes are permutations", func(t *testing.T) {
		p := paperdata.MustGet("sato-no106").Puzzle
		e := nbcoin.NewEngine(p.Shape, nil)
		e.Init(p.Cells)
		g := make([]uint8, 81)
		e.Sample(sudokulab.NewRand(3), g)
		for i, v := range p.Cells {
			if v != 0 && g[i] != v {
				t.Fatalf("given %d at %d became %d", v, i, g[i])
			}
		}
		if m := (sudokulab.Grid{Shape: p.Shape, Cells: g}).Missing(); m.Boxes != 0 {
			t.Errorf("boxes miss %d symbols", m.Boxes)
		}
	})
}

func TestRank(t *testing.T) {
	e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamPopulation: "6"})
	if got, want := e.Rank([]int{3, 1, 3, 0, 2, 1}), []int{3, 1, 5, 4, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestUpdate checks eq. 4 and 5 and the bounds on a blank 4x4 grid with a
// population of 4 and C = 25%: one grid rewarded (cost 0), one punished
// (cost 9), k = 0.4, L = 4, so each moves an entry by k/L = 0.1.
func TestUpdate(t *testing.T) {
	best := grid4("1234" + "3412" + "2143" + "4321")
	worst := grid4("2134" + "3412" + "2143" + "4321") // differs in r1c1 and r1c2
	middle := grid4("1234" + "3412" + "2143" + "4321")
	pop := [][]uint8{middle, worst, best, middle}
	costs := []int{4, 9, 0, 4}
	for _, tc := range []struct {
		name  string
		set   map[string]string
		start []float64 // r1c1's model before, nil for the initial one
		want  []float64 // r1c1's model after
	}{
		{"reward 1, punish 2", nil, nil, []float64{0.35, 0.15, 0.25, 0.25}},
		// [1.05, -0.05, 0, 0] clips to [1.05, 0, 0, 0], rescales to
		// [1, 0, 0, 0], and the bound leaves 0.01 for 3 other candidates.
		{"capped with the others at 0", nil, []float64{0.95, 0.05, 0, 0}, []float64{0.99, 0.01 / 3, 0.01 / 3, 0.01 / 3}},
		// [1.0, 0.0, 0.1, 0] rescales to [1/1.1, 0, 0.1/1.1, 0]; capped at
		// 0.9 the rest, 0.1, goes to symbol 3.
		{"capped, the rest in proportion", map[string]string{nbcoin.ParamUpperBound: "0.9"}, []float64{0.9, 0.1, 0.1, 0}, []float64{0.9, 0, 0.1, 0}},
		// With the mean, the group of 1 moves the entries as much.
		{"mean learning, group of 1", map[string]string{nbcoin.ParamLearning: nbcoin.LearnMean}, nil, []float64{0.35, 0.15, 0.25, 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]string{nbcoin.ParamPopulation: "4"}
			for k, v := range tc.set {
				set[k] = v
			}
			e := nbcoin.NewEngine(small, set)
			if e.Group() != 1 {
				t.Fatalf("group of %d", e.Group())
			}
			e.Init(grid4(blank4))
			if tc.start != nil {
				e.SetM(0, tc.start...)
			}
			e.Update(pop, costs)
			if got := e.M(0); !near(got, tc.want) {
				t.Errorf("r1c1: M = %v, want %v", got, tc.want)
			}
			// r2c1 holds 3 in every grid: no change.
			if got := e.M(4); !near(got, []float64{0.25, 0.25, 0.25, 0.25}) {
				t.Errorf("r2c1: M = %v, want unchanged", got)
			}
		})
	}
	t.Run("sum versus mean with groups of 2", func(t *testing.T) {
		// Population 8, C = 25%: two grids rewarded, two punished; both
		// rewarded hold 1 at r1c1 and both punished 2.
		pop8 := [][]uint8{best, best, middle, middle, middle, middle, worst, worst}
		costs8 := []int{0, 0, 4, 4, 4, 4, 9, 9}
		for _, tc := range []struct {
			learning string
			want     []float64
		}{
			{nbcoin.LearnSum, []float64{0.45, 0.05, 0.25, 0.25}},  // +-2 x 0.1
			{nbcoin.LearnMean, []float64{0.35, 0.15, 0.25, 0.25}}, // +-2 x 0.1 / 2
		} {
			e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamPopulation: "8", nbcoin.ParamLearning: tc.learning})
			e.Init(grid4(blank4))
			e.Update(pop8, costs8)
			if got := e.M(0); !near(got, tc.want) {
				t.Errorf("%s: M = %v, want %v", tc.learning, got, tc.want)
			}
		}
	})
	t.Run("a single candidate keeps probability 1", func(t *testing.T) {
		e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamPopulation: "4"})
		// r2c2 can only hold 4 (see TestInit).
		e.Init(grid4("1..." + "..3." + ".2.." + "...."))
		g := grid4("1234" + "3412" + "2143" + "4321")
		conv := e.Update([][]uint8{g, g, g, g}, []int{0, 1, 2, 3})
		if got := e.M(5); !near(got, []float64{0, 0, 0, 1}) {
			t.Errorf("r2c2: M = %v", got)
		}
		if conv <= 0 || conv > 1 {
			t.Errorf("convergence %v", conv)
		}
	})
}

// TestCreditBox checks credit=box on a 4x4 population where the grid
// ranking and box 0's ranking disagree. From the solution
//
//	1 2 | 3 4
//	3 4 | 1 2
//	----+----
//	2 1 | 4 3
//	4 3 | 2 1
//
// y swaps r1c1 and r1c2 (columns 1 and 2 each miss a symbol: cost 2, all
// in box 0's columns); x swaps r3c3 and r4c4 (rows 3, 4 and columns 3, 4
// each miss one: cost 4, none in box 0's rows and columns); z does both
// swaps with r1c1 and r2c2 instead of r1c1 and r1c2 (cost 8). By the whole
// grid y is best; by box 0's rows and columns x is.
func TestCreditBox(t *testing.T) {
	y := grid4("2134" + "3412" + "2143" + "4321")
	x := grid4("1234" + "3412" + "2113" + "4324")
	z := grid4("4234" + "3112" + "2113" + "4324")
	pop := [][]uint8{y, x, z, y}
	costs := []int{2, 4, 8, 2}
	for j, g := range pop {
		if got := nbcoin.NewEngine(small, nil).Cost(g); got != costs[j] {
			t.Fatalf("grid %d: cost %d, want %d", j, got, costs[j])
		}
	}
	for _, tc := range []struct {
		credit string
		want   []float64 // r1c1's model after one update
	}{
		// Rewarded y (2 at r1c1), punished z (4).
		{nbcoin.CreditGrid, []float64{0.25, 0.35, 0.25, 0.15}},
		// Box 0 rewarded x (1 at r1c1), punished z (4).
		{nbcoin.CreditBox, []float64{0.35, 0.25, 0.25, 0.15}},
	} {
		t.Run(tc.credit, func(t *testing.T) {
			e := nbcoin.NewEngine(small, map[string]string{nbcoin.ParamPopulation: "4", nbcoin.ParamCredit: tc.credit})
			e.Init(grid4(blank4))
			e.Update(pop, costs)
			if got := e.M(0); !near(got, tc.want) {
				t.Errorf("r1c1: M = %v, want %v", got, tc.want)
			}
			// Box 3: y is best and z worst (the last of the three at cost
			// 4) either way; r4c4 holds 1 in y and 4 in z.
			if got := e.M(15); !near(got, []float64{0.35, 0.25, 0.25, 0.15}) {
				t.Errorf("r4c4: M = %v", got)
			}
			if tc.credit != nbcoin.CreditBox {
				return
			}
			// Box b's cost: the symbols missing from the rows and the
			// columns through it.
			for j, want := range [][]int{{2, 0, 2, 0}, {0, 2, 2, 4}, {4, 4, 4, 4}, {2, 0, 2, 0}} {
				if got := e.BoxCosts(j); !slices.Equal(got, want) {
					t.Errorf("grid %d: box costs %v, want %v", j, got, want)
				}
			}
		})
	}
}
