package sudokulab

import (
	"errors"
	"fmt"
	"strings"
)

// Conflict is a rule broken by a grid: two cells in one unit hold the same
// symbol. A and B are cell indexes with A < B; Unit is the index of the unit
// in Geometry.Units.
type Conflict struct {
	Unit  int
	A, B  int
	Value int
}

// ConflictError lists the conflicts found in a grid, naming the cells.
type ConflictError struct {
	Geometry  *Geometry
	Conflicts []Conflict
	// Subject says what breaks the rules; empty means "givens".
	Subject string
}

func (e *ConflictError) Error() string {
	const show = 5
	var parts []string
	for i, c := range e.Conflicts {
		if i == show {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Conflicts)-show))
			break
		}
		parts = append(parts, fmt.Sprintf("%s and %s both hold %c in %s",
			e.Geometry.CellName(c.A), e.Geometry.CellName(c.B), Symbols[c.Value-1], e.Geometry.UnitName(c.Unit)))
	}
	subject := e.Subject
	if subject == "" {
		subject = "givens"
	}
	verb := "break"
	if !strings.HasSuffix(subject, "s") {
		verb = "breaks"
	}
	return subject + " " + verb + " the rules: " + strings.Join(parts, "; ")
}

// Conflicts returns every pair of cells that share a unit and a symbol,
// ordered by unit (rows, then columns, then boxes) and cell.
func (g Grid) Conflicts() []Conflict {
	geo := g.Geometry()
	if g.N() <= 64 && !repeats(g.Cells, geo.Units) {
		// Most grids break no rule: one pass with a bit set per unit
		// says so, without comparing every pair of cells.
		return nil
	}
	var out []Conflict
	for u, cells := range geo.Units {
		for i, a := range cells {
			if g.Cells[a] == 0 {
				continue
			}
			for _, b := range cells[i+1:] {
				if g.Cells[a] == g.Cells[b] {
					out = append(out, Conflict{Unit: u, A: a, B: b, Value: int(g.Cells[a])})
				}
			}
		}
	}
	return out
}

// repeats reports whether a unit holds a symbol twice, or a symbol above
// 64, which it cannot tell.
func repeats(cells []uint8, units [][]int) bool {
	for _, unit := range units {
		var seen uint64
		for _, c := range unit {
			if v := cells[c]; v > 64 {
				return true
			} else if v != 0 {
				bit := uint64(1) << (v - 1)
				if seen&bit != 0 {
					return true
				}
				seen |= bit
			}
		}
	}
	return false
}

// Validate checks that the grid is well formed (shape, cell count, symbols
// in range) and that no unit repeats a symbol. A broken rule is reported as
// a *ConflictError naming the cells.
func (g Grid) Validate() error {
	if err := g.Shape.Validate(); err != nil {
		return err
	}
	if len(g.Cells) != g.Shape.Cells() {
		return fmt.Errorf("grid has %d cells, want %d for %s", len(g.Cells), g.Shape.Cells(), g.Shape)
	}
	n := g.N()
	for i, v := range g.Cells {
		if int(v) > n {
			return fmt.Errorf("%s holds %d, above %d", g.Geometry().CellName(i), v, n)
		}
	}
	if c := g.Conflicts(); len(c) > 0 {
		return &ConflictError{Geometry: g.Geometry(), Conflicts: c}
	}
	return nil
}

// CheckSolution reports why solution is not a solution of puzzle: a
// different shape, an empty cell, a changed given, or a broken rule. It
// returns nil for a correct solution.
func CheckSolution(puzzle, solution Grid) error {
	if puzzle.Shape != solution.Shape || len(puzzle.Cells) != len(solution.Cells) {
		return fmt.Errorf("solution is %s, puzzle is %s", solution.Shape, puzzle.Shape)
	}
	geo := puzzle.Geometry()
	for i, v := range solution.Cells {
		if v == 0 {
			return fmt.Errorf("%s is empty", geo.CellName(i))
		}
		if p := puzzle.Cells[i]; p != 0 && p != v {
			return fmt.Errorf("%s holds %c but the given is %c", geo.CellName(i), Symbols[v-1], Symbols[p-1])
		}
	}
	err := solution.Validate()
	var ce *ConflictError
	if errors.As(err, &ce) {
		ce.Subject = "solution"
	}
	return err
}
