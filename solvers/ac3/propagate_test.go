package ac3_test

import (
	"math/rand/v2"
	"testing"

	"sudokulab"
	"sudokulab/internal/gridgen"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
)

// fixpoint is the reference: the rules applied naively, pass after pass,
// until nothing changes. ok is false on a contradiction.
func fixpoint(g sudokulab.Grid, hidden bool) (cand []ac3.Set, ok bool) {
	geo := g.Geometry()
	n := geo.N
	cand = make([]ac3.Set, len(g.Cells))
	val := make([]uint8, len(g.Cells))
	for i, v := range g.Cells {
		cand[i] = ac3.Full(n)
		if v != 0 {
			cand[i], val[i] = ac3.Single(v), v
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range cand {
			if val[i] == 0 {
				continue
			}
			for _, j := range geo.Peers[i] {
				if val[j] == val[i] {
					return nil, false
				}
				if val[j] == 0 && cand[j].Has(val[i]) {
					cand[j] &^= ac3.Single(val[i])
					changed = true
				}
			}
		}
		for i := range cand {
			if cand[i] == 0 {
				return nil, false
			}
			if v, one := cand[i].Only(); one && val[i] == 0 {
				val[i], changed = v, true
			}
		}
		if !hidden || changed {
			continue
		}
		for _, unit := range geo.Units {
			for v := uint8(1); int(v) <= n; v++ {
				places, at, placed := 0, -1, false
				for _, c := range unit {
					if val[c] == v {
						placed = true
					} else if val[c] == 0 && cand[c].Has(v) {
						places, at = places+1, c
					}
				}
				switch {
				case placed:
				case places == 0:
					return nil, false
				case places == 1:
					cand[at], val[at], changed = ac3.Single(v), v, true
				}
			}
		}
	}
	return cand, true
}

// puzzles returns grids of several shapes and fillings, some with
// contradictions.
func propagationPuzzles(rng *rand.Rand, count int) []sudokulab.Grid {
	var out []sudokulab.Grid
	for _, name := range []string{"ai-escargot", "sato-no1", "sato-no106", "reseda-hard"} {
		out = append(out, paperdata.MustGet(name).Puzzle)
	}
	for k := range count {
		order := 2 + k%3
		g, _ := gridgen.Shuffled(order, 0.15+0.6*rng.Float64(), uint64(k+1))
		if k%4 == 3 { // a random extra given, often a contradiction
			g.Cells[rng.IntN(len(g.Cells))] = uint8(1 + rng.IntN(g.Shape.N()))
		}
		out = append(out, g)
	}
	return out
}

// TestPropagatorFixpoint compares Reset with the naive fixpoint of the same
// rules on many puzzles, at both levels.
func TestPropagatorFixpoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, level := range []string{ac3.PropagateSingles, ac3.PropagateHidden} {
		for k, g := range propagationPuzzles(rng, 200) {
			p, err := ac3.NewPropagator(g.Shape, level)
			if err != nil {
				t.Fatal(err)
			}
			want, wantOK := fixpoint(g, level == ac3.PropagateHidden)
			if got := p.Reset(g.Cells); got != wantOK {
				t.Fatalf("%s puzzle %d: Reset %v, reference %v", level, k, got, wantOK)
			}
			if !wantOK {
				continue
			}
			for i := range g.Cells {
				if p.Candidates(i) != want[i] {
					t.Fatalf("%s puzzle %d cell %d: %v, reference %v", level, k, i, p.Candidates(i), want[i])
				}
			}
		}
	}
}

// TestPropagatorAssignUndo fixes random candidates one by one, checking
// each state against the reference fixpoint of the grid of the fixed cells,
// and that Undo restores the state of its Mark.
func TestPropagatorAssignUndo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, level := range []string{ac3.PropagateSingles, ac3.PropagateHidden} {
		for k, g := range propagationPuzzles(rng, 60) {
			p, _ := ac3.NewPropagator(g.Shape, level)
			if !p.Reset(g.Cells) {
				continue
			}
			start := snapshot(p, len(g.Cells))
			mark := p.Mark()
			fixed := g.Clone()
			for step := 0; step < 8; step++ {
				i := rng.IntN(len(g.Cells))
				if p.Value(i) != 0 {
					continue
				}
				v := p.Candidates(i).Draw(rng)
				before, m := snapshot(p, len(g.Cells)), p.Mark()
				ok := p.Assign(i, v)
				fixed.Cells[i] = v
				for c := range fixed.Cells {
					if fixed.Cells[c] == 0 {
						fixed.Cells[c] = p.Value(c) // what propagation fixed is implied
					}
				}
				want, wantOK := fixpoint(fixed, level == ac3.PropagateHidden)
				if ok != wantOK {
					t.Fatalf("%s puzzle %d: Assign(%d, %d) %v, reference %v", level, k, i, v, ok, wantOK)
				}
				if ok {
					for c := range want {
						if p.Candidates(c) != want[c] {
							t.Fatalf("%s puzzle %d after Assign(%d, %d): cell %d %v, reference %v", level, k, i, v, c, p.Candidates(c), want[c])
						}
					}
					continue
				}
				p.Undo(m)
				if got := snapshot(p, len(g.Cells)); got != before {
					t.Fatalf("%s puzzle %d: Undo after a contradiction did not restore the state", level, k)
				}
				break
			}
			p.Undo(mark)
			if got := snapshot(p, len(g.Cells)); got != start {
				t.Fatalf("%s puzzle %d: Undo(mark) did not restore the givens' state", level, k)
			}
		}
	}
}

func snapshot(p *ac3.Propagator, cells int) string {
	b := make([]byte, 0, cells*5)
	for i := range cells {
		c := p.Candidates(i)
		b = append(b, byte(c), byte(c>>8), byte(c>>16), byte(c>>24), p.Value(i))
	}
	return string(b)
}

// FuzzPropagator: any grid of givens either propagates to the reference
// fixpoint or fails where the reference fails.
func FuzzPropagator(f *testing.F) {
	f.Add([]byte(paperdata.MustGet("ai-escargot").Puzzle.Cells), true)
	f.Add(make([]byte, 81), false)
	f.Fuzz(func(t *testing.T, cells []byte, hidden bool) {
		if len(cells) < 81 {
			return
		}
		g := sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: 3, BoxCols: 3}, Cells: make([]uint8, 81)}
		for i := range g.Cells {
			g.Cells[i] = cells[i] % 10
		}
		level := ac3.PropagateSingles
		if hidden {
			level = ac3.PropagateHidden
		}
		p, _ := ac3.NewPropagator(g.Shape, level)
		want, wantOK := fixpoint(g, hidden)
		if got := p.Reset(g.Cells); got != wantOK {
			t.Fatalf("Reset %v, reference %v", got, wantOK)
		}
		for i := range want {
			if wantOK && p.Candidates(i) != want[i] {
				t.Fatalf("cell %d: %v, reference %v", i, p.Candidates(i), want[i])
			}
		}
	})
}

// TestPropagatorNoAllocations checks that Reset, Assign and Undo allocate
// nothing.
func TestPropagatorNoAllocations(t *testing.T) {
	g := paperdata.MustGet("ai-escargot").Puzzle
	p, _ := ac3.NewPropagator(g.Shape, ac3.PropagateHidden)
	rng := rand.New(rand.NewPCG(5, 6))
	if n := testing.AllocsPerRun(50, func() {
		p.Reset(g.Cells)
		m := p.Mark()
		for i := range g.Cells {
			if p.Value(i) == 0 {
				if !p.Assign(i, p.Candidates(i).Draw(rng)) {
					p.Undo(m)
				}
				m = p.Mark()
			}
		}
	}); n != 0 {
		t.Errorf("%v allocations per grid", n)
	}
}

// BenchmarkPropagator measures a sampler's use: from the givens' state,
// fix random candidates of the open cells in order, undoing to the last
// mark on a contradiction, until every cell is fixed or tried; reported
// per grid built, on AI Escargot and a 25x25 puzzle with 45 % given.
func BenchmarkPropagator(b *testing.B) {
	g25, _ := gridgen.Shuffled(5, 0.45, 1)
	for _, tc := range []struct {
		name string
		g    sudokulab.Grid
	}{{"ai-escargot", paperdata.MustGet("ai-escargot").Puzzle}, {"25x25-45", g25}} {
		for _, level := range []string{ac3.PropagateSingles, ac3.PropagateHidden} {
			b.Run(tc.name+"/"+level, func(b *testing.B) {
				p, _ := ac3.NewPropagator(tc.g.Shape, level)
				p.Reset(tc.g.Cells)
				rng := rand.New(rand.NewPCG(7, 8))
				b.ReportAllocs()
				for b.Loop() {
					p.Undo(0)
					m := p.Mark()
					for i := range tc.g.Cells {
						if p.Value(i) == 0 {
							if !p.Assign(i, p.Candidates(i).Draw(rng)) {
								p.Undo(m)
							}
							m = p.Mark()
						}
					}
				}
			})
		}
	}
}

// TestFill builds grids box by box, row by row and column by column with
// Fill: every unit filled is a permutation of its symbols, givens stay,
// the same seed gives the same grid, propagation leaves fewer conflicts
// than Domains.FillUnit alone (a tenth fewer at least on AI Escargot, where
// most grids still meet a dead end: about one in 20 comes out solved), and
// nothing is allocated.
func TestFill(t *testing.T) {
	g := paperdata.MustGet("ai-escargot").Puzzle
	geo := g.Geometry()
	n := geo.N
	d := ac3.Unfiltered(g)
	p, _ := ac3.NewPropagator(g.Shape, ac3.PropagateHidden)
	if !p.Reset(g.Cells) {
		t.Fatal("Reset failed on AI Escargot")
	}
	for _, kind := range []struct {
		name  string
		first int
	}{{"rows", 0}, {"columns", n}, {"boxes", 2 * n}} {
		units := make([]int, n)
		for i := range units {
			units[i] = kind.first + i
		}
		cost := func(prop bool, seed uint64) int {
			rng := rand.New(rand.NewPCG(seed, 1))
			total := 0
			for range 50 {
				cells := make([]uint8, len(g.Cells)) // Fill writes the givens too
				if prop {
					p.Fill(cells, units, d, rng)
				} else {
					for _, u := range units {
						d.FillUnit(cells, u, rng)
					}
				}
				for i, v := range g.Cells {
					if v != 0 && cells[i] != v {
						t.Fatalf("%s: given %d changed", kind.name, i)
					}
				}
				for _, u := range units {
					var seen ac3.Set
					for _, c := range geo.Units[u] {
						seen |= ac3.Single(cells[c])
					}
					if seen != ac3.Full(n) {
						t.Fatalf("%s: unit %d is not a permutation", kind.name, u)
					}
				}
				total += sudokulab.Grid{Shape: g.Shape, Cells: cells}.Cost()
			}
			return total
		}
		if a, b := cost(true, 9), cost(true, 9); a != b {
			t.Errorf("%s: the same seed gave costs %d and %d", kind.name, a, b)
		}
		if prop, plain := cost(true, 3), cost(false, 3); prop*10 > plain*9 {
			t.Errorf("%s: total cost %d with propagation, %d without: want a tenth less at least", kind.name, prop, plain)
		}
		cells := append([]uint8(nil), g.Cells...)
		rng := rand.New(rand.NewPCG(5, 5))
		if a := testing.AllocsPerRun(20, func() { p.Fill(cells, units, d, rng) }); a != 0 {
			t.Errorf("%s: %v allocations per Fill", kind.name, a)
		}
	}
}

// TestDraw gives every free cell a symbol with Draw: within its domain,
// givens unchanged, the same seed the same grid, and fewer conflicts than
// drawing each cell from its domain alone (a tenth fewer at least: the
// first dead end ends propagation for the rest of the grid).
func TestDraw(t *testing.T) {
	g := paperdata.MustGet("sato-no106").Puzzle
	d := ac3.Unfiltered(g)
	p, _ := ac3.NewPropagator(g.Shape, ac3.PropagateSingles)
	p.Reset(g.Cells)
	var free []int
	for i, v := range g.Cells {
		if v == 0 {
			free = append(free, i)
		}
	}
	cost := func(prop bool, seed uint64) int {
		rng := rand.New(rand.NewPCG(seed, 2))
		total := 0
		for range 50 {
			cells := append([]uint8(nil), g.Cells...)
			if prop {
				p.Draw(cells, free, d, rng)
			} else {
				for _, c := range free {
					cells[c] = d.Draw(c, rng)
				}
			}
			for i, v := range cells {
				if v == 0 || (g.Cells[i] != 0 && v != g.Cells[i]) {
					t.Fatalf("cell %d: %d", i, v)
				}
			}
			total += sudokulab.Grid{Shape: g.Shape, Cells: cells}.Cost()
		}
		return total
	}
	if a, b := cost(true, 4), cost(true, 4); a != b {
		t.Errorf("the same seed gave costs %d and %d", a, b)
	}
	if prop, plain := cost(true, 1), cost(false, 1); prop*10 > plain*9 {
		t.Errorf("total cost %d with propagation, %d without: want a tenth less at least", prop, plain)
	}
}
