package importers_test

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/importers"
)

// sample returns records covering what the encoders write: labels,
// collections, metadata, ratings (two by raters whose names differ only
// in case, labels alone, one of them a number, one a number and a
// label), tags (one with a comma, a space and a
// quote), solutions and a 16x16 grid.
func sample(t *testing.T) []importers.Record {
	t.Helper()
	hex := readFirstGrid(t, "grid/hex16.txt")
	g16, err := sudokulab.Parse(hex)
	if err != nil {
		t.Fatal(err)
	}
	return []importers.Record{
		{Grid: sudokulab.MustParse(easy), Solution: sudokulab.MustParse(easySol), Label: "easy-1", Collection: "papers",
			Metadata: map[string]string{"level": "easy", "source": "reseda"},
			Ratings:  []importers.Rating{{Rater: "se-er", Value: 1.2}}, Tags: []string{"classic", `for "the" paper, v2`}},
		{Grid: sudokulab.MustParse(escargot), Label: "escargot", Collection: "papers",
			Metadata: map[string]string{"ED": "10.5/10.5/10.5", "field1": "AI", "comment": "the snail"},
			Ratings:  []importers.Rating{{Rater: "Exchange", Value: 3.25}, {Rater: "exchange", Value: 4}}},
		{Grid: sudokulab.MustParse(seventeen), Collection: "royle",
			Ratings: []importers.Rating{{Rater: "human", Value: 2.5, Label: "hard, \"very\""}, {Rater: "se", Value: math.NaN(), Label: "partial"}, {Rater: "stars", Value: math.NaN(), Label: "4"}}},
		{Grid: g16, Label: "big", Metadata: map[string]string{"size": "16"}},
	}
}

// sameRating reports whether two ratings are equal, NaN values (none)
// equal to each other.
func sameRating(a, b importers.Rating) bool {
	return a.Rater == b.Rater && a.Label == b.Label && (a.Value == b.Value || !a.HasValue() && !b.HasValue())
}

// roundTrip says what a format keeps of a record.
type roundTrip struct {
	label, collection, meta, ratings, tags, solution, large bool
}

var formatsKeep = map[string]roundTrip{
	"csv":        {label: true, collection: true, meta: true, ratings: true, tags: true, solution: true, large: true},
	"json":       {label: true, collection: true, meta: true, ratings: true, tags: true, solution: true, large: true},
	"line":       {label: true, meta: true, large: true},
	"sdm":        {large: true},
	"grid":       {large: true},
	"opensudoku": {label: true, collection: true, meta: true},
	"sdk":        {meta: true},
	"ss":         {},
}

func TestEncodeGolden(t *testing.T) {
	for _, f := range importers.Default().All() {
		if f.Encode == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			recs := sample(t)
			keep := formatsKeep[f.Name]
			if !keep.large {
				recs = recs[:3]
			}
			if f.OnePerFile {
				recs = recs[:1]
			}
			var b bytes.Buffer
			if err := f.Encode(&b, recs); err != nil {
				t.Fatal(err)
			}
			golden(t, "encode."+f.Name, b.Bytes())
		})
	}
}

// TestRoundTrip encodes the sample in every format and decodes it again:
// the same puzzles, and the labels, collections, metadata, ratings and
// solutions the format keeps.
func TestRoundTrip(t *testing.T) {
	for _, f := range importers.Default().All() {
		if f.Encode == nil {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			keep := formatsKeep[f.Name]
			recs := sample(t)
			if !keep.large {
				recs = recs[:3]
			}
			if f.OnePerFile {
				recs = recs[:1]
			}
			var b bytes.Buffer
			if err := f.Encode(&b, recs); err != nil {
				t.Fatal(err)
			}
			name := "x.txt"
			if len(f.Extensions) > 0 {
				name = "x" + f.Extensions[0]
			}
			if f.Name == "sdk" {
				name = recs[0].Label + ".sdk"
			}
			d := decodeWith(f, b.Bytes(), importers.Options{File: name})
			if len(d.errs) > 0 {
				t.Fatalf("decoding %s:\n%s\nerrors %v", f.Name, b.Bytes(), d.errs)
			}
			if got, want := grids(d.recs), grids(recs); !slices.Equal(got, want) {
				t.Fatalf("grids %q, want %q", got, want)
			}
			for i, got := range d.recs {
				want := recs[i]
				if keep.label && got.Label != want.Label {
					t.Errorf("%d: label %q, want %q", i, got.Label, want.Label)
				}
				if keep.collection && got.Collection != want.Collection && want.Collection != "" {
					t.Errorf("%d: collection %q, want %q", i, got.Collection, want.Collection)
				}
				if keep.meta && !maps.Equal(got.Metadata, want.Metadata) && len(want.Metadata)+len(got.Metadata) > 0 {
					t.Errorf("%d: metadata %v, want %v", i, got.Metadata, want.Metadata)
				}
				if keep.ratings && !slices.EqualFunc(got.Ratings, want.Ratings, sameRating) && len(want.Ratings) > 0 {
					t.Errorf("%d: ratings %v, want %v", i, got.Ratings, want.Ratings)
				}
				if keep.solution && !got.Solution.Equal(want.Solution) {
					t.Errorf("%d: solution %s, want %s", i, got.Solution, want.Solution)
				}
				if keep.tags && !slices.Equal(got.Tags, want.Tags) {
					t.Errorf("%d: tags %q, want %q", i, got.Tags, want.Tags)
				}
			}
			// The encoded text is detected as the format it is.
			if det, err := importers.Default().Detect(name, b.Bytes()); err != nil || (det.Name != f.Name && !(f.Name == "sdm" && det.Name == "line")) {
				t.Errorf("encoded %s detected as %v (%v)", f.Name, det, err)
			}
		})
	}
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestLineQuotedValues: labels and metadata values with white space, #
// or a leading quote (as CSV columns, HoDoKu technique names and forum
// labels have them) are written in double quotes and read back as they
// were, not with _ for their spaces; and such a field is read from a
// hand-written line.
func TestLineQuotedValues(t *testing.T) {
	f, err := importers.Default().Lookup("line")
	if err != nil {
		t.Fatal(err)
	}
	recs := []importers.Record{
		{Grid: sudokulab.MustParse(easy), Label: "HardestSudokusThread-02098;Pretty Biest",
			Metadata: map[string]string{"technique_name": "Uniqueness Test 5", "deleted": "132 438\t468", "note": "a # b",
				"q": `"hard" = "x"`, "field1": "two words", "field2": "AI", "id": "plain", "comment": "the snail"}},
		{Grid: sudokulab.MustParse(escargot), Label: `"quoted"`, Metadata: map[string]string{"field1": "x=y", "lines": "one\ntwo"}},
	}
	var b bytes.Buffer
	if err := f.Encode(&b, recs); err != nil {
		t.Fatal(err)
	}
	d := decodeWith(f, b.Bytes(), importers.Options{File: "x.txt"})
	if len(d.errs) > 0 || len(d.recs) != len(recs) {
		t.Fatalf("decoding:\n%s\n%d records, errors %v", b.Bytes(), len(d.recs), d.errs)
	}
	for i, got := range d.recs {
		if got.Label != recs[i].Label || !maps.Equal(got.Metadata, recs[i].Metadata) {
			t.Errorf("%d: label %q, metadata %q; want %q, %q; encoded:\n%s", i, got.Label, got.Metadata, recs[i].Label, recs[i].Metadata, b.Bytes())
		}
	}

	line := easy + ` label="Easter Monster" field1 ER=7.1 note="a "b"# c` + "\n"
	d = decodeWith(f, []byte(line), importers.Options{File: "x.txt"})
	if len(d.recs) != 1 {
		t.Fatalf("%q: %d records, errors %v", line, len(d.recs), d.errs)
	}
	want := map[string]string{"field1": "field1", "ER": "7.1", "note": `"a`, "field2": `"b"`, "comment": "c"}
	if got := d.recs[0]; got.Label != "Easter Monster" || !maps.Equal(got.Metadata, want) {
		t.Errorf("%q: label %q, metadata %q; want Easter Monster, %q", line, got.Label, got.Metadata, want)
	}
}

// TestLineMetadataKeys writes metadata keys a line's KEY=VALUE cannot
// hold (white space, #, =, quotes, nothing) in the line format: each with
// _ in their place, read back as those keys with their values (not as
// positional fields or other keys), and the format's caveat says so;
// keys it can hold draw no caveat.
func TestLineMetadataKeys(t *testing.T) {
	f, err := importers.Default().Lookup("line")
	if err != nil {
		t.Fatal(err)
	}
	rec := importers.Record{Grid: sudokulab.MustParse(easy), Metadata: map[string]string{
		"Puzzle Source": "forum", "a=b": "1", `say "hi"`: "2", "x#y": "3", "": "4", "plain": "5", "field1": "AI", "comment": "c"}}
	var b bytes.Buffer
	if err := f.Encode(&b, []importers.Record{rec}); err != nil {
		t.Fatal(err)
	}
	d := decodeWith(f, b.Bytes(), importers.Options{File: "x.txt"})
	want := map[string]string{"Puzzle_Source": "forum", "a_b": "1", "say__hi_": "2", "x_y": "3", "_": "4", "plain": "5", "field1": "AI", "comment": "c"}
	if len(d.errs) > 0 || len(d.recs) != 1 || !maps.Equal(d.recs[0].Metadata, want) {
		t.Fatalf("line %q read back as %v (%v), want %v", b.String(), d.recs, d.errs, want)
	}
	if got, wantCaveat := f.Caveat([]importers.Record{rec}), `5 metadata keys hold what a line's KEY=VALUE cannot (white space, #, = or quotes, or nothing): written with _ in its place, such as "" as _`; got != wantCaveat+" (the formats csv and json keep every key)" {
		t.Errorf("caveat %q", got)
	}
	if c := f.Caveat(sample(t)); c != "" {
		t.Errorf("caveat of keys a line holds: %q", c)
	}
}

// TestJSONRatingForms reads each form a ratings member may take: a
// number, a number in quotes, a label, an object with a value and a
// label or a label alone, and null (no rating); an object with neither
// is an error naming the line.
func TestJSONRatingForms(t *testing.T) {
	f, err := importers.Default().Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	d := decodeWith(f, []byte(`[{"puzzle": "`+easy+`", "ratings": {"a": 1.5, "b": "2.5", "c": "partial", "d": {"value": 3, "label": "x"}, "e": {"label": "4"}, "f": null}},
{"puzzle": "`+easy+`", "ratings": {"g": {}}}]`), importers.Options{File: "r.json"})
	want := []importers.Rating{{Rater: "a", Value: 1.5}, {Rater: "b", Value: 2.5}, {Rater: "c", Value: math.NaN(), Label: "partial"},
		{Rater: "d", Value: 3, Label: "x"}, {Rater: "e", Value: math.NaN(), Label: "4"}}
	if len(d.recs) != 1 || !slices.EqualFunc(d.recs[0].Ratings, want, sameRating) {
		t.Errorf("records %+v, want one rated %v", d.recs, want)
	}
	if len(d.errs) != 1 || !strings.Contains(d.errs[0].Error(), "r.json:2: ratings:") || !strings.Contains(d.errs[0].Error(), "without value or label") {
		t.Errorf("errors %v, want line 2's rating without value or label", d.errs)
	}
}
