package restartsearch_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/exact"
	"sudokulab/solvers/internal/restart"
	"sudokulab/solvers/restartsearch"
	"sudokulab/solvers/solvertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

func TestConformance(t *testing.T) {
	for _, preset := range restartsearch.Info().Presets {
		t.Run(preset.Name, func(t *testing.T) {
			solvertest.Run(t, restartsearch.Info(), solvertest.Options{Params: preset.Set})
		})
	}
}

// instance keeps frac of the cells of a random solution grid of shape, as
// the instance classes of the literature do (scripts/instance-classes.sh).
func instance(shape sudokulab.Shape, frac float64, seed int64) sudokulab.Grid {
	rng := sudokulab.NewRand(seed)
	sol := generator.RandomSolution(shape, rng)
	g := sol.Clone()
	keep := int(frac*float64(len(g.Cells)) + 0.5)
	for i, c := range rng.Perm(len(g.Cells)) {
		if i >= keep {
			g.Cells[c] = 0
		}
	}
	return g
}

// TestSolvesEveryShape solves instances of the literature's classes on
// every box shape, each grid checked against its givens and the rules.
func TestSolvesEveryShape(t *testing.T) {
	for _, tc := range []struct {
		shape sudokulab.Shape
		frac  float64
	}{
		{sudokulab.Shape{BoxRows: 2, BoxCols: 2}, 0.3},
		{sudokulab.Shape{BoxRows: 2, BoxCols: 3}, 0.4},
		{sudokulab.Shape{BoxRows: 3, BoxCols: 4}, 0.45},
		{sudokulab.Shape{BoxRows: 4, BoxCols: 4}, 0.4},
		{sudokulab.Shape{BoxRows: 4, BoxCols: 4}, 0.45},
		{sudokulab.Shape{BoxRows: 5, BoxCols: 5}, 0.4},
		{sudokulab.Shape{BoxRows: 5, BoxCols: 5}, 0.5},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			name := fmt.Sprintf("%s-%.0f%%-%d", tc.shape, 100*tc.frac, seed)
			t.Run(name, func(t *testing.T) {
				p := instance(tc.shape, tc.frac, seed)
				s := solvertest.New(t, restartsearch.Info(), nil)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				res, err := s.Solve(ctx, p, sudokulab.Budget{}, sudokulab.NewRand(seed), nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != sudokulab.StatusSolved {
					t.Fatalf("status %s after %d tries, %d nodes", res.Status, res.Generations, res.Nodes)
				}
				if err := sudokulab.CheckSolution(p, res.Grid); err != nil {
					t.Fatal(err)
				}
				if res.Cost != 0 || res.Evaluations != 0 || res.Nodes != res.Guesses+res.Generations {
					t.Errorf("cost %d, evaluations %d, nodes %d, guesses %d, tries %d; want nodes = guesses + tries", res.Cost, res.Evaluations, res.Nodes, res.Guesses, res.Generations)
				}
			})
		}
	}
}

// TestNodeLimits checks that every try stops at its schedule's node limit:
// with the fixed schedule of unit u, no try visits more than u nodes, and a
// hard puzzle takes several tries.
func TestNodeLimits(t *testing.T) {
	p := paperdata.MustGet("ai-escargot").Puzzle
	for _, sched := range []string{restart.Fixed, restart.Luby, restart.Geometric} {
		t.Run(sched, func(t *testing.T) {
			const unit = 3
			s := solvertest.New(t, restartsearch.Info(), map[string]string{restartsearch.ParamUnit: fmt.Sprint(unit), restart.ParamSchedule: sched})
			var last sudokulab.Step
			schedule := restart.Schedule{Kind: sched, Unit: unit, Factor: 2}
			var allowed int64
			res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 12}, sudokulab.NewRand(1),
				sudokulab.ObserverFunc(func(st sudokulab.Step) {
					if st.Generation != last.Generation+1 || st.Restarts != st.Generation-1 {
						t.Errorf("step %+v after %+v", st, last)
					}
					last = st
					allowed += schedule.Patience(st.Generation)
				}))
			if err != nil {
				t.Fatal(err)
			}
			if res.Status == sudokulab.StatusSolved {
				if err := sudokulab.CheckSolution(p, res.Grid); err != nil {
					t.Fatal(err)
				}
			} else if res.Generations != 12 {
				t.Errorf("unsolved after %d tries, want the budget's 12", res.Generations)
			}
			if res.Guesses > allowed {
				t.Errorf("%d guesses in %d tries, the schedule allows %d", res.Guesses, res.Generations, allowed)
			}
		})
	}
}

// TestProvesNoSolution: a puzzle whose givens propagate consistently but
// which has no solution ends unsolved after the first try that searches
// its whole tree, not after a budget.
func TestProvesNoSolution(t *testing.T) {
	// AI Escargot with one more given, a wrong one that propagation of the
	// givens alone does not refute: the first such cell and symbol in
	// row-major order.
	esc := paperdata.MustGet("ai-escargot")
	var g sudokulab.Grid
	r, err := exact.NewRandomized(esc.Puzzle.Shape)
	if err != nil {
		t.Fatal(err)
	}
search:
	for c, v := range esc.Puzzle.Cells {
		for sym := uint8(1); v == 0 && sym <= 9; sym++ {
			if sym == esc.Solution.Cells[c] {
				continue
			}
			g = esc.Puzzle.Clone()
			g.Cells[c] = sym
			if ok, err := r.Start(g); err != nil {
				t.Fatal(err)
			} else if ok && g.Validate() == nil {
				break search
			}
		}
	}
	if n, err := exact.Solve(context.Background(), g, 1); err != nil || n.Count != 0 {
		t.Fatalf("test puzzle %s: %d solutions, %v", g, n.Count, err)
	}
	for _, unit := range []string{"0", "100000"} {
		s := solvertest.New(t, restartsearch.Info(), map[string]string{restartsearch.ParamUnit: unit})
		res, err := s.Solve(context.Background(), g, sudokulab.Budget{MaxGenerations: 5}, sudokulab.NewRand(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != sudokulab.StatusUnsolved || res.Generations != 1 || res.Guesses == 0 {
			t.Errorf("unit %s: status %s after %d tries and %d guesses; want unsolved after 1 try that searched", unit, res.Status, res.Generations, res.Guesses)
		}
	}
}

// TestDeterministicLarge: a seed repeats its run on a 25x25 grid, where
// ties and restarts are many.
func TestDeterministicLarge(t *testing.T) {
	p := instance(sudokulab.Shape{BoxRows: 5, BoxCols: 5}, 0.45, 3)
	run := func() (sudokulab.Result, []sudokulab.Step) {
		var steps []sudokulab.Step
		s := solvertest.New(t, restartsearch.Info(), nil)
		res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 40}, sudokulab.NewRand(9),
			sudokulab.ObserverFunc(func(st sudokulab.Step) { steps = append(steps, st) }))
		if err != nil {
			t.Fatal(err)
		}
		return res, steps
	}
	r1, s1 := run()
	r2, s2 := run()
	if fmt.Sprint(r1) != fmt.Sprint(r2) || fmt.Sprint(s1) != fmt.Sprint(s2) {
		t.Errorf("two runs of seed 9 differ:\n%+v\n%+v", r1, r2)
	}
}

// TestTryAllocatesNothing: once its buffers have grown, a try allocates
// nothing, whatever its length.
func TestTryAllocatesNothing(t *testing.T) {
	p := instance(sudokulab.Shape{BoxRows: 4, BoxCols: 4}, 0.45, 1)
	for _, weighted := range []bool{false, true} {
		r, err := exact.NewRandomized(p.Shape)
		if err != nil {
			t.Fatal(err)
		}
		r.Weighted = weighted
		if _, err := r.Start(p); err != nil {
			t.Fatal(err)
		}
		rng := sudokulab.NewRand(1)
		ctx := context.Background()
		for range 20 { // grow the frames to the depth tries reach
			if _, err := r.Try(ctx, rng, 2000); err != nil {
				t.Fatal(err)
			}
		}
		if a := testing.AllocsPerRun(20, func() {
			if _, err := r.Try(ctx, rng, 500); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("weighted %v: %v allocations per try", weighted, a)
		}
	}
}

// TestGolden compares whole runs of fixed seeds (solvertest.Digest) with
// testdata/golden.txt. Regenerate with -update only for a deliberate
// change of behaviour.
func TestGolden(t *testing.T) {
	info := restartsearch.Info()
	var lines []string
	for _, tc := range []struct {
		set    map[string]string
		puzzle string
		gens   int64
	}{
		{nil, "ai-escargot", 100},
		{nil, "sato-no106", 100},
		{map[string]string{restartsearch.ParamUnit: "2"}, "ai-escargot", 30},
		{map[string]string{restartsearch.ParamUnit: "2", restart.ParamSchedule: restart.Geometric}, "ai-escargot", 30},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			lines = append(lines, fmt.Sprintf("%v ", tc.set)+solvertest.Digest(t, info, tc.set, tc.puzzle, tc.gens, seed))
		}
	}
	solvertest.CompareGolden(t, filepath.Join("testdata", "golden.txt"), strings.Join(lines, "\n")+"\n", *update)
}
