package symmetry_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/symmetry"
)

var update = flag.Bool("update", false, "rewrite testdata/forms.golden")

// goldenPuzzles makes puzzles of every density, from empty to full, each
// a random transformation of a solution grid with random cells left
// empty; sparse ones put many partial transformations in a tie, which is
// where the search has the most to do.
func goldenPuzzles() []sudokulab.Grid {
	rng := rand.New(rand.NewPCG(15, 81))
	full := sudokulab.MustParse(samples[6])
	var out []sudokulab.Grid
	for i := range 3000 {
		g := symmetry.Random(rng).Apply(full)
		keep := i % 82 // 0 to 81 givens
		for _, c := range rng.Perm(81)[keep:] {
			g.Cells[c] = 0
		}
		out = append(out, g)
	}
	return out
}

// TestFormGolden holds the forms of 3,000 puzzles of every density against
// testdata/forms.golden (go test -update rewrites it), so that a faster
// search is known to give the forms of the one before, which
// TestFormMatchesBruteForce checked transformation by transformation.
func TestFormGolden(t *testing.T) {
	var z symmetry.Canonicalizer
	var b strings.Builder
	for _, g := range goldenPuzzles() {
		f, err := z.Form(g)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", g, f)
	}
	path := filepath.Join("testdata", "forms.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			t.Fatalf("line %d:\n got %s\nwant %s", i+1, got[min(i, len(got)-1)], w)
		}
	}
}
