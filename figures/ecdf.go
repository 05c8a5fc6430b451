package figures

import (
	"context"
	"fmt"
	"math"
	"slices"

	"sudokulab/db"
	"sudokulab/plots"
)

// ECDF draws, for each selected configuration, the fraction of its runs
// solved within each budget of the axis s.X. Runs that did not record
// what the axis counts are left out and counted on s.Warn.
func ECDF(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	x, note, err := BudgetAxis(ctx, d, s, false)
	out := Drawn{Axis: x, AxisNote: note}
	if err != nil {
		return out, err
	}
	times, err := d.RunTimes(ctx, s.Selection, x)
	if err != nil {
		return out, readErr("ecdf", err)
	}
	if len(times) == 0 {
		return out, noRuns(s.Selection, "runs")
	}
	data, unit, missing := runTimes(times)
	col := db.SpentColumn(x)
	if missing > 0 && s.Warn != nil {
		fmt.Fprintf(s.Warn, "plot ecdf: %d runs left out: no %s recorded (runs older than the column)\n", missing, col)
	}
	if len(data.Series) == 0 {
		return out, noRuns(s.Selection, "runs with "+col)
	}
	slices.SortStableFunc(data.Series, func(a, b plots.RunTimes) int {
		return configCompare(s.Selection.Configs, a.Config, b.Config)
	})
	if out.Budgets, err = budgets(ctx, d, s.Selection, x); err != nil {
		return out, err
	}
	data.XLabel = AxisLabel(x, unit)
	data.Budgets, data.BudgetName = out.Budgets, budgetName(x)
	po := s.Options
	po.Note = note
	out.Figure, err = plots.ECDF(data, po)
	return out, err
}

// runTimes gathers the running times per configuration, in the order
// first met, with the largest spent as Used, and the first effort unit
// met; runs without a time (NaN) are counted in missing.
func runTimes(times []db.RunTime) (data plots.ECDFData, unit string, missing int) {
	unitMet := false
	index := map[string]int{}
	for _, t := range times {
		if math.IsNaN(t.Spent) {
			missing++
			continue
		}
		i, ok := index[t.Config]
		if !ok {
			i = len(data.Series)
			index[t.Config] = i
			data.Series = append(data.Series, plots.RunTimes{Config: t.Config})
		}
		rt := &data.Series[i]
		rt.Runs++
		data.Used = max(data.Used, t.Spent)
		if t.Solved {
			rt.Hits = append(rt.Hits, t.Spent)
		}
		if !unitMet {
			unit, unitMet = t.EffortUnit, true
		}
	}
	return data, unit, missing
}
