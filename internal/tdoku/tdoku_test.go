package tdoku_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/internal/shareddata"
	"sudokulab/internal/tdoku"
	"sudokulab/solvers/exact"
)

var update = flag.Bool("update", false, "rewrite the samples in testdata from the shared lists")

// TestSamples checks that each committed sample has its size and that
// every puzzle on it has exactly one solution, as the tests that use them
// assume.
func TestSamples(t *testing.T) {
	want := map[string]int{"17clue": 500, "top1465": 500, "hardest1905_11+": 500, "hardest1106": 375}
	for _, l := range tdoku.Lists {
		s := tdoku.Sample(l)
		if len(s) != want[l.Name] {
			t.Errorf("%s: sample of %d puzzles, want %d", l.Name, len(s), want[l.Name])
		}
		for i, g := range s {
			res, err := exact.Solve(context.Background(), g, 2)
			if err != nil || res.Count != 1 {
				t.Fatalf("%s: puzzle %d (%s): %d solutions, %v; want one", l.Name, i, g, res.Count, err)
			}
		}
	}
}

// TestSampleOfShared checks that each committed sample is what Spread
// draws from the full list in the shared folder; with -update it writes
// them. It fails, naming the file, where the shared folder is missing, and
// skips, saying so, only where it is declared absent (shareddata.Absent).
func TestSampleOfShared(t *testing.T) {
	for _, l := range tdoku.Lists {
		full, err := tdoku.Full(l)
		shareddata.Check(t, err)
		want := tdoku.Spread(full, tdoku.SampleSize)
		if *update {
			var b strings.Builder
			fmt.Fprintf(&b, "# %d of the %d puzzles of tdoku's %s, evenly spaced (tdoku.Spread); see README.md.\n", len(want), len(full), l.File)
			fmt.Fprintf(&b, "# Rewrite with: go test ./internal/tdoku -run TestSampleOfShared -update\n")
			for _, g := range want {
				b.WriteString(g.String() + "\n")
			}
			if err := os.WriteFile(filepath.Join("testdata", l.File), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got := tdoku.Sample(l)
		if len(got) != len(want) {
			t.Fatalf("%s: sample of %d puzzles, want %d; rewrite with -update", l.Name, len(got), len(want))
		}
		for i := range want {
			if !got[i].Equal(want[i]) {
				t.Fatalf("%s: sample puzzle %d is %s, the list's is %s; rewrite with -update", l.Name, i, got[i], want[i])
			}
		}
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		err      string
	}{
		{"comments, blanks, CR and trailing fields", "# a comment\n\n" + strings.Repeat(".", 80) + "1\r\n" + strings.Repeat("0", 80) + "2 rated 9.0\n", []string{strings.Repeat(".", 80) + "1", strings.Repeat(".", 80) + "2"}, ""},
		{"short line", "#\n" + strings.Repeat(".", 80) + "\n", nil, "list.txt:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tdoku.Read(strings.NewReader(tt.in), "list.txt")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one naming %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d puzzles, want %d", len(got), len(tt.want))
			}
			for i, g := range got {
				if g.String() != tt.want[i] {
					t.Errorf("puzzle %d: %s, want %s", i, g, tt.want[i])
				}
			}
		})
	}
}

func TestSpread(t *testing.T) {
	var list []sudokulab.Grid
	for i := range 10 {
		g, err := sudokulab.Parse(strings.Repeat(".", 80) + fmt.Sprint(i%9+1))
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, g)
	}
	if got := tdoku.Spread(list, 20); len(got) != 10 {
		t.Errorf("Spread of 10 to 20: %d puzzles, want all 10", len(got))
	}
	got := tdoku.Spread(list, 4) // indices 0, 2, 5, 7
	for i, want := range []int{0, 2, 5, 7} {
		if !got[i].Equal(list[want]) {
			t.Errorf("Spread of 10 to 4: puzzle %d is %s, want list[%d] %s", i, got[i], want, list[want])
		}
	}
}

func TestFullMissing(t *testing.T) {
	t.Setenv(shareddata.Env, t.TempDir())
	_, err := tdoku.Full(tdoku.Hardest1106)
	if err == nil || !strings.Contains(err.Error(), filepath.Join("data", "tdoku", tdoku.Hardest1106.File)) || !strings.Contains(err.Error(), shareddata.Env) {
		t.Errorf("Full with an empty shared folder: error %v, want one naming the file and %s", err, shareddata.Env)
	}
}
