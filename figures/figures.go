// Package figures draws the plots package's pictures of the runs a
// db.RunSelection selects: it reads them through db, decides the budget
// axis on which the configurations' efforts compare (as compare decides),
// and shapes the rows into the plain values plots draws (trajectories,
// running times, success bars). `sudokulab plot` and report call it; the
// flags stay in cmd.
package figures

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// Spec says which runs a picture draws and how. The zero values of the
// fields a picture does not use are ignored.
type Spec struct {
	Selection db.RunSelection
	// Options are the picture's options; Note is set to say why the axis
	// is not the one asked for.
	Options plots.Options
	// X is the budget axis asked for: evaluations, generations, effort,
	// seconds or cpu, as each picture allows.
	X string
	// AxisAsked is true when X was given by the user: an axis on which the
	// configurations' efforts do not compare is then refused, not
	// replaced by time (see BudgetAxis).
	AxisAsked bool
	// LogY draws the cost (convergence) or the ERT on a log scale.
	LogY bool
	// Panels is puzzle (one panel per puzzle), none, or auto (per puzzle
	// for 2 to 16 puzzles).
	Panels string
	// Quantiles are the two quantiles bounding the convergence band
	// (0.25 and 0.75 when not two).
	Quantiles []float64
	// Rater and By group the success bars: By is label (of Rater),
	// collection or all.
	Rater, By string
	// Ranking ranks the configurations of CD and Profile.
	Ranking ranking.Options
	// Warn receives notes on runs left out and axes replaced; nil
	// discards them.
	Warn io.Writer
}

// Drawn is a picture with what a caption says of it.
type Drawn struct {
	Figure *plots.Figure
	// Axis is the budget axis drawn; AxisNote says why it is not the one
	// asked for ("" when it is).
	Axis, AxisNote string
	// Budgets are the runs' budgets marked on the axis.
	Budgets []float64
}

// Check runs the selection's --where alone on puzzle_catalog and its
// --runs-where alone on run_results, so that a column the view lacks is
// an error naming the flag.
func Check(ctx context.Context, d *db.DB, sel db.RunSelection) error {
	field, err := d.CheckSelectionViews(ctx, sel)
	if err == nil {
		return nil
	}
	hint := map[string]string{
		"where":      "--where filters the puzzle_catalog view, one row per puzzle and collection; --runs-where filters run_results",
		"runs-where": "--runs-where filters the run_results view, one row per run",
	}[field]
	if sudokulab.ErrorCode(err) == sudokulab.EINVALID {
		return sudokulab.Errorf(sudokulab.EINVALID, "plot --%s: %s (%s)", field, strings.TrimPrefix(err.Error(), "sql: "), hint)
	}
	return fmt.Errorf("plot --%s: %w", field, err)
}

// BudgetAxis decides the budget axis of a picture of s (trajectories:
// one drawn from trajectory points, which record evaluations,
// generations and wall-clock seconds only): s.X itself unless it counts
// effort (evaluations, effort) and the selected configurations' efforts
// do not compare on it, as compare decides (compare.EffortUnit): a tree
// search counts search nodes, not evaluations, and drawn on an
// evaluations axis it would solve everything at 0. Then, when s.AxisAsked,
// it refuses with the values of --x to use; else it draws on the time
// that compares them (CPU seconds when recorded for every run, as
// compare.TimeMeasure says; wall-clock seconds for trajectories) and says
// so in note and on s.Warn.
func BudgetAxis(ctx context.Context, d *db.DB, s Spec, trajectories bool) (axis, note string, err error) {
	x := s.X
	if x != "evaluations" && x != "effort" {
		return x, "", nil
	}
	units, allCPU, err := d.SelectionUnits(ctx, s.Selection)
	if err != nil {
		return "", "", fmt.Errorf("plot: %w", err)
	}
	configs := s.Selection.Configs
	slices.SortStableFunc(units, func(a, b db.ConfigUnit) int {
		return slices.Index(configs, a.Config) - slices.Index(configs, b.Config)
	})
	unit, mixed := compare.EffortUnit(units)
	if mixed == nil && (x == "effort" || unit == "evaluations") {
		return x, "", nil
	}
	// Trajectory points record neither CPU time nor nodes.
	alternatives := []string{"--x cpu", "--x seconds"}
	time := compare.TimeMeasure(allCPU)
	if trajectories {
		alternatives, time = []string{"--x seconds"}, compare.Seconds
	}
	why := ""
	if mixed != nil {
		why = mixed.String()
	} else {
		// One unit, but not the evaluations the axis counts.
		why = fmt.Sprintf("%s counts its effort in %s, not evaluations", units[0].Config, unit)
		if !trajectories {
			if !s.AxisAsked {
				return "effort", "", nil
			}
			alternatives = append([]string{"--x effort"}, alternatives...)
		}
	}
	if s.AxisAsked {
		return "", "", sudokulab.Errorf(sudokulab.EINVALID, "plot --x %s: %s: use %s", x, why, strings.Join(alternatives, " or "))
	}
	axis = map[compare.Measure]string{compare.CPU: "cpu", compare.Seconds: "seconds"}[time]
	if s.Warn != nil {
		fmt.Fprintf(s.Warn, "plot: %s: drawn on %s instead of %s\n", why, AxisLabel(axis, ""), x)
	}
	return axis, fmt.Sprintf("on %s: %s", AxisLabel(axis, ""), why), nil
}

// budgetName names the budget lines on axis x: the runs' time limit
// (timeout_ms, wall clock) on an axis of seconds, else their budget.
func budgetName(x string) string {
	if x == "seconds" || x == "cpu" {
		return "wall-clock limit (s)"
	}
	return "budget"
}

// AxisLabel names a budget axis with its unit: unit is the effort unit
// of the effort axis.
func AxisLabel(x, unit string) string {
	switch x {
	case "seconds":
		return "wall-clock seconds"
	case "cpu":
		return "CPU seconds"
	case "effort":
		if unit == "nodes" {
			return "effort (search nodes)"
		}
		return "effort (" + cmp.Or(unit, "evaluations") + ")"
	}
	return x
}

// readErr says what plot was reading when err happened.
func readErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("plot %s: %w", what, err)
}

// configOrder sorts names in the order of configs, else by name.
func configOrder(configs, names []string) {
	slices.SortStableFunc(names, func(a, b string) int { return configCompare(configs, a, b) })
}

// configCompare orders configurations a and b as configOrder does.
func configCompare(configs []string, a, b string) int {
	ia, ib := slices.Index(configs, a), slices.Index(configs, b)
	if ia != ib {
		return ia - ib
	}
	return strings.Compare(a, b)
}

// noRuns is the error for a selection without runs, naming it by the
// flags that make it.
func noRuns(sel db.RunSelection, what string) error {
	var by []string
	if len(sel.Configs) > 0 {
		by = append(by, "--config "+strings.Join(sel.Configs, ","))
	}
	for _, f := range []struct{ flag, v string }{{"experiment", sel.Experiment}, {"where", sel.Where}, {"runs-where", sel.RunsWhere}} {
		if f.v != "" {
			by = append(by, fmt.Sprintf("--%s %q", f.flag, f.v))
		}
	}
	if len(by) == 0 {
		by = append(by, "the database")
	}
	return sudokulab.Errorf(sudokulab.ENOTFOUND, "plot: no %s for %s", what, strings.Join(by, " "))
}

// budgets returns the distinct budgets of the selected runs on the axis x.
func budgets(ctx context.Context, d *db.DB, sel db.RunSelection, x string) ([]float64, error) {
	b, err := d.RunBudgets(ctx, sel, x)
	return b, readErr("budgets", err)
}
