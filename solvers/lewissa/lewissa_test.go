package lewissa_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/gridgen"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/lewissa"
	"sudokulab/solvers/solvertest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  map[string]string
	}{
		{"defaults", nil},
		{"no-reheat", map[string]string{lewissa.ParamReheat: "0"}},
		{"short-chains", map[string]string{lewissa.ParamChain: "0.1", lewissa.ParamAlpha: "0.9"}},
		{"propagate-hidden", map[string]string{ac3.PropagateParamName: ac3.PropagateHidden}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			solvertest.Run(t, lewissa.Info(), solvertest.Options{Params: tc.set, Easy: []string{"reseda-easy", "sato-no1", "sato-no11"}})
		})
	}
}

// TestPropagate checks the propagate setting (solvertest.Propagate).
func TestPropagate(t *testing.T) { solvertest.Propagate(t, lewissa.Info(), "sato-no106") }

// TestPresetsResolve checks that every preset names real parameters.
func TestPresetsResolve(t *testing.T) {
	info := lewissa.Info()
	for _, p := range info.Presets {
		if _, err := info.Resolve(p.Set); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
}

// TestInvariants runs chains on puzzles of several shapes and checks after
// each that the givens stay, every box holds each symbol once, the cost
// kept incrementally equals a recount, and the chain has the published
// length: the square of the non-given cells.
func TestInvariants(t *testing.T) {
	for _, p := range []sudokulab.Grid{
		paperdata.MustGet("ai-escargot").Puzzle,
		func() sudokulab.Grid { g, _ := gridgen.Shuffled(2, 0.3, 1); return g }(),
		func() sudokulab.Grid { g, _ := gridgen.Shuffled(4, 0.45, 2); return g }(),
	} {
		open := len(p.Cells) - p.Givens()
		a := lewissa.NewAnnealer(p, 0.99, 1, 20, 10, sudokulab.NewRand(7))
		a.Start()
		if got := a.ChainLength(); got != int64(open*open) {
			t.Errorf("%v: chain of %d moves, want %d", p.Shape, got, open*open)
		}
		if t0, _ := a.Temperatures(); !(t0 > 0) {
			t.Errorf("%v: t0 = %v, want > 0", p.Shape, t0)
		}
		geo := p.Geometry()
		for chain := 0; chain < 5 && a.BestCost() > 0; chain++ {
			a.Chain()
			cells := a.Cells()
			for i, v := range p.Cells {
				if v != 0 && cells[i] != v {
					t.Fatalf("%v: given %d changed", p.Shape, i)
				}
			}
			for b := range geo.N {
				var seen uint64
				for _, c := range geo.Units[2*geo.N+b] {
					seen |= 1 << cells[c]
				}
				if seen != (uint64(1)<<(geo.N+1))-2 {
					t.Fatalf("%v: box %d is not a permutation", p.Shape, b)
				}
			}
			g := sudokulab.Grid{Shape: p.Shape, Cells: cells}
			if want := g.Cost(); a.Cost() != want {
				t.Fatalf("%v: incremental cost %d, recount %d", p.Shape, a.Cost(), want)
			}
		}
	}
}

// TestReheat checks the schedule: the temperature falls by alpha per chain
// and goes back to t0 after reheat chains without a better cost.
func TestReheat(t *testing.T) {
	p := paperdata.MustGet("ai-escargot").Puzzle
	// Chains of one move: the best cost soon stops falling.
	s := solvertest.New(t, lewissa.Info(), map[string]string{lewissa.ParamChain: "0.0003", lewissa.ParamReheat: "3"})
	res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 300}, sudokulab.NewRand(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Restarts == 0 {
		t.Errorf("no reheat in 300 chains of one move with reheat=3: %+v", res)
	}
	s = solvertest.New(t, lewissa.Info(), map[string]string{lewissa.ParamChain: "0.0003", lewissa.ParamReheat: "0"})
	if res, _ = s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 300}, sudokulab.NewRand(1), nil); res.Restarts != 0 {
		t.Errorf("reheat=0: %d reheats", res.Restarts)
	}
	a := lewissa.NewAnnealer(p, 0.5, 0.0003, 0, 10, sudokulab.NewRand(1))
	a.Start()
	t0, _ := a.Temperatures()
	a.Chain()
	a.Chain()
	if _, tt := a.Temperatures(); tt != t0*0.25 {
		t.Errorf("after two chains at alpha 0.5: t = %v, want %v", tt, t0*0.25)
	}
}

// TestLargeGrids solves generated 16x16 and 25x25 puzzles with many givens.
func TestLargeGrids(t *testing.T) {
	s := solvertest.New(t, lewissa.Info(), nil)
	for _, order := range []int{4, 5} {
		p, _ := gridgen.Shuffled(order, 0.8, 3)
		res, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 200}, sudokulab.NewRand(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != sudokulab.StatusSolved || res.Grid.Cost() != 0 {
			t.Errorf("order %d: %v, cost %d after %d chains", order, res.Status, res.Cost, res.Generations)
		}
	}
}

// TestNoAllocations checks that a Markov chain allocates nothing, and a
// whole run no more than a run of one chain.
func TestNoAllocations(t *testing.T) {
	p := paperdata.MustGet("ai-escargot").Puzzle
	a := lewissa.NewAnnealer(p, 0.99, 0.05, 20, 10, sudokulab.NewRand(1))
	a.Start()
	if n := testing.AllocsPerRun(20, a.Chain); n != 0 {
		t.Errorf("%v allocations per chain", n)
	}
	s := solvertest.New(t, lewissa.Info(), map[string]string{lewissa.ParamChain: "0.05"})
	allocs := func(gens int64) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: gens}, sudokulab.NewRand(2), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, many := allocs(1), allocs(50); many != one {
		t.Errorf("%v allocations for 1 chain, %v for 50", one, many)
	}
}

// TestGolden compares whole runs of fixed seeds (solvertest.Digest) with
// testdata/golden.txt, so that a refactoring cannot change what a seed
// does. Regenerate with -update only for a deliberate change.
func TestGolden(t *testing.T) {
	info := lewissa.Info()
	var lines []string
	for _, tc := range []struct {
		set    map[string]string
		puzzle string
		gens   int64
	}{
		{nil, "sato-no27", 20},
		{nil, "ai-escargot", 5},
		{map[string]string{lewissa.ParamReheat: "0"}, "sato-no77", 5},
		{map[string]string{lewissa.ParamChain: "0.01", lewissa.ParamAlpha: "0.9", lewissa.ParamReheat: "2", lewissa.ParamT0Sample: "50"}, "sato-no106", 100},
	} {
		for seed := int64(1); seed <= 2; seed++ {
			lines = append(lines, fmt.Sprintf("%v ", tc.set)+solvertest.Digest(t, info, tc.set, tc.puzzle, tc.gens, seed))
		}
	}
	solvertest.CompareGolden(t, filepath.Join("testdata", "golden.txt"), strings.Join(lines, "\n")+"\n", *update)
}
