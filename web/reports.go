package web

import (
	"context"
	"time"

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

// figure returns the picture req of an experiment, kept as
// experimentReport keeps a report (the pictures read every run of the
// experiment, some every trajectory point).
func (s *Server) figure(ctx context.Context, req figures.Request) (*plots.Figure, error) {
	fig, _, err := keptValueOf(ctx, s.kept, "figure\x00"+req.Kind+"\x00"+req.Selection.Experiment, keep{}, func(ctx context.Context) (*plots.Figure, error) {
		return req.Draw(ctx, s.db)
	})
	return fig, err
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
