// Package solvertest is the conformance suite every registered solver
// passes: it solves easy paper puzzles, never changes a given, repeats
// itself for a seed, stops promptly on cancel and on budget, reports a best
// cost that never gets worse, and returns valid output on a puzzle it
// cannot solve. Each solver package calls Run from its tests.
package solvertest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/paperdata"
)

// Options adjust the suite for one solver. Zero values mean the defaults.
type Options struct {
	// Params overrides parameters (as --set would); nil uses the defaults.
	Params map[string]string
	// Easy names paper puzzles the solver must solve within EasyBudget.
	// Default: reseda-easy and sato-no1.
	Easy []string
	// EasyBudget bounds each easy solve. Default: 100,000 generations.
	EasyBudget sudokulab.Budget
	// Seeds is how many seeds each easy puzzle is solved with. Default 3.
	Seeds int
	// Hard names a paper puzzle the solver is not expected to solve within
	// SmallBudget. Default: ai-escargot.
	Hard string
	// SmallBudget is a budget that ends a search early. Default: 5
	// generations.
	SmallBudget sudokulab.Budget
}

func (o *Options) defaults() {
	if len(o.Easy) == 0 {
		o.Easy = []string{"reseda-easy", "sato-no1"}
	}
	if o.EasyBudget == (sudokulab.Budget{}) {
		o.EasyBudget = sudokulab.Budget{MaxGenerations: 100_000}
	}
	if o.Seeds == 0 {
		o.Seeds = 3
	}
	if o.Hard == "" {
		o.Hard = "ai-escargot"
	}
	if o.SmallBudget == (sudokulab.Budget{}) {
		o.SmallBudget = sudokulab.Budget{MaxGenerations: 5}
	}
}

// recorder is an Observer that keeps every step.
type recorder struct{ steps []sudokulab.Step }

func (r *recorder) Observe(s sudokulab.Step) { r.steps = append(r.steps, s) }

// Run runs the conformance suite for the solver described by info.
func Run(t *testing.T, info sudokulab.SolverInfo, opts Options) {
	t.Helper()
	opts.defaults()
	params, err := info.Resolve(opts.Params)
	if err != nil {
		t.Fatalf("resolve parameters: %v", err)
	}
	solver, err := info.New(params)
	if err != nil {
		t.Fatalf("new %s: %v", info.Name, err)
	}
	solve := func(t *testing.T, ctx context.Context, puzzle sudokulab.Grid, b sudokulab.Budget, seed int64) (sudokulab.Result, []sudokulab.Step) {
		t.Helper()
		rec := &recorder{}
		res, err := solver.Solve(ctx, puzzle, b, sudokulab.NewRand(seed), rec)
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		checkResult(t, puzzle, res, rec.steps)
		return res, rec.steps
	}

	t.Run("Declaration", func(t *testing.T) {
		checkDeclaration(t, info)
	})

	t.Run("SolvesEasy", func(t *testing.T) {
		for _, name := range opts.Easy {
			p := paperdata.MustGet(name)
			for seed := int64(1); seed <= int64(opts.Seeds); seed++ {
				res, _ := solve(t, context.Background(), p.Puzzle, opts.EasyBudget, seed)
				if res.Status != sudokulab.StatusSolved {
					t.Errorf("%s seed %d: status %s, cost %d after %d generations; want solved", name, seed, res.Status, res.Cost, res.Generations)
					continue
				}
				if !res.Grid.Equal(p.Solution) {
					t.Errorf("%s seed %d: solved grid %s is not the listed solution %s", name, seed, res.Grid, p.Solution)
				}
			}
		}
	})

	t.Run("Deterministic", func(t *testing.T) {
		p := paperdata.MustGet(opts.Easy[0])
		for _, b := range []sudokulab.Budget{opts.SmallBudget, opts.EasyBudget} {
			r1, s1 := solve(t, context.Background(), p.Puzzle, b, 42)
			r2, s2 := solve(t, context.Background(), p.Puzzle, b, 42)
			if !reflect.DeepEqual(r1, r2) {
				t.Errorf("budget %+v: two runs with seed 42 differ:\n%+v\n%+v", b, r1, r2)
			}
			if !reflect.DeepEqual(s1, s2) {
				t.Errorf("budget %+v: two trajectories with seed 42 differ (%d and %d steps)", b, len(s1), len(s2))
			}
		}
	})

	t.Run("StopsOnBudget", func(t *testing.T) {
		p := paperdata.MustGet(opts.Hard)
		res, _ := solve(t, context.Background(), p.Puzzle, opts.SmallBudget, 7)
		if res.Status == sudokulab.StatusSolved {
			return // allowed: some solvers finish within any budget
		}
		if res.Status != sudokulab.StatusUnsolved {
			t.Errorf("status %s, want unsolved when the budget runs out", res.Status)
		}
		b := opts.SmallBudget
		if b.MaxGenerations > 0 && res.Generations > b.MaxGenerations {
			t.Errorf("%d generations, budget %d", res.Generations, b.MaxGenerations)
		}
		if b.MaxEvaluations > 0 && res.Evaluations > b.MaxEvaluations {
			t.Errorf("%d evaluations, budget %d", res.Evaluations, b.MaxEvaluations)
		}
	})

	t.Run("StopsOnCancel", func(t *testing.T) {
		p := paperdata.MustGet(opts.Hard)
		// AI Escargot keeps a stochastic solver busy; the exact solver may
		// finish first, which is allowed.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		res, _ := solve(t, ctx, p.Puzzle, sudokulab.Budget{}, 3)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v to notice a cancelled context", d)
		}
		if res.Status != sudokulab.StatusCanceled && res.Status != sudokulab.StatusSolved {
			t.Errorf("status %s, want canceled", res.Status)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start = time.Now()
		res, _ = solve(t, ctx, p.Puzzle, sudokulab.Budget{}, 3)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v to stop at a 50ms deadline", d)
		}
		if res.Status != sudokulab.StatusTimeout && res.Status != sudokulab.StatusSolved {
			t.Errorf("status %s at a deadline, want timeout", res.Status)
		}
	})

	t.Run("Unsolvable", func(t *testing.T) {
		g := sudokulab.MustParse(noSolution)
		if err := g.Validate(); err != nil {
			t.Fatalf("test puzzle: %v", err)
		}
		res, _ := solve(t, context.Background(), g, opts.SmallBudget, 5)
		if res.Status == sudokulab.StatusSolved {
			t.Errorf("claims to have solved a puzzle with no solution: %s", res.Grid)
		}
	})
}

// noSolution is a puzzle whose givens break no rule but which has no
// solution: r1c1 sees 1-4 in its row, 5-8 in its column and 9 in its box.
const noSolution = "" +
	"...1234.." +
	".9......." +
	"........." +
	"5........" +
	"6........" +
	"7........" +
	"8........" +
	"........." +
	"........."

func checkDeclaration(t *testing.T, info sudokulab.SolverInfo) {
	if info.Name == "" || info.Summary == "" || info.Paper == "" || info.New == nil {
		t.Errorf("incomplete SolverInfo: name %q, summary %q, paper %q", info.Name, info.Summary, info.Paper)
	}
	for _, p := range info.Params {
		if p.Doc == "" || p.Section == "" {
			t.Errorf("parameter %s: doc %q, section %q; want both", p.Name, p.Doc, p.Section)
		}
		want := map[sudokulab.ParamKind]reflect.Kind{
			sudokulab.ParamInt: reflect.Int64, sudokulab.ParamFloat: reflect.Float64,
			sudokulab.ParamBool: reflect.Bool, sudokulab.ParamChoice: reflect.String,
		}[p.Kind]
		if p.Default == nil || reflect.TypeOf(p.Default).Kind() != want {
			t.Errorf("parameter %s: default %#v is not a %s", p.Name, p.Default, p.Kind)
		}
		if _, err := info.Resolve(map[string]string{p.Name: fmt.Sprint(p.Default)}); err != nil {
			t.Errorf("parameter %s: its own default does not resolve: %v", p.Name, err)
		}
	}
	if _, err := info.Resolve(map[string]string{"no-such-parameter": "1"}); err == nil || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("unknown parameter: err = %v, want EINVALID", err)
	}
}

// checkResult checks what every result must satisfy.
func checkResult(t *testing.T, puzzle sudokulab.Grid, res sudokulab.Result, steps []sudokulab.Step) {
	t.Helper()
	if !res.Status.Valid() {
		t.Fatalf("status %q is not a run status", res.Status)
	}
	g := res.Grid
	if g.Shape != puzzle.Shape || len(g.Cells) != len(puzzle.Cells) {
		t.Fatalf("result grid has shape %v and %d cells, puzzle %v", g.Shape, len(g.Cells), puzzle.Shape)
	}
	for i, v := range puzzle.Cells {
		if v != 0 && g.Cells[i] != v {
			t.Fatalf("%s changed a given: %d became %d", g.Geometry().CellName(i), v, g.Cells[i])
		}
	}
	for i, v := range g.Cells {
		if int(v) > g.N() {
			t.Fatalf("cell %d holds %d", i, v)
		}
	}
	if got := g.Cost(); got != res.Cost {
		t.Errorf("result cost %d, but its grid costs %d", res.Cost, got)
	}
	if res.Status == sudokulab.StatusSolved {
		if err := sudokulab.CheckSolution(puzzle, g); err != nil {
			t.Errorf("reported solved: %v", err)
		}
	}
	for i := 1; i < len(steps); i++ {
		if steps[i].BestCost > steps[i-1].BestCost {
			t.Fatalf("best cost got worse at step %d: %d -> %d", i, steps[i-1].BestCost, steps[i].BestCost)
		}
		if steps[i].Generation < steps[i-1].Generation || steps[i].Evaluations < steps[i-1].Evaluations {
			t.Fatalf("counters went backwards at step %d: %+v -> %+v", i, steps[i-1], steps[i])
		}
	}
	if len(steps) > 0 {
		last := steps[len(steps)-1]
		if last.BestCost < res.Cost {
			t.Errorf("last step's best cost %d is below the result's %d", last.BestCost, res.Cost)
		}
	}
}
