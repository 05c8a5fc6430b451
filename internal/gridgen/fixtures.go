package gridgen

import "sudokulab"

// The count fixtures are 25x25 puzzles of Shuffled for tests that need a
// count to two solutions (solvers/exact) of a known length: to cut short
// with a budget, or to kill mid-way. Each has two or more solutions. The
// guesses are those of the exact solver of 2026-11-26 (branching on the
// most constrained cell with the most open peers); the times were taken on
// a loaded 2-core machine and only say the order of magnitude. When the
// solver changes, the tests that use them say so ("want none, for the
// test to mean something"): pick new ones then, the same way.

// SlowCount returns a puzzle whose count does not finish in 90 s (more
// than 4.4 million guesses): Shuffled(5, 0.45, 4).
func SlowCount() sudokulab.Grid { return puzzle(5, 0.45, 4) }

// MediumCount returns a puzzle counted in about 1 s (32,315 guesses):
// Shuffled(5, 0.46, 23).
func MediumCount() sudokulab.Grid { return puzzle(5, 0.46, 23) }

// ShortCount returns a puzzle counted in about 0.4 s (11,866 guesses):
// Shuffled(5, 0.46, 28).
func ShortCount() sudokulab.Grid { return puzzle(5, 0.46, 28) }

// LongCount returns a puzzle counted in about 3.5 s (124,661 guesses):
// Shuffled(5, 0.46, 19).
func LongCount() sudokulab.Grid { return puzzle(5, 0.46, 19) }

func puzzle(b int, frac float64, seed uint64) sudokulab.Grid {
	p, _ := Shuffled(b, frac, seed)
	return p
}
