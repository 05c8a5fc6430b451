// Package paperdata holds the puzzles of the five papers sudokulab
// reproduces, as a copy of shared/data/paper-puzzles.csv embedded in the
// binary: every grid there was reconstructed from the papers and checked to
// have exactly one solution. Tests, the conformance suite and the builder
// of lab.db.example read them from here, so nothing depends on a folder
// outside the repository.
package paperdata

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"sudokulab"
)

//go:embed paper-puzzles.csv
var CSV string

// Puzzle is one row of the CSV.
type Puzzle struct {
	// Name is the short name used throughout the lab, such as "sato-no27".
	Name string
	// Paper is the file name of the paper in shared/papers.
	Paper string
	// Label says where in the paper the puzzle appears.
	Label string
	// Level is the paper's difficulty label.
	Level  string
	Givens int
	Puzzle sudokulab.Grid
	// Solution is the unique solution.
	Solution sudokulab.Grid
}

var (
	once    sync.Once
	puzzles []Puzzle
	loadErr error
)

// All returns the puzzles in the order of the file. It panics if the
// embedded file is malformed, which a test rules out.
func All() []Puzzle {
	once.Do(func() { puzzles, loadErr = parse(CSV) })
	if loadErr != nil {
		panic(loadErr)
	}
	return puzzles
}

// Get returns the puzzle with the given name.
func Get(name string) (Puzzle, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Puzzle{}, false
}

// MustGet returns the named puzzle and panics if there is none.
func MustGet(name string) Puzzle {
	p, ok := Get(name)
	if !ok {
		panic("paperdata: no puzzle " + name)
	}
	return p
}

func parse(text string) ([]Puzzle, error) {
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("paper-puzzles.csv: %w", err)
	}
	want := []string{"name", "paper", "label", "level", "givens", "puzzle", "solution"}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("paper-puzzles.csv: header %v, want %v", recs[0], want)
	}
	var out []Puzzle
	for i, r := range recs[1:] {
		line := i + 2
		givens, err := strconv.Atoi(r[4])
		if err != nil {
			return nil, fmt.Errorf("paper-puzzles.csv:%d: givens: %w", line, err)
		}
		p, err := sudokulab.Parse(r[5])
		if err != nil {
			return nil, fmt.Errorf("paper-puzzles.csv:%d: puzzle: %w", line, err)
		}
		s, err := sudokulab.Parse(r[6])
		if err != nil {
			return nil, fmt.Errorf("paper-puzzles.csv:%d: solution: %w", line, err)
		}
		out = append(out, Puzzle{Name: r[0], Paper: r[1], Label: r[2], Level: r[3], Givens: givens, Puzzle: p, Solution: s})
	}
	return out, nil
}
