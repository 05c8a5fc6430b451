package importers_test

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// fuzzKeep says what a format's encoder writes of a decoded record, for
// the fuzz targets' round trips: the grid always, and the fields set here.
// What an encoder adds reads back too: a grid file's unlabelled grid gets
// the header "Grid NN" (so does one whose label holds "[Puzzle]", which
// would make the file sniff as .sdk), and an OpenSudoku puzzle outside a
// folder goes into the folder "sudokulab"; so their labels and collections
// are compared where the input had one. Ratings are compared by rater, the last value of a rater
// counting, as a puzzle has one rating by each.
var fuzzKeep = map[string]struct {
	label, collection, meta, ratings, tags, solution bool
}{
	"csv":        {label: true, collection: true, meta: true, ratings: true, tags: true, solution: true},
	"json":       {label: true, collection: true, meta: true, ratings: true, tags: true, solution: true},
	"line":       {label: true, meta: true, ratings: true},
	"sdm":        {},
	"grid":       {label: true},
	"opensudoku": {label: true, collection: true, meta: true},
	"sdk":        {label: true, meta: true},
	"ss":         {},
}

// fuzzRoundTrip decodes data with the named format and, when puzzles come
// out, encodes them and decodes the text again: it must read without
// error, as the same puzzles, with what the format keeps (fuzzKeep) the
// same. A format of one puzzle per file encodes the first.
func fuzzRoundTrip(t *testing.T, format string, data []byte) {
	f, err := importers.Default().Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	keep, ok := fuzzKeep[format]
	if !ok || f.Encode == nil {
		t.Fatalf("no round trip for format %s", format)
	}
	o := importers.Options{File: "fuzz" + f.Extensions[0]}
	recs := decodeWith(f, data, o).recs
	if len(recs) == 0 {
		return
	}
	if f.OnePerFile {
		recs = recs[:1]
	}
	var b bytes.Buffer
	if err := f.Encode(&b, recs); err != nil {
		t.Fatalf("encode %d decoded records: %v", len(recs), err)
	}
	d := decodeWith(f, b.Bytes(), o)
	if len(d.errs) > 0 || len(d.recs) != len(recs) {
		t.Fatalf("re-decoding %d records gave %d and errors %v; encoded:\n%s", len(recs), len(d.recs), d.errs, b.Bytes())
	}
	for i, got := range d.recs {
		want := recs[i]
		var diffs []string
		if !got.Grid.Equal(want.Grid) {
			diffs = append(diffs, fmt.Sprintf("grid %s, want %s", got.Grid, want.Grid))
		}
		if keep.label && got.Label != want.Label && (format != "grid" || want.Label != "" && !strings.Contains(want.Label, "[Puzzle]")) {
			diffs = append(diffs, fmt.Sprintf("label %q, want %q", got.Label, want.Label))
		}
		if keep.collection && got.Collection != want.Collection && (format != "opensudoku" || want.Collection != "") {
			diffs = append(diffs, fmt.Sprintf("collection %q, want %q", got.Collection, want.Collection))
		}
		if keep.meta && !maps.Equal(got.Metadata, want.Metadata) && len(got.Metadata)+len(want.Metadata) > 0 {
			diffs = append(diffs, fmt.Sprintf("metadata %q, want %q", got.Metadata, want.Metadata))
		}
		if keep.ratings && !sameRatings(got.Ratings, want.Ratings) {
			diffs = append(diffs, fmt.Sprintf("ratings %v, want %v", got.Ratings, want.Ratings))
		}
		if keep.solution && !got.Solution.Equal(want.Solution) {
			diffs = append(diffs, fmt.Sprintf("solution %s, want %s", got.Solution, want.Solution))
		}
		if keep.tags && !slices.Equal(got.Tags, want.Tags) {
			diffs = append(diffs, fmt.Sprintf("tags %q, want %q", got.Tags, want.Tags))
		}
		if len(diffs) > 0 {
			t.Fatalf("record %d after the round trip: %s; encoded:\n%s", i, strings.Join(diffs, "; "), b.Bytes())
		}
	}
}

// sameRatings compares ratings by rater, the last value of each counting,
// a NaN equal to a NaN.
func sameRatings(a, b []importers.Rating) bool {
	byRater := func(rs []importers.Rating) map[string]string {
		m := map[string]string{}
		for _, r := range rs {
			m[r.Rater] = strconv.FormatFloat(r.Value, 'g', -1, 64)
		}
		return m
	}
	return maps.Equal(byRater(a), byRater(b))
}

// fuzzFormat seeds f from the testdata globs and checks that whatever
// the named format decodes is well formed and round-trips.
func fuzzFormat(f *testing.F, format string, globs ...string) {
	seed(f, globs...)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, format, data, importers.Options{})
		fuzzRoundTrip(t, format, data)
	})
}

func FuzzLine(f *testing.F) {
	fuzzFormat(f, "line", "line/*", "golden/encode.line", "golden/encode.sdm")
}

func FuzzSDM(f *testing.F) {
	fuzzFormat(f, "sdm", "line/*.sdm", "golden/encode.sdm", "line/hex16.txt")
}

func FuzzSDK(f *testing.F) { fuzzFormat(f, "sdk", "sdk/*", "golden/encode.sdk") }

func FuzzSS(f *testing.F) { fuzzFormat(f, "ss", "ss/*", "golden/encode.ss") }

func FuzzGrid(f *testing.F) { fuzzFormat(f, "grid", "grid/*", "golden/encode.grid") }

func FuzzCSV(f *testing.F) { fuzzFormat(f, "csv", "csv/*", "golden/encode.csv") }

func FuzzJSON(f *testing.F) { fuzzFormat(f, "json", "json/*", "golden/encode.json") }

func FuzzOpenSudoku(f *testing.F) {
	fuzzFormat(f, "opensudoku", "opensudoku/*", "golden/encode.opensudoku")
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
