package web

import (
	"net/http"
	"net/url"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
)

// The comparison of two configurations of an experiment, picked on its
// page (?a=CONFIG&b=CONFIG), as `sudokulab compare --experiment` makes it:
// per puzzle and overall, success counts with Fisher's exact test, time to
// solve with the log-rank test and Mann-Whitney U, ERT with its bootstrap
// interval, per-puzzle p-values Holm-adjusted.

// compareData is the comparison page.
type compareData struct {
	Experiment string   `json:"experiment"`
	Configs    []string `json:"configs"`
	A          string   `json:"a"`
	B          string   `json:"b"`
	// Unit is the unit of the times (evaluations, nodes, seconds).
	Unit          string       `json:"unit,omitempty"`
	Overall       *compareRow  `json:"overall,omitempty"`
	Puzzles       []compareRow `json:"puzzles"`
	SharedPuzzles int          `json:"shared_puzzles"`
	// PuzzleRows counts the comparison's puzzles; Puzzles lists the
	// first comparePuzzles of them unless all=1 (AllURL) asks for all.
	PuzzleRows int    `json:"puzzle_rows"`
	AllURL     string `json:"all_url,omitempty"`
}

// comparePuzzles is how many puzzles a comparison lists unless asked for
// all: an experiment on 25,000 puzzles would make a page of megabytes.
const comparePuzzles = 200

// compareRow is a compare.Row with NaN (not computed) as null.
type compareRow struct {
	Puzzle          int64    `json:"puzzle,omitempty"`
	A, B            side     `json:"-"`
	SidesJSON       [2]side  `json:"sides"`
	Fisher          *float64 `json:"fisher_p"`
	LogRank         *float64 `json:"logrank_p"`
	MannWhitney     *float64 `json:"mann_whitney_p"`
	FisherHolm      *float64 `json:"fisher_p_holm,omitempty"`
	LogRankHolm     *float64 `json:"logrank_p_holm,omitempty"`
	MannWhitneyHolm *float64 `json:"mann_whitney_p_holm,omitempty"`
}

type side struct {
	Runs         int      `json:"runs"`
	Solved       int      `json:"solved"`
	MedianSolved *float64 `json:"median_solved"`
	ERT          *float64 `json:"ert"`
	ERTLow       *float64 `json:"ert_low"`
	ERTHigh      *float64 `json:"ert_high"`
}

func sideOf(s compare.Side) side {
	return side{Runs: s.Runs, Solved: s.Solved, MedianSolved: finite(s.MedianSolved),
		ERT: finite(s.ERT.Estimate), ERTLow: finite(s.ERT.Low), ERTHigh: finite(s.ERT.High)}
}

func rowOf(r compare.Row) compareRow {
	a, b := sideOf(r.A), sideOf(r.B)
	return compareRow{Puzzle: r.Puzzle, A: a, B: b, SidesJSON: [2]side{a, b}, Fisher: finite(r.Fisher.TwoSided),
		LogRank: finite(r.LogRank.P), MannWhitney: finite(r.MannWhitney.P), FisherHolm: finite(r.FisherHolm),
		LogRankHolm: finite(r.LogRankHolm), MannWhitneyHolm: finite(r.MannWhitneyHolm)}
}

func (s *Server) compare(r *http.Request) (view, error) {
	ctx := r.Context()
	name := r.PathValue("name")
	p, err := s.progressOf(r, name)
	if err != nil {
		return view{}, err
	}
	q := r.URL.Query()
	d := compareData{Experiment: name, A: q.Get("a"), B: q.Get("b"), Configs: []string{}, Puzzles: []compareRow{}}
	if i := p.Configs.column("config"); i >= 0 {
		for _, row := range p.Configs.Rows {
			d.Configs = append(d.Configs, cellText(row[i]))
		}
	}
	v := view{Template: "compare", Title: "Compare in " + name, Data: d}
	if d.A == "" || d.B == "" {
		return v, nil
	}
	if d.A == d.B {
		return view{}, sudokulab.Errorf(sudokulab.EINVALID, "compare %s with another configuration, not itself", d.A)
	}
	var runs int64
	if ci, ri := p.Configs.column("config"), p.Configs.column("runs"); ci >= 0 && ri >= 0 {
		for _, row := range p.Configs.Rows {
			if c := cellText(row[ci]); c == d.A || c == d.B {
				runs += int64(db.Number(row[ri]))
			}
		}
	}
	if err := bigExperiment("configurations "+d.A+" and "+d.B+" of experiment "+name, runs, webRunLimit, "a comparison", "sudokulab compare --experiment NAME --config A --config B"); err != nil {
		return view{}, err
	}
	res, err := s.comparison(ctx, compare.Options{A: d.A, B: d.B, Experiment: name, Resamples: reportResamples})
	if err != nil {
		return view{}, err
	}
	d.Unit, d.SharedPuzzles = res.Unit, res.SharedPuzzles
	o := rowOf(res.Overall)
	d.Overall = &o
	d.PuzzleRows = len(res.Puzzles)
	n := len(res.Puzzles)
	if q.Get("all") != "1" {
		n = min(n, comparePuzzles)
	}
	for _, row := range res.Puzzles[:n] {
		d.Puzzles = append(d.Puzzles, rowOf(row))
	}
	if n < d.PuzzleRows {
		d.AllURL = compareURL(name, d.A, d.B) + "&all=1"
	}
	v.Data = d
	return v, nil
}

// compareURL is the comparison of a and b in experiment name.
func compareURL(name, a, b string) string {
	return "/experiments/" + url.PathEscape(name) + "/compare?" + url.Values{"a": {a}, "b": {b}}.Encode()
}
