package sudokulab_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"sudokulab"
)

const escargotSolution = "162857493534129678789643521475312986913586742628794135356478219241935867897261354"

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		grid string
		want []string // substrings of the error; nil means valid
	}{
		{"puzzle", escargot, nil},
		{"solution", escargotSolution, nil},
		{"row", "11" + strings.Repeat(".", 79), []string{"r1c1 and r1c2 both hold 1 in row 1", "r1c1 and r1c2 both hold 1 in box 1"}},
		{"row only", "1..1" + strings.Repeat(".", 77), []string{"r1c1 and r1c4 both hold 1 in row 1"}},
		{"column and box", "1........" + "1" + strings.Repeat(".", 71), []string{
			"r1c1 and r2c1 both hold 1 in column 1", "r1c1 and r2c1 both hold 1 in box 1"}},
		{"box only", "1.........1" + strings.Repeat(".", 70), []string{"r1c1 and r2c2 both hold 1 in box 1"}},
		{"16x16 letter", "G" + strings.Repeat(".", 15) + "G" + strings.Repeat(".", 239), []string{"r1c1 and r2c1 both hold G in column 1", "r1c1 and r2c1 both hold G in box 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sudokulab.MustParse(tt.grid)
			err := g.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ce *sudokulab.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("Validate() = %v, want a *ConflictError", err)
			}
			if len(ce.Conflicts) != len(tt.want) {
				t.Errorf("%d conflicts, want %d: %v", len(ce.Conflicts), len(tt.want), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestValidateMalformed(t *testing.T) {
	g := sudokulab.Grid{Shape: sudokulab.Classic, Cells: make([]uint8, 80)}
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "80 cells, want 81") {
		t.Errorf("short grid: %v", err)
	}
	g.Cells = make([]uint8, 81)
	g.Cells[5] = 10
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "r1c6 holds 10") {
		t.Errorf("value out of range: %v", err)
	}
}

func TestCheckSolution(t *testing.T) {
	puzzle := sudokulab.MustParse(escargot)
	solution := sudokulab.MustParse(escargotSolution)
	if err := sudokulab.CheckSolution(puzzle, solution); err != nil {
		t.Fatalf("the listed solution: %v", err)
	}
	// Swapping two cells of a row keeps the rows intact but breaks columns;
	// it also moves the given 1 at r1c1.
	swapped := solution.Clone()
	swapped.Cells[0], swapped.Cells[1] = swapped.Cells[1], swapped.Cells[0]
	tests := []struct {
		name string
		sol  sudokulab.Grid
		want string
	}{
		{"changed given", swapped, "r1c1 holds 6 but the given is 1"},
		{"empty cell", puzzle, "r1c2 is empty"},
		{"other shape", sudokulab.MustParse("1234341221434321"), "solution is 4x4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sudokulab.CheckSolution(puzzle, tt.sol)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckSolution = %v, want %q", err, tt.want)
			}
		})
	}
	// A full grid that keeps the givens but breaks a rule.
	empty, _ := sudokulab.NewGrid(sudokulab.Classic)
	if err := sudokulab.CheckSolution(empty, swapped); err == nil || !strings.Contains(err.Error(), "solution breaks the rules: r1c1 and r") {
		t.Errorf("rule-breaking full grid: %v", err)
	}
}

// TestConflictsRandom holds Conflicts against a comparison of every pair
// of cells of every unit, on random grids of several shapes, sparse and
// dense, where conflicts are common and rare.
func TestConflictsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, shape := range []sudokulab.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, sudokulab.Classic, {BoxRows: 4, BoxCols: 4}, {BoxRows: 5, BoxCols: 5}} {
		geo := sudokulab.GeometryOf(shape)
		for n := 0; n < 500; n++ {
			g := sudokulab.Grid{Shape: shape, Cells: make([]uint8, shape.Cells())}
			fill := 1 + rng.IntN(4*shape.N())
			for range fill {
				g.Cells[rng.IntN(len(g.Cells))] = uint8(1 + rng.IntN(shape.N()))
			}
			want := 0
			for _, unit := range geo.Units {
				for i, a := range unit {
					for _, b := range unit[i+1:] {
						if g.Cells[a] != 0 && g.Cells[a] == g.Cells[b] {
							want++
						}
					}
				}
			}
			if got := len(g.Conflicts()); got != want {
				t.Fatalf("%s grid %s: %d conflicts, want %d", shape, g, got, want)
			}
		}
	}
}
