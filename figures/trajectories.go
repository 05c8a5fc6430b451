package figures

import (
	"context"
	"fmt"
	"slices"

	"sudokulab/db"
	"sudokulab/plots"
)

// Convergence draws the median best cost of each selected configuration
// against the budget axis s.X, from the stored trajectory points.
func Convergence(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	x, note, err := BudgetAxis(ctx, d, s, true)
	out := Drawn{Axis: x, AxisNote: note}
	if err != nil {
		return out, err
	}
	runs, names, err := trajectories(ctx, d, s.Selection, "convergence", x)
	if err != nil {
		return out, err
	}
	if out.Budgets, err = budgets(ctx, d, s.Selection, x); err != nil {
		return out, err
	}
	q := s.Quantiles
	if len(q) != 2 {
		q = []float64{0.25, 0.75}
	}
	po := s.Options
	po.Note, po.LogY = note, s.LogY
	out.Figure, err = plots.Convergence(plots.ConvergenceData{
		Runs: runs, XLabel: AxisLabel(x, ""), Budgets: out.Budgets, BudgetName: budgetName(x), QuantLo: q[0], QuantHi: q[1],
		PerPanel: perPanel(s.Panels, len(names)),
	}, po)
	return out, err
}

// ERT draws the expected running time of each selected configuration to
// reach each target cost, counted on the axis s.X.
func ERT(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	x, note, err := BudgetAxis(ctx, d, s, true)
	out := Drawn{Axis: x, AxisNote: note}
	if err != nil {
		return out, err
	}
	runs, names, err := trajectories(ctx, d, s.Selection, "ert", x)
	if err != nil {
		return out, err
	}
	po := s.Options
	po.Note, po.LogY = note, s.LogY
	out.Figure, err = plots.ERTPlot(plots.ERTData{Runs: runs, XLabel: AxisLabel(x, ""), PerPanel: perPanel(s.Panels, len(names))}, po)
	return out, err
}

// AggECDF draws the runtime ECDF aggregated over the selected puzzles and
// cost targets, on the axis s.X.
func AggECDF(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	x, note, err := BudgetAxis(ctx, d, s, true)
	out := Drawn{Axis: x, AxisNote: note}
	if err != nil {
		return out, err
	}
	runs, _, err := trajectories(ctx, d, s.Selection, "aggecdf", x)
	if err != nil {
		return out, err
	}
	po := s.Options
	po.Note = note
	out.Figure, err = plots.AggregatedECDF(plots.AggECDFData{Runs: runs, XLabel: AxisLabel(x, "")}, po)
	return out, err
}

// panelNames returns the panel title of each selected puzzle: its id, a
// label it has (in a collection the selection's Where matches), and its
// givens.
func panelNames(ctx context.Context, d *db.DB, sel db.RunSelection) (map[int64]string, error) {
	puzzles, err := d.SelectedPuzzles(ctx, sel)
	if err != nil {
		return nil, readErr("puzzles", err)
	}
	out := map[int64]string{}
	for _, p := range puzzles {
		name := fmt.Sprintf("#%d", p.ID)
		if p.Label != "" {
			name += " " + p.Label
		}
		out[p.ID] = fmt.Sprintf("%s (%d givens)", name, p.Givens)
	}
	return out, nil
}

// perPanel decides between one panel per puzzle and one for all.
func perPanel(mode string, puzzles int) bool {
	switch mode {
	case "puzzle":
		return true
	case "none":
		return false
	}
	return puzzles >= 2 && puzzles <= 16
}

// trajectories reads the selected runs' trajectories on the axis x, in
// configuration order, each run's points in order, with what each run
// spent in all, and the panel name of each puzzle.
func trajectories(ctx context.Context, d *db.DB, sel db.RunSelection, what, x string) ([]plots.Trajectory, map[int64]string, error) {
	read, err := d.Trajectories(ctx, sel, x)
	if err != nil {
		return nil, nil, readErr(what, err)
	}
	if len(read) == 0 {
		return nil, nil, noRuns(sel, "runs with trajectory points")
	}
	names, err := panelNames(ctx, d, sel)
	if err != nil {
		return nil, nil, err
	}
	runs := make([]plots.Trajectory, len(read))
	for i, r := range read {
		runs[i] = plots.Trajectory{Config: r.Config, Panel: names[r.PuzzleID], Used: r.Spent, X: r.X, Best: r.Best}
	}
	var configs []string
	for _, r := range runs {
		if !slices.Contains(configs, r.Config) {
			configs = append(configs, r.Config)
		}
	}
	configOrder(sel.Configs, configs)
	slices.SortStableFunc(runs, func(a, b plots.Trajectory) int {
		return slices.Index(configs, a.Config) - slices.Index(configs, b.Config)
	})
	return runs, names, nil
}
