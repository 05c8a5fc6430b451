package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."

func TestReadPuzzles(t *testing.T) {
	for _, tc := range []struct {
		name, text  string
		limit, want int
		err         string
	}{
		{"comments and blank lines", "# header\n\n" + escargot + " extra\n" + escargot + "\n", 0, 2, ""},
		{"limit", escargot + "\n" + escargot + "\n" + escargot + "\n", 2, 2, ""},
		{"short line", "# x\n123\n", 0, 0, "p.txt:2: 3 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.txt")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readPuzzles(path, tc.limit)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || len(got) != tc.want {
				t.Fatalf("%d puzzles, err %v; want %d", len(got), err, tc.want)
			}
		})
	}
}

// FuzzReadPuzzles: any file either reads or fails with an error; it never
// panics, and every puzzle read is 9x9.
func FuzzReadPuzzles(f *testing.F) {
	f.Add("# c\n" + escargot + "\n")
	f.Add("123\n")
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(t.TempDir(), "p.txt")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readPuzzles(path, 0)
		if err != nil {
			return
		}
		for _, g := range got {
			if len(g.Cells) != 81 {
				t.Fatalf("%d cells", len(g.Cells))
			}
		}
	})
}

// TestReadInstances reads sudoku_acs instance files of two shapes: in
// natural order, grouped in classes, at most -limit per class.
func TestReadInstances(t *testing.T) {
	got, err := readInstances(filepath.Join("testdata", "inst*.txt"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, filepath.Base(p.file)+":"+p.class)
		if err := p.grid.Validate(); err != nil {
			t.Errorf("%s: %v", p.file, err)
		}
	}
	want := "inst9x9_40_1.txt:inst9x9_40 inst9x9_40_10.txt:inst9x9_40 inst16x16_45_0.txt:inst16x16_45"
	if strings.Join(names, " ") != want {
		t.Errorf("read %v, want %s", names, want)
	}
	if got[2].grid.Shape.N() != 16 || got[0].grid.Shape.N() != 9 {
		t.Errorf("shapes %v and %v", got[0].grid.Shape, got[2].grid.Shape)
	}
	one, err := readInstances(filepath.Join("testdata", "inst*.txt"), 1)
	if err != nil || len(one) != 2 {
		t.Errorf("limit 1: %d puzzles, err %v; want one per class", len(one), err)
	}
	if _, err := readInstances(filepath.Join("testdata", "none*.txt"), 0); err == nil {
		t.Error("a glob matching nothing: no error")
	}
}

func TestResolveConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"acs-lloyd-amos", true}, {"lewis-sa-2007", true}, {"acs", true}, {"nosuch", false}} {
		p, err := resolveConfig(tc.name)
		if (err == nil) != tc.ok || (tc.ok && (p.solver == nil || p.name != tc.name)) {
			t.Errorf("resolveConfig(%s) = %+v, %v", tc.name, p, err)
		}
	}
}
