package figures

import (
	"cmp"
	"context"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/plots"
	"sudokulab/ranking"
)

// Kinds of picture: the subcommands of `sudokulab plot`.
const (
	KindConvergence = "convergence"
	KindECDF        = "ecdf"
	KindSuccess     = "success"
	KindERT         = "ert"
	KindScoreboard  = "scoreboard"
	KindCD          = "cd"
	KindProfile     = "profile"
	KindAggECDF     = "aggecdf"
)

// Request is one picture as `sudokulab plot KIND` asks for it: its kind,
// the runs it draws and its settings as the person gave them (the flags
// of that name). Check says what is wrong with it before a database is
// opened; Draw draws it. A setting the kind does not take is ignored.
type Request struct {
	Kind      string
	Selection db.RunSelection
	// Width and Height are lengths with their unit ("16cm"; "" sizes the
	// picture to fit); Title "" says what the picture shows.
	Width, Height, Title string
	// Top draws the Top best configurations by success when
	// Selection.Configs names none (1 to plots.MaxSeries).
	Top int
	// X is the budget axis; AxisAsked is true when the person chose it
	// (see BudgetAxis).
	X         string
	AxisAsked bool
	// LogY, Panels and Quantiles are as in Spec.
	LogY      bool
	Panels    string
	Quantiles []float64
	// Resamples and Level are the bootstrap band of ecdf and the
	// confidence level of ecdf's band and success's intervals (0: the
	// default).
	Resamples int
	Level     float64
	// Rater and By group the success bars (Spec).
	Rater, By string
	// Readings and Paper choose the scoreboard's cells (ScoreboardSpec).
	Readings, Paper string
	// Measure, Time (TimeAsked when the person chose it), ParK and Alpha
	// rank the configurations of cd and profile (ranking.Options).
	Measure, Time string
	TimeAsked     bool
	ParK, Alpha   float64
	// Warn receives notes on runs left out; nil discards them.
	Warn io.Writer
}

// oneOf checks that the value of a flag is one of those allowed.
func oneOf(flag, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "--%s %q: want %s", flag, v, strings.Join(allowed, ", "))
}

// Check validates r without reading a database: an EINVALID error names
// the setting by its flag.
func (r Request) Check() error {
	var err error
	switch r.Kind {
	case KindConvergence:
		err = oneOf("x", r.X, "generations", "evaluations", "seconds")
		if err == nil {
			err = oneOf("panels", r.Panels, "auto", "puzzle", "none")
		}
		if q := r.Quantiles; err == nil && (len(q) != 2 || q[0] < 0 || q[1] > 1 || q[0] >= q[1]) {
			err = sudokulab.Errorf(sudokulab.EINVALID, "--quantiles %v: want two increasing numbers between 0 and 1", q)
		}
	case KindECDF:
		err = oneOf("x", r.X, "evaluations", "generations", "effort", "seconds", "cpu")
		if err == nil && r.Resamples < 0 {
			err = sudokulab.Errorf(sudokulab.EINVALID, "--resamples %d: want 0 (no band) or more", r.Resamples)
		}
	case KindSuccess:
		err = oneOf("by", r.By, "label", "collection", "all")
	case KindERT:
		err = oneOf("x", r.X, "evaluations", "generations", "seconds")
		if err == nil {
			err = oneOf("panels", r.Panels, "auto", "puzzle", "none")
		}
	case KindScoreboard:
		err = oneOf("readings", r.Readings, "paper", "readings", "all")
		if s := r.Selection; err == nil && (len(s.Configs) > 0 || s.Where != "" || s.RunsWhere != "") {
			err = sudokulab.Errorf(sudokulab.EINVALID, "plot scoreboard takes no --config, --where or --runs-where: its cells are the published ones (use --paper, --readings or --experiment)")
		}
	case KindCD, KindProfile, KindAggECDF:
		err = r.checkRanking()
	default:
		err = sudokulab.Errorf(sudokulab.EINVALID, "plot %q: want convergence, ecdf, success, ert, scoreboard, cd, profile or aggecdf", r.Kind)
	}
	if err != nil {
		return err
	}
	if (r.Kind == KindECDF || r.Kind == KindSuccess) && r.Level != 0 && (r.Level <= 0 || r.Level >= 1) {
		return sudokulab.Errorf(sudokulab.EINVALID, "--level %g: want a confidence level between 0 and 1, such as 0.95", r.Level)
	}
	if r.Top < 1 || r.Top > plots.MaxSeries {
		return sudokulab.Errorf(sudokulab.EINVALID, "--top %d: want 1 to %d, as many configurations as can be told apart", r.Top, plots.MaxSeries)
	}
	if n := len(r.Selection.Configs); n > plots.MaxSeries && r.Kind != KindCD {
		return sudokulab.Errorf(sudokulab.EINVALID, "%d configurations named with --config: no more than %d can be told apart in one picture; name fewer, or leave --config out for the %d best by success",
			n, plots.MaxSeries, plots.MaxSeries)
	}
	for _, s := range []struct{ flag, v string }{{"width", r.Width}, {"height", r.Height}} {
		if s.v != "" {
			if _, err := plots.ParseLength(s.v); err != nil {
				return sudokulab.Errorf(sudokulab.EINVALID, "--%s: %v", s.flag, err)
			}
		}
	}
	if err := db.CheckPredicate(r.Selection.Where); err != nil {
		return err
	}
	return db.CheckPredicate(r.Selection.RunsWhere)
}

// checkRanking validates the settings of the ranking's pictures.
func (r Request) checkRanking() error {
	if r.Kind == KindAggECDF {
		return oneOf("x", r.X, "evaluations", "generations", "seconds")
	}
	m, err := ranking.ParseMeasure(r.Measure)
	if err != nil {
		return err
	}
	if r.Kind == KindProfile && m == ranking.Success {
		return sudokulab.Errorf(sudokulab.EINVALID, "plot profile --measure success: a performance profile compares costs; use --measure ert or par")
	}
	if _, err := compare.ParseMeasure(r.Time); err != nil {
		return err
	}
	return cmp.Or(ranking.CheckAlpha(r.Alpha), ranking.CheckParK(r.ParK))
}

// options returns the picture options of r.
func (r Request) options() plots.Options {
	var w, h vg.Length
	if r.Width != "" {
		w, _ = plots.ParseLength(r.Width)
	}
	if r.Height != "" {
		h, _ = plots.ParseLength(r.Height)
	}
	// Top applies without configurations named; named ones are all drawn.
	top := r.Top
	if top == 0 || len(r.Selection.Configs) > 0 {
		top = plots.MaxSeries
	}
	return plots.Options{Width: w, Height: h, Title: r.Title, Top: top, Strict: len(r.Selection.Configs) > 0, Resamples: r.Resamples, Level: r.Level}
}

// Draw draws the picture r asks for from the runs of d it selects: what
// `sudokulab plot KIND` saves. r must have passed Check.
func (r Request) Draw(ctx context.Context, d *db.DB) (*plots.Figure, error) {
	if r.Kind == KindScoreboard {
		return Scoreboard(ctx, d, ScoreboardSpec{Readings: r.Readings, Paper: r.Paper, Experiment: r.Selection.Experiment}, r.options())
	}
	if err := Check(ctx, d, r.Selection); err != nil {
		return nil, err
	}
	s := Spec{Selection: r.Selection, Options: r.options(), AxisAsked: r.AxisAsked, Warn: r.Warn}
	var draw func(context.Context, *db.DB, Spec) (Drawn, error)
	switch r.Kind {
	case KindConvergence:
		draw, s.X, s.LogY, s.Panels, s.Quantiles = Convergence, r.X, r.LogY, r.Panels, r.Quantiles
	case KindECDF:
		draw, s.X = ECDF, r.X
	case KindSuccess:
		draw, s.Rater, s.By = Success, r.Rater, r.By
	case KindERT:
		draw, s.X, s.LogY, s.Panels = ERT, r.X, r.LogY, r.Panels
	case KindCD:
		draw, s.Ranking = CD, r.ranking()
	case KindProfile:
		draw, s.Ranking = Profile, r.ranking()
	case KindAggECDF:
		draw, s.X = AggECDF, r.X
	default:
		return nil, r.Check()
	}
	drawn, err := draw(ctx, d, s)
	return drawn.Figure, err
}

// ranking returns the ranking r asks for; without Time asked, efforts in
// different units are ranked on CPU seconds, as the note says.
func (r Request) ranking() ranking.Options {
	m, _ := ranking.ParseMeasure(r.Measure)
	var t compare.Measure
	if r.TimeAsked {
		t = compare.Measure(r.Time)
	}
	return ranking.Options{Measure: m, Time: t, ParK: r.ParK, Alpha: r.Alpha}
}
