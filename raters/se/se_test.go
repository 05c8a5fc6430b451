package se_test

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
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
		t.Run(tc.file, func(t *testing.T) { agreesWithSerate(t, tc.file, tc.min) })
	}
}

func agreesWithSerate(t *testing.T, file string, min int) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		want := [3]float64{}
		for i := range want {
			want[i], err = strconv.ParseFloat(fs[i+1], 64)
			if err != nil {
				t.Fatal(err)
			}
		}
		r, err := se.Rate(context.Background(), parse(t, fs[0]))
		if err != nil {
			t.Fatalf("%s: %v", fs[0], err)
		}
		if got := [3]float64{r.ER, r.EP, r.ED}; got != want {
			t.Errorf("%s: ER/EP/ED %v, serate %v (%s); ours %s", fs[0], got, want, fs[4], r.ERTechnique)
		}
		// Every placement, chains' included, is the solution's value.
		sol, err := exact.Solve(context.Background(), sudokulab.MustParse(fs[0]), 2)
		if err != nil || sol.Count != 1 {
			t.Fatalf("%s: %d solutions, %v", fs[0], sol.Count, err)
		}
		for _, st := range r.Steps {
			if st.Cell >= 0 && st.Value != int(sol.Solution.Cells[st.Cell]) {
				t.Errorf("%s: %s places %d at cell %d", fs[0], st.Technique, st.Value, st.Cell)
			}
		}
		n++
	}
	if n < min {
		t.Fatalf("only %d puzzles in %s", n, file)
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
