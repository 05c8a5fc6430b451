package report

import (
	"errors"
	"strings"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/ranking"
)

// Ranking is the ranking of an experiment's configurations (package
// ranking), with which the page opens when it holds more than two.
type Ranking struct {
	// Summary says in a sentence what was ranked and what Friedman's test
	// found; Note why the scores are not in the solvers' effort, if so.
	Summary, Note string
	// Label names the score column ("ert_evaluations"), Unit its unit.
	Label, Unit string
	Rows        []RankRow
	// Figures are the ranking's pictures: the critical-difference diagram
	// and the aggregated ECDF.
	Figures []Figure
	// Err says why there is no ranking (no puzzle that every
	// configuration ran on, say).
	Err string
}

// RankRow is one configuration's place.
type RankRow struct {
	Rank     int
	Config   string
	MeanRank float64
	Score    float64
	// ScoreText is Score as the page writes it: a duration when the unit
	// is seconds, else a number.
	ScoreText string
	// VersusBest is the Holm-adjusted p-value of its signed-rank test
	// against the best (NaN for the best).
	VersusBest float64
	Verdict    string
}

// rankingMinConfigs is the fewest configurations that open the page with
// a ranking: two are compared pair by pair.
const rankingMinConfigs = 3

// ranking ranks the experiment's configurations by their ERT (in the
// solvers' effort when they count it in one unit, else in time, as
// ranking.Load decides) when it holds more than two.
func (b *builder) ranking() error {
	if b.rep.Summary.Configs < rankingMinConfigs {
		return nil
	}
	rk := &Ranking{}
	b.rep.Ranking = rk
	res, err := ranking.Compute(b.ctx, b.d, db.RunSelection{Experiment: b.o.Experiment}, ranking.Options{})
	var e *sudokulab.Error
	switch {
	case errors.As(err, &e) && (e.Code == sudokulab.ENOTFOUND || e.Code == sudokulab.EINVALID):
		rk.Err = e.Error()
		return nil
	case err != nil:
		return err
	}
	rk.Summary, rk.Note, rk.Label, rk.Unit = res.Summary(), res.Note, res.Label(), res.Unit
	for i, en := range res.Ranking {
		text := Num(en.Score)
		if strings.HasSuffix(res.Unit, "seconds") {
			text = Duration(en.Score)
		}
		rk.Rows = append(rk.Rows, RankRow{Rank: i + 1, Config: en.Config, MeanRank: en.MeanRank, Score: en.Score, ScoreText: text, VersusBest: en.VersusBest, Verdict: en.Verdict})
	}
	return nil
}
