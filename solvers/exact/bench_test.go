package exact_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/tdoku"
	"sudokulab/solvers/exact"
)

// listPuzzles returns the puzzles of a tdoku list a test checks: the
// whole list from the shared data folder when full is set (failing tb,
// naming the file, when it is missing), otherwise perList puzzles of the
// committed sample, evenly spaced.
func listPuzzles(tb testing.TB, l tdoku.List, perList int, full bool) []sudokulab.Grid {
	tb.Helper()
	if !full {
		return tdoku.Spread(tdoku.Sample(l), perList)
	}
	list, err := tdoku.Full(l)
	if err != nil {
		tb.Fatal(err)
	}
	return list
}

type solver interface {
	Solve(context.Context, sudokulab.Grid, int) (exact.Result, error)
}

// BenchmarkTdoku proves the uniqueness (limit 2) of every puzzle of each
// tdoku list, one pass over the whole list per iteration, and reports the
// time and the search effort per puzzle. Run the full lists once with
//
//	go test ./solvers/exact/ -run '^$' -bench Tdoku -benchtime 1x
//
// The General variants run the general engine on the same lists, to show
// what the dedicated 9x9 engine gains.
func BenchmarkTdoku(b *testing.B) {
	for _, l := range tdoku.Lists {
		puzzles := listPuzzles(b, l, 0, true)
		for _, engine := range []string{"Fast9", "General"} {
			b.Run(engine+"/"+l.Name, func(b *testing.B) {
				var s solver = exact.New(sudokulab.Classic)
				if engine == "General" {
					if testing.Short() {
						b.Skip("general engine skipped in short mode")
					}
					s = exact.NewGeneral(sudokulab.Classic)
				}
				ctx := context.Background()
				var effort exact.Effort
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					effort = exact.Effort{}
					for _, p := range puzzles {
						res, err := s.Solve(ctx, p, 2)
						if err != nil || res.Count != 1 {
							b.Fatalf("%s: count %d, error %v; want a unique solution", p, res.Count, err)
						}
						effort.Propagations += res.Effort.Propagations
						effort.Guesses += res.Effort.Guesses
						effort.Backtracks += res.Effort.Backtracks
					}
				}
				elapsed := time.Since(start)
				n := float64(len(puzzles))
				b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N)/n, "ns/puzzle")
				b.ReportMetric(float64(effort.Guesses)/n, "guesses/puzzle")
				b.ReportMetric(float64(effort.Backtracks)/n, "backtracks/puzzle")
				b.ReportMetric(float64(effort.Propagations)/n, "props/puzzle")
			})
		}
	}
}

// BenchmarkShapes solves generated puzzles of each tested shape, full grids
// with 40% of their cells emptied, on the engine the shape gets, reporting
// the time per puzzle.
func BenchmarkShapes(b *testing.B) {
	shapes := []sudokulab.Shape{{BoxRows: 2, BoxCols: 2}, {BoxRows: 2, BoxCols: 3}, sudokulab.Classic,
		{BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 4}, {BoxRows: 5, BoxCols: 5}}
	for _, s := range shapes {
		b.Run(fmt.Sprintf("%dx%d", s.N(), s.N()), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(7, uint64(s.N())))
			puzzles := make([]sudokulab.Grid, 20)
			for i := range puzzles {
				puzzles[i] = withHoles(rng, randomFull(b, rng, s), s.Cells()*2/5)
			}
			solver := exact.New(s)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res, err := solver.Solve(ctx, puzzles[i%len(puzzles)], 2); err != nil || res.Count < 1 {
					b.Fatalf("%+v, %v", res, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/puzzle")
		})
	}
}
