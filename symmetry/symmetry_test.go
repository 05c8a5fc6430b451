package symmetry_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/tdoku"
	"sudokulab/symmetry"
)

// samples are puzzles of different kinds: sparse, dense, symmetric, broken.
var samples = []string{
	"1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..", // AI Escargot
	".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...", // 17 clues
	"..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..", // easy
	".................................................................................", // empty
	"1................................................................................", // one given
	"12.......34........................................................5.............", // few, in a box
	"123456789456789123789123456234567891567891234891234567345678912678912345912345678", // full
	"11..............................................................................9", // broken rules
	"9.......8.7.....6...5...4.....3.2.......1.......2.3.....4...5...6.....7.8.......9", // symmetric
}

// brute returns the smallest form over every transformation, the slow way.
func brute(g sudokulab.Grid) string {
	best := []byte(nil)
	cur := make([]byte, 81)
	var rowOrders [][9]int
	for _, bands := range perm3 {
		for _, r0 := range perm3 {
			for _, r1 := range perm3 {
				for _, r2 := range perm3 {
					var o [9]int
					rs := [3][3]int{r0, r1, r2}
					for b := range 3 {
						for i := range 3 {
							o[3*b+i] = 3*bands[b] + rs[b][i]
						}
					}
					rowOrders = append(rowOrders, o)
				}
			}
		}
	}
	for t := range 2 {
		for _, rows := range rowOrders {
			for _, cols := range rowOrders {
				var label [10]byte
				next := byte(1)
				worse, better := false, best == nil
				for i := 0; i < 81 && !worse; i++ {
					r, c := rows[i/9], cols[i%9]
					if t == 1 {
						r, c = c, r
					}
					d := g.Cells[9*r+c]
					ch := byte('.')
					if d != 0 {
						if label[d] == 0 {
							label[d] = next
							next++
						}
						ch = '0' + label[d]
					}
					cur[i] = ch
					if !better {
						if ch > best[i] {
							worse = true
						} else if ch < best[i] {
							better = true
						}
					}
				}
				if better && !worse {
					best = append(best[:0], cur...)
				}
			}
		}
	}
	return string(best)
}

var perm3 = [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

func TestFormMatchesBruteForce(t *testing.T) {
	n := len(samples)
	if testing.Short() {
		n = 3
	}
	for _, s := range samples[:n] {
		g := parse(t, s)
		got, err := symmetry.Form(g)
		if err != nil {
			t.Fatal(err)
		}
		if want := brute(g); got != want {
			t.Errorf("Form(%s)\n got %s\nwant %s", s, got, want)
		}
	}
}

func parse(t testing.TB, s string) sudokulab.Grid {
	t.Helper()
	cells := make([]uint8, 81)
	for i := range 81 {
		if c := s[i]; c >= '1' && c <= '9' {
			cells[i] = c - '0'
		}
	}
	return sudokulab.Grid{Shape: sudokulab.Classic, Cells: cells}
}

func TestFormInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var z symmetry.Canonicalizer
	puzzles := append([]string(nil), samples...)
	puzzles = append(puzzles, clue17(200)...)
	for _, s := range puzzles {
		g := parse(t, s)
		want, err := z.Form(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 81 || strings.Count(want, ".") != 81-g.Givens() {
			t.Fatalf("Form(%s) = %q: not a grid with the same givens", s, want)
		}
		for range 20 {
			h := symmetry.Random(rng).Apply(g)
			if got, _ := z.Form(h); got != want {
				t.Fatalf("Form of a transformation of %s:\n got %s\nwant %s\n(transformed %s)", s, got, want, h)
			}
		}
	}
}

// TestFormDistinguishes computes the forms of the committed sample of
// Royle's 17-clue puzzles, which are pairwise inequivalent: no two may
// share a form.
func TestFormDistinguishes(t *testing.T) {
	seen := map[string]string{}
	var z symmetry.Canonicalizer
	puzzles := clue17(tdoku.SampleSize)
	if len(puzzles) != tdoku.SampleSize {
		t.Fatalf("%d puzzles of the 17-clue sample, want %d", len(puzzles), tdoku.SampleSize)
	}
	for _, s := range puzzles {
		f, _ := z.Form(parse(t, s))
		if other, ok := seen[f]; ok {
			t.Fatalf("%s and %s have the same form %s", s, other, f)
		}
		seen[f] = s
	}
}

func TestFormShapes(t *testing.T) {
	g, _ := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 2, BoxCols: 2})
	if _, err := symmetry.Form(g); err == nil {
		t.Error("Form of a 4x4 grid: no error")
	}
}

func TestIdentity(t *testing.T) {
	g := parse(t, samples[0])
	if h := symmetry.Identity().Apply(g); !h.Equal(g) {
		t.Errorf("Identity changed %s to %s", g, h)
	}
}

// clue17 returns the first n puzzles of the committed sample of Royle's
// 17-clue list.
func clue17(n int) []string {
	var out []string
	for _, g := range tdoku.Sample(tdoku.Clue17)[:n] {
		out = append(out, g.String())
	}
	return out
}

// BenchmarkForm computes the forms of the first 20,000 puzzles of three
// tdoku lists in the shared data folder (see internal/shareddata),
// reporting the time per puzzle.
func BenchmarkForm(b *testing.B) {
	for _, l := range []tdoku.List{tdoku.Clue17, tdoku.Top1465, tdoku.Hardest1905} {
		grids, err := tdoku.Full(l)
		if err != nil {
			b.Fatal(err)
		}
		grids = grids[:min(len(grids), 20000)]
		b.Run(strings.TrimSuffix(l.File, ".txt"), func(b *testing.B) {
			var z symmetry.Canonicalizer
			i := 0
			for b.Loop() {
				z.Form(grids[i%len(grids)])
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "us/puzzle")
		})
	}
}
