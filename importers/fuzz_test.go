package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sudokulab/importers"
)

// seed adds the fixtures of the given testdata folders and golden files to
// the corpus.
func seed(f *testing.F, globs ...string) {
	for _, g := range globs {
		paths, err := filepath.Glob(filepath.Join("testdata", g))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

// fuzzDecode decodes data with the named format and checks that every
// record it yields is a well-formed grid.
func fuzzDecode(t *testing.T, format string, data []byte, o importers.Options) {
	f, err := importers.Default().Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	o.File = "fuzz"
	for rec, err := range f.Decode(bytes.NewReader(data), o) {
		if err != nil || rec.Note != "" {
			continue
		}
		g := rec.Grid
		if err := g.Shape.Validate(); err != nil || len(g.Cells) != g.Shape.Cells() {
			t.Fatalf("record at line %d: malformed grid %+v", rec.Line, g)
		}
		for _, v := range g.Cells {
			if int(v) > g.N() {
				t.Fatalf("record at line %d: cell value %d above %d", rec.Line, v, g.N())
			}
		}
		if s := rec.Solution; s.Cells != nil && (s.Shape != g.Shape || len(s.Cells) != len(g.Cells)) {
			t.Fatalf("record at line %d: solution of another shape", rec.Line)
		}
		if rec.Line < 0 {
			t.Fatalf("line %d", rec.Line)
		}
	}
}

func FuzzLine(f *testing.F) {
	seed(f, "line/*", "golden/encode.line", "golden/encode.sdm")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "line", data, importers.Options{}) })
}

func FuzzSDK(f *testing.F) {
	seed(f, "sdk/*", "golden/encode.sdk")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "sdk", data, importers.Options{}) })
}

func FuzzSS(f *testing.F) {
	seed(f, "ss/*", "golden/encode.ss")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "ss", data, importers.Options{}) })
}

func FuzzGrid(f *testing.F) {
	seed(f, "grid/*", "golden/encode.grid")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "grid", data, importers.Options{}) })
}

func FuzzCSV(f *testing.F) {
	seed(f, "csv/*", "golden/encode.csv")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "csv", data, importers.Options{}) })
}

func FuzzJSON(f *testing.F) {
	seed(f, "json/*", "golden/encode.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "json", data, importers.Options{}) })
}

func FuzzOpenSudoku(f *testing.F) {
	seed(f, "opensudoku/*", "golden/encode.opensudoku")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, "opensudoku", data, importers.Options{}) })
}

// FuzzSymbols decodes grid rows with each symbol set, given or detected.
func FuzzSymbols(f *testing.F) {
	seed(f, "grid/*16*", "grid/*25*", "line/hex16.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range []string{"", "0-F", "A-Y", "1-16", "0-24"} {
			fuzzDecode(t, "grid", data, importers.Options{Symbols: s})
		}
	})
}
