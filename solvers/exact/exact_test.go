package exact_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/cputime"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/tdoku"
	"sudokulab/solvers/exact"
)

type paperPuzzle struct {
	name, level      string
	givens           int
	puzzle, solution sudokulab.Grid
}

// readPaperPuzzles returns the papers' puzzles (internal/paperdata, the
// embedded copy of shared/data/paper-puzzles.csv).
func readPaperPuzzles(t *testing.T) []paperPuzzle {
	t.Helper()
	var out []paperPuzzle
	for _, p := range paperdata.All() {
		out = append(out, paperPuzzle{name: p.Name, level: p.Level, givens: p.Givens, puzzle: p.Puzzle, solution: p.Solution})
	}
	if len(out) == 0 {
		t.Fatal("no paper puzzles")
	}
	return out
}

// findPaperPuzzle returns the named puzzle of the list.
func findPaperPuzzle(t *testing.T, name string) paperPuzzle {
	t.Helper()
	for _, p := range readPaperPuzzles(t) {
		if p.name == name {
			return p
		}
	}
	t.Fatalf("no paper puzzle %q", name)
	return paperPuzzle{}
}

func TestPaperPuzzles(t *testing.T) {
	for _, pp := range readPaperPuzzles(t) {
		t.Run(pp.name, func(t *testing.T) {
			if got := pp.puzzle.Givens(); got != pp.givens {
				t.Errorf("puzzle has %d givens, the list says %d", got, pp.givens)
			}
			res, err := exact.Solve(context.Background(), pp.puzzle, 2)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count != 1 {
				t.Fatalf("Count = %d, want 1", res.Count)
			}
			if !res.Solution.Equal(pp.solution) {
				t.Errorf("solution\n%s\nwant\n%s", res.Solution, pp.solution)
			}
			if err := sudokulab.CheckSolution(pp.puzzle, res.Solution); err != nil {
				t.Error(err)
			}
			// The general engine agrees, effort included.
			gen, err := exact.NewGeneral(sudokulab.Classic).Solve(context.Background(), pp.puzzle, 2)
			if err != nil || !sameResult(gen, res) {
				t.Errorf("general engine: %+v, %v; want %+v", gen, err, res)
			}
		})
	}
}

// sameResult reports whether two results are identical.
func sameResult(a, b exact.Result) bool {
	return a.Count == b.Count && a.Effort == b.Effort && a.Solution.Equal(b.Solution)
}

// shapes of the generated corpus.
var (
	small = []sudokulab.Shape{{BoxRows: 1, BoxCols: 2}, {BoxRows: 1, BoxCols: 4}, {BoxRows: 2, BoxCols: 2},
		{BoxRows: 2, BoxCols: 3}, {BoxRows: 3, BoxCols: 2}, {BoxRows: 2, BoxCols: 4}, {BoxRows: 4, BoxCols: 2},
		{BoxRows: 3, BoxCols: 3}}
	large = []sudokulab.Shape{{BoxRows: 2, BoxCols: 5}, {BoxRows: 3, BoxCols: 4}, {BoxRows: 4, BoxCols: 3},
		{BoxRows: 4, BoxCols: 4}, {BoxRows: 5, BoxCols: 5}, {BoxRows: 4, BoxCols: 8}}
)

// patternGrid returns a valid full grid of the shape: row r holds the
// symbols shifted by BoxCols*(r%BoxRows) + r/BoxRows.
func patternGrid(s sudokulab.Shape) sudokulab.Grid {
	g, _ := sudokulab.NewGrid(s)
	n := s.N()
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			g.Cells[r*n+c] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%n + 1)
		}
	}
	return g
}

// shuffled returns g with its symbols relabelled, its bands and the rows
// in each band permuted, and its stacks and the columns in each stack
// permuted: a random grid of the same validity.
func shuffled(rng *rand.Rand, g sudokulab.Grid) sudokulab.Grid {
	s, n := g.Shape, g.N()
	perm := func(groups, size int) []int {
		order := rng.Perm(groups)
		out := make([]int, 0, groups*size)
		for _, gr := range order {
			for _, i := range rng.Perm(size) {
				out = append(out, gr*size+i)
			}
		}
		return out
	}
	rows := perm(n/s.BoxRows, s.BoxRows) // bands of BoxRows rows
	cols := perm(n/s.BoxCols, s.BoxCols) // stacks of BoxCols columns
	label := rng.Perm(n)
	out, _ := sudokulab.NewGrid(s)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if v := g.Cells[rows[r]*n+cols[c]]; v != 0 {
				out.Cells[r*n+c] = uint8(label[v-1] + 1)
			}
		}
	}
	return out
}

// randomFull returns a random valid full grid. For grids up to 12x12 it
// lets the solver complete a few random givens, which reaches grids that no
// shuffle of the pattern reaches; larger grids are shuffled patterns.
func randomFull(t testing.TB, rng *rand.Rand, s sudokulab.Shape) sudokulab.Grid {
	t.Helper()
	if s.N() <= 12 {
		for {
			g := randomGivens(rng, s, s.N())
			res, err := exact.Solve(context.Background(), g, 1)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count == 1 {
				return shuffled(rng, res.Solution)
			}
		}
	}
	return shuffled(rng, patternGrid(s))
}

// randomGivens returns a grid with k givens at random that break no rule
// directly (the grid may still have no solution).
func randomGivens(rng *rand.Rand, s sudokulab.Shape, k int) sudokulab.Grid {
	g, _ := sudokulab.NewGrid(s)
	geo := g.Geometry()
	n := s.N()
	for placed := 0; placed < k; {
		c, v := rng.IntN(len(g.Cells)), uint8(rng.IntN(n)+1)
		if g.Cells[c] != 0 {
			continue
		}
		ok := true
		for _, p := range geo.Peers[c] {
			if g.Cells[p] == v {
				ok = false
				break
			}
		}
		if ok {
			g.Cells[c] = v
			placed++
		}
	}
	return g
}

// withHoles returns a copy of g with k random cells emptied.
func withHoles(rng *rand.Rand, g sudokulab.Grid, k int) sudokulab.Grid {
	h := g.Clone()
	for _, c := range rng.Perm(len(h.Cells))[:k] {
		h.Cells[c] = 0
	}
	return h
}

// naiveCount is the second method the solver is held against: plain
// backtracking over the empty cells in row-major order, without any
// propagation, counting solutions up to limit. It returns the count and
// the first solution.
func naiveCount(g sudokulab.Grid, limit int) (int, sudokulab.Grid) {
	geo := g.Geometry()
	cells := append([]uint8(nil), g.Cells...)
	if g.Validate() != nil {
		return 0, sudokulab.Grid{}
	}
	var empty []int
	for c, v := range cells {
		if v == 0 {
			empty = append(empty, c)
		}
	}
	count, first := 0, sudokulab.Grid{}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(empty) {
			count++
			if count == 1 {
				first = sudokulab.Grid{Shape: g.Shape, Cells: append([]uint8(nil), cells...)}
			}
			return count >= limit
		}
		c := empty[k]
	values:
		for v := uint8(1); int(v) <= geo.N; v++ {
			for _, p := range geo.Peers[c] {
				if cells[p] == v {
					continue values
				}
			}
			cells[c] = v
			stop := rec(k + 1)
			cells[c] = 0
			if stop {
				return true
			}
		}
		return false
	}
	rec(0)
	return count, first
}

// TestGeneratedSmall holds the solver against naiveCount on random puzzles
// of the shapes up to 9x9: holes punched in random full grids (with 1 or
// many solutions), the same with one given changed (often none), and
// random givens on the smallest shapes.
func TestGeneratedSmall(t *testing.T) {
	for _, s := range small {
		t.Run(fmt.Sprintf("%dx%d", s.BoxRows, s.BoxCols), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(s.BoxRows), uint64(s.BoxCols)))
			solver := exact.New(s)
			general := exact.NewGeneral(s)
			cells, n := s.Cells(), s.N()
			counts := map[int]int{}
			check := func(p sudokulab.Grid) {
				t.Helper()
				res, err := solver.Solve(context.Background(), p, 2)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				want, first := naiveCount(p, 2)
				counts[want]++
				if res.Count != want {
					t.Fatalf("%s: Count = %d, naive backtracking finds %d", p, res.Count, want)
				}
				if want > 0 {
					if err := sudokulab.CheckSolution(p, res.Solution); err != nil {
						t.Fatalf("%s: solution %s: %v", p, res.Solution, err)
					}
				}
				if want == 1 && !res.Solution.Equal(first) {
					t.Fatalf("%s: solution %s, naive backtracking finds %s", p, res.Solution, first)
				}
				if want == 0 && res.Solution.Cells != nil {
					t.Fatalf("%s: Count 0 with a solution %s", p, res.Solution)
				}
				if gen, err := general.Solve(context.Background(), p, 2); err != nil || !sameResult(gen, res) {
					t.Fatalf("%s: general engine %+v, %v; solver %+v", p, gen, err, res)
				}
			}
			rounds := 400
			if n == 9 {
				rounds = 300
			}
			for i := 0; i < rounds; i++ {
				full := randomFull(t, rng, s)
				p := withHoles(rng, full, 1+rng.IntN(cells*3/4))
				check(p)
				// Change a given to a value its peers do not hold.
				if c, v := rng.IntN(cells), uint8(rng.IntN(n)+1); p.Cells[c] != 0 && p.Givens() > cells/2 {
					p.Cells[c] = v
					if p.Validate() == nil {
						check(p)
					}
				}
				if n <= 6 {
					check(randomGivens(rng, s, rng.IntN(cells/2)))
				}
			}
			t.Logf("solution counts seen: %v", counts)
		})
	}
}

// TestGeneratedLarge checks the solver where backtracking without
// propagation is too slow: a full grid with one cell removed has exactly
// that solution, and grids with many holes get valid solutions.
func TestGeneratedLarge(t *testing.T) {
	for _, s := range large {
		t.Run(fmt.Sprintf("%dx%d", s.BoxRows, s.BoxCols), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(s.BoxRows), uint64(s.BoxCols)))
			solver := exact.New(s)
			rounds := 20
			if s.N() >= 25 {
				rounds = 4
			}
			for i := 0; i < rounds; i++ {
				full := randomFull(t, rng, s)
				if err := full.Validate(); err != nil || !full.Full() {
					t.Fatalf("generated grid %s: %v", full, err)
				}
				one := withHoles(rng, full, 1)
				res, err := solver.Solve(context.Background(), one, 2)
				if err != nil || res.Count != 1 || !res.Solution.Equal(full) {
					t.Fatalf("%s: %+v, %v; want the one solution %s", one, res, err, full)
				}
				if res.Effort != (exact.Effort{Propagations: 1}) {
					t.Errorf("one hole: effort %+v, want 1 propagation", res.Effort)
				}
				// Random holes in large grids near half the cells make
				// puzzles on which depth-first search can take minutes;
				// these fractions stay clear of them.
				fracs := []float64{0.3, 0.5, 0.65}
				if s.N() >= 16 {
					fracs = []float64{0.3, 0.4}
				}
				for _, frac := range fracs {
					p := withHoles(rng, full, int(frac*float64(s.Cells())))
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					res, err := solver.Solve(ctx, p, 2)
					cancel()
					if err != nil || res.Count < 1 {
						t.Fatalf("%s: %+v, %v; want a solution", p, res, err)
					}
					if err := sudokulab.CheckSolution(p, res.Solution); err != nil {
						t.Fatalf("%s: solution %s: %v", p, res.Solution, err)
					}
					if res.Count == 1 && !res.Solution.Equal(full) {
						t.Fatalf("%s: unique solution %s, but %s solves it too", p, res.Solution, full)
					}
				}
			}
		})
	}
}

// TestEngines9x9 holds the dedicated 9x9 engine against the general one,
// effort included, on generated puzzles and on 150 puzzles of each committed tdoku sample.
func TestEngines9x9(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	fast, general := exact.New(sudokulab.Classic), exact.NewGeneral(sudokulab.Classic)
	var puzzles []sudokulab.Grid
	for i := 0; i < 200; i++ {
		full := randomFull(t, rng, sudokulab.Classic)
		puzzles = append(puzzles, withHoles(rng, full, 40+rng.IntN(30)))
		puzzles = append(puzzles, randomGivens(rng, sudokulab.Classic, 10+rng.IntN(20)))
	}
	for _, l := range tdoku.Lists {
		puzzles = append(puzzles, listPuzzles(t, l, 150, false)...)
	}
	for _, p := range puzzles {
		for _, limit := range []int{1, 2, 3} {
			a, err1 := fast.Solve(context.Background(), p, limit)
			b, err2 := general.Solve(context.Background(), p, limit)
			if err1 != nil || err2 != nil || !sameResult(a, b) {
				t.Fatalf("%s limit %d: 9x9 engine %+v, %v; general engine %+v, %v", p, limit, a, err1, b, err2)
			}
		}
	}
}

// TestTouchedUnits checks the branch-free unit gathering of the 9x9 engine.
func TestTouchedUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 81))
	for i := 0; i < 20000; i++ {
		var cells []int
		for c := 0; c < 81; c++ {
			if rng.IntN(1+i%20) == 0 {
				cells = append(cells, c)
			}
		}
		if got, want := exact.TouchedUnits(cells); got != want {
			t.Fatalf("cells %v: units %027b, want %027b", cells, got, want)
		}
	}
}

const aiEscargotSolution = "162857493534129678789643521475312986913586742628794135356478219241935867897261354"

// deadlyPattern empties the four cells of a unique rectangle of the full
// grid: two rows of one band and two columns of different stacks whose
// corners hold a b / b a. The puzzle has exactly the two solutions.
func deadlyPattern(t *testing.T, g sudokulab.Grid) sudokulab.Grid {
	t.Helper()
	s, n := g.Shape, g.N()
	at := func(r, c int) uint8 { return g.Cells[r*n+c] }
	for r1 := 0; r1 < n; r1++ {
		for r2 := r1 + 1; r2 < n && r2/s.BoxRows == r1/s.BoxRows; r2++ {
			for c1 := 0; c1 < n; c1++ {
				for c2 := c1 + 1; c2 < n; c2++ {
					if c1/s.BoxCols != c2/s.BoxCols && at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
						p := g.Clone()
						for _, c := range []int{r1*n + c1, r1*n + c2, r2*n + c1, r2*n + c2} {
							p.Cells[c] = 0
						}
						return p
					}
				}
			}
		}
	}
	t.Fatalf("%s has no unique rectangle", g)
	return sudokulab.Grid{}
}

func TestCounts(t *testing.T) {
	solved := sudokulab.MustParse(aiEscargotSolution)
	eighty := solved.Clone()
	eighty.Cells[40] = 0
	// Row 1 holds 1-8 and column 1 holds 9 further down: r1c1 has no
	// candidate, though no two givens clash.
	noCandidate := sudokulab.MustParse("." + "12345678" + "........." + "........." + "9........" + "........." + "........." + "........." + "........." + ".........")
	clash := sudokulab.MustParse("11" + strings.Repeat(".", 79))
	boxClash := sudokulab.MustParse("1" + strings.Repeat(".", 9) + "1" + strings.Repeat(".", 70))
	empty := func(s sudokulab.Shape) sudokulab.Grid { g, _ := sudokulab.NewGrid(s); return g }
	tests := []struct {
		name   string
		puzzle sudokulab.Grid
		limit  int
		want   int
		effort *exact.Effort // nil: not checked
	}{
		{"clashing givens in a row", clash, 2, 0, &exact.Effort{}},
		{"clashing givens in a box", boxClash, 2, 0, &exact.Effort{}},
		{"no candidate for a cell", noCandidate, 2, 0, &exact.Effort{Backtracks: 1}},
		{"full grid", solved, 2, 1, &exact.Effort{}},
		{"80 givens", eighty, 2, 1, &exact.Effort{Propagations: 1}},
		{"deadly pattern", deadlyPattern(t, solved), 2, 2, nil},
		{"deadly pattern limit 5", deadlyPattern(t, solved), 5, 2, nil},
		{"deadly pattern limit 1", deadlyPattern(t, solved), 1, 1, nil},
		{"deadly pattern limit 0 means 1", deadlyPattern(t, solved), 0, 1, nil},
		{"deadly pattern 16x16", deadlyPattern(t, patternGrid(sudokulab.Shape{BoxRows: 4, BoxCols: 4})), 3, 2, nil},
		{"empty 4x4", empty(sudokulab.Shape{BoxRows: 2, BoxCols: 2}), 300, 288, nil},
		{"empty 4x4 limit 3", empty(sudokulab.Shape{BoxRows: 2, BoxCols: 2}), 3, 3, nil},
		{"empty 6x6", empty(sudokulab.Shape{BoxRows: 2, BoxCols: 3}), 10, 10, nil},
		{"empty 9x9", empty(sudokulab.Classic), 50, 50, nil},
		{"empty 9x9 limit -1 means 1", empty(sudokulab.Classic), -1, 1, nil},
		{"empty 12x12", empty(sudokulab.Shape{BoxRows: 3, BoxCols: 4}), 5, 5, nil},
		{"empty 16x16", empty(sudokulab.Shape{BoxRows: 4, BoxCols: 4}), 5, 5, nil},
		{"empty 25x25", empty(sudokulab.Shape{BoxRows: 5, BoxCols: 5}), 3, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := exact.Solve(context.Background(), tt.puzzle, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count != tt.want {
				t.Fatalf("Count = %d, want %d", res.Count, tt.want)
			}
			if tt.effort != nil && res.Effort != *tt.effort {
				t.Errorf("Effort = %+v, want %+v", res.Effort, *tt.effort)
			}
			if res.Count == 0 {
				if res.Solution.Cells != nil {
					t.Errorf("Count 0 with solution %s", res.Solution)
				}
				return
			}
			if err := sudokulab.CheckSolution(tt.puzzle, res.Solution); err != nil {
				t.Errorf("solution %s: %v", res.Solution, err)
			}
		})
	}
}

func TestEffort(t *testing.T) {
	hard := findPaperPuzzle(t, "ai-escargot")
	res, err := exact.Solve(context.Background(), hard.puzzle, 2)
	if err != nil || res.Count != 1 {
		t.Fatalf("ai-escargot: %+v, %v", res, err)
	}
	if e := res.Effort; e.Propagations == 0 || e.Guesses == 0 || e.Backtracks == 0 {
		t.Errorf("ai-escargot: effort %+v, want every field above 0", e)
	}
	t.Logf("ai-escargot: %+v", res.Effort)

	easy := findPaperPuzzle(t, "reseda-easy")
	res, err = exact.Solve(context.Background(), easy.puzzle, 2)
	if err != nil || res.Count != 1 {
		t.Fatalf("reseda-easy: %+v, %v", res, err)
	}
	want := exact.Effort{Propagations: int64(81 - easy.puzzle.Givens())}
	if res.Effort != want {
		t.Errorf("reseda-easy: effort %+v, want %+v (singles fix every empty cell)", res.Effort, want)
	}
}

// TestDeterminism solves each paper puzzle with fresh and reused solvers,
// the package function and a solver that switched shapes in between: the
// results are identical.
func TestDeterminism(t *testing.T) {
	ctx := context.Background()
	reused := exact.New(sudokulab.Classic)
	other, _ := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	for _, pp := range readPaperPuzzles(t) {
		t.Run(pp.name, func(t *testing.T) {
			first, err := exact.New(sudokulab.Classic).Solve(ctx, pp.puzzle, 2)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 3; i++ {
				a, err1 := reused.Solve(ctx, pp.puzzle, 2)
				b, err2 := exact.Solve(ctx, pp.puzzle, 2)
				if _, err := reused.Solve(ctx, other, 2); err != nil {
					t.Fatal(err)
				}
				if err1 != nil || err2 != nil || !sameResult(a, first) || !sameResult(b, first) {
					t.Fatalf("run %d: %+v / %+v, want %+v", i, a, b, first)
				}
			}
		})
	}
}

// TestConcurrentSolve runs the package function from several goroutines:
// each call gets a Solver of its own from the pools.
func TestConcurrentSolve(t *testing.T) {
	pps := readPaperPuzzles(t)
	want := make([]exact.Result, len(pps))
	for i, pp := range pps {
		want[i], _ = exact.New(sudokulab.Classic).Solve(context.Background(), pp.puzzle, 2)
	}
	small, _ := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for round := 0; round < 20; round++ {
				for i, pp := range pps {
					got, err := exact.Solve(context.Background(), pp.puzzle, 2)
					if err != nil || !sameResult(got, want[i]) {
						errs <- fmt.Errorf("%s: %+v, %v; want %+v", pp.name, got, err, want[i])
						return
					}
					if res, err := exact.Solve(context.Background(), small, 3); err != nil || res.Count != 3 {
						errs <- fmt.Errorf("empty 6x6: %+v, %v", res, err)
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestCancel(t *testing.T) {
	empty25, _ := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 5, BoxCols: 5})
	empty9, _ := sudokulab.NewGrid(sudokulab.Classic)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		puzzle  sudokulab.Grid
		timeout time.Duration // 0: the cancelled context
		want    error
	}{
		{"cancelled 25x25", empty25, 0, context.Canceled},
		{"cancelled 9x9", empty9, 0, context.Canceled},
		{"deadline during 25x25 search", empty25, 50 * time.Millisecond, context.DeadlineExceeded},
		{"deadline during 9x9 search", empty9, 50 * time.Millisecond, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := cancelled
			start, _ := cputime.Process()
			if tt.timeout > 0 {
				// A budget of CPU, not of wall time: on a loaded machine a
				// wall-clock deadline can pass before the search starts.
				var cancel context.CancelFunc
				ctx, cancel = cputime.WithBudget(context.Background(), tt.timeout)
				defer cancel()
			}
			res, err := exact.Solve(ctx, tt.puzzle, 1<<62)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v (count %d)", err, tt.want, res.Count)
			}
			if end, _ := cputime.Process(); end-start > tt.timeout+time.Second {
				t.Errorf("used %v of CPU to notice the context", end-start)
			}
			if tt.timeout > 0 && res.Count == 0 {
				t.Errorf("no solution counted before the deadline")
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	good := sudokulab.MustParse(aiEscargotSolution)
	short := good.Clone()
	short.Cells = short.Cells[:80]
	high := good.Clone()
	high.Cells[5] = 10
	tests := []struct {
		name   string
		puzzle sudokulab.Grid
	}{
		{"zero grid", sudokulab.Grid{}},
		{"invalid shape", sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: 0, BoxCols: 3}, Cells: make([]uint8, 9)}},
		{"too large", sudokulab.Grid{Shape: sudokulab.Shape{BoxRows: 6, BoxCols: 6}, Cells: make([]uint8, 36*36)}},
		{"80 cells", short},
		{"symbol above 9", high},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := exact.Solve(context.Background(), tt.puzzle, 2)
			if err == nil {
				t.Fatalf("no error, result %+v", res)
			}
			if code := sudokulab.ErrorCode(err); code != sudokulab.EINVALID {
				t.Errorf("error %v has code %q, want %q", err, code, sudokulab.EINVALID)
			}
			if _, err := exact.New(tt.puzzle.Shape).Solve(context.Background(), tt.puzzle, 2); err == nil {
				t.Errorf("Solver.Solve: no error")
			}
		})
	}
}

// TestNoAllocs checks that a reused Solver allocates only the solution.
func TestNoAllocs(t *testing.T) {
	hard := findPaperPuzzle(t, "ai-escargot").puzzle
	rng := rand.New(rand.NewPCG(16, 16))
	s16 := sudokulab.Shape{BoxRows: 4, BoxCols: 4}
	p16 := withHoles(rng, randomFull(t, rng, s16), 120)
	tests := []struct {
		name   string
		puzzle sudokulab.Grid
	}{{"9x9", hard}, {"16x16", p16}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := exact.New(tt.puzzle.Shape)
			ctx := context.Background()
			allocs := testing.AllocsPerRun(20, func() {
				if res, err := s.Solve(ctx, tt.puzzle, 2); err != nil || res.Count < 1 {
					t.Fatalf("%+v, %v", res, err)
				}
			})
			if allocs > 1 {
				t.Errorf("%v allocations per solve, want 1 (the solution)", allocs)
			}
			// The package function takes pooled solvers; a collection may
			// empty the pool now and then.
			allocs = testing.AllocsPerRun(20, func() {
				if res, err := exact.Solve(ctx, tt.puzzle, 2); err != nil || res.Count < 1 {
					t.Fatalf("%+v, %v", res, err)
				}
			})
			if allocs > 1.5 {
				t.Errorf("package Solve: %v allocations per solve, want 1 (the solution)", allocs)
			}
		})
	}
}
