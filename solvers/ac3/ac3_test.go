package ac3_test

import (
	"errors"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
)

// grid4 parses a 4x4 grid (2x2 boxes).
func grid4(t *testing.T, s string) sudokulab.Grid {
	t.Helper()
	g, err := sudokulab.ParseShape(s, sudokulab.Shape{BoxRows: 2, BoxCols: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSet(t *testing.T) {
	s := ac3.Of(1, 4, 9)
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"String", s.String(), "{1,4,9}"},
		{"Len", s.Len(), 3},
		{"Has 4", s.Has(4), true},
		{"Has 5", s.Has(5), false},
		{"Has 0", s.Has(0), false},
		{"Min", s.Min(), uint8(1)},
		{"Nth 0", s.Nth(0), uint8(1)},
		{"Nth 2", s.Nth(2), uint8(9)},
		{"Nth 3", s.Nth(3), uint8(0)},
		{"Full 9", ac3.Full(9).String(), "{1,2,3,4,5,6,7,8,9}"},
		{"Full 32 Len", ac3.Full(32).Len(), 32},
		{"Single 0", ac3.Single(0), ac3.Set(0)},
		{"Empty String", ac3.Set(0).String(), "{}"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if v, ok := ac3.Single(7).Only(); !ok || v != 7 {
		t.Errorf("Single(7).Only() = %d, %v", v, ok)
	}
	if _, ok := s.Only(); ok {
		t.Errorf("%v.Only() ok", s)
	}
}

func TestDrawIsUniform(t *testing.T) {
	rng := sudokulab.NewRand(1)
	s := ac3.Of(2, 3, 5, 7)
	counts := map[uint8]int{}
	const draws = 40000
	for range draws {
		counts[s.Draw(rng)]++
	}
	if len(counts) != 4 {
		t.Fatalf("drew %v, want only 2, 3, 5, 7", counts)
	}
	for v, c := range counts {
		if c < draws/4-600 || c > draws/4+600 { // about 7 standard deviations
			t.Errorf("value %d drawn %d times of %d", v, c, draws)
		}
	}
	if v := ac3.Set(0).Draw(rng); v != 0 {
		t.Errorf("empty Draw = %d", v)
	}
}

// TestPruneByHand checks AC3 on a 4x4 position worked out by hand: row 1
// holds 1 2 3, so r1c4 is 4; then the boxes and columns lose their givens'
// values, and no other cell is reduced to one value.
func TestPruneByHand(t *testing.T) {
	p := grid4(t, "123. .... .... ....")
	d, st, err := ac3.Prune(p)
	if err != nil {
		t.Fatal(err)
	}
	want := [16]ac3.Set{
		ac3.Of(1), ac3.Of(2), ac3.Of(3), ac3.Of(4),
		ac3.Of(3, 4), ac3.Of(3, 4), ac3.Of(1, 2), ac3.Of(1, 2),
		ac3.Of(2, 3, 4), ac3.Of(1, 3, 4), ac3.Of(1, 2, 4), ac3.Of(1, 2, 3),
		ac3.Of(2, 3, 4), ac3.Of(1, 3, 4), ac3.Of(1, 2, 4), ac3.Of(1, 2, 3),
	}
	for i, w := range want {
		if got := d.Domain(i); got != w {
			t.Errorf("%s: domain %v, want %v", d.Geometry().CellName(i), got, w)
		}
	}
	// 13 empty cells, 13*4 = 52 values, 1+2*4+3*8 = 33 left.
	if st.Empty != 13 || st.Remaining != 33 || st.Removed != 19 || st.Fixed != 1 {
		t.Errorf("stats %+v, want 13 empty, 33 remaining, 19 removed, 1 fixed", st)
	}
	if st.Revisions == 0 {
		t.Errorf("no revisions counted")
	}
	if got := d.Removed(3); got != ac3.Of(1, 2, 3) {
		t.Errorf("removed from r1c4: %v", got)
	}
	if got := d.Removed(0); got != 0 {
		t.Errorf("removed from a given: %v", got)
	}
	if !d.Fixed(3) || !d.Fixed(0) || d.Given(3) || d.Fixed(4) {
		t.Errorf("Fixed/Given wrong")
	}
	if got := d.Grid().String(); got != "1234............" {
		t.Errorf("Grid() = %s", got)
	}
}

// TestGACFindsHiddenSingle: r2c2 and r4c3 hold 4, so in row 1 only r1c4 can
// take 4. AC3 on the binary constraints cannot see it (r1c4 keeps all four
// values); GAC on the row's all-different can.
func TestGACFindsHiddenSingle(t *testing.T) {
	p := grid4(t, ".... .4.. .... ..4.")
	d, _, err := ac3.Prune(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Domain(3); got != ac3.Full(4) {
		t.Errorf("AC3: r1c4 = %v, want all four", got)
	}
	for _, i := range []int{0, 1, 2} {
		if got := d.Domain(i); got != ac3.Of(1, 2, 3) {
			t.Errorf("AC3: %s = %v, want {1,2,3}", d.Geometry().CellName(i), got)
		}
	}
	g, _, err := ac3.PruneGAC(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Domain(3); got != ac3.Of(4) {
		t.Errorf("GAC: r1c4 = %v, want {4}", got)
	}
}

func TestWipeout(t *testing.T) {
	tests := []struct {
		name   string
		puzzle sudokulab.Grid
		cell   int // AC3's wiped-out cell, -1 for any
	}{
		// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
		{"no value left", sudokulab.MustParse("...1234..\n.9.......\n.........\n5........\n6........\n7........\n8........\n.........\n........."), 0},
		{"repeated given", sudokulab.MustParse("11......." + "........." + "........." + "........." + "........." + "........." + "........." + "........." + "........."), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, prune := range []func(sudokulab.Grid) (*ac3.Domains, ac3.Stats, error){ac3.Prune, ac3.PruneGAC} {
				_, _, err := prune(tt.puzzle)
				if !errors.Is(err, ac3.ErrNoSolution) {
					t.Fatalf("err = %v, want ErrNoSolution", err)
				}
				var w *ac3.WipeoutError
				if !errors.As(err, &w) {
					t.Fatalf("err %T is not a *WipeoutError", err)
				}
				if w.Cell < 0 && w.Unit < 0 {
					t.Errorf("wipe-out names neither cell nor unit: %v", err)
				}
			}
			_, _, err := ac3.Prune(tt.puzzle)
			var w *ac3.WipeoutError
			errors.As(err, &w)
			if tt.cell >= 0 && w.Cell != tt.cell {
				t.Errorf("AC3 wiped out cell %d (%v), want %d", w.Cell, err, tt.cell)
			}
		})
	}
}

// TestPaperPuzzles checks, on every paper puzzle, that filtering is sound
// (the solution stays in every domain), that GAC prunes at least as much as
// AC3, and the counts that docs/reproduction-tabu-cuckoo.md quotes: AC3
// alone fixes every cell of the three RESEDA puzzles.
func TestPaperPuzzles(t *testing.T) {
	solvedByAC3 := map[string]bool{"reseda-easy": true, "reseda-medium": true, "reseda-hard": true, "sato-no1": true, "sato-no11": true}
	for _, p := range paperdata.All() {
		t.Run(p.Name, func(t *testing.T) {
			a, sa, err := ac3.Prune(p.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			g, sg, err := ac3.PruneGAC(p.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range p.Solution.Cells {
				if !a.Has(i, v) || !g.Has(i, v) {
					t.Fatalf("%s: solution value %d pruned (ac3 %v, gac %v)", a.Geometry().CellName(i), v, a.Domain(i), g.Domain(i))
				}
				if g.Domain(i)&^a.Domain(i) != 0 {
					t.Fatalf("%s: gac %v not within ac3 %v", a.Geometry().CellName(i), g.Domain(i), a.Domain(i))
				}
			}
			if sa.Empty != 81-p.Givens || sa.Removed+sa.Remaining != 9*sa.Empty {
				t.Errorf("inconsistent stats %+v", sa)
			}
			if got := sa.Fixed == sa.Empty; got != solvedByAC3[p.Name] {
				t.Errorf("AC3 fixes %d of %d cells", sa.Fixed, sa.Empty)
			}
			if sg.Remaining > sa.Remaining {
				t.Errorf("gac leaves %d values, ac3 %d", sg.Remaining, sa.Remaining)
			}
		})
	}
}

func TestApply(t *testing.T) {
	p := paperdata.MustGet("sato-no77").Puzzle
	for _, name := range ac3.Choices {
		d, st, err := ac3.Apply(name, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == ac3.None && (st.Removed != 0 || d.Domain(1) != ac3.Full(9)) {
			t.Errorf("none filtered: %+v", st)
		}
		if name != ac3.None && st.Removed == 0 {
			t.Errorf("%s removed nothing", name)
		}
	}
	if _, _, err := ac3.Apply("ac4", p); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("unknown prefilter: err = %v", err)
	}
	spec := ac3.Param(ac3.None, "Franco et al. §4.1")
	info := sudokulab.SolverInfo{Name: "x", Params: []sudokulab.ParamSpec{spec}}
	params, err := info.Resolve(map[string]string{"prefilter": "gac"})
	if err != nil || params.String(ac3.ParamName) != "gac" {
		t.Errorf("Resolve prefilter=gac: %v %v", params, err)
	}
}

// TestForSolver checks the solvers' entry point: a puzzle the filter
// proves unsolvable gives unfiltered domains and infeasible, not an error.
func TestForSolver(t *testing.T) {
	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	broken := sudokulab.MustParse("...1234.." + ".9......." + "........." + "5........" + "6........" +
		"7........" + "8........" + "........." + ".........")
	d, infeasible, err := ac3.ForSolver(ac3.AC3, broken)
	if err != nil || !infeasible || d == nil || d.Domain(0) != ac3.Full(9) {
		t.Errorf("unsolvable: infeasible %v, err %v", infeasible, err)
	}
	p := paperdata.MustGet("sato-no77").Puzzle
	if d, infeasible, err := ac3.ForSolver(ac3.AC3, p); err != nil || infeasible || d == nil {
		t.Errorf("sato-no77: infeasible %v, err %v", infeasible, err)
	}
	if _, _, err := ac3.ForSolver("ac4", p); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("unknown prefilter: err = %v", err)
	}
}

// TestFillUnit fills every row, column and box of pruned puzzles and checks
// that the result is a permutation of the unit that keeps the givens and
// every cell within its domain, and that it allocates nothing.
func TestFillUnit(t *testing.T) {
	rng := sudokulab.NewRand(3)
	for _, name := range []string{"ai-escargot", "sato-no27", "sato-sd3"} {
		p := paperdata.MustGet(name).Puzzle
		for _, pre := range ac3.Choices {
			d, _, err := ac3.Apply(pre, p)
			if err != nil {
				t.Fatal(err)
			}
			geo := d.Geometry()
			cells := make([]uint8, 81)
			for u := range 27 {
				for range 20 {
					if !d.FillUnit(cells, u, rng) {
						t.Fatalf("%s %s: %s not filled within its domains", name, pre, geo.UnitName(u))
					}
					var seen ac3.Set
					for _, c := range geo.Units[u] {
						if !d.Has(c, cells[c]) {
							t.Fatalf("%s %s: %s = %d outside %v", name, pre, geo.CellName(c), cells[c], d.Domain(c))
						}
						if g := p.Cells[c]; g != 0 && cells[c] != g {
							t.Fatalf("given changed")
						}
						seen |= ac3.Single(cells[c])
					}
					if seen != ac3.Full(9) {
						t.Fatalf("%s %s: %s is not a permutation", name, pre, geo.UnitName(u))
					}
				}
			}
			if n := testing.AllocsPerRun(100, func() { d.FillUnit(cells, 4, rng) }); n != 0 {
				t.Errorf("FillUnit allocates %v times", n)
			}
		}
	}
}

// TestFillUnitNoPermutation: r1c1, r1c2 and r1c3 can only take 1 or 2 (3
// and 4 are in their box or column), a pigeonhole AC3 on the binary
// constraints does not detect: no cell is reduced to one value. FillUnit
// still fills row 1 as a permutation and reports false; GAC proves there is
// no solution.
func TestFillUnitNoPermutation(t *testing.T) {
	p := grid4(t, ".... 34.. ..3. ..4.")
	d, _, err := ac3.Prune(p)
	if err != nil {
		t.Fatalf("AC3: %v", err)
	}
	for _, i := range []int{0, 1, 2} {
		if got := d.Domain(i); got != ac3.Of(1, 2) {
			t.Fatalf("%s = %v, want {1,2}", d.Geometry().CellName(i), got)
		}
	}
	cells := make([]uint8, 16)
	if d.FillUnit(cells, 0, sudokulab.NewRand(1)) {
		t.Errorf("FillUnit reports success on an impossible row: %v", cells[:4])
	}
	if got := ac3.Of(cells[:4]...); got != ac3.Full(4) {
		t.Errorf("row 1 = %v, not a permutation", cells[:4])
	}
	if _, _, err := ac3.PruneGAC(p); !errors.Is(err, ac3.ErrNoSolution) {
		t.Errorf("GAC: err = %v, want ErrNoSolution", err)
	}
}

func BenchmarkFillUnit(b *testing.B) {
	p := paperdata.MustGet("sato-no77").Puzzle
	for _, pre := range ac3.Choices {
		b.Run(pre, func(b *testing.B) {
			d, _, err := ac3.Apply(pre, p)
			if err != nil {
				b.Fatal(err)
			}
			cells := make([]uint8, 81)
			rng := sudokulab.NewRand(1)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				d.FillUnit(cells, i%9, rng) // the rows
			}
		})
	}
}

func BenchmarkPrune(b *testing.B) {
	p := paperdata.MustGet("ai-escargot").Puzzle
	for _, bc := range []struct {
		name  string
		prune func(sudokulab.Grid) (*ac3.Domains, ac3.Stats, error)
	}{{"ac3", ac3.Prune}, {"gac", ac3.PruneGAC}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.prune(p)
			}
		})
	}
}

// TestFillUnitUniform: with full domains every permutation of an empty 4x4
// row is about equally likely (24 of them, 2,400 draws each expected).
func TestFillUnitUniform(t *testing.T) {
	d := ac3.Unfiltered(grid4(t, "................"))
	cells := make([]uint8, 16)
	rng := sudokulab.NewRand(9)
	counts := map[string]int{}
	for range 24 * 2400 {
		if !d.FillUnit(cells, 0, rng) {
			t.Fatal("not filled")
		}
		counts[string(cells[:4])]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d permutations drawn, want 24", len(counts))
	}
	for p, c := range counts {
		if c < 2400-300 || c > 2400+300 { // about 6 standard deviations
			t.Errorf("permutation %v drawn %d times", []byte(p), c)
		}
	}
}
