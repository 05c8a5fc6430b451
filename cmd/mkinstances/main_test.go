package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sudokulab/importers"
)

// TestRandomInstances makes a class of random instances twice: the files
// are the same, each puzzle has exactly the fraction of its cells given,
// never breaks a rule, and the puzzles differ from one another.
func TestRandomInstances(t *testing.T) {
	for _, tc := range []struct {
		order int
		given float64
	}{{3, 0.4}, {4, 0.45}, {5, 0.5}} {
		a, b := t.TempDir(), t.TempDir()
		for _, dir := range []string{a, b} {
			if err := run(tc.order, tc.given, 3, 42, "random", dir); err != nil {
				t.Fatal(err)
			}
		}
		files, _ := filepath.Glob(filepath.Join(a, "*.instance"))
		if len(files) != 3 {
			t.Fatalf("order %d: %d files, want 3", tc.order, len(files))
		}
		format, err := importers.Default().Lookup("instance")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			again, err := os.ReadFile(filepath.Join(b, filepath.Base(f)))
			if err != nil || !bytes.Equal(data, again) {
				t.Errorf("%s: not the same from the same seed", filepath.Base(f))
			}
			var recs []importers.Record
			for rec, err := range format.Decode(bytes.NewReader(data), importers.Options{File: f}) {
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rec)
			}
			if len(recs) != 1 {
				t.Fatalf("%s: %d records, want 1", f, len(recs))
			}
			g := recs[0].Grid
			n := tc.order * tc.order
			if want := int(float64(n*n)*tc.given + 0.5); g.Givens() != want {
				t.Errorf("%s: %d givens, want %d", filepath.Base(f), g.Givens(), want)
			}
			if err := g.Validate(); err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
			}
			if seen[g.String()] {
				t.Errorf("%s: the same puzzle twice", filepath.Base(f))
			}
			seen[g.String()] = true
		}
	}
	if err := run(3, 0.4, 1, 1, "uniform", t.TempDir()); err == nil {
		t.Error("-solutions uniform: no error")
	}
}
