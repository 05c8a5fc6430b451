package reseda_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/reseda"
)

// BenchmarkStep measures one EDA step (100 samples drawn and costed, the
// 10 best selected, the probabilities updated) on the hard puzzle, from
// the initial distribution.
func BenchmarkStep(b *testing.B) {
	for _, tc := range []struct {
		name string
		set  map[string]string
	}{
		{"both", nil},
		{"permutations", map[string]string{reseda.ParamPrecompute: "false"}},
		{"univariate", map[string]string{reseda.ParamPermutations: "false"}},
		{"permutations-ac3-escargot", map[string]string{reseda.ParamPrecompute: "false", ac3.ParamName: ac3.AC3}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := paperdata.MustGet("reseda-hard").Puzzle
			e := reseda.NewEngine(p.Shape, tc.set)
			fixed := p.Cells
			if tc.set[ac3.ParamName] != "" {
				// AC3 solves reseda-hard: sample AI Escargot instead.
				p = paperdata.MustGet("ai-escargot").Puzzle
				fixed = e.Restrict(p).Grid().Cells
			}
			rng := sudokulab.NewRand(1)
			b.ReportAllocs()
			for b.Loop() {
				e.Init(fixed)
				e.Step(rng)
			}
			b.ReportMetric(float64(b.N)*100/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

// BenchmarkSolve measures whole runs of the paper's presets: one op is one
// attempt (a resolution and its partial restarts), so ns/op is the time per
// attempt of Tables 1, 3 and 5 and section 5.2, and solved/op the success
// rate. Each op uses the next seed.
func BenchmarkSolve(b *testing.B) {
	presets := map[string]map[string]string{}
	for _, p := range reseda.Info().Presets {
		presets[p.Name] = p.Set
	}
	for _, tc := range []struct{ preset, puzzle string }{
		{"reseda-table1-both-a0.7", "reseda-easy"},
		{"reseda-table1-both-a0.7", "reseda-hard"},
		{"reseda-table3-zones3", "reseda-hard"},
		{"reseda-table3-zones9", "reseda-hard"},
		{"reseda-table3-zones27", "reseda-hard"},
		{"reseda-table3-zones3", "ai-escargot"},
		{"reseda-table3-zones9", "ai-escargot"},
		{"reseda-table3-zones27", "ai-escargot"},
		{"reseda-sec5.2-fixed-block", "ai-escargot"},
	} {
		b.Run(tc.preset+"/"+tc.puzzle, func(b *testing.B) {
			s := newSolver(b, presets[tc.preset])
			p := paperdata.MustGet(tc.puzzle).Puzzle
			var gens, evals, solved int64
			seed := int64(0)
			b.ReportAllocs()
			for b.Loop() {
				seed++
				res, err := s.Solve(context.Background(), p, sudokulab.Budget{}, sudokulab.NewRand(seed), nil)
				if err != nil {
					b.Fatal(err)
				}
				gens += res.Generations
				evals += res.Evaluations
				if res.Status == sudokulab.StatusSolved {
					solved++
				}
			}
			b.ReportMetric(float64(solved)/float64(b.N), "solved/op")
			b.ReportMetric(float64(gens)/b.Elapsed().Seconds(), "generations/s")
			b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "evaluations/s")
		})
	}
}

// TestNoAllocations checks that the steps allocate nothing: an EDA step
// allocates nothing, and a run of 300 generations (with restarts)
// allocates no more than a run of 1.
func TestNoAllocations(t *testing.T) {
	p := paperdata.MustGet("ai-escargot").Puzzle
	e := reseda.NewEngine(p.Shape, nil)
	rng := sudokulab.NewRand(1)
	e.Init(p.Cells)
	if n := testing.AllocsPerRun(20, func() { e.Step(rng) }); n != 0 {
		t.Errorf("%v allocations per step", n)
	}
	ea := reseda.NewEngine(p.Shape, map[string]string{ac3.ParamName: ac3.AC3})
	ea.Init(ea.Restrict(p).Grid().Cells)
	if n := testing.AllocsPerRun(20, func() { ea.Step(rng) }); n != 0 {
		t.Errorf("ac3: %v allocations per step", n)
	}
	for _, set := range []map[string]string{
		{reseda.ParamZones: reseda.ZonesUnits},
		{reseda.ParamBruteForce: "true"},
		{reseda.ParamZones: reseda.ZonesUnits, ac3.ParamName: ac3.AC3},
		{reseda.ParamBruteForce: "true", ac3.ParamName: ac3.AC3},
		{reseda.ParamPrecompute: "false", ac3.ParamName: ac3.AC3},
	} {
		s := newSolver(t, set)
		allocs := func(gens int64) float64 {
			return testing.AllocsPerRun(5, func() {
				if _, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(1), nil); err != nil {
					t.Fatal(err)
				}
			})
		}
		if one, many := allocs(1), allocs(300); many != one {
			t.Errorf("%v: %v allocations for 1 generation, %v for 300", set, one, many)
		}
	}
}
