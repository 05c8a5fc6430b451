package model_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/internal/model"
)

func TestModel(t *testing.T) {
	shape := sudokulab.Shape{BoxRows: 2, BoxCols: 2}
	g, err := sudokulab.ParseShape("12.."+"...."+"...."+"3...", shape)
	if err != nil {
		t.Fatal(err)
	}
	geo := g.Geometry()
	masks := make([]uint32, 3*geo.N)
	geo.UnitMasks(g.Cells, masks)
	// r1c3 sees 1 and 2 in its row: 3 and 4 are left.
	if got := model.Candidates(geo, masks, 2, 0b1111); got != 0b1100 {
		t.Errorf("candidates of r1c3 %04b, want 1100", got)
	}
	// With a domain of {1, 2} nothing is left, so the domain comes back.
	if got := model.Candidates(geo, masks, 2, 0b0011); got != 0b0011 {
		t.Errorf("candidates of r1c3 in {1,2} %04b, want the domain 0011", got)
	}
	row := []float64{9, 9, 9, 9}
	model.Uniform(row, 0b1010)
	if want := []float64{9, 0.5, 9, 0.5}; !slices.Equal(row, want) {
		t.Errorf("uniform row %v, want %v", row, want)
	}
	start := make([]int32, geo.N+1)
	free := model.BoxFree(geo, g.Cells, make([]int32, 0, len(g.Cells)), start)
	// Box 0 holds r1c1, r1c2 (given), r2c1, r2c2; box 2 holds r4c1 (given).
	if want := []int32{4, 5}; !slices.Equal(free[start[0]:start[1]], want) {
		t.Errorf("free cells of box 0 %v, want %v", free[start[0]:start[1]], want)
	}
	if int(start[geo.N]) != len(free) || len(free) != 16-3 {
		t.Errorf("%d free cells, start %v; want 13", len(free), start)
	}
}

func TestCost(t *testing.T) {
	solved := sudokulab.MustParse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
	swapped := solved.Clone()
	swapped.Cells[0], swapped.Cells[1] = swapped.Cells[1], swapped.Cells[0] // 5 and 3 swap in row 1, box 1
	ones := sudokulab.MustParse(strings.Repeat("1", 81))
	for _, g := range []sudokulab.Grid{solved, swapped, ones} {
		geo := g.Geometry()
		masks := make([]uint32, 3*geo.N)
		if got, want := model.Cost(geo, masks, g.Cells), g.Cost(); got != want {
			t.Errorf("Cost(%s) = %d, want Grid.Cost %d", g, got, want)
		}
		want := make([]uint32, 3*geo.N)
		geo.UnitMasks(g.Cells, want)
		if !slices.Equal(masks, want) {
			t.Errorf("Cost(%s) left masks %v, want the unit masks %v", g, masks, want)
		}
	}
}

func TestStart(t *testing.T) {
	classic := sudokulab.MustParse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	// r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
	dead := sudokulab.MustParse("...1234..\n.9.......\n.........\n5........\n6........\n7........\n8........\n.........\n.........")
	tests := []struct {
		name      string
		puzzle    sudokulab.Grid
		prefilter string
		wantErr   string // the error starts so
		wantDone  bool   // the prefilter proves no solution
	}{
		{"classic", classic, ac3.AC3, "", false},
		{"classic unfiltered", classic, ac3.None, "", false},
		{"bad shape", sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: 0, BoxCols: 3}}, ac3.None, "nb-coin", false},
		{"short grid", sudokulab.Grid{Shape: sudokulab.Classic, Cells: make([]uint8, 80)}, ac3.None, "nb-coin: 80 cells for a 9x9", false},
		{"unknown prefilter", classic, "bogus", "", false},
		{"no value left", dead, ac3.AC3, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			d, _, res, err := model.Start("nb-coin", tt.prefilter, tt.puzzle, rng)
			switch {
			case tt.name == "unknown prefilter":
				if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
					t.Fatalf("err = %v, want EINVALID", err)
				}
				return
			case tt.wantErr != "":
				if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want EINVALID starting %q", err, tt.wantErr)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if !tt.wantDone {
				if res != nil || d == nil {
					t.Fatalf("Start = %v, %+v; want domains and no result", d, res)
				}
				return
			}
			if res == nil || d != nil {
				t.Fatalf("Start = %v, %v; want a result and no domains", d, res)
			}
			g := res.Grid
			if res.Status != sudokulab.StatusUnsolved || res.Evaluations != 1 || res.Generations != 0 || res.Cost != g.Cost() {
				t.Errorf("result %+v (grid cost %d)", res, g.Cost())
			}
			for i, v := range tt.puzzle.Cells {
				if v != 0 && g.Cells[i] != v {
					t.Errorf("cell %d holds %d, want the given %d", i, g.Cells[i], v)
				}
			}
			if m := g.Missing(); m.Boxes != 0 || !g.Full() {
				t.Errorf("boxes not filled with permutations: %s", g)
			}
		})
	}
}
