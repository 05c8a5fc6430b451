package nbcoin_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/nbcoin"
)

// BenchmarkGeneration measures one generation (150 grids sampled and
// costed, the population ranked, the models updated) on No. 106, the
// hardest of Table II.
func BenchmarkGeneration(b *testing.B) {
	for _, tc := range []struct {
		name string
		set  map[string]string
	}{
		{"sum-random", nil},
		{"mean-random", map[string]string{nbcoin.ParamLearning: nbcoin.LearnMean}},
		{"sum-greedy", map[string]string{nbcoin.ParamOrder: nbcoin.OrderGreedy}},
		{"sum-random-ac3", map[string]string{ac3.ParamName: ac3.AC3}},
		{"sum-random-box", map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox}},
		{"sum-random-neighbour", map[string]string{nbcoin.ParamNeighbour: "0"}},
		{"mean-random-neighbour", map[string]string{nbcoin.ParamNeighbour: "0", nbcoin.ParamLearning: nbcoin.LearnMean}},
		{"sum-random-neighbour-ac3", map[string]string{nbcoin.ParamNeighbour: "0", ac3.ParamName: ac3.AC3}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := paperdata.MustGet("sato-no106").Puzzle
			e := nbcoin.NewEngine(p.Shape, tc.set)
			rng := sudokulab.NewRand(1)
			fixed := p.Cells
			if tc.set[ac3.ParamName] != "" {
				_, fixed = e.Restrict(p)
			}
			e.Init(fixed)
			b.ReportAllocs()
			for b.Loop() {
				e.Generation(rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "generations/s")
			b.ReportMetric(float64(b.N)*150/b.Elapsed().Seconds(), "evaluations/s")
		})
	}
}

// BenchmarkSolve measures whole runs on No. 27 with a budget of 2,000
// generations.
func BenchmarkSolve(b *testing.B) {
	s := newSolver(b, nil)
	p := paperdata.MustGet("sato-no27").Puzzle
	var gens int64
	seed := int64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 2000}, sudokulab.NewRand(seed), nil)
		if err != nil {
			b.Fatal(err)
		}
		gens += res.Generations
	}
	b.ReportMetric(float64(gens)/b.Elapsed().Seconds(), "generations/s")
}

// TestNoAllocations checks that generations allocate nothing: a run of
// 300 generations allocates no more than a run of 1.
func TestNoAllocations(t *testing.T) {
	p := paperdata.MustGet("sato-no106").Puzzle
	e := nbcoin.NewEngine(p.Shape, nil)
	rng := sudokulab.NewRand(1)
	e.Init(p.Cells)
	if n := testing.AllocsPerRun(20, func() { e.Generation(rng) }); n != 0 {
		t.Errorf("%v allocations per generation", n)
	}
	eb := nbcoin.NewEngine(p.Shape, map[string]string{nbcoin.ParamCredit: nbcoin.CreditBox})
	eb.Init(p.Cells)
	if n := testing.AllocsPerRun(20, func() { eb.Generation(rng) }); n != 0 {
		t.Errorf("credit=box: %v allocations per generation", n)
	}
	ea := nbcoin.NewEngine(p.Shape, map[string]string{ac3.ParamName: ac3.AC3})
	_, fixed := ea.Restrict(p)
	ea.Init(fixed)
	if n := testing.AllocsPerRun(20, func() { ea.Generation(rng) }); n != 0 {
		t.Errorf("ac3: %v allocations per generation", n)
	}
	for _, set := range []map[string]string{
		{nbcoin.ParamNeighbour: "0"},
		{nbcoin.ParamNeighbour: "0.5", ac3.ParamName: ac3.AC3},
	} {
		en := nbcoin.NewEngine(p.Shape, set)
		fixed := p.Cells
		if set[ac3.ParamName] != "" {
			_, fixed = en.Restrict(p)
		}
		en.Init(fixed)
		if n := testing.AllocsPerRun(20, func() { en.Generation(rng) }); n != 0 {
			t.Errorf("%v: %v allocations per generation", set, n)
		}
	}
	for _, set := range []map[string]string{nil, {ac3.ParamName: ac3.AC3}, {nbcoin.ParamCredit: nbcoin.CreditBox}} {
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
