package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runexport"
)

type exportRunsOptions struct {
	*options
	fileFormat, output string
	experiment         string
	configs            []string
	where, runsWhere   string
}

func newExportRunsCmd(opts *options) *cobra.Command {
	o := &exportRunsOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "export-runs --format iohprofiler|csv -o DIR",
		Short: "Write runs with their trajectories for IOHanalyzer, pandas or R",
		Long: `export-runs writes the runs chosen by --experiment, --config, --where (a SQL
predicate over the view puzzle_catalog: runs on the puzzles it matches) and
--runs-where (a SQL predicate over the view run_results), with their
trajectory points, as the runs are read:

  iohprofiler  the IOHprofiler format that IOHanalyzer reads: in the folder
               -o, a folder per configuration (the algorithm) with a .info
               file per puzzle (the function; its dimension is the number of
               free cells) and its .dat file, a run per seed (the instance);
               f(x) is the cost, minimised, and the runtime the run's effort
               (evaluations, or nodes for exact). Runs that ended in error or
               were canceled are left out. Upload the folder (zipped) to
               IOHanalyzer, or load it with DataSetList().
  csv          a tidy long table, one row per trajectory point with its run's
               columns (a run without points gets one row of its final
               values), into -o FILE.csv, -o - (standard output), or
               DIR/` + runexport.CSVFileName + `; and beside it (not with -o -) a table
               of one row per run (its configuration and parameters, puzzle,
               seed, budget, outcome, effort in every unit; seconds to the
               nanosecond) in FILE-runs.csv or DIR/` + runexport.RunsFileName + `.

docs/export-runs.md describes every file, field and column. The folder given
to iohprofiler must be new or empty. The database is only read.`,
		Example: `  sudokulab export-runs --format iohprofiler --experiment ga-table1 -o ioh/
  sudokulab export-runs --format csv --config exact --config soto-cuckoo -o runs.csv
  sudokulab export-runs --format csv --where "collection = 'sato-inoue-2010'" --runs-where "status = 'solved'" -o - | head`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExportRuns(cmd.Context(), cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.fileFormat, "format", "", "iohprofiler or csv (required)")
	f.StringVarP(&o.output, "output", "o", "", "folder to write (iohprofiler); FILE.csv, - or a folder (csv)")
	f.StringVar(&o.experiment, "experiment", "", "only the runs of this experiment")
	f.StringArrayVar(&o.configs, "config", nil, "only the runs of this configuration (repeatable)")
	f.StringVar(&o.where, "where", "", "only the runs on puzzles matching this SQL predicate over the view puzzle_catalog")
	f.StringVar(&o.runsWhere, "runs-where", "", "only the runs matching this SQL predicate over the view run_results")
	return cmd
}

func runExportRuns(ctx context.Context, cmd *cobra.Command, o *exportRunsOptions) error {
	if o.output == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "export-runs needs -o: a folder, or for csv a FILE.csv or -")
	}
	sel := db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where, RunsWhere: o.runsWhere}
	if err := sel.Check(); err != nil {
		return err
	}
	out, err := runexport.Open(o.fileFormat, o.output, cmd.OutOrStdout())
	if err != nil {
		return err
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	runs, _, err := db.ExportRuns(ctx, d, sel, out)
	if err == nil && runs == 0 {
		err = sudokulab.Errorf(sudokulab.ENOTFOUND, "export-runs: no runs match %s", o.describe())
	}
	err = out.Finish(runs, err)
	if err != nil {
		var se *sudokulab.Error
		if errors.As(err, &se) || errors.Is(err, context.Canceled) {
			return err
		}
		return sudokulab.WrapError(sudokulab.EINVALID, err, "export-runs")
	}
	fmt.Fprintln(cmd.ErrOrStderr(), out.Report(o.fileFormat))
	return nil
}

// describe says which runs were asked for.
func (o *exportRunsOptions) describe() string {
	var parts []string
	if o.experiment != "" {
		parts = append(parts, fmt.Sprintf("--experiment %q", o.experiment))
	}
	for _, c := range o.configs {
		parts = append(parts, fmt.Sprintf("--config %q", c))
	}
	if o.where != "" {
		parts = append(parts, fmt.Sprintf("--where %q", o.where))
	}
	if o.runsWhere != "" {
		parts = append(parts, fmt.Sprintf("--runs-where %q", o.runsWhere))
	}
	if len(parts) == 0 {
		return "(the database has none)"
	}
	return strings.Join(parts, " ")
}
