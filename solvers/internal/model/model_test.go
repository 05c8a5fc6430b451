package model_test

import (
	"slices"
	"testing"

	"sudokulab"
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
