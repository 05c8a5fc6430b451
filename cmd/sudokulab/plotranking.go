package main

import (
	"cmp"
	"context"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// The plot kinds of a ranking of many configurations.
const (
	plotCD      = "cd"
	plotProfile = "profile"
	plotAggECDF = "aggecdf"
)

// rankPlotFlags are the flags of the ranking's pictures.
type rankPlotFlags struct {
	measure, time string
	timeAsked     bool
	parK, alpha   float64
	aggX          string
}

// checkRanking validates the flags of the ranking's pictures.
func (o *plotOptions) checkRanking(kind string) error {
	if kind == plotAggECDF {
		return oneOf("x", o.rank.aggX, "evaluations", "generations", "seconds")
	}
	m, err := ranking.ParseMeasure(o.rank.measure)
	if err != nil {
		return err
	}
	if kind == plotProfile && m == ranking.Success {
		return sudokulab.Errorf(sudokulab.EINVALID, "plot profile --measure success: a performance profile compares costs; use --measure ert or par")
	}
	if _, err := compare.ParseMeasure(o.rank.time); err != nil {
		return err
	}
	return cmp.Or(ranking.CheckAlpha(o.rank.alpha), ranking.CheckParK(o.rank.parK))
}

// ranked ranks the selected configurations as compare does; without
// --time, efforts in different units are ranked on CPU seconds, as the
// note says.
func (o *plotOptions) ranked(ctx context.Context, d *db.DB) (*ranking.Result, error) {
	m, _ := ranking.ParseMeasure(o.rank.measure)
	var t compare.Measure
	if o.rank.timeAsked {
		t = compare.Measure(o.rank.time)
	}
	res, err := ranking.Compute(ctx, d, db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where, RunsWhere: o.runsWhere},
		ranking.Options{Measure: m, Time: t, ParK: o.rank.parK, Alpha: o.rank.alpha})
	if err != nil {
		return nil, err
	}
	o.axisNote = res.Note
	return res, nil
}

func (o *plotOptions) cdDiagram(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	res, err := o.ranked(ctx, d)
	if err != nil {
		return nil, err
	}
	return plots.CDDiagram(plots.CDData{
		Configs: res.Configs, MeanRanks: res.Friedman.MeanRanks, CD: res.CD, Alpha: res.Options.Alpha,
		Puzzles: res.Puzzles, Measure: res.Measure(),
	}, o.plotOpts())
}

func (o *plotOptions) profile(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	res, err := o.ranked(ctx, d)
	if err != nil {
		return nil, err
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
	return plots.PerformanceProfile(plots.ProfileData{Configs: res.Configs, Costs: costs, Measure: res.Measure(), Shift: shift}, o.plotOpts())
}

func (o *plotOptions) aggECDF(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	return o.draw(ctx, d, figures.AggECDF, figures.Spec{X: o.rank.aggX})
}
