// Command benchexact times the exact solver (solvers/exact) over a puzzle
// list, the Go side of scripts/bench-exact.sh. Usage:
//
//	benchexact [-limit 2] [-min 20000] [-engine solve|count] [-cpuprofile FILE] FILE
//
// It solves the list, repeated until at least -min solves, with the given
// limit (2 proves uniqueness, 1 finds the first solution) and prints one
// line:
//
//	engine=E puzzles=N solves=S cpu_us_per_puzzle=X guesses_per_puzzle=Y decisions_per_puzzle=Z
//
// CPU time is the process's (user plus system, from getrusage) over the
// solving loop only. Guesses are the solver's Effort.Guesses, the branches
// tried; decisions are the branching points, the count tdoku reports: each
// decision tries one branch or both. The lists hold unique puzzles: a
// count other than 1 is an error.
//
// -engine solve (the default) times exact.Solver.Solve, the engine that
// rates; -engine count times exact.Solver.Count, which on 9x9 runs the
// triad engine when the binary is built with GOEXPERIMENT=simd and the
// processor has AVX2 (E says which engine ran).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"sudokulab"
	"sudokulab/solvers/exact"
)

func main() {
	limit := flag.Int("limit", 2, "solution limit: 2 proves uniqueness, 1 finds the first solution")
	minSolves := flag.Int("min", 20000, "repeat the list until at least this many solves")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the solving loop to this file")
	engine := flag.String("engine", "solve", "solve: exact.Solver.Solve (the rating engine); count: exact.Solver.Count (the fastest engine here)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: benchexact [-limit 2] [-min 20000] [-engine solve|count] [-cpuprofile FILE] FILE")
		os.Exit(2)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchexact:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "benchexact:", err)
			os.Exit(1)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	if *engine != "solve" && *engine != "count" {
		fmt.Fprintf(os.Stderr, "benchexact: -engine %q: want solve or count\n", *engine)
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *limit, *minSolves, *engine == "count"); err != nil {
		fmt.Fprintln(os.Stderr, "benchexact:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// run times the solver over the list in path.
func run(path string, limit, minSolves int, count bool) error {
	puzzles, err := readList(path)
	if err != nil {
		return err
	}
	reps := (minSolves + len(puzzles) - 1) / len(puzzles)
	s := exact.New(sudokulab.Classic)
	solve, engine := s.Solve, "lc9"
	if count {
		solve, engine = s.Count, exact.CountEngine()
	}
	ctx := context.Background()
	var guesses, decisions int64
	solves := 0
	start := cpuTime()
	for range max(reps, 1) {
		for _, p := range puzzles {
			res, err := solve(ctx, p, limit)
			if err != nil {
				return err
			}
			if res.Count != 1 {
				return fmt.Errorf("%s: count %d with limit %d, want 1", p, res.Count, limit)
			}
			guesses += res.Effort.Guesses
			// Each decision tries its first branch; the second branch is
			// tried unless the limit was reached in the first, which
			// happens at most once per solve.
			decisions += (res.Effort.Guesses + 1) / 2
			solves++
		}
	}
	took := cpuTime() - start
	fmt.Printf("engine=%s puzzles=%d solves=%d cpu_us_per_puzzle=%.3f guesses_per_puzzle=%.3f decisions_per_puzzle=%.3f\n",
		engine, len(puzzles), solves, float64(took.Microseconds())/float64(solves),
		float64(guesses)/float64(solves), float64(decisions)/float64(solves))
	return nil
}

// cpuTime returns the CPU time of the process, user plus system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// readList reads a puzzle list: one puzzle a line (its first 81
// characters), '#' comments and blank lines ignored.
func readList(path string) ([]sudokulab.Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sudokulab.Grid
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		if len(s) > 81 {
			s = s[:81]
		}
		g, err := sudokulab.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no puzzles", path)
	}
	return out, nil
}
