package solvertest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
)

// Fingerprint runs s on the named paper puzzle and returns the first 16 hex
// digits of a SHA-256 of its Result and every Step, for golden tests that
// pin a solver's behaviour for a seed (a refactoring or a new parameter at
// its default must not change it).
func Fingerprint(t *testing.T, s sudokulab.Solver, puzzle string, budget sudokulab.Budget, seed int64) string {
	t.Helper()
	rec := &recorder{}
	res, err := s.Solve(context.Background(), paperdata.MustGet(puzzle).Puzzle, budget, sudokulab.NewRand(seed), rec)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%v %d %v %d %d %d\n", res.Grid.Cells, res.Cost, res.Status, res.Evaluations, res.Generations, res.Restarts)
	for _, st := range rec.steps {
		fmt.Fprintf(h, "%+v\n", st)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// Digest resolves set against info, runs the solver on the named paper
// puzzle for at most gens generations, and returns a readable line with the
// result's counters and a SHA-256 of the result and every step, for golden
// files of whole runs.
func Digest(t *testing.T, info sudokulab.SolverInfo, set map[string]string, puzzle string, gens, seed int64) string {
	t.Helper()
	s := New(t, info, set)
	h := sha256.New()
	res, err := s.Solve(context.Background(), paperdata.MustGet(puzzle).Puzzle, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(seed),
		sudokulab.ObserverFunc(func(st sudokulab.Step) { fmt.Fprintf(h, "%+v\n", st) }))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "%+v %s\n", res, res.Grid)
	return fmt.Sprintf("%s gens=%d seed=%d: %s cost=%d evals=%d generations=%d sha256=%x",
		puzzle, gens, seed, res.Status, res.Cost, res.Evaluations, res.Generations, h.Sum(nil)[:12])
}

// New resolves set against info (unset parameters take their defaults) and
// returns the solver, failing the test on an invalid setting.
func New(t testing.TB, info sudokulab.SolverInfo, set map[string]string) sudokulab.Solver {
	t.Helper()
	params, err := info.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := info.New(params)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// CompareGolden compares got with the golden file at path, or with update
// (the package's -update flag) rewrites the file. Regenerate only for a
// deliberate change of behaviour.
func CompareGolden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("runs differ from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// Propagate checks a solver's propagate parameter (package ac3) on the
// named paper puzzle: propagate=none runs exactly as the defaults do (the
// setting arrived after the solver, so none must change nothing), and
// propagate=hidden starts from better grids: the CurrentCost of the first
// step each run reports (its starting grid or first population), summed
// over 20 seeds, is lower than without propagation; with it a seed repeats
// its run on AI Escargot, and a run allocates no more than a run of one
// generation.
func Propagate(t *testing.T, info sudokulab.SolverInfo, puzzle string) {
	t.Helper()
	budget := sudokulab.Budget{MaxGenerations: 100}
	def := Fingerprint(t, New(t, info, nil), puzzle, budget, 1)
	if got := Fingerprint(t, New(t, info, map[string]string{"propagate": "none"}), puzzle, budget, 1); got != def {
		t.Errorf("propagate=none: fingerprint %s, defaults %s", got, def)
	}
	first := func(set map[string]string) float64 {
		total := 0.0
		for seed := int64(1); seed <= 20; seed++ {
			total += FirstCost(t, info, set, puzzle, seed)
		}
		return total
	}
	hidden := map[string]string{"propagate": "hidden"}
	if none, prop := first(nil), first(hidden); prop >= none {
		t.Errorf("%s: first steps' total cost %v with propagate=hidden, %v without: want lower", puzzle, prop, none)
	}
	// With propagation too, a seed repeats its run and a run allocates
	// no more than a run of one generation.
	esc := paperdata.MustGet("ai-escargot").Puzzle
	s := New(t, info, hidden)
	if a, b := Fingerprint(t, s, "ai-escargot", budget, 9), Fingerprint(t, s, "ai-escargot", budget, 9); a != b {
		t.Errorf("propagate=hidden: seed 9 gave fingerprints %s and %s", a, b)
	}
	allocs := func(gens int64) float64 {
		return testing.AllocsPerRun(3, func() {
			_, _ = s.Solve(context.Background(), esc, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(4), nil)
		})
	}
	if one, many := allocs(1), allocs(40); many != one {
		t.Errorf("propagate=hidden: %v allocations for 1 generation, %v for 40", one, many)
	}
}

// FirstCost runs the solver (info with set) on the named paper puzzle for
// one generation with seed and returns the CurrentCost of the first step it
// reports: the cost of its starting grid, or its first population's mean.
func FirstCost(t *testing.T, info sudokulab.SolverInfo, set map[string]string, puzzle string, seed int64) float64 {
	t.Helper()
	rec := &recorder{}
	if _, err := New(t, info, set).Solve(context.Background(), paperdata.MustGet(puzzle).Puzzle, sudokulab.Budget{MaxGenerations: 1}, sudokulab.NewRand(seed), rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.steps) == 0 {
		t.Fatal("no step reported")
	}
	return rec.steps[0].CurrentCost
}
