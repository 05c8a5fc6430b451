package sudokulab_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sudokulab"
)

func TestMissing(t *testing.T) {
	tests := []struct {
		name    string
		grid    string
		want    sudokulab.Missing
		fitness int
	}{
		{"solved", escargotSolution, sudokulab.Missing{}, 162},
		// Every row 123456789: rows complete, each column holds one symbol
		// (8 missing), each box holds three (6 missing).
		{"equal rows", strings.Repeat("123456789", 9), sudokulab.Missing{Rows: 0, Cols: 72, Boxes: 54}, 90},
		// The paper's example row 2 2 3 3 3 5 6 7 8 misses 1, 4 and 9; the
		// other rows are blank, missing 9 each. Columns 1..9 hold one symbol
		// each (8 missing); boxes 1-3 hold {2,3}, {3,5,6}, {7,8}.
		{"RESEDA example row", "223335678" + strings.Repeat(".", 72), sudokulab.Missing{Rows: 3 + 8*9, Cols: 9 * 8, Boxes: 7 + 6 + 7 + 6*9}, 162 - 75 - 72},
		{"empty 4x4", strings.Repeat(".", 16), sudokulab.Missing{Rows: 16, Cols: 16, Boxes: 16}, 0},
		{"all ones 4x4", strings.Repeat("1", 16), sudokulab.Missing{Rows: 12, Cols: 12, Boxes: 12}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sudokulab.MustParse(tt.grid)
			got := g.Missing()
			if got != tt.want {
				t.Errorf("Missing() = %+v, want %+v", got, tt.want)
			}
			if g.Cost() != tt.want.Total() {
				t.Errorf("Cost() = %d, want %d", g.Cost(), tt.want.Total())
			}
			if f := got.SatoInoueFitness(g.N()); f != tt.fitness {
				t.Errorf("SatoInoueFitness = %d, want %d", f, tt.fitness)
			}
		})
	}
}

// TestTallyDeltas drives a Tally through random sets and swaps on grids of
// several shapes and checks every predicted delta, and the running totals,
// against a full recount.
func TestTallyDeltas(t *testing.T) {
	shapes := []sudokulab.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 3}, {BoxRows: 3, BoxCols: 4}, {BoxRows: 5, BoxCols: 5}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range shapes {
		t.Run(s.String(), func(t *testing.T) {
			g, _ := sudokulab.NewGrid(s)
			n := s.N()
			for i := range g.Cells {
				if rng.IntN(4) > 0 {
					g.Cells[i] = uint8(1 + rng.IntN(n))
				}
			}
			tally := sudokulab.NewTally(s)
			tally.Reset(g.Cells)
			for step := 0; step < 2000; step++ {
				before := g.Missing()
				var predicted sudokulab.Missing
				if step%2 == 0 {
					i, v := rng.IntN(len(g.Cells)), uint8(rng.IntN(n+1))
					predicted = tally.SetDelta(g.Cells, i, v)
					tally.Set(g.Cells, i, v)
				} else {
					i, j := rng.IntN(len(g.Cells)), rng.IntN(len(g.Cells))
					predicted = tally.SwapDelta(g.Cells, i, j)
					tally.Swap(g.Cells, i, j)
				}
				after := g.Missing()
				if want := (sudokulab.Missing{Rows: after.Rows - before.Rows, Cols: after.Cols - before.Cols, Boxes: after.Boxes - before.Boxes}); predicted != want {
					t.Fatalf("step %d: delta %+v, recount says %+v", step, predicted, want)
				}
				if tally.Missing() != after {
					t.Fatalf("step %d: tally %+v, recount %+v", step, tally.Missing(), after)
				}
			}
			geo := g.Geometry()
			for u, cells := range geo.Units {
				seen := map[uint8]bool{}
				for _, c := range cells {
					if g.Cells[c] != 0 {
						seen[g.Cells[c]] = true
					}
				}
				if got := tally.UnitMissing(u); got != n-len(seen) {
					t.Errorf("%s: UnitMissing %d, want %d", geo.UnitName(u), got, n-len(seen))
				}
			}
		})
	}
}

func TestTallyCopyFrom(t *testing.T) {
	g := sudokulab.MustParse(strings.Repeat("123456789", 9))
	a := sudokulab.NewTally(g.Shape)
	a.Reset(g.Cells)
	b := sudokulab.NewTally(g.Shape)
	b.CopyFrom(a)
	if b.Missing() != a.Missing() || b.Count(9, 1) != 9 {
		t.Errorf("copy: %+v, count %d; want %+v, 9", b.Missing(), b.Count(9, 1), a.Missing())
	}
}

func TestTallyDoesNotAllocate(t *testing.T) {
	g := sudokulab.MustParse(escargotSolution)
	tally := sudokulab.NewTally(g.Shape)
	tally.Reset(g.Cells)
	allocs := testing.AllocsPerRun(100, func() {
		_ = tally.SwapDelta(g.Cells, 0, 40)
		tally.Swap(g.Cells, 0, 40)
		_ = tally.SetDelta(g.Cells, 3, 5)
		tally.Set(g.Cells, 3, 5)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per swap and set, want 0", allocs)
	}
}

func BenchmarkTallySwapDelta(b *testing.B) {
	g := sudokulab.MustParse(escargotSolution)
	tally := sudokulab.NewTally(g.Shape)
	tally.Reset(g.Cells)
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += tally.SwapDelta(g.Cells, i%81, (i*7+13)%81).Total()
	}
	_ = sum
}
