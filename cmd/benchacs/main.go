// Command benchacs runs lab configurations (the acs solver by default) and
// Lloyd and Amos's sudoku_acs side by side on the same puzzles,
// alternating run by run so that all see the same machine load, and prints
// each run and a summary: success counts, median time by each program's
// own timer and by the wall clock, and iterations. 9x9 puzzles come from
// -grid or a -file of 81-character lines; puzzles of any shape from
// -instances, files in sudoku_acs's instance format (which sudoku_acs reads
// with --file and the lab with its "instance" format), summarised per class
// (the file name up to its last underscore, as in sudoku_acs's
// instances/general: inst16x16_45_3.txt is of class inst16x16_45).
// scripts/bench-acs.sh builds sudoku_acs (with one line added that prints
// its iteration count) and calls it.
//
//	benchacs -sudoku-acs /tmp/sudokusolver -grid 1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.. -runs 20
//	benchacs -sudoku-acs /tmp/sudokusolver -file puzzles6_forum_hardest_1106.txt -limit 50 -runs 5
//	benchacs -sudoku-acs /tmp/sudokusolver -instances 'instances/general/inst25x25_45_*.txt' -limit 10 -config acs-lloyd-amos -config lewis-sa-2007
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/importers"
	"sudokulab/solvers"
)

// run is one run of one program on one puzzle.
type run struct {
	program    string
	puzzle     int
	seed       int64
	solved     bool
	own, wall  time.Duration // own: the program's timer; wall: around the call or process
	iterations int64
}

func main() {
	var configs multiFlag
	var (
		binary    = flag.String("sudoku-acs", "", "the sudoku_acs binary (built with the iteration line of scripts/bench-acs.sh)")
		grid      = flag.String("grid", "", "one puzzle, 81 cells, '.' or '0' for empty")
		file      = flag.String("file", "", "a file of puzzles, one per line (81 cells first), '#' lines skipped")
		instances = flag.String("instances", "", "a glob of instance files of any shape (sudoku_acs's format), summarised per class")
		limit     = flag.Int("limit", 0, "use the first N puzzles of -file, or of each class of -instances (0: all)")
		runs      = flag.Int("runs", 20, "runs of each program per puzzle")
		timeout   = flag.Int("timeout", 10, "time limit of each run, in seconds")
		out       = flag.String("o", "", "write every run as tab-separated lines to this file")
	)
	flag.Var(&configs, "config", "a lab preset or solver name to run beside sudoku_acs (repeatable; default acs-lloyd-amos)")
	flag.Parse()
	if len(configs) == 0 {
		configs = multiFlag{"acs-lloyd-amos"}
	}
	if err := bench(*binary, *grid, *file, *instances, *limit, *runs, *timeout, *out, configs, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchacs:", err)
		os.Exit(2)
	}
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// puzzle is one puzzle to run: its grid, the file sudoku_acs reads it from
// (empty: passed with --puzzle) and its class.
type puzzle struct {
	grid  sudokulab.Grid
	file  string
	class string
}

// program is one of our configurations.
type program struct {
	name   string
	solver sudokulab.Solver
}

// resolveConfig returns the solver of a preset, or of a solver name with
// its defaults, from the lab's registry.
func resolveConfig(name string) (program, error) {
	reg := solvers.Default()
	for _, info := range reg.All() {
		for _, p := range info.Presets {
			if p.Name != name {
				continue
			}
			params, err := info.Resolve(p.Set)
			if err != nil {
				return program{}, err
			}
			s, err := info.New(params)
			return program{name, s}, err
		}
	}
	info, err := reg.Lookup(name)
	if err != nil {
		return program{}, fmt.Errorf("-config %s: no preset or solver of that name: %w", name, err)
	}
	params, err := info.Resolve(nil)
	if err != nil {
		return program{}, err
	}
	s, err := info.New(params)
	return program{name, s}, err
}

func bench(binary, grid, file, instances string, limit, runs, timeout int, out string, configs []string, w io.Writer) error {
	if binary == "" {
		return errors.New("-sudoku-acs is required")
	}
	puzzles, err := gatherPuzzles(grid, file, instances, limit)
	if err != nil {
		return err
	}
	var progs []program
	for _, c := range configs {
		p, err := resolveConfig(c)
		if err != nil {
			return err
		}
		progs = append(progs, p)
	}
	var log io.Writer = io.Discard
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		log = f
	}
	all, err := runAll(binary, puzzles, progs, runs, timeout, log)
	if err != nil {
		return err
	}
	names := []string{"sudoku_acs"}
	for _, p := range progs {
		names = append(names, p.name)
	}
	summarizeClasses(w, names, all, puzzles, runs, timeout)
	return nil
}

// gatherPuzzles reads the puzzles of -grid, -file and -instances, in that
// order.
func gatherPuzzles(grid, file, instances string, limit int) ([]puzzle, error) {
	var puzzles []puzzle
	if grid != "" {
		g, err := sudokulab.Parse(grid)
		if err != nil {
			return nil, fmt.Errorf("-grid: %w", err)
		}
		puzzles = append(puzzles, puzzle{grid: g, class: "grid"})
	}
	if file != "" {
		ps, err := readPuzzles(file, limit)
		if err != nil {
			return nil, err
		}
		for _, g := range ps {
			puzzles = append(puzzles, puzzle{grid: g, class: filepath.Base(file)})
		}
	}
	if instances != "" {
		ps, err := readInstances(instances, limit)
		if err != nil {
			return nil, err
		}
		puzzles = append(puzzles, ps...)
	}
	if len(puzzles) == 0 {
		return nil, errors.New("no puzzle: give -grid, -file or -instances")
	}
	return puzzles, nil
}

// runAll runs sudoku_acs and then each of our programs on every puzzle,
// runs times, with the same seed for all in one round, and writes each run
// to log as it ends.
func runAll(binary string, puzzles []puzzle, progs []program, runs, timeout int, log io.Writer) ([]run, error) {
	fmt.Fprintln(log, "program\tclass\tpuzzle\tseed\tsolved\town_seconds\twall_seconds\titerations")
	var all []run
	for p, pz := range puzzles {
		for r := range runs {
			seed := int64(p*1000 + r + 1)
			c, err := runSudokuACS(binary, pz, timeout)
			if err != nil {
				return nil, fmt.Errorf("puzzle %d run %d: %w", p+1, r+1, err)
			}
			c.puzzle, c.seed = p, seed
			batch := []run{c}
			for _, prog := range progs {
				o, err := runOurs(prog, pz.grid, timeout, seed)
				if err != nil {
					return nil, fmt.Errorf("puzzle %d run %d: %s: %w", p+1, r+1, prog.name, err)
				}
				o.puzzle = p
				batch = append(batch, o)
			}
			for _, x := range batch {
				fmt.Fprintf(log, "%s\t%s\t%d\t%d\t%v\t%.6f\t%.6f\t%d\n", x.program, pz.class, x.puzzle+1, x.seed, x.solved, x.own.Seconds(), x.wall.Seconds(), x.iterations)
				all = append(all, x)
			}
		}
	}
	return all, nil
}

// summarizeClasses prints, for each class of puzzles in the order first
// met, a header and one line per program.
func summarizeClasses(w io.Writer, names []string, all []run, puzzles []puzzle, runs, timeout int) {
	var classes []string
	for _, pz := range puzzles {
		if !slices.Contains(classes, pz.class) {
			classes = append(classes, pz.class)
		}
	}
	for _, class := range classes {
		var in []run
		n := 0
		for _, pz := range puzzles {
			if pz.class == class {
				n++
			}
		}
		for _, r := range all {
			if puzzles[r.puzzle].class == class {
				in = append(in, r)
			}
		}
		fmt.Fprintf(w, "%s: %d puzzles x %d runs each, %d s timeout\n", class, n, runs, timeout)
		fmt.Fprintf(w, "%-20s %9s %14s %14s %12s %12s %14s\n", "program", "solved", "median own", "median wall", "median iter", "mean iter", "puzzles all")
		for _, prog := range names {
			summarize(w, prog, in, puzzles)
		}
	}
}

// summarize prints one program's line for the runs given: medians over
// the solved runs, and how many of their puzzles it solved in every run.
func summarize(w io.Writer, prog string, all []run, puzzles []puzzle) {
	var own, wall []time.Duration
	var iters []int64
	solved, total := 0, 0
	solvedAll := map[int]bool{}
	var iterSum int64
	for _, r := range all {
		if r.program != prog {
			continue
		}
		total++
		if _, seen := solvedAll[r.puzzle]; !seen {
			solvedAll[r.puzzle] = true
		}
		if !r.solved {
			solvedAll[r.puzzle] = false
			continue
		}
		solved++
		own, wall, iters = append(own, r.own), append(wall, r.wall), append(iters, r.iterations)
		iterSum += r.iterations
	}
	everyRun := 0
	for _, ok := range solvedAll {
		if ok {
			everyRun++
		}
	}
	mean := 0.0
	if solved > 0 {
		mean = float64(iterSum) / float64(solved)
	}
	fmt.Fprintf(w, "%-20s %4d/%-4d %14s %14s %12s %12.1f %7d/%-6d\n", prog, solved, total,
		median(own), median(wall), medianInt(iters), mean, everyRun, len(solvedAll))
}

func median(d []time.Duration) string {
	if len(d) == 0 {
		return "-"
	}
	slices.Sort(d)
	m := d[len(d)/2]
	if len(d)%2 == 0 {
		m = (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	return fmt.Sprintf("%.2fms", float64(m.Microseconds())/1000)
}

func medianInt(v []int64) string {
	if len(v) == 0 {
		return "-"
	}
	slices.Sort(v)
	if len(v)%2 == 0 {
		return strconv.FormatFloat(float64(v[len(v)/2-1]+v[len(v)/2])/2, 'f', 1, 64)
	}
	return strconv.FormatInt(v[len(v)/2], 10)
}

// runSudokuACS runs the binary once. It prints 0 (solved) or 1, then its
// solution time (meaningless when it failed), and on stderr the line
// "iterations N" that bench-acs.sh adds.
func runSudokuACS(binary string, pz puzzle, timeout int) (run, error) {
	args := []string{"--file", pz.file}
	if pz.file == "" {
		args = []string{"--puzzle", strings.Map(func(r rune) rune {
			if r == '0' {
				return '.'
			}
			return r
		}, pz.grid.String())}
	}
	cmd := exec.Command(binary, append(args, "--timeout", strconv.Itoa(timeout))...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := run{program: "sudoku_acs", wall: time.Since(start)}
	if err != nil {
		return r, fmt.Errorf("%s: %w (%s)", binary, err, strings.TrimSpace(stderr.String()))
	}
	f := strings.Fields(stdout.String())
	if len(f) < 2 {
		return r, fmt.Errorf("%s printed %q, want status and time", binary, stdout.String())
	}
	r.solved = f[0] == "0"
	if secs, err := strconv.ParseFloat(f[1], 64); err == nil && r.solved {
		r.own = time.Duration(secs * float64(time.Second))
	}
	if _, err := fmt.Sscanf(strings.TrimSpace(stderr.String()), "iterations %d", &r.iterations); err != nil {
		return r, fmt.Errorf("%s: no iteration count on stderr (%q): build it with scripts/bench-acs.sh", binary, stderr.String())
	}
	return r, nil
}

// runOurs runs one of our configurations once; its own timer is the wall
// clock around Solve, which includes (for acs) the propagation of the
// givens that sudoku_acs does before starting its timer.
func runOurs(p program, g sudokulab.Grid, timeout int, seed int64) (run, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout)*time.Second)
	defer cancel()
	start := time.Now()
	res, err := p.solver.Solve(ctx, g, sudokulab.Budget{}, sudokulab.NewRand(seed), nil)
	d := time.Since(start)
	if err != nil {
		return run{}, err
	}
	return run{program: p.name, seed: seed, solved: res.Status == sudokulab.StatusSolved, own: d, wall: d, iterations: res.Generations}, nil
}

// readPuzzles reads the first 81 characters of each line that is not a
// comment.
func readPuzzles(path string, limit int) ([]sudokulab.Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sudokulab.Grid
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if len(text) < 81 {
			return nil, fmt.Errorf("%s:%d: %d characters, want a 9x9 grid of 81", path, line, len(text))
		}
		g, err := sudokulab.Parse(text[:81])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, g)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, sc.Err()
}

// readInstances reads the instance files matching glob, in name order, the
// first limit of each class (0: all), with the lab's instance format.
func readInstances(glob string, limit int) ([]puzzle, error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, fmt.Errorf("-instances %q: %w", glob, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("-instances %q: no file matches", glob)
	}
	slices.SortFunc(files, compareNatural)
	format, err := importers.Default().Lookup("instance")
	if err != nil {
		return nil, err
	}
	var out []puzzle
	perClass := map[string]int{}
	for _, path := range files {
		class := instanceClass(path)
		if limit > 0 && perClass[class] == limit {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		var grids []sudokulab.Grid
		for rec, err := range format.Decode(f, importers.Options{File: path}) {
			if err != nil {
				f.Close()
				return nil, err
			}
			grids = append(grids, rec.Grid)
		}
		f.Close()
		if len(grids) != 1 {
			return nil, fmt.Errorf("%s: %d puzzles, want one (sudoku_acs reads one per file)", path, len(grids))
		}
		out = append(out, puzzle{grid: grids[0], file: path, class: class})
		perClass[class]++
	}
	return out, nil
}

// instanceClass returns the class of an instance file: its base name
// without the extension, up to its last underscore or hyphen
// (inst16x16_45_3.txt: inst16x16_45; g16-45-0003.instance: g16-45).
func instanceClass(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if i := strings.LastIndexAny(base, "_-"); i > 0 {
		return base[:i]
	}
	return base
}

// compareNatural orders names with their digit runs compared as numbers,
// so that inst_9 comes before inst_10.
func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.Atoi(a[:da])
			nb, _ := strconv.Atoi(b[:db])
			if na != nb {
				return cmp.Compare(na, nb)
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
