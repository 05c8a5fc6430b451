package figures

import (
	"context"

	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// CD ranks the selected configurations as s.Ranking says and draws
// Demšar's critical-difference diagram of their mean ranks; AxisNote says
// why the scores are not in the unit asked for.
func CD(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	res, err := ranking.Compute(ctx, d, s.Selection, s.Ranking)
	if err != nil {
		return Drawn{}, err
	}
	po := s.Options
	po.Note = res.Note
	fig, err := plots.CDDiagram(plots.CDData{
		Configs: res.Configs, MeanRanks: res.Friedman.MeanRanks, CD: res.CD, Alpha: res.Options.Alpha,
		Puzzles: res.Puzzles, Measure: res.Measure(),
	}, po)
	return Drawn{Figure: fig, AxisNote: res.Note}, err
}

// Profile ranks the selected configurations as s.Ranking says and draws
// Dolan and Moré's performance profiles of their scores per puzzle.
// Counts of evaluations or nodes get 1 added, so that a puzzle solved at
// 0 counts.
func Profile(ctx context.Context, d *db.DB, s Spec) (Drawn, error) {
	res, err := ranking.Compute(ctx, d, s.Selection, s.Ranking)
	if err != nil {
		return Drawn{}, err
	}
	costs := make([][]float64, len(res.Configs))
	for j := range costs {
		for _, row := range res.Scores {
			costs[j] = append(costs[j], row[j])
		}
	}
	shift := 0.0
	if res.Unit == "evaluations" || res.Unit == "nodes" {
		shift = 1
	}
	po := s.Options
	po.Note = res.Note
	fig, err := plots.PerformanceProfile(plots.ProfileData{Configs: res.Configs, Costs: costs, Measure: res.Measure(), Shift: shift}, po)
	return Drawn{Figure: fig, AxisNote: res.Note}, err
}
