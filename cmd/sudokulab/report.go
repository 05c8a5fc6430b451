package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/compare"
	"sudokulab/report"
	"sudokulab/runner"
)

type reportOptions struct {
	*options
	experiment string
	out        string
	resamples  int
	level      float64
	seed       uint64
	noPlots    bool
}

func newReportCmd(opts *options) *cobra.Command {
	o := &reportOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "report --experiment NAME -o FILE.html",
		Short: "Write an experiment's report as one self-contained HTML page: tables with intervals, comparisons, pictures, provenance",
		Long: `report writes the report of one experiment as a single HTML page that opens
offline (style and pictures inline, no script, no link to anything outside):

  - the experiment: its description, configurations, puzzles, runs, dates;
  - for the experiment of a tuning (tune --experiment NAME): the tuning,
    its races, the race as a picture, its elites' parameter values beside
    the first candidate's, and the best elite against the first candidate
    on the test set (experiment NAME-test);
  - per configuration, best first: success rate with its Wilson interval,
    expected running time (ERT) in the solver's effort and in seconds with
    percentile bootstrap intervals (resampled within each puzzle), medians
    of the solved runs; then the same per puzzle (per collection when the
    experiment has more than 30 puzzles);
  - the pairwise comparisons of compare (Fisher, log-rank, Mann-Whitney,
    ERT; Holm-adjusted per puzzle): every pair of up to 5 configurations,
    else each configuration against the best, as the page says;
  - the pictures of plot (success bars, runtime ECDF, convergence, ERT
    against the target) inline as SVG, the 12 best configurations each;
  - each configuration with every parameter, its default, range and the
    section of the paper that defines it, the paper, and what the solver
    counts as an evaluation;
  - provenance: the database and its schema version, the sudokulab
    versions and hosts that made the runs, first and last run.

Runs that were canceled or failed are counted, not analysed. The bootstrap
is deterministic for --seed. The database is only read.
docs/analysis.md describes every table.`,
		Example: `  sudokulab report --experiment example-samples -o report.html
  sudokulab --db postgres://lab@db/lab report --experiment ga-table1 -o ga-table1.html --resamples 2000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.experiment, "experiment", "", "the experiment to report on (required; sudokulab experiments list)")
	f.StringVarP(&o.out, "output", "o", "", "write the page to `FILE`.html (required)")
	f.IntVar(&o.resamples, "resamples", report.DefaultResamples, "bootstrap resamples of each ERT interval")
	f.Float64Var(&o.level, "level", report.DefaultLevel, "confidence level of every interval")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the bootstraps")
	f.BoolVar(&o.noPlots, "no-plots", false, "leave the pictures out")
	return cmd
}

func runReport(ctx context.Context, cmd *cobra.Command, o *reportOptions) error {
	switch {
	case o.experiment == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "report needs --experiment NAME (sudokulab experiments list)")
	case o.out == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "report needs -o FILE.html")
	}
	if err := compare.CheckBootstrap(o.resamples, o.level); err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	rep, err := report.Build(ctx, d, report.Options{
		Experiment: o.experiment, Solvers: o.registry.All(),
		Resamples: o.resamples, Level: o.level, Seed: o.seed,
		Generator: "sudokulab " + runner.CodeVersion(),
	})
	if err != nil {
		return err
	}
	if !o.noPlots {
		rep.Figures = report.DrawFigures(ctx, d, rep, o.experiment, o.level)
		if rep.Ranking != nil && rep.Ranking.Err == "" {
			rep.Ranking.Figures = report.DrawRankingFigures(ctx, d, o.experiment)
		}
	}
	var page bytes.Buffer
	if err := report.Render(&page, rep); err != nil {
		return err
	}
	if err := writeFileAtomic(o.out, page.Bytes()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %d configurations, %d puzzles, %d runs, %d comparisons, %d pictures\n",
		o.out, rep.Summary.Configs, rep.Summary.Puzzles, rep.Summary.Runs, len(rep.Comparisons.Pairs), len(rep.Figures))
	return nil
}

// writeFileAtomic writes data to path through a temporary file in the
// same folder, so that the file appears complete or not at all.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
