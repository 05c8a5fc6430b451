package exact_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/cputime"
	"sudokulab/internal/tdoku"
	"sudokulab/solvers/exact"
	"sudokulab/solvers/exact/internal/triad"
)

var update = flag.Bool("update", false, "rewrite golden files")

// listSamples returns perList puzzles of each committed tdoku sample, or
// every puzzle of the full lists when full is set.
func listSamples(t *testing.T, perList int, full bool) []sudokulab.Grid {
	t.Helper()
	var out []sudokulab.Grid
	for _, l := range tdoku.Lists {
		out = append(out, listPuzzles(t, l, perList, full)...)
	}
	return out
}

// generatedCorpus is a deterministic mix of n puzzles with zero, one or
// many solutions.
func generatedCorpus(t *testing.T, generated int) []sudokulab.Grid {
	t.Helper()
	var out []sudokulab.Grid
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := 0; i < generated; i++ {
		switch i % 4 {
		case 0:
			out = append(out, withHoles(rng, randomFull(t, rng, sudokulab.Classic), 45+rng.IntN(20)))
		case 1:
			out = append(out, randomGivens(rng, sudokulab.Classic, 8+rng.IntN(22)))
		case 2: // a changed given: often no solution
			p := withHoles(rng, randomFull(t, rng, sudokulab.Classic), 50)
			for c := range p.Cells {
				if p.Cells[c] != 0 {
					p.Cells[c] = p.Cells[c]%9 + 1
					break
				}
			}
			out = append(out, p)
		default: // a digit twice in a unit
			p := withHoles(rng, randomFull(t, rng, sudokulab.Classic), 40)
			a, b := rng.IntN(9), rng.IntN(8)
			if b >= a {
				b++
			}
			row := rng.IntN(9)
			p.Cells[row*9+a], p.Cells[row*9+b] = 5, 5
			out = append(out, p)
		}
	}
	return out
}

// TestTriad holds the triad engine (in whichever build this is) against
// the general engine: the same count up to 1 and 2; the same solution
// when it is unique, and a valid one otherwise, on the committed samples
// of the four tdoku lists (1,875 puzzles; 100 of each with -short), the
// paper puzzles and 2,000 generated ones. With
// SUDOKULAB_EXACT_CROSSCHECK=1 it checks every puzzle of the full tdoku
// lists (in the shared data folder) and 100,000 generated ones, which
// takes minutes; run it in both builds:
//
//	SUDOKULAB_EXACT_CROSSCHECK=1 GOEXPERIMENT=simd go test ./solvers/exact/ -run 'Triad$' -v -timeout 60m
func TestTriad(t *testing.T) {
	if !triad.Runs() {
		t.Skip("the vector build of the triad engine needs AVX2")
	}
	full := os.Getenv(crossCheckEnv) != ""
	perList, generated := tdoku.SampleSize, 2000
	if full {
		generated = 100000
	} else if testing.Short() {
		perList, generated = 100, 400
	}
	ref := exact.NewGeneral(sudokulab.Classic)
	var tr triad.Solver
	ctx := context.Background()
	counts, checked := map[int]int{}, 0
	corpus := listSamples(t, perList, full)
	for _, pp := range readPaperPuzzles(t) {
		if pp.puzzle.Shape == sudokulab.Classic {
			corpus = append(corpus, pp.puzzle)
		}
	}
	for _, p := range append(corpus, generatedCorpus(t, generated)...) {
		checked++
		var givens, sol [81]uint8
		copy(givens[:], p.Cells)
		for _, limit := range []int{1, 2} {
			want, err := ref.Solve(ctx, p, limit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Count(ctx, &givens, limit, &sol)
			if err != nil {
				t.Fatal(err)
			}
			if got.Count != want.Count {
				t.Fatalf("%s limit %d: triad counts %d, the general engine %d", p, limit, got.Count, want.Count)
			}
			if limit == 2 {
				counts[got.Count]++
			}
			if got.Count == 0 {
				continue
			}
			g := sudokulab.Grid{Shape: sudokulab.Classic, Cells: sol[:]}
			if err := sudokulab.CheckSolution(p, g); err != nil {
				t.Fatalf("%s limit %d: triad solution %s: %v", p, limit, g, err)
			}
			if limit == 2 && got.Count == 1 && !g.Equal(want.Solution) {
				t.Fatalf("%s: triad solution %s, the general engine's %s", p, g, want.Solution)
			}
		}
	}
	t.Logf("triad engine (vector build %v): %d puzzles; solution counts (limit 2) %v", triad.Available(), checked, counts)
}

// TestTriadGolden checks the triad engine's count, decisions and branches
// on generated puzzles against a golden file, so that the vector build and
// the portable one are held to the same search, decision for decision.
// Regenerate with go test ./solvers/exact/ -run TriadGolden -update.
func TestTriadGolden(t *testing.T) {
	if !triad.Runs() {
		t.Skip("the vector build of the triad engine needs AVX2")
	}
	const path = "testdata/triad.golden"
	var tr triad.Solver
	var b strings.Builder
	var corpus []sudokulab.Grid
	for _, pp := range readPaperPuzzles(t) {
		if pp.puzzle.Shape == sudokulab.Classic {
			corpus = append(corpus, pp.puzzle)
		}
	}
	for _, p := range append(corpus, generatedCorpus(t, 300)...) {
		var givens, sol [81]uint8
		copy(givens[:], p.Cells)
		res, err := tr.Count(context.Background(), &givens, 2, &sol)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %d %d\n", p, res.Count, res.Decisions, res.Branches)
	}
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := bufio.NewScanner(strings.NewReader(b.String()))
	exp := bufio.NewScanner(strings.NewReader(string(want)))
	for line := 1; exp.Scan(); line++ {
		if !got.Scan() {
			t.Fatalf("%s:%d: missing %q", path, line, exp.Text())
		}
		if got.Text() != exp.Text() {
			t.Fatalf("%s:%d: got %q, want %q (vector build %v)", path, line, got.Text(), exp.Text(), triad.Available())
		}
	}
	if got.Scan() {
		t.Fatalf("%s: extra line %q", path, got.Text())
	}
}

// TestCount holds exact.Count against exact.Solve: the same count and the
// same unique solution on 9x9 (whichever engine CountEngine names), the
// same result on other shapes, and the same errors.
func TestCount(t *testing.T) {
	ctx := context.Background()
	wantEngine := "lc9"
	if triad.Available() {
		wantEngine = "triad"
	}
	if got := exact.CountEngine(); got != wantEngine {
		t.Errorf("CountEngine() = %q, want %q", got, wantEngine)
	}
	var corpus []sudokulab.Grid
	for _, pp := range readPaperPuzzles(t) {
		corpus = append(corpus, pp.puzzle)
	}
	corpus = append(corpus, generatedCorpus(t, 200)...)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, s := range small {
		corpus = append(corpus, withHoles(rng, randomFull(t, rng, s), s.Cells()/2))
	}
	for _, p := range corpus {
		want, err := exact.Solve(ctx, p, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exact.Count(ctx, p, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got.Count != want.Count || (want.Count == 1 && !got.Solution.Equal(want.Solution)) {
			t.Fatalf("%s: Count %d %s, Solve %d %s", p, got.Count, got.Solution, want.Count, want.Solution)
		}
		if p.Shape != sudokulab.Classic && !sameResult(got, want) {
			t.Fatalf("%s: Count %+v, Solve %+v", p, got, want)
		}
	}
	// Dense 9x9 puzzles go to the rating engine: Count is Solve, effort
	// included, in every build.
	for range 50 {
		p := withHoles(rng, randomFull(t, rng, sudokulab.Classic), 81-exact.TriadMaxGivens-1-rng.IntN(30))
		want, _ := exact.Solve(ctx, p, 2)
		if got, err := exact.Count(ctx, p, 2); err != nil || !sameResult(got, want) {
			t.Fatalf("%s (%d givens): Count %+v (%v), Solve %+v", p, p.Givens(), got, err, want)
		}
	}
	// Counting every grid stops with the context, keeping the count so
	// far. The deadline is one of CPU time: on a loaded machine a
	// wall-clock one can pass before the count starts.
	cctx, cancel := cputime.WithBudget(ctx, 50*time.Millisecond)
	defer cancel()
	empty, _ := sudokulab.NewGrid(sudokulab.Classic)
	res, err := exact.Count(cctx, empty, 1<<40)
	if !errors.Is(err, context.DeadlineExceeded) || res.Count == 0 {
		t.Errorf("Count of the empty grid with 50 ms of CPU: %d, %v; want some solutions and the deadline", res.Count, err)
	}
	// CountWithin stops at its budget in every engine (triad or lc9 on
	// the empty 9x9 grid, the general engine on the empty 16x16 one),
	// with a deadline error the caller's context does not have; within
	// its budget it counts as Count.
	var s exact.Solver
	for _, shape := range []sudokulab.Shape{sudokulab.Classic, {BoxRows: 4, BoxCols: 4}} {
		empty, _ := sudokulab.NewGrid(shape)
		res, err := s.CountWithin(ctx, empty, 1<<40, 50*time.Millisecond)
		if !errors.Is(err, context.DeadlineExceeded) || res.Count == 0 || ctx.Err() != nil {
			t.Errorf("CountWithin(empty %s, 50 ms): %d, %v; want some solutions and the deadline", shape, res.Count, err)
		}
	}
	for _, p := range corpus[:50] {
		want, _ := exact.Count(ctx, p, 2)
		got, err := s.CountWithin(ctx, p, 2, time.Minute)
		if err != nil || got.Count != want.Count || !got.Solution.Equal(want.Solution) {
			t.Fatalf("%s: CountWithin %d %s (%v), Count %d %s", p, got.Count, got.Solution, err, want.Count, want.Solution)
		}
	}
	bad := sudokulab.Grid{Shape: sudokulab.Classic, Cells: make([]uint8, 80)}
	if _, err := exact.Count(ctx, bad, 2); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("Count of 80 cells: %v, want an EINVALID error", err)
	}
}
