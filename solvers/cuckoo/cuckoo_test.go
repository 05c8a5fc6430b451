package cuckoo_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/cuckoo"
	"sudokulab/solvers/solvertest"
)

// TestNestsStayFeasible: nests are built with every row a permutation that
// keeps the givens and every cell within its domain; after many iterations
// rows are still permutations, the givens and the cells the prefilter fixed
// have not moved, and with domain-moves every cell is within its domain.
// The costs kept for the nests match a recount.
func TestNestsStayFeasible(t *testing.T) {
	p := paperdata.MustGet("sato-no27").Puzzle
	for _, tt := range []struct {
		name string
		set  map[string]string
	}{
		{"ac3", nil},
		{"none", map[string]string{"prefilter": ac3.None}},
		{"ac3-domain-moves", map[string]string{"domain-moves": "true"}},
		{"gac", map[string]string{"prefilter": ac3.GAC}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := cuckoo.NewSearch(p, tt.set, 7)
			if err != nil {
				t.Fatal(err)
			}
			pre := ac3.AC3
			if v, ok := tt.set["prefilter"]; ok {
				pre = v
			}
			d, _, _ := ac3.Apply(pre, p)
			s.Start()
			check := func(when string, strict bool) {
				for k := range s.Nests() {
					g := sudokulab.Grid{Shape: p.Shape, Cells: s.Nest(k)}
					if g.Missing().Rows != 0 {
						t.Fatalf("%s: nest %d has a row that is not a permutation", when, k)
					}
					for i, v := range g.Cells {
						if d.Fixed(i) && !d.Has(i, v) {
							t.Fatalf("%s: nest %d moved fixed cell %d", when, k, i)
						}
						if strict && !d.Has(i, v) {
							t.Fatalf("%s: nest %d cell %d = %d outside %v", when, k, i, v, d.Domain(i))
						}
					}
					if g.Cost() != s.Cost(k) {
						t.Fatalf("%s: nest %d costs %d, recorded %d", when, k, g.Cost(), s.Cost(k))
					}
				}
			}
			check("start", true)
			for range 2000 {
				s.Iterate()
			}
			check("after 2000 iterations", tt.set["domain-moves"] == "true")
			if s.Cost(s.Best()) > int(s.MeanCost()) {
				t.Errorf("best nest costs %d, mean %v", s.Cost(s.Best()), s.MeanCost())
			}
		})
	}
}

// TestPrefilterSolvesRESEDAPuzzles: AC3 fixes every cell of the three
// RESEDA puzzles that stand in for the paper's, so the nests are the
// solution before the first iteration.
func TestPrefilterSolvesRESEDAPuzzles(t *testing.T) {
	s, _ := cuckoo.Info().New(mustResolve(t, nil))
	for _, name := range []string{"reseda-easy", "reseda-medium", "reseda-hard"} {
		p := paperdata.MustGet(name)
		res, err := s.Solve(context.Background(), p.Puzzle, sudokulab.Budget{MaxGenerations: 10}, sudokulab.NewRand(1), nil)
		if err != nil || res.Status != sudokulab.StatusSolved || res.Generations != 0 || !res.Grid.Equal(p.Solution) {
			t.Errorf("%s: %+v %v", name, res, err)
		}
	}
}

func mustResolve(t *testing.T, set map[string]string) sudokulab.Params {
	t.Helper()
	info := cuckoo.Info()
	p, err := info.Resolve(set)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInfeasible: when AC3 proves there is no solution, Solve stops at once
// without an error.
func TestInfeasible(t *testing.T) {
	s, _ := cuckoo.Info().New(mustResolve(t, nil))
	g := sudokulab.MustParse("...1234.." + ".9......." + "........." + "5........" + "6........" + "7........" + "8........" + "........." + ".........")
	res, err := s.Solve(context.Background(), g, sudokulab.Budget{MaxGenerations: 1000}, sudokulab.NewRand(1), nil)
	if err != nil || res.Status != sudokulab.StatusUnsolved || res.Generations != 0 {
		t.Errorf("res %+v, err %v; want unsolved after 0 iterations", res, err)
	}
}

func TestNewRejectsZeroWeights(t *testing.T) {
	p := mustResolve(t, map[string]string{"weight-best": "0", "weight-generation": "0", "weight-current": "0"})
	if _, err := cuckoo.Info().New(p); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("err = %v, want EINVALID", err)
	}
}

func TestNoAllocations(t *testing.T) {
	for _, set := range []map[string]string{nil, {"domain-moves": "true"}, {"prefilter": ac3.None}} {
		s, err := cuckoo.NewSearch(paperdata.MustGet("sato-no77").Puzzle, set, 1)
		if err != nil {
			t.Fatal(err)
		}
		s.Start()
		if n := testing.AllocsPerRun(500, s.Iterate); n != 0 {
			t.Errorf("%v: %v allocations per iteration", set, n)
		}
	}
}

// TestConformance runs the suite with the paper's AC3 prefilter (the
// default) and with GAC. Without a prefilter the search does not solve
// the suite's easy puzzles within its budget (docs/reproduction-tabu-cuckoo.md).
func TestConformance(t *testing.T) {
	t.Run("ac3", func(t *testing.T) { solvertest.Run(t, cuckoo.Info(), solvertest.Options{}) })
	t.Run("ac3-propagate", func(t *testing.T) {
		solvertest.Run(t, cuckoo.Info(), solvertest.Options{Params: map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}})
	})
	t.Run("gac-domain-moves", func(t *testing.T) {
		solvertest.Run(t, cuckoo.Info(), solvertest.Options{Params: map[string]string{"prefilter": ac3.GAC, "domain-moves": "true"}})
	})
}

func BenchmarkIterations(b *testing.B) {
	for _, bc := range []struct {
		name, puzzle string
		set          map[string]string
	}{
		{"no27-ac3", "sato-no27", nil},
		{"no77-ac3", "sato-no77", nil},
		{"caso1-none", "reseda-medium", map[string]string{"prefilter": ac3.None}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := cuckoo.NewSearch(paperdata.MustGet(bc.puzzle).Puzzle, bc.set, 1)
			if err != nil {
				b.Fatal(err)
			}
			s.Start()
			b.ReportAllocs()
			e0 := s.Evaluations()
			for b.Loop() {
				s.Iterate()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
			b.ReportMetric(float64(s.Evaluations()-e0)/b.Elapsed().Seconds(), "evaluations/s")
		})
	}
}

// TestPropagate checks the propagate setting (solvertest.Propagate).
func TestPropagate(t *testing.T) { solvertest.Propagate(t, cuckoo.Info(), "sato-no106") }
