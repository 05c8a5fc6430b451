// Package show writes the stored records the list and show commands of
// sudokulab print (a puzzle, a run, a collection, a configuration, an
// experiment, the solvers, a file's import) in the three output formats of
// --output-format: a page of text for a person (format "table"), or the
// record's fields as CSV or JSON through package tabular. The commands read
// the records; this package only writes them.
package show

import (
	"fmt"
	"time"

	"sudokulab"
	"sudokulab/internal/tabular"
)

type (
	object = tabular.Object
	field  = tabular.Field
)

// SolutionCount describes a solution count found by a search that stopped
// at limit solutions: "0 (no solution)", "1 (unique)", "2 or more".
func SolutionCount(n, limit int) string {
	switch {
	case n == 0:
		return "0 (no solution)"
	case n >= limit:
		return fmt.Sprintf("%d or more", n)
	case n == 1:
		return "1 (unique)"
	}
	return fmt.Sprint(n)
}

// PuzzleCount describes a stored puzzle's count: "1 (unique)",
// "undetermined (...)", "not counted".
func PuzzleCount(p *sudokulab.Puzzle) string {
	switch {
	case p.SolutionCount != nil:
		return SolutionCount(*p.SolutionCount, 2)
	case p.CountStatus == sudokulab.CountUndetermined && p.HasSolution():
		return fmt.Sprintf("undetermined (one found; counting stopped after %v; sudokulab count finishes it)", seconds(p.CountSeconds))
	case p.CountStatus == sudokulab.CountUndetermined:
		return fmt.Sprintf("undetermined (counting stopped after %v; sudokulab count finishes it)", seconds(p.CountSeconds))
	}
	return "not counted"
}

// seconds is s seconds as a duration, to the millisecond.
func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
}

// NullString is s, or nil (NULL) when it is empty.
func NullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullID is id, or nil (NULL) when it is 0.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
