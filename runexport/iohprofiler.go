package runexport

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"sudokulab"
)

// The IOHprofiler format, as IOHanalyzer reads it (its R/readFiles.R and
// R/DataSet.R; the example data in its inst/extdata; the format page
// inst/shiny-server/markdown/dataformat.md) and as IOHexperimenter's v1
// Analyzer logger writes it (include/ioh/logger/analyzer.hpp):
//
//   - one meta-data file per function and algorithm,
//     ALG/IOHprofiler_f<funcId>_<funcName>.info, made of three-line
//     blocks, one per dimension: the line of name = value pairs
//     separated by ", " (funcId, DIM and algId mandatory), a comment line
//     starting with '%', and the data file's path relative to the .info
//     file followed by one ", instance:runtime|best-so-far f(x)" per run;
//   - one raw-data file per function and dimension,
//     ALG/data_f<funcId>_<funcName>/IOHprofiler_f<funcId>_DIM<DIM>.dat,
//     in which every run starts with the separation line of quoted column
//     names ("function evaluation" ... ) and goes on with one line per
//     record, numbers separated by single spaces; the first five columns
//     are the runtime, current f(x), best-so-far f(x) and their
//     transformed values af(x)+b, further columns are parameters.
//
// Values are double-quoted as IOHexperimenter writes them: IOHanalyzer's
// reader (R's read.csv) drops double quotes, while single quotes around
// maximization leave the text "F" where it wants a logical.
//
// Here a function is a puzzle (funcId its id, funcName its label), the
// dimension the number of free cells, an algorithm a configuration, an
// instance the run's seed, f(x) the cost (lower is better, 0 solved, so
// maximization = "F") and the runtime the run's effort: evaluations, or
// nodes for the exact solver.

// IOHSuite is the suite name written in every .info file.
const IOHSuite = "sudokulab"

// IOHColumns are the column names of the separation line that starts every
// run of a .dat file: IOHprofiler's five data columns, then the
// parameters generation, seconds and restarts.
var IOHColumns = []string{"function evaluation", "current f(x)", "best-so-far f(x)", "current af(x)+b", "best af(x)+b",
	"generation", "seconds", "restarts"}

// iohHeader is the separation line.
var iohHeader = `"` + strings.Join(IOHColumns, `" "`) + `"` + "\n"

// IOHprofiler writes runs in the IOHprofiler format into a folder: a
// folder per configuration holding a .info file per puzzle and its .dat
// file. Runs must come grouped by configuration and puzzle. Runs that
// ended in an error, were canceled or have no cost are left out (counted
// in the summary): they are not runs of the algorithm to its budget.
type IOHprofiler struct {
	dir string
	sum Summary

	g        *iohGroup         // the configuration and puzzle being written
	done     map[string]bool   // groups closed
	algDirs  map[string]string // folder name -> configuration
	run      Run               // the current run
	inRun    bool              // a run is being written (not skipped)
	points   int64             // points of the current run
	rows     int64             // rows of the current run
	lastEval int64             // runtime of its last row
	line     []byte
	err      error
}

// iohGroup is the open .dat file of one configuration and puzzle, and the
// .info block it will get.
type iohGroup struct {
	key      string
	infoPath string // relative to dir
	header   string // name = value line
	comment  string
	datRel   string // relative to the .info file, with '/'
	dat      *os.File
	w        *bufio.Writer
	runs     []string // instance:runtime|best
}

var _ Writer = (*IOHprofiler)(nil)

// NewIOHprofiler returns a Writer of the IOHprofiler format into the
// folder dir, which it creates if need be. It writes nothing into dir
// before the first run.
func NewIOHprofiler(dir string) *IOHprofiler {
	return &IOHprofiler{dir: dir, done: map[string]bool{}, algDirs: map[string]string{}}
}

// Summary implements Writer.
func (w *IOHprofiler) Summary() Summary { return w.sum }

// Run implements Writer.
func (w *IOHprofiler) Run(r *Run) error {
	if w.err != nil {
		return w.err
	}
	if err := w.endRun(); err != nil {
		return w.fail(err)
	}
	switch {
	case r.Run.Status == sudokulab.StatusError || r.Run.Status == sudokulab.StatusCanceled:
		w.skip(fmt.Sprintf("runs that ended with status %s", r.Run.Status))
		return nil
	case r.Run.BestCost == nil:
		w.skip("runs without a cost")
		return nil
	}
	key := r.Config + "\x00" + strconv.FormatInt(r.Run.PuzzleID, 10)
	if w.g == nil || w.g.key != key {
		if err := w.endGroup(); err != nil {
			return w.fail(err)
		}
		if w.done[key] {
			return w.fail(fmt.Errorf("iohprofiler: runs of %s on puzzle %d come in two groups: they must be ordered by configuration and puzzle", r.Config, r.Run.PuzzleID))
		}
		if err := w.startGroup(r, key); err != nil {
			return w.fail(err)
		}
	}
	w.run, w.inRun, w.points, w.rows = *r, true, 0, 0
	w.sum.Runs++
	w.g.runs = append(w.g.runs, fmt.Sprintf("%d:%d|%s", r.Run.Seed, atLeast1(r.FinalEffort()), fmtE(float64(*r.Run.BestCost), false)))
	if _, err := w.g.w.WriteString(iohHeader); err != nil {
		return w.fail(err)
	}
	return nil
}

// Point implements Writer.
func (w *IOHprofiler) Point(p *sudokulab.TrajectoryPoint) error {
	if w.err != nil {
		return w.err
	}
	if !w.inRun {
		return nil // a point of a skipped run
	}
	w.points++
	w.sum.Points++
	return w.row(atLeast1(w.run.PointEffort(p)), p.CurrentCost, p.BestCost, p.Generation, &p.ElapsedSeconds, p.Restarts)
}

// Close implements Writer: it ends the last run, writes the last .info
// file and closes the files.
func (w *IOHprofiler) Close() error {
	if w.err != nil {
		if w.g != nil && w.g.dat != nil {
			w.g.dat.Close()
		}
		return w.err
	}
	if err := w.endRun(); err != nil {
		return w.fail(err)
	}
	if err := w.endGroup(); err != nil {
		return w.fail(err)
	}
	return nil
}

// fail records the first error; later calls return it.
func (w *IOHprofiler) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}

// skip counts a run left out.
func (w *IOHprofiler) skip(why string) {
	w.inRun = false
	w.sum.Skipped++
	if !strings.Contains(w.sum.SkippedWhy, why) {
		if w.sum.SkippedWhy != "" {
			w.sum.SkippedWhy += ", "
		}
		w.sum.SkippedWhy += why
	}
}

// row writes one record of the .dat file: the runtime, the current cost
// (NA when unknown) and best cost twice (raw and "transformed", which are
// the same here), and the parameters (seconds NA when unknown).
//
// A run's first record is at runtime 1, as IOHexperimenter's always is
// (the first evaluation always improves on nothing): IOHanalyzer aligns
// the runs of a data set on the runtimes of all of them and fails on a
// run with no value at the runtime another starts at. When the run's
// first row comes later (the lab records the first point after a
// generation, such as a population of 100), a row at runtime 1 comes
// first with the largest cost any grid has, 3N(N-1), which is true of the
// best-so-far cost after one evaluation whatever it was (current cost and
// seconds NA, generation and restarts 0).
func (w *IOHprofiler) row(runtime int64, current *float64, best int, generation int64, seconds *float64, restarts int64) error {
	if w.rows == 0 && runtime > 1 {
		if err := w.record(1, nil, WorstCost(w.run.Size), 0, nil, 0); err != nil {
			return err
		}
	}
	return w.record(runtime, current, best, generation, seconds, restarts)
}

// WorstCost is the largest cost a grid of side n can have: each of its
// 3n rows, columns and boxes misses at most n-1 symbols.
func WorstCost(n int) int { return 3 * n * (n - 1) }

// record writes one row as row describes.
func (w *IOHprofiler) record(runtime int64, current *float64, best int, generation int64, seconds *float64, restarts int64) error {
	cur := "NA"
	if current != nil {
		cur = fmtE(*current, true)
	}
	b := fmtE(float64(best), true)
	l := w.line[:0]
	l = strconv.AppendInt(l, runtime, 10)
	l = append(l, ' ')
	l = append(l, cur...)
	l = append(l, ' ')
	l = append(l, b...)
	l = append(l, ' ')
	l = append(l, cur...)
	l = append(l, ' ')
	l = append(l, b...)
	l = append(l, ' ')
	l = strconv.AppendInt(l, generation, 10)
	l = append(l, ' ')
	if seconds != nil {
		l = strconv.AppendFloat(l, *seconds, 'f', 6, 64)
	} else {
		l = append(l, "NA"...)
	}
	l = append(l, ' ')
	l = strconv.AppendInt(l, restarts, 10)
	l = append(l, '\n')
	w.line = l
	w.lastEval = runtime
	w.rows++
	w.sum.Rows++
	_, err := w.g.w.Write(l)
	return err
}

// endRun finishes the current run: IOHprofiler wants every run to end
// with its last evaluation, so when the trajectory stops short of the
// run's final effort (or there is none), a last row holds the run's final
// state: its effort, best cost, generations, wall seconds and restarts,
// with the current cost NA.
func (w *IOHprofiler) endRun() error {
	if !w.inRun {
		return nil
	}
	w.inRun = false
	r := &w.run
	final := atLeast1(r.FinalEffort())
	if w.points > 0 && w.lastEval >= final {
		return nil
	}
	return w.row(final, nil, *r.Run.BestCost, r.Run.Generations, r.Run.WallSeconds, r.Run.Restarts)
}

// startGroup opens the .dat file of r's configuration and puzzle.
func (w *IOHprofiler) startGroup(r *Run, key string) error {
	alg := safeName(r.Config)
	if c, ok := w.algDirs[alg]; ok && c != r.Config {
		return fmt.Errorf("iohprofiler: configurations %q and %q would share the folder %s", c, r.Config, alg)
	}
	w.algDirs[alg] = r.Config
	name := r.PuzzleLabel
	if name == "" {
		name = "puzzle-" + strconv.FormatInt(r.Run.PuzzleID, 10)
	}
	fid := strconv.FormatInt(r.Run.PuzzleID, 10)
	fname := safeName(name)
	dataDir := "data_f" + fid + "_" + fname
	datName := "IOHprofiler_f" + fid + "_DIM" + strconv.Itoa(r.FreeCells()) + ".dat"
	g := &iohGroup{
		key:      key,
		infoPath: filepath.Join(alg, "IOHprofiler_f"+fid+"_"+fname+".info"),
		datRel:   path.Join(dataDir, datName),
		header: fmt.Sprintf(`suite = "%s", funcId = %s, funcName = "%s", DIM = %d, maximization = "F", algId = "%s", algInfo = "%s"`,
			IOHSuite, fid, infoValue(name), r.FreeCells(), infoValue(r.Config), infoValue(algInfo(r))),
		comment: "% sudokulab export-runs: f(x) is the cost (symbols missing from rows, columns and boxes; 0 = solved), minimised; " +
			"the runtime counts " + unitOf(r) + "; the instance is the seed",
	}
	datDir := filepath.Join(w.dir, alg, dataDir)
	if err := os.MkdirAll(datDir, 0o755); err != nil {
		return fmt.Errorf("iohprofiler: %w", err)
	}
	f, err := os.Create(filepath.Join(datDir, datName))
	if err != nil {
		return fmt.Errorf("iohprofiler: %w", err)
	}
	g.dat, g.w = f, bufio.NewWriterSize(f, 64<<10)
	w.g = g
	w.sum.Files = append(w.sum.Files, filepath.Join(alg, dataDir, datName))
	return nil
}

// endGroup closes the open .dat file and writes its .info file.
func (w *IOHprofiler) endGroup() error {
	g := w.g
	if g == nil {
		return nil
	}
	w.g = nil
	w.done[g.key] = true
	err := g.w.Flush()
	if cerr := g.dat.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("iohprofiler: %w", err)
	}
	var b strings.Builder
	b.WriteString(g.header)
	b.WriteString("\n")
	b.WriteString(g.comment)
	b.WriteString("\n")
	b.WriteString(g.datRel)
	for _, r := range g.runs {
		b.WriteString(", ")
		b.WriteString(r)
	}
	b.WriteString("\n")
	if err := os.WriteFile(filepath.Join(w.dir, g.infoPath), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("iohprofiler: %w", err)
	}
	w.sum.Files = append(w.sum.Files, g.infoPath)
	return nil
}

// algInfo describes the configuration in the .info file.
func algInfo(r *Run) string {
	return "solver " + r.Solver + "; runtime in " + unitOf(r)
}

// unitOf names the unit of r's runtime.
func unitOf(r *Run) string {
	if r.EffortUnit == UnitNodes {
		return "search nodes of the exact solver (guesses plus one)"
	}
	return "cost-function evaluations"
}

// infoValue makes s safe inside a double-quoted .info value: IOHanalyzer
// splits the line at commas and drops quotes, and reads one line, so
// those characters become spaces.
func infoValue(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch r {
		case ',', '"', '\'', '\n', '\r', '=':
			return ' '
		}
		return r
	}, s))
}

// fmtE formats a cost as IOHprofiler's example data does: C's "%+.5e" in
// .dat files (signed), "%.5e" in .info files.
func fmtE(v float64, signed bool) string {
	if signed {
		return fmt.Sprintf("%+.5e", v)
	}
	return fmt.Sprintf("%.5e", v)
}

// atLeast1 is n, or 1 when n is smaller: IOHprofiler counts evaluations
// from 1 (IOHanalyzer drops a run whose runtime is 0), so work done before
// the first counted evaluation, as by a prefilter that solves the puzzle,
// is written as 1.
func atLeast1(n int64) int64 { return max(n, 1) }
