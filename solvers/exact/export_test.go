package exact

import (
	"context"

	"sudokulab"
)

// General is a Solver that runs every shape, 9x9 included, on the general
// engine, so that tests can hold the dedicated 9x9 engine against it.
type General struct{ g *general }

// NewGeneral returns a General for the shape.
func NewGeneral(shape sudokulab.Shape) *General { return &General{g: newGeneral(shape)} }

// Solve is Solver.Solve on the general engine.
func (s *General) Solve(ctx context.Context, puzzle sudokulab.Grid, limit int) (Result, error) {
	if err := checkGrid(puzzle); err != nil {
		return Result{}, err
	}
	if limit <= 0 {
		limit = 1
	}
	return s.g.solve(ctx, puzzle, limit)
}

// TouchedUnits returns touchedUnits of the board of cells and the units
// the cells lie in, counted one cell at a time.
func TouchedUnits(cells []int) (got, want uint32) {
	var b board
	for _, c := range cells {
		b[cellWord9[c]] |= cellBit9[c]
		want |= cellUnits9[c]
	}
	return touchedUnits(b[0], b[1]), want
}
