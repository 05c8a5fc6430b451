package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/figures"
	"sudokulab/internal/shell"
	"sudokulab/plots"
	"sudokulab/runner"
	"sudokulab/tune"
	"sudokulab/tuning"
)

// tuneOptions are tune's flags.
type tuneOptions struct {
	*options
	spec        tuning.Spec
	params, set []string
	jobs        int
	export      string
	plot        string
}

func newTuneCmd(opts *options) *cobra.Command {
	o := &tuneOptions{options: opts}
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune a solver's parameters by iterated racing (irace) on puzzles selected with SQL",
		Long: `tune configures a solver by iterated racing, as irace does (López-Ibáñez et
al. 2016): candidate configurations sampled from the solver's parameters
run on training puzzles (--train) one at a time, each with its own seed;
from the fifth, a Friedman test after every puzzle drops the candidates
significantly worse than the best (Conover's post-hoc; Wilcoxon's
signed-rank test between the last two); the survivors, the elites, carry
over to the next race, and new candidates are sampled around them, until
--budget runs are spent. The first candidate is the solver's defaults
(or --preset's settings).

Without --param every parameter with a finite declared range is tuned
(a positive range of three decades or more on the log scale); with it,
only those given: --param name=LO..HI, name=log:LO..HI, or name=A|B|C.
--set fixes a parameter.

The objective (--objective) is what a run costs: par10 (CPU seconds of a
solved run, ten times --timeout for any other; the default with
--timeout), effort (evaluations or nodes of a solved run, ten times
--max-evaluations for any other; the default without --timeout) or
success (0 solved, 1 not).

Every step's runs go into the work queue of the tuning's experiment
(--experiment, or "tune-" and a hash of the settings): sudokulab worker
--experiment NAME on any machine sharing the database helps; with
--jobs 0 this process does no run and waits for the workers. Every
candidate is stored as a configuration NAME-cN, the final elites renamed
NAME-elite-1.. (a candidate that was stored before keeps its name); the
race is kept in the tables tunings, tuning_candidates and tuning_steps.
Killed and started again with the same command, tune resumes from what
is recorded and repeats no run. At the end the best elite and the first
candidate run on the test puzzles (--test, experiment NAME-test) and are
compared as sudokulab compare does, on CPU seconds.

--export irace DIR tunes nothing: it writes into DIR the files with which
irace tunes the same space on the same training puzzles and budget
(parameters.txt, configurations.txt, instances.txt, scenario.txt and a
target-runner that does each run through this sudokulab and database, in
experiment NAME-irace, and prints its cost): cd DIR && irace.`,
		Example: `  sudokulab tune --solver lewis-sa --train "collection = 'top1465' AND id % 2 = 0" --test "collection = 'top1465' AND id % 2 = 1" --budget 600 --timeout 2s
  sudokulab tune --solver tabu --train "id <= 20" --budget 300 --max-evaluations 200000 --param tenure=1..50 --set restarts=true
  sudokulab tune --solver lewis-sa --train "id <= 20" --budget 300 --timeout 1s --export irace irace-dir`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTune(cmd.Context(), cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.spec.Solver, "solver", "", "solver to tune (see sudokulab solvers)")
	f.StringVar(&o.spec.Train, "train", "", "training puzzles: an SQL predicate over puzzle_catalog")
	f.StringVar(&o.spec.Test, "test", "", "test puzzles: an SQL predicate over puzzle_catalog (empty: no test)")
	f.IntVar(&o.spec.Budget, "budget", 0, "runs the race may do")
	f.Uint64Var(&o.spec.Seed, "seed", 1, "seed of the race: the candidates sampled and the puzzles' order and seeds")
	f.StringArrayVar(&o.params, "param", nil, "tune only this parameter over a range: name=LO..HI, name=log:LO..HI or name=A|B (repeatable)")
	f.StringArrayVar(&o.set, "set", nil, "fix a parameter: name=value (repeatable)")
	f.StringVar(&o.spec.Preset, "preset", "", "preset whose settings make the first candidate (default: the solver's defaults)")
	f.StringVar(&o.spec.Objective, "objective", "", "cost of a run: par10, effort or success (default: par10 with --timeout, else effort)")
	f.StringVar(&o.spec.Name, "experiment", "", "name of the tuning and its experiment (default: tune- and a hash of the settings)")
	f.Int64Var(&o.spec.RunBudget.MaxEvaluations, "max-evaluations", 0, "evaluation budget per run (0: none)")
	f.Int64Var(&o.spec.RunBudget.MaxGenerations, "max-generations", 0, "generation budget per run (0: none)")
	f.DurationVar(&o.spec.Timeout, "timeout", 0, "wall-time budget per run, such as 2s (0: none)")
	f.IntVar(&o.spec.TestSeeds, "test-runs", 1, "seeds per test puzzle and configuration")
	f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "runs at a time in this process (0: none; sudokulab worker processes on the experiment do every run)")
	f.DurationVar(&o.spec.Lease, "lease", runner.DefaultLease, "how long a claim on a run lasts without renewal: a killed racer's runs go to others after this")
	f.StringVar(&o.plot, "plot", "", "draw the race (candidates against steps, eliminations marked, final elites in colour) into this .svg, .png or .pdf file")
	f.StringVar(&o.export, "export", "", "tune nothing; write the files for another tuner into the folder given as argument: irace")
	return cmd
}

func runTune(ctx context.Context, cmd *cobra.Command, o *tuneOptions, args []string) error {
	spec, err := o.checkSpec(args)
	if err != nil {
		return err
	}
	if o.export != "" {
		return exportTune(ctx, cmd, o, spec, args[0])
	}
	if o.plot != "" {
		if _, err := plots.FormatOf(o.plot); err != nil {
			return err
		}
	}
	d, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	stderr := cmd.ErrOrStderr()
	rep, err := tuning.Run(ctx, d, o.registry, spec, o.tuningOptions(stderr))
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "interrupted: the runs recorded are kept; run the same command again to resume tuning %s\n", rep.Name)
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	res := rep.Result
	if rep.Resumed {
		fmt.Fprintf(stderr, "resumed tuning %s: the runs recorded before were read back, not done again\n", rep.Name)
	}
	fmt.Fprintf(stderr, "tuning %s: %d runs in %d iterations on %d training puzzles, %d candidates; stopped because %s\n",
		rep.Name, res.Runs, res.Iterations, rep.Training, len(res.Candidates), res.Stop)
	w := cmd.OutOrStdout()
	t := rep.EliteTable()
	if err := writeRows(w, o.format, t.Columns, t.Rows); err != nil {
		return err
	}
	if o.plot != "" {
		if err := figures.SaveRace(ctx, d, rep.Name, o.plot); err != nil {
			return err
		}
	}
	switch {
	case strings.TrimSpace(spec.Test) == "":
		return nil
	case rep.Test == nil:
		fmt.Fprintf(stderr, "the best elite is the first candidate, %s: nothing to compare on the test set\n", rep.Default)
		return nil
	}
	if o.format == "table" {
		fmt.Fprintf(w, "\ntest set: a = %s (first candidate), b = %s (best elite); times in %s\n", rep.Default, rep.Elites[0], rep.Test.Unit)
	}
	t = rep.Test.Table()
	return writeRows(w, o.format, t.Columns, t.Rows)
}

// checkSpec returns the tuning the flags and args ask for, or the first
// thing wrong with them.
func (o *tuneOptions) checkSpec(args []string) (tuning.Spec, error) {
	spec := o.spec
	var errs [2]error
	spec.Ranges, errs[0] = parseNamed("--param", o.params)
	spec.Fixed, errs[1] = parseNamed("--set", o.set)
	if err := cmp.Or(errs[0], errs[1]); err != nil {
		return spec, err
	}
	if err := spec.Check(o.tuningOptions(nil)); err != nil {
		return spec, err
	}
	switch {
	case o.export != "" && o.export != "irace":
		return spec, sudokulab.Errorf(sudokulab.EINVALID, "--export %q: the only format is irace", o.export)
	case o.export != "" && len(args) != 1:
		return spec, sudokulab.Errorf(sudokulab.EINVALID, "--export irace needs the folder to write: tune ... --export irace DIR")
	case o.export == "" && len(args) > 0:
		return spec, sudokulab.Errorf(sudokulab.EINVALID, "tune takes no argument but with --export: got %q", args[0])
	}
	return spec, nil
}

// tuningOptions are the options of the tuning the flags ask for, each
// tested race step reported on stderr.
func (o *tuneOptions) tuningOptions(stderr io.Writer) tuning.Options {
	var once sync.Once
	unclaimed := func(experiment string) {
		once.Do(func() {
			fmt.Fprintf(stderr, "tune: no run of experiment %s claimed for %v: with --jobs 0 every run waits for workers; start them here or on machines sharing the database:\n  sudokulab --db %s worker --experiment %s --follow\n",
				experiment, runner.DefaultUnclaimedAfter, shell.Quote(db.Redact(o.dbPath)), shell.Quote(experiment))
		})
	}
	return tuning.Options{Runner: runner.Options{Jobs: o.jobs, Unclaimed: unclaimed}, ByWorkers: o.jobs == 0, Step: func(s tune.Step) {
		if line, ok := tuning.StepText(s); ok {
			fmt.Fprintln(stderr, line)
		}
	}}
}

// exportTune writes the irace files of the tuning into dir. The target
// runner calls this program on this database by absolute paths.
func exportTune(ctx context.Context, cmd *cobra.Command, o *tuneOptions, spec tuning.Spec, dir string) error {
	d, err := o.openRead(ctx)
	if err != nil {
		return err
	}
	defer d.Close()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program for the target runner: %w", err)
	}
	target := o.dbPath
	if !strings.Contains(target, "://") {
		if target, err = filepath.Abs(target); err != nil {
			return err
		}
	}
	if err := tuning.ExportIrace(ctx, d, o.registry, spec, dir, []string{exe, "--db", target}); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote the irace scenario into %s: run it with cd %s && irace\n", dir, dir)
	return nil
}
