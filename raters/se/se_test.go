package se_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"sudokulab/raters/se"
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
	f, err := os.Open("testdata/serate-top1465.tsv")
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
		n++
	}
	if n < 20 {
		t.Fatalf("only %d puzzles in testdata", n)
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
