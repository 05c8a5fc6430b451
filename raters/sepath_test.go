package raters_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/raters"
)

// TestReadSEPath reads back the path the se rater writes, and nothing
// from details without one.
func TestReadSEPath(t *testing.T) {
	g := sudokulab.MustParse("..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..")
	r, err := (&raters.SE{}).Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := raters.ReadSEPath(r.Details)
	if !ok || len(p.Steps) == 0 || p.ERTechnique == "" || p.EDTechnique == "" {
		t.Errorf("path of %s: %+v, %v", r.Details, p, ok)
	}
	for _, d := range []string{"", "{}", `{"path": []}`, "not json", `{"level": 3}`} {
		if _, ok := raters.ReadSEPath(d); ok {
			t.Errorf("%q: a path", d)
		}
	}
}
