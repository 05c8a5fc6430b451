package acs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/acs"
)

// readInstance reads a puzzle in the format of sudoku_acs's instances
// (solvermain.cpp ReadFile): the box side, an unused number, then the
// cells row by row, -1 for an empty cell.
func readInstance(t *testing.T, path string) sudokulab.Grid {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	k, err := strconv.Atoi(f[0])
	if err != nil || len(f) != 2+k*k*k*k {
		t.Fatalf("%s: order %q and %d numbers", path, f[0], len(f))
	}
	g := sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: k, BoxCols: k}, Cells: make([]uint8, k*k*k*k)}
	for i, s := range f[2:] {
		v, err := strconv.Atoi(s)
		if err != nil || v < -1 || v == 0 || v > k*k {
			t.Fatalf("%s: cell %d is %q", path, i, s)
		}
		if v > 0 {
			g.Cells[i] = uint8(v)
		}
	}
	return g
}

// TestInitialMatchesSudokuACS compares the propagated puzzle (Algorithm 1,
// lines 1-4) with what sudoku_acs prints for the same puzzle with
// --showinitial (testdata/initial-sudoku_acs.txt): the same cells fixed to
// the same values, for the 9x9 paper puzzles and for instances of the
// paper's general classes (9x9, 16x16 and 25x25 with 45 % of the cells
// given, from sudoku_acs's instances/general).
func TestInitialMatchesSudokuACS(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "initial-sudoku_acs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cases := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || text == "" {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			t.Fatalf("initial-sudoku_acs.txt:%d: %d fields, want 3", line, len(fields))
		}
		name, grid := fields[0], fields[2]
		count, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("initial-sudoku_acs.txt:%d: count %q", line, fields[1])
		}
		var puzzle sudokulab.Grid
		var want []uint8
		if strings.HasPrefix(name, "inst") {
			puzzle = readInstance(t, filepath.Join("testdata", name+".txt"))
			for _, s := range strings.Split(grid, ",") {
				v, err := strconv.Atoi(s)
				if err != nil {
					t.Fatalf("initial-sudoku_acs.txt:%d: value %q", line, s)
				}
				want = append(want, uint8(v))
			}
		} else {
			puzzle = paperdata.MustGet(name).Puzzle
			for _, ch := range grid {
				if ch == '.' {
					want = append(want, 0)
				} else {
					want = append(want, uint8(ch-'0'))
				}
			}
		}
		cases++
		t.Run(name, func(t *testing.T) {
			col := acs.NewColony(puzzle.Shape, nil, sudokulab.NewRand(1))
			if !col.Start(puzzle.Cells) {
				t.Fatal("start reports the puzzle unsolvable")
			}
			got := col.Initial()
			fixed := 0
			for i := range got {
				if got[i] != 0 {
					fixed++
				}
				if got[i] != want[i] {
					t.Errorf("%s: %d, sudoku_acs %d", puzzle.Geometry().CellName(i), got[i], want[i])
				}
			}
			if fixed != count || col.BestFilled() != count {
				t.Errorf("%d cells fixed (best %d), sudoku_acs %d", fixed, col.BestFilled(), count)
			}
		})
	}
	if cases < 10 {
		t.Fatalf("only %d cases read", cases)
	}
}
