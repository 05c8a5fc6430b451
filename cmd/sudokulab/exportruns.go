package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runexport"
)

// csvFileName is the file export-runs --format csv writes into a folder,
// and runsFileName the per-run table beside it.
const (
	csvFileName  = "trajectories.csv"
	runsFileName = "runs.csv"
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
               DIR/` + csvFileName + `; and beside it (not with -o -) a table
               of one row per run (its configuration and parameters, puzzle,
               seed, budget, outcome, effort in every unit; seconds to the
               nanosecond) in FILE-runs.csv or DIR/` + runsFileName + `.

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
	for _, p := range []string{o.where, o.runsWhere} {
		if err := db.CheckPredicate(p); err != nil {
			return err
		}
	}
	var (
		w     runexport.Writer
		where string // what the summary says was written
		file  *lazyFile
		// runsFile is the per-run table beside file.
		runsFile *lazyFile
	)
	switch o.fileFormat {
	case "iohprofiler":
		if o.output == "-" {
			return sudokulab.Errorf(sudokulab.EINVALID, "-o -: the iohprofiler format is a folder of files; name one")
		}
		if err := newOrEmptyDir(o.output); err != nil {
			return err
		}
		w, where = runexport.NewIOHprofiler(o.output), o.output
	case "csv":
		switch {
		case o.output == "-":
			w, where = runexport.NewCSV(cmd.OutOrStdout()), "standard output"
		default:
			path := o.output
			runsPath := strings.TrimSuffix(path, filepath.Ext(path)) + "-runs.csv"
			if !strings.EqualFold(filepath.Ext(path), ".csv") {
				path, runsPath = filepath.Join(path, csvFileName), filepath.Join(path, runsFileName)
			}
			file, runsFile = &lazyFile{path: path}, &lazyFile{path: runsPath}
			w, where = runexport.Both(runexport.NewCSV(file), runexport.NewRunsCSV(runsFile)), path+" and "+runsPath
		}
	case "":
		return sudokulab.Errorf(sudokulab.EINVALID, "export-runs needs --format iohprofiler or --format csv")
	default:
		return sudokulab.Errorf(sudokulab.EINVALID, "--format %q: want iohprofiler or csv", o.fileFormat)
	}
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	v := &exportVisitor{w: w, configs: map[string]bool{}, puzzles: map[int64]bool{}}
	sel := db.RunSelection{Experiment: o.experiment, Configs: o.configs, Where: o.where, RunsWhere: o.runsWhere}
	runs, _, err := db.ExportRuns(ctx, d, sel, v)
	if err == nil && runs == 0 {
		err = sudokulab.Errorf(sudokulab.ENOTFOUND, "export-runs: no runs match %s", o.describe())
	}
	switch {
	case err == nil:
		err = w.Close()
	case runs > 0:
		w.Close() // closes the files; the error says what went wrong
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if cerr := runsFile.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		var se *sudokulab.Error
		if errors.As(err, &se) || errors.Is(err, context.Canceled) {
			return err
		}
		return sudokulab.WrapError(sudokulab.EINVALID, err, "export-runs")
	}
	s := w.Summary()
	msg := fmt.Sprintf("exported %d runs (%d trajectory points, %d rows) of %d configurations on %d puzzles to %s (%s)",
		s.Runs, s.Points, s.Rows, len(v.configs), len(v.puzzles), where, o.fileFormat)
	if len(s.Files) > 0 {
		msg += fmt.Sprintf(", %d files", len(s.Files))
	}
	if s.Skipped > 0 {
		msg += fmt.Sprintf("; left out %d runs (%s)", s.Skipped, s.SkippedWhy)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), msg)
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

// exportVisitor hands the runs db.ExportRuns reads to a runexport.Writer.
type exportVisitor struct {
	w       runexport.Writer
	configs map[string]bool
	puzzles map[int64]bool
}

func (v *exportVisitor) Run(r *sudokulab.ExportedRun) error {
	v.configs[r.Config] = true
	v.puzzles[r.Run.PuzzleID] = true
	return v.w.Run(r)
}

func (v *exportVisitor) Point(p *sudokulab.TrajectoryPoint) error { return v.w.Point(p) }

// newOrEmptyDir returns an EINVALID error if dir exists and is not an
// empty folder.
func newOrEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: %v", dir, err)
	case len(entries) > 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "-o %s: the folder is not empty; name a new or empty one", dir)
	}
	return nil
}

// lazyFile creates its file, and the folder it is in, on the first write,
// so that an export that finds no runs leaves nothing behind.
type lazyFile struct {
	path string
	f    *os.File
}

var _ io.Writer = (*lazyFile)(nil)

func (l *lazyFile) Write(b []byte) (int, error) {
	if l.f == nil {
		if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
			return 0, err
		}
		f, err := os.Create(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	return l.f.Write(b)
}

// Close closes the file if it was created; a nil *lazyFile does nothing.
func (l *lazyFile) Close() error {
	if l == nil || l.f == nil {
		return nil
	}
	return l.f.Close()
}
