package main

import (
	"strings"

	"github.com/spf13/pflag"

	"sudokulab"
	"sudokulab/importers"
)

// decodeFlags are the flags of import, check FILE... and rate FILE... that
// say how to read the files, beyond their format.
type decodeFlags struct {
	symbols, puzzleColumn, solutionColumn string
	ratingColumns                         []string
}

// decodeFlagNames are the names of the flags register adds.
var decodeFlagNames = []string{"symbols", "puzzle-column", "solution-column"}

// register adds the flags but --rating-column to f, their help prefixed by
// prefix (such as "rate FILE...: ").
func (d *decodeFlags) register(f *pflag.FlagSet, prefix string) {
	f.StringVar(&d.symbols, "symbols", "", prefix+"symbol set of large grids, such as 0-F, 1-G, A-P, A-Y or 1-16 (default: detected)")
	f.StringVar(&d.puzzleColumn, "puzzle-column", "", prefix+"CSV column (or JSON field) holding the puzzle (default: a column named puzzle, quizzes ..., else the column of grids)")
	f.StringVar(&d.solutionColumn, "solution-column", "", prefix+"CSV column (or JSON field) holding the solution (default: a column named solution(s), else the column of the puzzles' solutions)")
}

// registerRatings adds --rating-column to f: for import, which stores the
// ratings files give.
func (d *decodeFlags) registerRatings(f *pflag.FlagSet) {
	f.StringArrayVar(&d.ratingColumns, "rating-column", nil, "CSV column or line field COLUMN=RATER whose numbers are stored as ratings by RATER, such as field1=exchange (repeatable)")
}

// options returns the decoding options the flags say, checking them.
func (d *decodeFlags) options() (importers.Options, error) {
	o := importers.Options{Symbols: d.symbols, PuzzleColumn: d.puzzleColumn, SolutionColumn: d.solutionColumn}
	if d.symbols != "" {
		if _, err := importers.ParseSymbols(d.symbols); err != nil {
			return o, err
		}
	}
	for _, rc := range d.ratingColumns {
		col, rater, ok := strings.Cut(rc, "=")
		if !ok || col == "" || rater == "" {
			return o, sudokulab.Errorf(sudokulab.EINVALID, "--rating-column %q: want COLUMN=RATER, such as ER=se-er", rc)
		}
		if o.RatingColumns == nil {
			o.RatingColumns = map[string]string{}
		}
		o.RatingColumns[col] = rater
	}
	return o, nil
}
