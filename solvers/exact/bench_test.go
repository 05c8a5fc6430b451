package exact_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/solvers/exact"
)

// tdokuDir holds the tdoku benchmark lists, beside the repository.
var tdokuDir = filepath.Join("..", "..", "..", "shared", "data", "tdoku")

// tdokuLists are the benchmark lists, all of unique puzzles.
var tdokuLists = []struct{ name, file string }{
	{"17clue", "puzzles2_17_clue.txt"},
	{"top1465", "puzzles3_magictour_top1465.txt"},
	{"hardest1905_11+", "puzzles5_forum_hardest_1905_11+.txt"},
	{"hardest1106", "puzzles6_forum_hardest_1106.txt"},
}

// readList reads a puzzle list: one puzzle a line, '#' comments, blank
// lines and CR ignored. It returns nil when the file is missing.
func readList(tb testing.TB, path string) []sudokulab.Grid {
	tb.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []sudokulab.Grid
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		g, err := sudokulab.Parse(s)
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
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
	for _, l := range tdokuLists {
		puzzles := readList(b, filepath.Join(tdokuDir, l.file))
		for _, engine := range []string{"Fast9", "General"} {
			b.Run(engine+"/"+l.name, func(b *testing.B) {
				if puzzles == nil {
					b.Skipf("%s not found in %s", l.file, tdokuDir)
				}
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
