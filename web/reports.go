package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/plots"
	"sudokulab/report"
)

// progressKeep is how an experiment's progress is kept: computed again
// after every change (and every second, for leases lapse with time), the
// request waiting up to 100 ms for it, so that an experiment's progress
// (milliseconds to read for one of thousands of runs) is always shown up
// to date, and one of hundreds of thousands (a second or two) as it was
// at most that long ago, without a page waiting for it.
var progressKeep = keep{fresh: 100 * time.Millisecond, lag: time.Nanosecond, maxAge: time.Second}

// experimentReport returns the report of the experiment called name as
// its page shows it (reportResamples), kept while the lab is unchanged
// (keeper): it reads every run of the experiment, seconds for the
// hundreds of thousands of runs of a big one.
func (s *Server) experimentReport(ctx context.Context, name string) (*report.Report, error) {
	rep, _, err := keptValueOf(ctx, s.kept, "report\x00"+name, keep{}, func(ctx context.Context) (*report.Report, error) {
		return report.Build(ctx, s.db, report.Options{Experiment: name, Solvers: s.o.Solvers, Resamples: reportResamples})
	})
	return rep, err
}

// comparison returns the comparison o, kept as experimentReport keeps a
// report.
func (s *Server) comparison(ctx context.Context, o compare.Options) (*compare.Result, error) {
	res, _, err := keptValueOf(ctx, s.kept, "compare\x00"+o.Experiment+"\x00"+o.A+"\x00"+o.B, keep{}, func(ctx context.Context) (*compare.Result, error) {
		return compare.Compute(ctx, s.db, o)
	})
	return res, err
}

// figure returns the picture req of an experiment, which the query canon
// asks for (figureRequest), kept as experimentReport keeps a report (the
// pictures read every run of the experiment, some every trajectory
// point). A picture that cannot be drawn (an EINVALID or ENOTFOUND error,
// such as a ranking of configurations that share no puzzle) is kept too,
// as its error: the experiment page asks for the ranking pictures each
// time it is shown.
func (s *Server) figure(ctx context.Context, req figures.Request, canon url.Values) (*plots.Figure, error) {
	if req.Kind != "success" {
		p, err := s.keptProgress(ctx, req.Selection.Experiment)
		if err != nil {
			return nil, err
		}
		limit := int64(webRunLimit)
		if tracedFigure(req.Kind) {
			limit = webTracedRunLimit
		}
		if err := bigExperiment("experiment "+req.Selection.Experiment, p.Totals["runs"], limit, "this picture", "sudokulab plot "+req.Kind+" --experiment NAME -o FILE.svg"); err != nil {
			return nil, err
		}
	}
	drawn, _, err := keptValueOf(ctx, s.kept, "figure\x00"+req.Kind+"\x00"+req.Selection.Experiment+"\x00"+canon.Encode(), keep{}, func(ctx context.Context) (keptFigure, error) {
		fig, err := s.drawFigure(ctx, req)
		var se *sudokulab.Error
		if errors.As(err, &se) && (se.Code == sudokulab.EINVALID || se.Code == sudokulab.ENOTFOUND) {
			return keptFigure{err: err}, nil
		}
		return keptFigure{fig: fig}, err
	})
	if err != nil {
		return nil, err
	}
	return drawn.fig, drawn.err
}

// keptFigure is a picture drawn, or why it cannot be.
type keptFigure struct {
	fig *plots.Figure
	err error
}

// drawFigure draws the picture req of the server's lab: req.Draw, or a
// test's stand-in.
func (s *Server) drawFigure(ctx context.Context, req figures.Request) (*plots.Figure, error) {
	if s.figureDrawn != nil {
		s.figureDrawn(req)
	}
	return req.Draw(ctx, s.db)
}

// hasTrajectories tells whether the experiment called name has runs with
// trajectory points, kept as experimentReport keeps a report (the lookup
// reads the list of its runs).
func (s *Server) hasTrajectories(ctx context.Context, name string) (bool, error) {
	traced, _, err := keptValueOf(ctx, s.kept, "traced\x00"+name, keep{}, func(ctx context.Context) (bool, error) {
		return s.db.HasTrajectories(ctx, db.RunSelection{Experiment: name})
	})
	return traced, err
}

// webRunLimit bounds the runs of an experiment the server reads one by
// one (the report's bootstrap intervals, the pictures but the success
// rates, a comparison): for the 400,000 runs of the scale lab's biggest
// experiment (docs/web.md) they took a minute or more each and 0.2 to
// 1.7 GB. Above it the page shows each configuration's success counted
// in the database, with its Wilson interval but without ERT, and says that
// sudokulab report, plot and compare give the rest.
const webRunLimit = 50000

// webTracedRunLimit bounds the runs of an experiment whose trajectories
// the server draws (convergence, ERT by target): 40,000 runs of the scale
// lab took 160 and 220 MB.
const webTracedRunLimit = 10000

// tracedFigure tells whether the picture kind is drawn from trajectory
// points.
func tracedFigure(kind string) bool {
	for _, f := range experimentFigures {
		if f.Kind == kind {
			return f.Traced
		}
	}
	return false
}

// successLevel is the confidence level of the intervals the page shows.
const successLevel = 0.95

// bigExperiment returns an EINVALID error, saying which command does it,
// when runs are more than limit for the server to read for what (see
// webRunLimit).
func bigExperiment(name string, runs, limit int64, what, command string) error {
	if runs <= limit {
		return nil
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "%s: %d runs, more than the %d the server reads one by one for %s: %s does it",
		name, runs, limit, what, command)
}

// successCounts returns the success rows of the experiment called name
// counted in the database (db.ExperimentSuccess), best first, kept as
// experimentReport keeps a report.
func (s *Server) successCounts(ctx context.Context, name string) ([]successRow, error) {
	counts, _, err := keptValueOf(ctx, s.kept, "success\x00"+name, keep{}, func(ctx context.Context) ([]db.ConfigSuccess, error) {
		return db.ExperimentSuccess(ctx, s.db, name)
	})
	if err != nil {
		return nil, err
	}
	rows := make([]successRow, 0, len(counts))
	for _, c := range counts {
		rate := float64(c.Solved) / float64(c.Runs)
		lo, hi := plots.Wilson(c.Solved, c.Runs, successLevel)
		rows = append(rows, successRow{Config: c.Config, Solver: c.Solver, Puzzles: c.Puzzles, Solved: c.Solved, Runs: c.Runs,
			Rate: finite(rate), SuccessLow: finite(lo), SuccessHigh: finite(hi)})
	}
	slices.SortStableFunc(rows, func(a, b successRow) int {
		return cmp.Or(cmp.Compare(*b.Rate, *a.Rate), strings.Compare(a.Config, b.Config))
	})
	return rows, nil
}

// bigExperimentNote says what the page of an experiment too big to read
// run by run leaves out.
func bigExperimentNote(name string, runs int64) string {
	return fmt.Sprintf("This experiment has %d runs, more than the %d the server reads one by one: the success rates are counted in the database, "+
		"without ERT and its interval and without the pictures but the first (sudokulab report --experiment %s and sudokulab plot draw them).",
		runs, webRunLimit, name)
}
