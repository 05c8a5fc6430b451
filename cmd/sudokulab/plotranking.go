package main

import (
	"cmp"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/figures"
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

// rankSpec returns the ranking of the flags; without --time, efforts in
// different units are ranked on CPU seconds, as the note says.
func (o *plotOptions) rankSpec() figures.Spec {
	m, _ := ranking.ParseMeasure(o.rank.measure)
	var t compare.Measure
	if o.rank.timeAsked {
		t = compare.Measure(o.rank.time)
	}
	return figures.Spec{Ranking: ranking.Options{Measure: m, Time: t, ParK: o.rank.parK, Alpha: o.rank.alpha}}
}
