package se_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/raters/se"
	"sudokulab/solvers/exact"
)

// parse reads an 81-character puzzle line.
func parse(t *testing.T, s string) [81]int {
	t.Helper()
	var v [81]int
	if len(s) != 81 {
		t.Fatalf("puzzle %q is not 81 characters", s)
	}
	for i := 0; i < 81; i++ {
		if s[i] >= '1' && s[i] <= '9' {
			v[i] = int(s[i] - '0')
		}
	}
	return v
}

// TestAgreesWithSerate rates puzzles whose ratings SukakuExplainer's serate
// (SE121 technique set) computed, and expects the same ER, EP and ED.
func TestAgreesWithSerate(t *testing.T) {
	for _, tc := range []struct {
		file string
		min  int
	}{
		{"testdata/serate-top1465.tsv", 20},
		// Nested dynamic forcing chains (ER 10+), where the chaining rules
		// run inside one another: a second or two each.
		{"testdata/serate-forum-hardest.tsv", 2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			refs := readReference(t, tc.file, 1)
			if len(refs) < tc.min {
				t.Fatalf("only %d puzzles in %s", len(refs), tc.file)
			}
			agreesWithSerate(t, refs)
		})
	}
}

var serateAll = flag.Bool("serate.all", false, "TestSerateReference: rate all 1,202 puzzles of docs/data/serate (about 18 CPU minutes) instead of its sample")

// serateSample is the sample of docs/data/serate that TestSerateReference
// rates by default: every k-th line of each list's file, from the first
// (serate's ratings of the reference samples, see its README). With
// -serate.all it rates every line.
var serateSample = []struct {
	file  string
	lines int // the lines the file holds
	every int
}{
	{"puzzles2_17_clue.serate.tsv", 500, 1},
	{"puzzles3_magictour_top1465.serate.tsv", 500, 1},
	{"puzzles5_forum_hardest_1905_11+.serate.tsv", 172, 86},
	{"puzzles6_forum_hardest_1106.serate.tsv", 30, 30},
}

// TestSerateReference holds the se rater to serate's ratings of the
// reference samples that docs/ratings.md reports 100 % agreement on
// (docs/data/serate): a deterministic sample that fits in the suite's
// time, or all 1,202 puzzles with -serate.all.
func TestSerateReference(t *testing.T) {
	for _, tc := range serateSample {
		t.Run(tc.file, func(t *testing.T) {
			every := tc.every
			if *serateAll {
				every = 1
			}
			path := filepath.Join("..", "..", "docs", "data", "serate", tc.file)
			all := readReference(t, path, 1)
			if len(all) != tc.lines {
				t.Fatalf("%s holds %d puzzles, want %d (update serateSample and docs/ratings.md)", path, len(all), tc.lines)
			}
			agreesWithSerate(t, readReference(t, path, every))
		})
	}
}

// reference is serate's rating of a puzzle.
type reference struct {
	where     string // file:line
	puzzle    string
	want      [3]float64 // ER, EP, ED
	technique string     // of the ER step
}

// readReference reads every k-th puzzle (the first, the k+1-th ...) of a
// file of serate's ratings, in either layout: puzzle, ER, EP, ED and
// technique (testdata), or puzzle, ER/EP/ED and technique
// (docs/data/serate). Lines starting with # are comments.
func readReference(t *testing.T, file string, every int) []reference {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []reference
	sc := bufio.NewScanner(f)
	line, n := 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.HasPrefix(text, "#") || text == "" {
			continue
		}
		n++
		if (n-1)%every != 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, line)
		fs := strings.Split(text, "\t")
		var nums []string
		switch {
		case len(fs) == 5:
			nums = fs[1:4]
		case len(fs) == 3:
			nums = strings.Split(fs[1], "/")
		}
		if len(nums) != 3 {
			t.Fatalf("%s: want puzzle, ER, EP, ED and technique, or puzzle, ER/EP/ED and technique", where)
		}
		r := reference{where: where, puzzle: fs[0], technique: fs[len(fs)-1]}
		for i, s := range nums {
			if r.want[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// agreesWithSerate rates each puzzle and expects serate's ER, EP and ED,
// and every placement of the path to be the solution's value.
func agreesWithSerate(t *testing.T, refs []reference) {
	for _, ref := range refs {
		r, err := se.Rate(context.Background(), parse(t, ref.puzzle))
		if err != nil {
			t.Fatalf("%s: %s: %v", ref.where, ref.puzzle, err)
		}
		if got := [3]float64{r.ER, r.EP, r.ED}; got != ref.want {
			t.Errorf("%s: %s: ER/EP/ED %v, serate %v (%s); ours %s", ref.where, ref.puzzle, got, ref.want, ref.technique, r.ERTechnique)
		}
		// Every placement, chains' included, is the solution's value.
		sol, err := exact.Solve(context.Background(), sudokulab.MustParse(ref.puzzle), 2)
		if err != nil || sol.Count != 1 {
			t.Fatalf("%s: %s: %d solutions, %v", ref.where, ref.puzzle, sol.Count, err)
		}
		for _, st := range r.Steps {
			if st.Cell >= 0 && st.Value != int(sol.Solution.Cells[st.Cell]) {
				t.Errorf("%s: %s: %s places %d at cell %d", ref.where, ref.puzzle, st.Technique, st.Value, st.Cell)
			}
		}
	}
}

// TestPathSolves checks that the steps of the path, replayed, place every
// cell and only values consistent with the givens and the rules.
func TestPathSolves(t *testing.T) {
	p := "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
	r, err := se.Rate(context.Background(), parse(t, p))
	if err != nil {
		t.Fatal(err)
	}
	var g [81]int = parse(t, p)
	for _, s := range r.Steps {
		if s.Cell < 0 {
			continue
		}
		if g[s.Cell] != 0 {
			t.Fatalf("step %s places r%dc%d twice", s.Technique, s.Cell/9+1, s.Cell%9+1)
		}
		g[s.Cell] = s.Value
	}
	for c := 0; c < 81; c++ {
		if g[c] == 0 {
			t.Fatalf("cell %d left empty by a complete rating", c)
		}
		for d := c + 1; d < 81; d++ {
			sameUnit := c/9 == d/9 || c%9 == d%9 || (c/27 == d/27 && c%9/3 == d%9/3)
			if sameUnit && g[c] == g[d] {
				t.Fatalf("cells %d and %d both hold %d", c, d, g[c])
			}
		}
	}
	if r.Partial || r.ER < r.EP || r.EP < r.ED {
		t.Fatalf("ER %.1f EP %.1f ED %.1f partial %v", r.ER, r.EP, r.ED, r.Partial)
	}
}

// TestPartial checks that a cancelled rating is marked partial.
func TestPartial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := se.Rate(ctx, parse(t, "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"))
	if err == nil || !r.Partial {
		t.Fatalf("cancelled rating: err %v partial %v", err, r.Partial)
	}
}

func TestInvalid(t *testing.T) {
	v := [81]int{}
	v[0], v[1] = 5, 5
	if _, err := se.Rate(context.Background(), v); err == nil {
		t.Fatal("conflicting givens accepted")
	}
}

// TestSoundOnUniquePuzzles rates puzzles made by removing random givens
// from top1465 solutions, keeping those with one solution: every placement
// of the path must be the solution's value (SE's techniques, uniqueness
// ones included, are sound on such puzzles), and the path must solve the
// puzzle unless the rating is beyond SE (20.0).
func TestSoundOnUniquePuzzles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seeds := []string{
		"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
		"52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
		"6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
	}
	checked := 0
	for _, s := range seeds {
		sol, err := exact.Solve(context.Background(), sudokulab.MustParse(s), 1)
		if err != nil || sol.Count != 1 {
			t.Fatalf("seed %s: %v %v", s, sol.Count, err)
		}
		for trial := 0; trial < 20; trial++ {
			g := sol.Solution.Clone()
			for _, c := range rng.Perm(81)[:36+rng.IntN(16)] {
				g.Cells[c] = 0
			}
			if r, _ := exact.Solve(context.Background(), g, 2); r.Count != 1 {
				continue
			}
			var v [81]int
			for i, x := range g.Cells {
				v[i] = int(x)
			}
			res, err := se.Rate(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			filled := g.Givens()
			for _, st := range res.Steps {
				if st.Cell >= 0 {
					filled++
					if want := int(sol.Solution.Cells[st.Cell]); st.Value != want {
						t.Fatalf("%s: step %s places %d at cell %d, solution has %d", g, st.Technique, st.Value, st.Cell, want)
					}
				}
			}
			if res.ER != 20 && filled != 81 {
				t.Fatalf("%s: rated %.1f but %d cells filled", g, res.ER, filled)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d unique puzzles checked", checked)
	}
}
