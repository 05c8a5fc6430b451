package figures

import (
	"sudokulab/compare"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// Defaults returns the Request of `sudokulab plot KIND` given no flag but
// its selection: the settings its flags default to, so that another
// caller (the web interface) draws the very picture the command saves.
// An unknown kind gets the settings every kind shares.
func Defaults(kind string) Request {
	r := Request{Kind: kind, Top: plots.MaxSeries}
	switch kind {
	case KindConvergence:
		r.X, r.Panels, r.Quantiles = "generations", "auto", []float64{0.25, 0.75}
	case KindECDF:
		r.X, r.Resamples, r.Level = "evaluations", 1000, 0.95
	case KindSuccess:
		r.Rater, r.By, r.Level = "human", "label", 0.95
	case KindERT:
		r.X, r.LogY, r.Panels = "evaluations", true, "auto"
	case KindScoreboard:
		r.Readings = "readings"
	case KindCD, KindProfile:
		r.Measure, r.Time, r.ParK, r.Alpha = string(ranking.ERT), string(compare.Evaluations), ranking.DefaultParK, ranking.DefaultAlpha
	case KindAggECDF:
		r.X = "evaluations"
	}
	return r
}
