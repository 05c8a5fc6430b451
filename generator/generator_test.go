package generator_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/raters"
	"sudokulab/stats"
)

// count is an independent solution counter for the tests: plain
// depth-first search on candidate bitsets, choosing the empty cell with
// the fewest candidates, without the exact solver's propagation. It counts
// the solutions of g up to limit.
func count(g sudokulab.Grid, limit int) int {
	geo := g.Geometry()
	n := geo.N
	cells := append([]uint8(nil), g.Cells...)
	rows, cols, boxes := make([]uint32, n), make([]uint32, n), make([]uint32, n)
	for i, v := range cells {
		if v == 0 {
			continue
		}
		b := uint32(1) << (v - 1)
		if rows[geo.Row[i]]&b != 0 || cols[geo.Col[i]]&b != 0 || boxes[geo.Box[i]]&b != 0 {
			return 0
		}
		rows[geo.Row[i]] |= b
		cols[geo.Col[i]] |= b
		boxes[geo.Box[i]] |= b
	}
	full := uint32(1)<<n - 1
	found := 0
	var search func()
	search = func() {
		best, bestFree := -1, uint32(0)
		bestK := n + 1
		for i, v := range cells {
			if v != 0 {
				continue
			}
			free := full &^ (rows[geo.Row[i]] | cols[geo.Col[i]] | boxes[geo.Box[i]])
			k := 0
			for m := free; m != 0; m &= m - 1 {
				k++
			}
			if k < bestK {
				best, bestFree, bestK = i, free, k
				if k == 0 {
					return
				}
			}
		}
		if best < 0 {
			found++
			return
		}
		r, c, b := geo.Row[best], geo.Col[best], geo.Box[best]
		for m := bestFree; m != 0 && found < limit; m &= m - 1 {
			bit := m & -m
			rows[r] |= bit
			cols[c] |= bit
			boxes[b] |= bit
			cells[best] = 1
			search()
			cells[best] = 0
			rows[r] &^= bit
			cols[c] &^= bit
			boxes[b] &^= bit
		}
	}
	search()
	return found
}

// checkPuzzle checks p independently of the generator: a valid solution
// grid, givens that agree with it, exactly one solution, the symmetry of
// the pattern, and with minimal that removing any orbit of givens gives
// two or more solutions.
func checkPuzzle(t *testing.T, p generator.Puzzle, sym generator.Symmetry, minimal bool) {
	t.Helper()
	if err := sudokulab.CheckSolution(p.Givens, p.Solution); err != nil {
		t.Fatalf("puzzle %d %s: %v", p.Index, p.Givens, err)
	}
	if n := count(p.Givens, 2); n != 1 {
		t.Fatalf("puzzle %d %s: %d solutions", p.Index, p.Givens, n)
	}
	if !sym.Has(p.Givens) {
		t.Fatalf("puzzle %d %s: pattern lacks symmetry %s", p.Index, p.Givens, sym)
	}
	if !minimal {
		return
	}
	q := p.Givens.Clone()
	for _, orbit := range sym.Orbits(p.Givens.N()) {
		if q.Cells[orbit[0]] == 0 {
			continue
		}
		for _, c := range orbit {
			q.Cells[c] = 0
		}
		if n := count(q, 2); n < 2 {
			t.Fatalf("puzzle %d %s: not minimal: removing cells %v leaves %d solutions", p.Index, p.Givens, orbit, n)
		}
		for _, c := range orbit {
			q.Cells[c] = p.Givens.Cells[c]
		}
	}
}

func generate(t testing.TB, opts generator.Options, count, workers int) []generator.Puzzle {
	t.Helper()
	g, err := generator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []generator.Puzzle
	if err := g.Generate(context.Background(), 0, count, workers, func(p generator.Puzzle) error {
		out = append(out, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

var bigCheck = flag.Int("generate.check", 0, "TestMinimalRot180: puzzles to make and check (0: 1000, the issue's check)")

func TestPuzzles(t *testing.T) {
	shape := func(r, c int) sudokulab.Shape { return sudokulab.Shape{BoxRows: r, BoxCols: c} }
	tests := []struct {
		name  string
		opts  generator.Options
		count int
	}{
		{"4x4", generator.Options{Shape: shape(2, 2)}, 40},
		{"4x4 minimal dihedral", generator.Options{Shape: shape(2, 2), Minimal: true, Symmetry: generator.Dihedral}, 40},
		{"6x6 minimal", generator.Options{Shape: shape(2, 3), Minimal: true}, 40},
		{"6x6 3x2 boxes rot90", generator.Options{Shape: shape(3, 2), Symmetry: generator.Rot90}, 40},
		{"8x8 minimal mirror", generator.Options{Shape: shape(2, 4), Minimal: true, Symmetry: generator.Mirror}, 20},
		{"9x9", generator.Options{Shape: sudokulab.Classic}, 50},
		{"9x9 minimal", generator.Options{Shape: sudokulab.Classic, Minimal: true}, 50},
		{"9x9 minimal diagonal", generator.Options{Shape: sudokulab.Classic, Minimal: true, Symmetry: generator.Diagonal}, 30},
		{"9x9 antidiagonal", generator.Options{Shape: sudokulab.Classic, Symmetry: generator.AntiDiagonal}, 30},
		{"9x9 minimal bidiagonal", generator.Options{Shape: sudokulab.Classic, Minimal: true, Symmetry: generator.BiDiagonal}, 20},
		{"9x9 minimal orthogonal", generator.Options{Shape: sudokulab.Classic, Minimal: true, Symmetry: generator.Orthogonal}, 20},
		{"9x9 flip", generator.Options{Shape: sudokulab.Classic, Symmetry: generator.Flip}, 20},
		{"9x9 givens 30..32", generator.Options{Shape: sudokulab.Classic, Givens: generator.Range{Min: 30, Max: 32}}, 30},
		{"9x9 minimal givens ..23", generator.Options{Shape: sudokulab.Classic, Minimal: true, Givens: generator.Range{Max: 23}}, 10},
		{"12x12", generator.Options{Shape: shape(3, 4)}, 5},
		{"16x16", generator.Options{Shape: shape(4, 4), Symmetry: generator.Rot180}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := generate(t, tt.opts, tt.count, 0)
			if len(ps) != tt.count {
				t.Fatalf("%d puzzles, want %d", len(ps), tt.count)
			}
			seen := map[string]bool{}
			for i, p := range ps {
				if p.Index != i {
					t.Fatalf("puzzle %d has index %d", i, p.Index)
				}
				if p.Givens.Shape != tt.opts.Shape {
					t.Fatalf("shape %v", p.Givens.Shape)
				}
				if !tt.opts.Givens.Contains(p.Givens.Givens()) {
					t.Fatalf("puzzle %d: %d givens, want %s", i, p.Givens.Givens(), tt.opts.Givens)
				}
				checkPuzzle(t, p, tt.opts.Symmetry, tt.opts.Minimal)
				seen[p.Givens.String()] = true
			}
			if len(seen) < len(ps)*9/10 {
				t.Errorf("only %d distinct puzzles of %d", len(seen), len(ps))
			}
		})
	}
}

// TestMinimalRot180 makes minimal 9x9 puzzles with rot180 symmetry and
// checks each one by the independent counter: unique, symmetric, and no
// orbit removable. By default it makes the 1,000.
func TestMinimalRot180(t *testing.T) {
	n := 1000
	if *bigCheck > 0 {
		n = *bigCheck
	}
	start := time.Now()
	ps := generate(t, generator.Options{Shape: sudokulab.Classic, Seed: 2026, Symmetry: generator.Rot180, Minimal: true}, n, 0)
	made := time.Since(start)
	givens := 0
	for _, p := range ps {
		checkPuzzle(t, p, generator.Rot180, true)
		givens += p.Givens.Givens()
	}
	t.Logf("%d minimal rot180 9x9 puzzles made in %v (%.0f/s), checked in %v; mean givens %.2f",
		n, made.Round(time.Millisecond), float64(n)/made.Seconds(), (time.Since(start) - made).Round(time.Millisecond), float64(givens)/float64(n))
}

func TestDeterministic(t *testing.T) {
	opts := generator.Options{Shape: sudokulab.Classic, Seed: 7, Symmetry: generator.Rot180, Minimal: true}
	a := generate(t, opts, 24, 1)
	prev := runtime.GOMAXPROCS(1)
	b := generate(t, opts, 24, 0)
	runtime.GOMAXPROCS(prev)
	c := generate(t, opts, 24, 5)
	// Puzzle 17 alone, and a run starting at 10, give the same puzzles.
	g, _ := generator.New(opts)
	p17, err := g.Puzzle(context.Background(), 17)
	if err != nil {
		t.Fatal(err)
	}
	var tail []generator.Puzzle
	if err := g.Generate(context.Background(), 10, 14, 3, func(p generator.Puzzle) error { tail = append(tail, p); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if !a[i].Givens.Equal(b[i].Givens) || !a[i].Givens.Equal(c[i].Givens) || !a[i].Solution.Equal(c[i].Solution) {
			t.Fatalf("puzzle %d differs between runs:\n%s\n%s\n%s", i, a[i].Givens, b[i].Givens, c[i].Givens)
		}
	}
	if !p17.Givens.Equal(a[17].Givens) || !tail[7].Givens.Equal(a[17].Givens) || tail[0].Index != 10 {
		t.Errorf("puzzle 17 alone or from index 10 differs")
	}
	opts.Seed = 8
	d := generate(t, opts, 24, 0)
	same := 0
	for i := range a {
		if a[i].Givens.Equal(d[i].Givens) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seeds 7 and 8 share %d puzzles", same)
	}
}

func TestRating(t *testing.T) {
	opts := generator.Options{Shape: sudokulab.Classic, Seed: 3, Minimal: true,
		Rating: &generator.RatingFilter{Rater: raters.Human{}, Levels: generator.HumanLevels(), Min: 3, Max: 6, Spec: "human:hard..beyond"}}
	ps := generate(t, opts, 6, 0)
	for _, p := range ps {
		checkPuzzle(t, p, generator.None, true)
		if p.Rating == nil || generator.HumanLevels()[p.Rating.Label] < 3 {
			t.Fatalf("puzzle %d rated %+v", p.Index, p.Rating)
		}
		again, err := raters.Human{}.Rate(context.Background(), p.Givens)
		if err != nil || again.Label != p.Rating.Label {
			t.Fatalf("puzzle %d: rated %s, again %s (%v)", p.Index, p.Rating.Label, again.Label, err)
		}
	}
}

func TestUnreachable(t *testing.T) {
	tests := []struct {
		name string
		opts generator.Options
	}{
		{"4x4 with 3 givens", generator.Options{Shape: sudokulab.Shape{BoxRows: 2, BoxCols: 2}, Givens: generator.Range{Max: 3}, MaxAttempts: 20}},
		{"9x9 minimal with 60 givens", generator.Options{Shape: sudokulab.Classic, Minimal: true, Givens: generator.Range{Min: 60}, MaxAttempts: 5}},
		{"easy with 17 givens", generator.Options{Shape: sudokulab.Classic, Givens: generator.Range{Max: 17}, MaxAttempts: 3,
			Rating: &generator.RatingFilter{Rater: raters.Givens{}, Min: 80, Max: 81, Spec: "givens:80..81"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := generator.New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			err = g.Generate(context.Background(), 0, 3, 0, func(generator.Puzzle) error { return nil })
			if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("error %v, want EINVALID", err)
			}
		})
	}
}

func TestCancelKeepsFinished(t *testing.T) {
	g, err := generator.New(generator.Options{Shape: sudokulab.Classic, Seed: 1, Minimal: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []int
	err = g.Generate(ctx, 0, 100000, 2, func(p generator.Puzzle) error {
		got = append(got, p.Index)
		if len(got) == 20 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if len(got) < 20 || !slices.IsSorted(got) || got[19] != 19 {
		t.Fatalf("emitted %v", got)
	}
	if len(got) > 100 {
		t.Errorf("emitted %d puzzles after the cancel", len(got))
	}
	// An emit error stops the generation at once.
	stop := errors.New("disk full")
	n := 0
	err = g.Generate(context.Background(), 0, 1000, 2, func(generator.Puzzle) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("emit error: %v after %d emits", err, n)
	}
}

func TestSymmetryOrbits(t *testing.T) {
	tests := []struct {
		sym    generator.Symmetry
		n      int
		orbits int
	}{
		{generator.None, 9, 81}, {generator.Rot180, 9, 41}, {generator.Rot90, 9, 21}, {generator.Diagonal, 9, 45},
		{generator.AntiDiagonal, 9, 45}, {generator.Mirror, 9, 45}, {generator.Flip, 9, 45}, {generator.BiDiagonal, 9, 25},
		{generator.Orthogonal, 9, 25}, {generator.Dihedral, 9, 15}, {generator.Rot180, 4, 8}, {generator.Rot90, 4, 4},
		{generator.Dihedral, 16, 36},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %d", tt.sym, tt.n), func(t *testing.T) {
			orbits := tt.sym.Orbits(tt.n)
			if len(orbits) != tt.orbits {
				t.Errorf("%d orbits, want %d", len(orbits), tt.orbits)
			}
			seen := make([]bool, tt.n*tt.n)
			for _, o := range orbits {
				for _, c := range o {
					if seen[c] {
						t.Fatalf("cell %d in two orbits", c)
					}
					seen[c] = true
				}
			}
			if slices.Contains(seen, false) {
				t.Fatal("a cell in no orbit")
			}
			s, err := generator.ParseSymmetry(tt.sym.String())
			if err != nil || s != tt.sym {
				t.Errorf("ParseSymmetry(%q) = %v, %v", tt.sym, s, err)
			}
		})
	}
	if _, err := generator.ParseSymmetry("spiral"); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("spiral: %v", err)
	}
}

func TestParseRange(t *testing.T) {
	tests := []struct {
		in   string
		want generator.Range
		bad  bool
	}{
		{"22..26", generator.Range{Min: 22, Max: 26}, false},
		{"22..", generator.Range{Min: 22}, false},
		{"..26", generator.Range{Max: 26}, false},
		{"25", generator.Range{Min: 25, Max: 25}, false},
		{" 3 .. 4 ", generator.Range{Min: 3, Max: 4}, false},
		{"26..22", generator.Range{}, true},
		{"a..b", generator.Range{}, true},
		{"-1..3", generator.Range{}, true},
		{"", generator.Range{}, true},
	}
	for _, tt := range tests {
		got, err := generator.ParseRange(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ParseRange(%q) = %v, %v", tt.in, got, err)
		}
		if err == nil {
			if back, _ := generator.ParseRange(got.String()); back != got {
				t.Errorf("%q: String %q reads back as %v", tt.in, got.String(), back)
			}
		}
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"22..26", "..4", "3..", "7", "..", "x", "9..1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := generator.ParseRange(s)
		if err != nil {
			if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if r.Min < 0 || r.Max < 0 || (r.Max > 0 && r.Min > r.Max) {
			t.Fatalf("%q: bad range %v", s, r)
		}
	})
}

// chiSquare returns the chi-square statistic of observed counts against
// expected ones, and its degrees of freedom.
func chiSquare(obs []int, exp []float64) (float64, int) {
	x := 0.0
	for i := range obs {
		d := float64(obs[i]) - exp[i]
		x += d * d / exp[i]
	}
	return x, len(obs) - 1
}

// alpha is the significance level of the uniformity tests: a test fails
// when its chi-square statistic's p-value is below it.
const alpha = 1e-4

// rectangles counts the deadly rectangles of a full grid: the cells
// (r1, c1), (r1, c2), (r2, c1), (r2, c2) in exactly two boxes holding a b
// / b a. The count is invariant under every validity-preserving
// transformation, so relabelling and shuffling cannot make it uniform:
// its distribution tests the fill itself.
func rectangles(g sudokulab.Grid) int {
	geo := g.Geometry()
	n := geo.N
	br, bc := g.Shape.BoxRows, g.Shape.BoxCols
	k := 0
	for r1 := range n {
		for r2 := r1 + 1; r2 < n; r2++ {
			for c1 := range n {
				for c2 := c1 + 1; c2 < n; c2++ {
					if r1/br != r2/br && c1/bc != c2/bc {
						continue
					}
					if g.Cells[r1*n+c1] == g.Cells[r2*n+c2] && g.Cells[r1*n+c2] == g.Cells[r2*n+c1] {
						k++
					}
				}
			}
		}
	}
	return k
}

// allGrids calls f with every solution grid of the shape whose first row
// is 1 2 ... N (every grid is one of these relabelled, in N! ways).
func allGrids(shape sudokulab.Shape, f func(sudokulab.Grid)) {
	n := shape.N()
	g := sudokulab.Grid{Shape: shape, Cells: make([]uint8, n*n)}
	for i := range n {
		g.Cells[i] = uint8(i + 1)
	}
	geo := g.Geometry()
	var fill func(i int)
	fill = func(i int) {
		if i == n*n {
			f(g)
			return
		}
		var used uint32
		for _, p := range geo.Peers[i] {
			if v := g.Cells[p]; v != 0 {
				used |= 1 << (v - 1)
			}
		}
		for v := 1; v <= n; v++ {
			if used&(1<<(v-1)) == 0 {
				g.Cells[i] = uint8(v)
				fill(i + 1)
			}
		}
		g.Cells[i] = 0
	}
	fill(n)
}

// TestUniform4x4 draws 28,800 4x4 solution grids, 100 per grid on
// average, and tests with a chi-square test that each of the 288 grids is
// drawn equally often: the generator's grids are exactly uniform there.
func TestUniform4x4(t *testing.T) {
	shape := sudokulab.Shape{BoxRows: 2, BoxCols: 2}
	index := map[string]int{}
	allGrids(shape, func(g sudokulab.Grid) {
		for _, perm := range permutations(4) {
			h := g.Clone()
			for i, v := range h.Cells {
				h.Cells[i] = uint8(perm[v-1] + 1)
			}
			index[h.String()] = len(index)
		}
	})
	if len(index) != 288 {
		t.Fatalf("%d 4x4 grids, want 288", len(index))
	}
	const draws = 28800
	obs := make([]int, len(index))
	exp := make([]float64, len(index))
	rng := rand.New(rand.NewPCG(1, 2))
	for range draws {
		obs[index[generator.RandomSolution(shape, rng).String()]]++
	}
	for i := range exp {
		exp[i] = draws / 288.0
	}
	x, df := chiSquare(obs, exp)
	p := stats.ChiSquareUpper(x, df)
	t.Logf("4x4: chi-square %.1f with %d degrees of freedom, p = %.3g", x, df, p)
	if p < alpha {
		t.Errorf("4x4 grids not uniform: chi-square %.1f with %d df, p = %.3g < %g", x, df, p, alpha)
	}
}

// TestUniform6x6 compares the distribution of the deadly-rectangle count
// of drawn 6x6 grids (2x3 boxes) with its exact distribution over all
// 28,200,960 grids (enumerated as the 39,168 grids with first row
// 123456), by a chi-square test; and the digit in two fixed cells with the
// uniform distribution.
func TestUniform6x6(t *testing.T) {
	shape := sudokulab.Shape{BoxRows: 2, BoxCols: 3}
	exact := map[int]int{}
	total := 0
	allGrids(shape, func(g sudokulab.Grid) {
		exact[rectangles(g)]++
		total++
	})
	if total != 39168 {
		t.Fatalf("%d normalized 6x6 grids, want 39168", total)
	}
	const draws = 10000
	drawn := map[int]int{}
	cells := make([][]int, 2)
	cells[0], cells[1] = make([]int, 6), make([]int, 6)
	rng := rand.New(rand.NewPCG(3, 4))
	for range draws {
		g := generator.RandomSolution(shape, rng)
		drawn[rectangles(g)]++
		cells[0][g.Cells[0]-1]++
		cells[1][g.Cells[6*3+4]-1]++
	}
	// Bins of the count, pooled so that each expects at least 5 draws.
	keys := slices.Sorted(maps.Keys(exact))
	var obs []int
	var exp []float64
	o, e := 0, 0.0
	for _, k := range keys {
		o += drawn[k]
		e += float64(exact[k]) / float64(total) * draws
		if e >= 5 {
			obs, exp = append(obs, o), append(exp, e)
			o, e = 0, 0
		}
	}
	if e > 0 {
		obs[len(obs)-1] += o
		exp[len(exp)-1] += e
	}
	x, df := chiSquare(obs, exp)
	p := stats.ChiSquareUpper(x, df)
	t.Logf("6x6 rectangles: chi-square %.1f with %d degrees of freedom, p = %.3g", x, df, p)
	if p < alpha {
		t.Errorf("6x6 rectangle counts differ from the uniform distribution's: chi-square %.1f with %d df, p = %.3g < %g\nbins %v\nwant %v", x, df, p, alpha, obs, exp)
	}
	for i, c := range cells {
		exp := []float64{draws / 6.0, draws / 6.0, draws / 6.0, draws / 6.0, draws / 6.0, draws / 6.0}
		if x, df := chiSquare(c, exp); stats.ChiSquareUpper(x, df) < alpha {
			t.Errorf("digit in cell %d: chi-square %.1f with %d df, counts %v", i, x, df, c)
		}
	}
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

var mix9 = flag.Int("generate.mix9", 2000, "TestMix9x9: grids to draw with each mixing (docs/generate.md's table uses 20000)")

// TestMix9x9 compares the deadly-rectangle counts of 9x9 grids drawn with
// the default mixing (16 moves per cell) and with 16 times as many moves,
// by a two-sample chi-square test at level alpha: if the chain has
// reached its stationary (uniform) distribution, more moves change
// nothing, and the test fails when the counts differ. So that the check
// can fail at all, the fill alone (no moves) must differ from the long
// chain at the same size. The seeds are fixed, so the outcome is the same
// on every run; -generate.mix9=N sets the draws.
func TestMix9x9(t *testing.T) {
	draw := func(steps int, seed uint64) map[int]int {
		generator.SetMixSteps(steps)
		defer generator.SetMixSteps(16)
		rng := rand.New(rand.NewPCG(seed, 9))
		m := map[int]int{}
		for range *mix9 {
			m[rectangles(generator.RandomSolution(sudokulab.Classic, rng))]++
		}
		return m
	}
	ref := draw(256, 2)
	for _, c := range []struct {
		steps   int
		uniform bool
	}{{16, true}, {0, false}} {
		a := draw(c.steps, 1)
		x, df := twoSampleChiSquare(a, ref)
		p := stats.ChiSquareUpper(x, df)
		t.Logf("9x9, %d moves per cell against 256, %d draws each: mean rectangles %.3f vs %.3f; two-sample chi-square %.1f, %d df, p = %.3g",
			c.steps, *mix9, meanCount(a), meanCount(ref), x, df, p)
		switch {
		case c.uniform && p < alpha:
			t.Errorf("%d moves per cell: rectangle counts differ from 256 moves': chi-square %.1f with %d df, p = %.3g < %g", c.steps, x, df, p, alpha)
		case !c.uniform && p >= alpha:
			t.Errorf("the fill alone passes as mixed (chi-square %.1f with %d df, p = %.3g): the check cannot tell a biased sampler at %d draws", x, df, p, *mix9)
		}
	}
}

// twoSampleChiSquare compares two samples of equal size, as counts by
// value, by a chi-square test over the values of either, pooled in order
// so that each bin holds at least 20 of the two (the last bin joins the one
// before when it holds fewer). It returns the statistic and its degrees of
// freedom.
func twoSampleChiSquare(a, b map[int]int) (float64, int) {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var bins [][2]int
	var cur [2]int
	for _, k := range keys {
		cur[0] += a[k]
		cur[1] += b[k]
		if cur[0]+cur[1] >= 20 {
			bins = append(bins, cur)
			cur = [2]int{}
		}
	}
	if cur[0]+cur[1] > 0 {
		if len(bins) == 0 {
			bins = append(bins, cur)
		} else {
			bins[len(bins)-1][0] += cur[0]
			bins[len(bins)-1][1] += cur[1]
		}
	}
	x := 0.0
	for _, bin := range bins {
		d := float64(bin[0] - bin[1])
		x += d * d / float64(bin[0]+bin[1])
	}
	return x, len(bins) - 1
}

// meanCount returns the mean value of a sample given as counts by value.
func meanCount(m map[int]int) float64 {
	s, n := 0, 0
	for k, v := range m {
		s += k * v
		n += v
	}
	return float64(s) / float64(n)
}
