package reseda_test

import (
	"math"
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/reseda"
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

// solved4 is a solved 4x4 grid:
//
//	1 2 | 3 4
//	3 4 | 1 2
//	----+----
//	2 1 | 4 3
//	4 3 | 2 1
const solved4 = "1234" + "3412" + "2143" + "4321"

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

// TestInit checks the initial probabilities of section 2.1 on a hand-made
// 4x4 puzzle:
//
//	1 . | . .
//	. . | 3 .
//	----+----
//	. 2 | . .
//	. . | . .
func TestInit(t *testing.T) {
	puzzle := grid4("1..." + "..3." + ".2.." + "....")
	for _, tc := range []struct {
		name    string
		set     map[string]string
		cell    int
		want    []float64
		wantRho float64
	}{
		{"given", nil, 0, []float64{1, 0, 0, 0}, 0.25},
		{"r1c2 sees 1 in its row and box, 2 in its column", nil, 1, []float64{0, 0, 0.5, 0.5}, 0.25},
		{"r2c2 sees 3, 2 and 1: one candidate", nil, 5, []float64{0, 0, 0, 1}, 0.25},
		{"r4c4 sees nothing", nil, 15, []float64{0.25, 0.25, 0.25, 0.25}, 0.25},
		{"no pre-computation", map[string]string{reseda.ParamPrecompute: "false"}, 1, []float64{0.25, 0.25, 0.25, 0.25}, 0.25},
		{"no pre-computation, given", map[string]string{reseda.ParamPrecompute: "false"}, 0, []float64{1, 0, 0, 0}, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := reseda.NewEngine(small, tc.set)
			rho := e.Init(puzzle)
			if got := e.P(tc.cell); !near(got, tc.want) {
				t.Errorf("p = %v, want %v", got, tc.want)
			}
			if rho != tc.wantRho {
				t.Errorf("rho = %v, want %v", rho, tc.wantRho)
			}
		})
	}
	t.Run("no candidate left: uniform", func(t *testing.T) {
		// r1c1 sees 1 and 2 in its row, 3 in its column, 4 in its box.
		e := reseda.NewEngine(small, nil)
		e.Init(grid4("..12" + ".4.." + "3..." + "...."))
		if got, want := e.P(0), []float64{0.25, 0.25, 0.25, 0.25}; !near(got, want) {
			t.Errorf("p = %v, want %v", got, want)
		}
	})
}

func TestCost(t *testing.T) {
	for _, tc := range []struct {
		name string
		grid string
		want int
	}{
		{"solved", solved4, 0},
		{"r1c1 2 instead of 1: row, column and box each miss 1", "2234" + "3412" + "2143" + "4321", 3},
		{"rows 1 and 2 swapped, in one band: still solved", "3412" + "1234" + "2143" + "4321", 0},
		{"rows 2 and 3 swapped, across bands: each box misses 2", "1234" + "2143" + "3412" + "4321", 8},
		{"all ones: every unit misses 3", "1111" + "1111" + "1111" + "1111", 36},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := reseda.NewEngine(small, nil)
			g := grid4(tc.grid)
			got := e.Cost(g)
			if want := (sudokulab.Grid{Shape: small, Cells: g}).Cost(); got != want {
				t.Errorf("cost %d, sudokulab says %d", got, want)
			}
			if got != tc.want {
				t.Errorf("cost %d, want %d", got, tc.want)
			}
		})
	}
}

// TestSampleBox checks the permutation sampling of section 3.1 with
// probabilities of 1 that decide everything.
func TestSampleBox(t *testing.T) {
	blank := grid4("................")
	oneHot := func(k int) []float64 {
		p := make([]float64, 4)
		p[k-1] = 1
		return p
	}
	for _, tc := range []struct {
		name string
		set  map[string]string
		// box 0 is cells 0, 1, 4, 5; want[i] for those cells.
		p    [4]int
		want [4]uint8
	}{
		{"a permutation is drawn as it is", nil, [4]int{2, 1, 4, 3}, [4]uint8{2, 1, 4, 3}},
		// r1c1 and r1c2 both want 1: r1c1 (first of the equals) takes it;
		// r1c2 then has no probability left on 2 or 4 ... 4 is the only
		// unused symbol when r2c1 and r2c2 have taken 2 and 3.
		{"permutations only: the left-over symbol is dealt", map[string]string{reseda.ParamPrecompute: "false"}, [4]int{1, 1, 2, 3}, [4]uint8{1, 4, 2, 3}},
		{"both: the cell keeps to its own distribution", nil, [4]int{1, 1, 2, 3}, [4]uint8{1, 1, 2, 3}},
		{"univariate: cells drawn independently", map[string]string{reseda.ParamPermutations: "false"}, [4]int{1, 1, 2, 3}, [4]uint8{1, 1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := reseda.NewEngine(small, tc.set)
			e.Init(blank)
			for j, i := range []int{0, 1, 4, 5} {
				e.SetP(i, oneHot(tc.p[j])...)
			}
			g := make([]uint8, 16)
			rng := sudokulab.NewRand(1)
			for range 20 {
				e.Sample(rng, g)
				got := [4]uint8{g[0], g[1], g[4], g[5]}
				if got != tc.want {
					t.Fatalf("box 0 = %v, want %v", got, tc.want)
				}
			}
		})
	}
	t.Run("samples keep the givens and fill every cell", func(t *testing.T) {
		p := paperdata.MustGet("ai-escargot").Puzzle
		e := reseda.NewEngine(p.Shape, nil)
		e.Init(p.Cells)
		g := make([]uint8, 81)
		e.Sample(sudokulab.NewRand(2), g)
		for i, v := range g {
			if v == 0 || p.Cells[i] != 0 && v != p.Cells[i] {
				t.Fatalf("cell %d = %d (given %d)", i, v, p.Cells[i])
			}
		}
	})
}

func TestSelect(t *testing.T) {
	costs := []int{5, 3, 3, 7, 1, 3}
	for _, tc := range []struct {
		selection string
		want      []int
	}{
		// The 3 lowest, earlier first among equals.
		{reseda.SelectSort, []int{4, 1, 2}},
		// The best of {5, 3}, {3, 7}, {1, 3}.
		{reseda.SelectGroups, []int{1, 2, 4}},
	} {
		t.Run(tc.selection, func(t *testing.T) {
			e := reseda.NewEngine(small, map[string]string{reseda.ParamSamples: "6", reseda.ParamBest: "3", reseda.ParamSelection: tc.selection})
			if got := e.Select(costs); !slices.Equal(got, tc.want) {
				t.Errorf("selected %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUpdate checks p <- alpha p + (1-alpha) r with alpha 0.5 from the
// uniform distribution of a blank 4x4 grid and two samples that differ in
// r1c2 and r1c3 only.
func TestUpdate(t *testing.T) {
	e := reseda.NewEngine(small, map[string]string{reseda.ParamAlpha: "0.5", reseda.ParamSamples: "2", reseda.ParamBest: "2"})
	e.Init(grid4("................"))
	a := grid4(solved4)
	b := grid4("1324" + "3412" + "2143" + "4321")
	rho := e.Update(a, b)
	// r1c1: both samples hold 1: 0.5*0.25 + 0.5*1.
	if got, want := e.P(0), []float64{0.625, 0.125, 0.125, 0.125}; !near(got, want) {
		t.Errorf("r1c1: p = %v, want %v", got, want)
	}
	// r1c2: 2 and 3 once each: 0.125 + 0.5*0.5.
	if got, want := e.P(1), []float64{0.125, 0.375, 0.375, 0.125}; !near(got, want) {
		t.Errorf("r1c2: p = %v, want %v", got, want)
	}
	if rho != 0.375 {
		t.Errorf("rho = %v, want 0.375", rho)
	}
}

func TestZones(t *testing.T) {
	six := sudokulab.Shape{BoxRows: 2, BoxCols: 3}
	for _, tc := range []struct {
		name  string
		shape sudokulab.Shape
		zones string
		count int
		first []int // cells of the first zone
		last  []int // cells of the last zone
	}{
		{"9x9 diagonal", sudokulab.Classic, reseda.ZonesDiagonal, 3, []int{0, 1, 2, 9, 10, 11, 18, 19, 20}, []int{60, 61, 62, 69, 70, 71, 78, 79, 80}},
		{"9x9 boxes", sudokulab.Classic, reseda.ZonesBoxes, 9, []int{0, 1, 2, 9, 10, 11, 18, 19, 20}, []int{60, 61, 62, 69, 70, 71, 78, 79, 80}},
		{"9x9 units", sudokulab.Classic, reseda.ZonesUnits, 27, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, []int{60, 61, 62, 69, 70, 71, 78, 79, 80}},
		{"9x9 none", sudokulab.Classic, reseda.ZonesNone, 0, nil, nil},
		// 2x3 boxes: 3 bands, 2 stacks; the diagonal is band 1 stack 1 and
		// band 2 stack 2.
		{"6x6 diagonal", six, reseda.ZonesDiagonal, 2, []int{0, 1, 2, 6, 7, 8}, []int{15, 16, 17, 21, 22, 23}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			z := reseda.ZoneCells(tc.shape, tc.zones)
			if len(z) != tc.count {
				t.Fatalf("%d zones, want %d", len(z), tc.count)
			}
			if tc.count > 0 && (!slices.Equal(z[0], tc.first) || !slices.Equal(z[len(z)-1], tc.last)) {
				t.Errorf("zones %v ... %v, want %v ... %v", z[0], z[len(z)-1], tc.first, tc.last)
			}
		})
	}
}

func TestZoneUsable(t *testing.T) {
	first := grid4("1234" + "3412" + "2243" + "4321") // row 3 repeats 2
	for _, tc := range []struct {
		name  string
		fixed string
		zone  int
		want  bool
	}{
		{"row 1 is a permutation", "................", 0, true},
		{"row 3 is not", "................", 2, false},
		{"row 1 is fixed already", "1234............", 0, false},
		{"row 1 adds one cell", "123.............", 0, true},
		{"column 1 (1 3 2 4)", "................", 4, true},
		{"column 2 (2 4 2 3)", "................", 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reseda.ZoneUsable(small, reseda.ZonesUnits, first, grid4(tc.fixed), tc.zone); got != tc.want {
				t.Errorf("usable = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBlockPermutations(t *testing.T) {
	t.Run("hand-made 4x4", func(t *testing.T) {
		// r1c1 = 1 and r1c4 = 2: r1c2 may hold 3 or 4; r2c1 and r2c2
		// take the rest of {2, 3, 4}.
		p := sudokulab.Grid{Shape: small, Cells: grid4("1..2" + "...." + "...." + "....")}
		cells, perms, err := reseda.BlockPermutations(p, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]uint8{{3, 2, 4}, {3, 4, 2}, {4, 2, 3}, {4, 3, 2}}
		if !slices.Equal(cells, []int{1, 4, 5}) || !slices.EqualFunc(perms, want, slices.Equal) {
			t.Errorf("cells %v perms %v, want [1 4 5] %v", cells, perms, want)
		}
	})
	t.Run("AI Escargot has 24, as section 5.2 says", func(t *testing.T) {
		p := paperdata.MustGet("ai-escargot")
		cells, perms, err := reseda.BlockPermutations(p.Puzzle, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(perms) != 24 {
			t.Fatalf("%d admissible permutations, want 24", len(perms))
		}
		right := make([]uint8, len(cells))
		for i, c := range cells {
			right[i] = p.Solution.Cells[c]
		}
		if got := slices.IndexFunc(perms, func(q []uint8) bool { return slices.Equal(q, right) }) + 1; got != reseda.EscargotBlockPermutation {
			t.Errorf("the solution's permutation is number %d, EscargotBlockPermutation says %d", got, reseda.EscargotBlockPermutation)
		}
	})
	t.Run("no admissible permutation", func(t *testing.T) {
		// r1c1 sees 1, 2, 3 and 4.
		p := sudokulab.Grid{Shape: small, Cells: grid4("..12" + ".4.." + "3..." + "....")}
		if _, perms, err := reseda.BlockPermutations(p, 0); err != nil || perms != nil {
			t.Errorf("perms %v, err %v; want none", perms, err)
		}
	})
}
