package runexport

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sudokulab"
)

// RunsCSVColumns are the columns of the per-run CSV table, in order: what
// ran (configuration, parameters, puzzle, seed), under which budget, how it
// ended, and its effort in every unit. docs/export-runs.md describes each.
var RunsCSVColumns = []string{
	"run_id", "experiment", "config", "solver", "params",
	"puzzle_id", "puzzle_label", "size", "givens", "free_cells", "seed",
	"max_evaluations", "max_generations", "timeout_ms",
	"status", "solved", "best_cost",
	"evaluations", "generations", "restarts", "nodes", "guesses", "prefilter_revisions",
	"effort", "effort_unit", "wall_seconds", "cpu_seconds",
	"error", "code_version", "host", "started_at", "finished_at",
}

// RunsCSV writes runs as a table of one row per run (its trajectory
// points are left to CSV), a header row first. Numbers are written at the
// precision they carry: counts as integers, seconds to the nanosecond the
// clock measures and no further (13.2, never 13.200000000000017). NULL is
// an empty field.
type RunsCSV struct {
	table
	sum Summary
	row []string
}

var _ Writer = (*RunsCSV)(nil)

// NewRunsCSV returns a Writer of the per-run table to w. It writes the
// header with the first run, or on Close when there is none.
func NewRunsCSV(w io.Writer) *RunsCSV {
	return &RunsCSV{table: newTable(w, RunsCSVColumns), row: make([]string, 0, len(RunsCSVColumns))}
}

// Summary implements Writer: Rows counts the runs.
func (w *RunsCSV) Summary() Summary { return w.sum }

// Run implements Writer.
func (w *RunsCSV) Run(r *Run) error {
	if w.err != nil {
		return w.err
	}
	if err := w.header(); err != nil {
		return w.fail(err)
	}
	x := &r.Run
	solved := "0"
	if x.Status == sudokulab.StatusSolved {
		solved = "1"
	}
	w.row = append(w.row[:0],
		i64(x.ID), r.Experiment, r.Config, r.Solver, r.Params,
		i64(x.PuzzleID), r.PuzzleLabel, strconv.Itoa(r.Size), strconv.Itoa(r.Givens), strconv.Itoa(r.FreeCells()), i64(x.Seed),
		i64(x.MaxEvaluations), i64(x.MaxGenerations), i64(x.TimeoutMS),
		string(x.Status), solved, optInt(x.BestCost),
		i64(x.Evaluations), i64(x.Generations), i64(x.Restarts), optI64(x.Nodes), optI64(x.Guesses), optI64(x.PrefilterRevisions),
		optI64(r.Effort), r.EffortUnit, optSeconds(x.WallSeconds), optSeconds(x.CPUSeconds),
		x.Error, x.CodeVersion, x.Host, formatTime(x.StartedAt), formatTime(x.FinishedAt))
	if len(w.row) != len(RunsCSVColumns) {
		panic(fmt.Sprintf("runexport: %d per-run columns, want %d", len(w.row), len(RunsCSVColumns)))
	}
	if err := w.c.Write(w.row); err != nil {
		return w.fail(fmt.Errorf("csv: %w", err))
	}
	w.sum.Runs++
	w.sum.Rows++
	return nil
}

// Point implements Writer: the per-run table has no points; it counts them.
func (w *RunsCSV) Point(*sudokulab.TrajectoryPoint) error {
	w.sum.Points++
	return w.err
}

// Close implements Writer: it writes the header if no run came, and
// flushes.
func (w *RunsCSV) Close() error { return w.close() }

// table is what the CSV writers share: the CSV writer on a buffer, the
// header written once before the first row, and the first error kept.
type table struct {
	w       *bufio.Writer
	c       *csv.Writer
	columns []string
	headed  bool // the header is written
	err     error
}

func newTable(w io.Writer, columns []string) table {
	bw := bufio.NewWriterSize(w, 64<<10)
	return table{w: bw, c: csv.NewWriter(bw), columns: columns}
}

// header writes the header row once.
func (t *table) header() error {
	if t.headed {
		return nil
	}
	t.headed = true
	if err := t.c.Write(t.columns); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

// close writes the header if no row came, and flushes.
func (t *table) close() error {
	if t.err != nil {
		return t.err
	}
	if err := t.header(); err != nil {
		return t.fail(err)
	}
	t.c.Flush()
	if err := t.c.Error(); err != nil {
		return t.fail(fmt.Errorf("csv: %w", err))
	}
	if err := t.w.Flush(); err != nil {
		return t.fail(fmt.Errorf("csv: %w", err))
	}
	return nil
}

// fail records the first error; later calls return it.
func (t *table) fail(err error) error {
	if t.err == nil {
		t.err = err
	}
	return t.err
}

// Seconds writes a time in seconds at the nanosecond the clocks measure:
// rounded to 9 decimals, trailing zeros dropped ("13.2", "0.000012",
// "3").
func Seconds(s float64) string {
	t := strconv.FormatFloat(s, 'f', 9, 64)
	t = strings.TrimRight(t, "0")
	t = strings.TrimSuffix(t, ".")
	if t == "-0" {
		return "0"
	}
	return t
}

func optSeconds(p *float64) string {
	if p == nil {
		return ""
	}
	return Seconds(*p)
}

// Both writes every run to each of ws, the tables of one export: the
// first's Summary is the export's, the others' files are written beside
// it. The first error stops it.
func Both(ws ...Writer) Writer { return both(ws) }

type both []Writer

func (b both) Run(r *Run) error {
	for _, w := range b {
		if err := w.Run(r); err != nil {
			return err
		}
	}
	return nil
}

func (b both) Point(p *sudokulab.TrajectoryPoint) error {
	for _, w := range b {
		if err := w.Point(p); err != nil {
			return err
		}
	}
	return nil
}

// Close closes every writer, returning the first error.
func (b both) Close() error {
	var first error
	for _, w := range b {
		if err := w.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (b both) Summary() Summary { return b[0].Summary() }
