package runexport

import (
	"fmt"
	"io"
	"strconv"

	"sudokulab"
)

// CSVColumns are the columns of the tidy CSV table, in order: first the
// run's (the same on every row of a run), then the trajectory point's.
// docs/export-runs.md describes each.
var CSVColumns = []string{
	"run_id", "experiment", "config", "solver",
	"puzzle_id", "puzzle_label", "size", "givens", "free_cells",
	"seed", "max_evaluations", "max_generations", "timeout_ms",
	"status", "solved",
	"final_evaluations", "final_generations", "final_restarts", "final_best_cost",
	"wall_seconds", "cpu_seconds", "prefilter_revisions", "nodes", "guesses",
	"effort", "effort_unit",
	"error", "code_version", "host", "started_at", "finished_at",
	"seq", "generation", "evaluations", "seconds", "best_cost", "current_cost", "restarts", "convergence",
}

// runColumns is the number of the run's columns, which start every row.
const runColumns = 31

// CSV writes runs as a tidy long table: one row per trajectory point with
// its run's columns, a header row first. A run without trajectory points
// gets one row holding its final state (seq empty; generation,
// evaluations, seconds, best_cost and restarts the run's final values;
// current_cost and convergence empty). NULL is an empty field.
type CSV struct {
	table
	sum     Summary
	run     []string // the current run's columns
	final   []string // its final-state row's point columns
	points  int64    // points of the current run
	started bool     // a run has started
}

var _ Writer = (*CSV)(nil)

// NewCSV returns a Writer of the CSV table to w. It writes the header with
// the first run, or on Close when there is none.
func NewCSV(w io.Writer) *CSV {
	return &CSV{table: newTable(w, CSVColumns), run: make([]string, 0, len(CSVColumns))}
}

// Summary implements Writer.
func (w *CSV) Summary() Summary { return w.sum }

// Run implements Writer.
func (w *CSV) Run(r *Run) error {
	if w.err != nil {
		return w.err
	}
	if err := w.endRun(); err != nil {
		return w.fail(err)
	}
	if err := w.header(); err != nil {
		return w.fail(err)
	}
	x := &r.Run
	solved := "0"
	if x.Status == sudokulab.StatusSolved {
		solved = "1"
	}
	w.run = append(w.run[:0],
		i64(x.ID), r.Experiment, r.Config, r.Solver,
		i64(x.PuzzleID), r.PuzzleLabel, strconv.Itoa(r.Size), strconv.Itoa(r.Givens), strconv.Itoa(r.FreeCells()),
		i64(x.Seed), i64(x.MaxEvaluations), i64(x.MaxGenerations), i64(x.TimeoutMS),
		string(x.Status), solved,
		i64(x.Evaluations), i64(x.Generations), i64(x.Restarts), optInt(x.BestCost),
		optFloat(x.WallSeconds), optFloat(x.CPUSeconds), optI64(x.PrefilterRevisions), optI64(x.Nodes), optI64(x.Guesses),
		optI64(r.Effort), r.EffortUnit,
		x.Error, x.CodeVersion, x.Host, formatTime(x.StartedAt), formatTime(x.FinishedAt))
	if len(w.run) != runColumns {
		panic(fmt.Sprintf("runexport: %d run columns, want %d", len(w.run), runColumns))
	}
	w.final = append(w.final[:0], "", i64(x.Generations), i64(x.Evaluations), optFloat(x.WallSeconds),
		optInt(x.BestCost), "", i64(x.Restarts), "")
	w.points = 0
	w.started = true
	w.sum.Runs++
	return nil
}

// Point implements Writer.
func (w *CSV) Point(p *sudokulab.TrajectoryPoint) error {
	if w.err != nil {
		return w.err
	}
	if !w.started {
		return w.fail(fmt.Errorf("csv: a trajectory point before any run"))
	}
	w.points++
	w.sum.Points++
	return w.write(strconv.Itoa(p.Seq), i64(p.Generation), i64(p.Evaluations), f64(p.ElapsedSeconds),
		strconv.Itoa(p.BestCost), optFloat(p.CurrentCost), i64(p.Restarts), optFloat(p.Convergence))
}

// Close implements Writer: it writes the last run's final row if it had no
// points, and flushes.
func (w *CSV) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.endRun(); err != nil {
		return w.fail(err)
	}
	return w.close()
}

// endRun writes the final-state row of a run that had no points.
func (w *CSV) endRun() error {
	if !w.started || w.points > 0 {
		return nil
	}
	w.points = 1 // once
	return w.write(w.final...)
}

// write writes one row: the run's columns, then the point's.
func (w *CSV) write(point ...string) error {
	row := append(w.run, point...)
	w.run = row[:runColumns]
	w.sum.Rows++
	if err := w.c.Write(row); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

// f64 prints a measurement to 15 significant digits, the precision a
// float64 sum or mean carries, so 0.1+0.2 prints as 0.3 and not as
// 0.30000000000000004.
func f64(f float64) string { return strconv.FormatFloat(f, 'g', 15, 64) }

func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optI64(p *int64) string {
	if p == nil {
		return ""
	}
	return i64(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return f64(*p)
}
