// Command benchacs runs the lab's acs solver and Lloyd and Amos's
// sudoku_acs side by side on the same 9x9 puzzles, alternating run by run
// so that both see the same machine load, and prints each run and a
// summary: success counts, median time by each program's own timer and by
// the wall clock, and iterations. scripts/bench-acs.sh builds sudoku_acs
// (with one line added that prints its iteration count) and calls it.
//
//	benchacs -sudoku-acs /tmp/sudokusolver -grid 1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.. -runs 20
//	benchacs -sudoku-acs /tmp/sudokusolver -file puzzles6_forum_hardest_1106.txt -limit 50 -runs 5
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokulab"
	"sudokulab/solvers/acs"
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
	var (
		binary  = flag.String("sudoku-acs", "", "the sudoku_acs binary (built with the iteration line of scripts/bench-acs.sh)")
		grid    = flag.String("grid", "", "one puzzle, 81 cells, '.' or '0' for empty")
		file    = flag.String("file", "", "a file of puzzles, one per line (81 cells first), '#' lines skipped")
		limit   = flag.Int("limit", 0, "use the first N puzzles of -file (0: all)")
		runs    = flag.Int("runs", 20, "runs of each program per puzzle")
		timeout = flag.Int("timeout", 10, "time limit of each run, in seconds")
		out     = flag.String("o", "", "write every run as tab-separated lines to this file")
	)
	flag.Parse()
	if err := bench(*binary, *grid, *file, *limit, *runs, *timeout, *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchacs:", err)
		os.Exit(2)
	}
}

func bench(binary, grid, file string, limit, runs, timeout int, out string, w io.Writer) error {
	if binary == "" {
		return errors.New("-sudoku-acs is required")
	}
	var puzzles []sudokulab.Grid
	if grid != "" {
		g, err := sudokulab.Parse(grid)
		if err != nil {
			return fmt.Errorf("-grid: %w", err)
		}
		puzzles = append(puzzles, g)
	}
	if file != "" {
		ps, err := readPuzzles(file, limit)
		if err != nil {
			return err
		}
		puzzles = append(puzzles, ps...)
	}
	if len(puzzles) == 0 {
		return errors.New("no puzzle: give -grid or -file")
	}
	info := acs.Info()
	params, err := info.Resolve(nil)
	if err != nil {
		return err
	}
	solver, err := info.New(params)
	if err != nil {
		return err
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
	fmt.Fprintln(log, "program\tpuzzle\tseed\tsolved\town_seconds\twall_seconds\titerations")
	var all []run
	for p, g := range puzzles {
		for r := range runs {
			seed := int64(p*1000 + r + 1)
			c, err := runSudokuACS(binary, g, timeout)
			if err != nil {
				return fmt.Errorf("puzzle %d run %d: %w", p+1, r+1, err)
			}
			c.puzzle, c.seed = p, seed
			o, err := runOurs(solver, g, timeout, seed)
			if err != nil {
				return fmt.Errorf("puzzle %d run %d: %w", p+1, r+1, err)
			}
			o.puzzle = p
			for _, x := range []run{c, o} {
				fmt.Fprintf(log, "%s\t%d\t%d\t%v\t%.6f\t%.6f\t%d\n", x.program, x.puzzle+1, x.seed, x.solved, x.own.Seconds(), x.wall.Seconds(), x.iterations)
				all = append(all, x)
			}
		}
	}
	fmt.Fprintf(w, "%d puzzles x %d runs each, %d s timeout\n", len(puzzles), runs, timeout)
	fmt.Fprintf(w, "%-10s %8s %14s %14s %12s %12s %14s\n", "program", "solved", "median own", "median wall", "median iter", "mean iter", "puzzles all")
	for _, prog := range []string{"sudoku_acs", "acs"} {
		summarize(w, prog, all, len(puzzles))
	}
	return nil
}

// summarize prints one program's line: medians over the solved runs.
func summarize(w io.Writer, prog string, all []run, puzzles int) {
	var own, wall []time.Duration
	var iters []int64
	solved, total := 0, 0
	solvedAll := make([]bool, puzzles)
	for i := range solvedAll {
		solvedAll[i] = true
	}
	var iterSum int64
	for _, r := range all {
		if r.program != prog {
			continue
		}
		total++
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
	fmt.Fprintf(w, "%-10s %4d/%-4d %14s %14s %12s %12.1f %7d/%-6d\n", prog, solved, total,
		median(own), median(wall), medianInt(iters), mean, everyRun, puzzles)
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
func runSudokuACS(binary string, g sudokulab.Grid, timeout int) (run, error) {
	puzzle := strings.Map(func(r rune) rune {
		if r == '0' {
			return '.'
		}
		return r
	}, g.String())
	cmd := exec.Command(binary, "--puzzle", puzzle, "--timeout", strconv.Itoa(timeout))
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

// runOurs runs the acs solver once; its own timer is the wall clock around
// Solve, which includes the propagation of the givens that sudoku_acs
// does before starting its timer.
func runOurs(s sudokulab.Solver, g sudokulab.Grid, timeout int, seed int64) (run, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout)*time.Second)
	defer cancel()
	start := time.Now()
	res, err := s.Solve(ctx, g, sudokulab.Budget{}, sudokulab.NewRand(seed), nil)
	d := time.Since(start)
	if err != nil {
		return run{}, err
	}
	return run{program: "acs", seed: seed, solved: res.Status == sudokulab.StatusSolved, own: d, wall: d, iterations: res.Generations}, nil
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
