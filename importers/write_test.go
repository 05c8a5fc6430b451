package importers_test

import (
	"os"
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
// JSON text, and leaves out ratings without a value.
func TestStoredRecord(t *testing.T) {
	v := 3.5
	r, err := importers.StoredRecord(sudokulab.Puzzle{ID: 4}, sudokulab.Membership{Label: "x", Metadata: `{"a": "b", "n": 2, "o": {"k": 1}}`},
		[]sudokulab.Rating{{Rater: "human", Value: &v}, {Rater: "se"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Label != "x" || r.Metadata["a"] != "b" || r.Metadata["n"] != "2" || r.Metadata["o"] != `{"k": 1}` || len(r.Ratings) != 1 || r.Ratings[0].Value != 3.5 {
		t.Errorf("record %+v", r)
	}
	if _, err := importers.StoredRecord(sudokulab.Puzzle{ID: 4}, sudokulab.Membership{Metadata: "{"}, nil); err == nil || !strings.Contains(err.Error(), "puzzle 4: metadata") {
		t.Errorf("bad metadata: %v", err)
	}
}
