// Package runexport writes recorded runs, with their trajectories, in the
// formats of the analysis tools researchers use: the IOHprofiler format
// that IOHanalyzer reads (NewIOHprofiler) and a tidy long CSV table for
// pandas and R (NewCSV). Both are written as the runs are read, one run and
// one trajectory point at a time, so an export of any size needs little
// memory. docs/export-runs.md describes both formats and what every field
// means.
package runexport

import (
	"strings"
	"time"

	"sudokulab"
)

// Effort units, the values of Run.EffortUnit.
const (
	// UnitEvaluations counts cost-function evaluations (every solver but
	// exact).
	UnitEvaluations = sudokulab.EffortEvaluations
	// UnitNodes counts the search nodes of the exact solver: its guesses
	// plus the root, which it also records as generations.
	UnitNodes = sudokulab.EffortNodes
)

// Run is one run to export: the stored run with the names and puzzle facts
// it is exported under, as db.ExportRuns reads it.
type Run = sudokulab.ExportedRun

// Writer writes runs in one format as they are read: Run starts a run,
// Point adds its trajectory points in order, Close finishes the last run
// and the files. Run and Point may keep nothing of their argument after
// they return.
type Writer interface {
	Run(r *Run) error
	Point(p *sudokulab.TrajectoryPoint) error
	Close() error
	// Summary says what was written so far.
	Summary() Summary
}

// Summary counts what a Writer wrote.
type Summary struct {
	// Runs and Points are the runs and trajectory points written; Rows the
	// data rows (points, and the rows written for a run's final state).
	Runs, Points, Rows int64
	// Skipped counts the runs left out, and SkippedWhy says why.
	Skipped    int64
	SkippedWhy string
	// Files lists the files written, relative to the output.
	Files []string
}

// timeLayout is the form of timestamps, as the database stores them.
const timeLayout = "2006-01-02T15:04:05.000Z"

// formatTime returns t in timeLayout, or "" for the zero time.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

// safeName returns s as a file name: letters, digits, '.', '-' and '_'
// kept, every other character replaced by '_', at most 100 bytes, and
// never empty, "." or "..".
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '_':
		default:
			b[i] = '_'
		}
	}
	out := string(b)
	if len(out) > 100 {
		out = out[:100]
	}
	if strings.Trim(out, ".") == "" {
		out = "_" + out
	}
	return out
}
