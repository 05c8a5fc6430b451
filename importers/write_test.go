package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/importers"
)

// TestEncodeFiles names each file after its label made safe, or after the
// puzzle id when the label gives no name or one already taken.
func TestEncodeFiles(t *testing.T) {
	g := sudokulab.MustParse(strings.Repeat(".", 80) + "1")
	recs := []importers.Record{{Grid: g, Label: "Hard one/2"}, {Grid: g, Label: "Hard one/2"}, {Grid: g, Label: "..."}, {Grid: g}}
	f, err := importers.Default().Lookup("sdk")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n, err := f.EncodeFiles(dir, recs, []int64{7, 8, 9, 10})
	if err != nil || n != 4 {
		t.Fatalf("EncodeFiles: %d, %v", n, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"Hard_one2.sdk", "puzzle-10.sdk", "puzzle-8.sdk", "puzzle-9.sdk"}; !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
}

// TestStoredRecord keeps string metadata as it is and other values as
// JSON text, keeps a rating that is a label alone (value NaN), leaves
// out one with neither value nor label, and sorts the tags.
func TestStoredRecord(t *testing.T) {
	v := 3.5
	r, err := importers.StoredRecord(sudokulab.Puzzle{ID: 4}, sudokulab.Membership{Label: "x", Metadata: `{"a": "b", "n": 2, "o": {"k": 1}}`},
		[]sudokulab.Rating{{Rater: "human", Value: &v}, {Rater: "se", Label: "partial"}, {Rater: "none"}}, []string{"zeta", "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Label != "x" || r.Metadata["a"] != "b" || r.Metadata["n"] != "2" || r.Metadata["o"] != `{"k": 1}` || len(r.Ratings) != 2 || r.Ratings[0].Value != 3.5 ||
		r.Ratings[1].Rater != "se" || r.Ratings[1].HasValue() || r.Ratings[1].Label != "partial" ||
		!slices.Equal(r.Tags, []string{"alpha", "zeta"}) {
		t.Errorf("record %+v", r)
	}
	if _, err := importers.StoredRecord(sudokulab.Puzzle{ID: 4}, sudokulab.Membership{Metadata: "{"}, nil, nil); err == nil || !strings.Contains(err.Error(), "puzzle 4: metadata") {
		t.Errorf("bad metadata: %v", err)
	}
}

// TestEncodeFile writes the same bytes to a named file as to the writer
// it is given for "-", and fails with EINVALID on a path it cannot create.
func TestEncodeFile(t *testing.T) {
	g := sudokulab.MustParse(strings.Repeat(".", 80) + "1")
	recs := []importers.Record{{Grid: g, Label: "a"}, {Grid: g, Label: "b"}}
	f, err := importers.Default().Lookup("line")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := f.Encode(&want, recs); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"", "-"} {
		var got bytes.Buffer
		if err := f.EncodeFile(&got, path, recs); err != nil || got.String() != want.String() {
			t.Errorf("EncodeFile(%q) = %v, wrote %q, want %q", path, err, got.String(), want.String())
		}
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	var stdout bytes.Buffer
	if err := f.EncodeFile(&stdout, path, recs); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want.String() || stdout.Len() != 0 {
		t.Errorf("file %q (%v), standard output %q; want %q in the file only", got, err, stdout.String(), want.String())
	}
	err = f.EncodeFile(&stdout, filepath.Join(path, "below-a-file.txt"), recs)
	if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("EncodeFile below a file: %v, want EINVALID", err)
	}
}
