package db_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestPuzzlePredicate checks the predicate of a puzzle selection word for
// word: sudokulab run names an experiment after it, so a change would
// start a new experiment for a command that resumes one today.
func TestPuzzlePredicate(t *testing.T) {
	tests := []struct {
		name, where, collection string
		ids                     []int64
		want                    string
	}{
		{name: "nothing", want: ""},
		{name: "where", where: "givens < 30", want: "givens < 30"},
		{name: "collection", collection: "reseda-2012", want: "collection = 'reseda-2012'"},
		{name: "quoted collection", collection: "o'brien", want: "collection = 'o''brien'"},
		{name: "ids", ids: []int64{3, 1}, want: "id IN (3, 1)"},
		{name: "where and collection", where: "givens < 30", collection: "c",
			want: "(givens < 30\n) AND (collection = 'c'\n)"},
		{name: "all three nest", where: "givens < 30", collection: "c", ids: []int64{4},
			want: "((givens < 30\n) AND (collection = 'c'\n)\n) AND (id IN (4)\n)"},
		{name: "where and ids", where: "givens < 30", ids: []int64{1, 2},
			want: "(givens < 30\n) AND (id IN (1, 2)\n)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.PuzzlePredicate(tc.where, tc.collection, tc.ids)
			if err != nil || got != tc.want {
				t.Errorf("PuzzlePredicate(%q, %q, %v) = %q, %v; want %q", tc.where, tc.collection, tc.ids, got, err, tc.want)
			}
		})
	}
	for _, where := range []string{"0) OR (1=1", "name = 'x"} {
		if got, err := db.PuzzlePredicate(where, "c", nil); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("PuzzlePredicate(%q) = %q, %v; want EINVALID", where, got, err)
		}
	}
}

// TestSelectionPredicate refuses a collection that does not exist before
// looking at where, and is PuzzlePredicate for one that does.
func TestSelectionPredicate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		if _, err := db.EnsureCollection(ctx, d, "o'brien", ""); err != nil {
			t.Fatal(err)
		}
		got, err := db.SelectionPredicate(ctx, d, "givens < 30", "o'brien", []int64{4})
		want, _ := db.PuzzlePredicate("givens < 30", "o'brien", []int64{4})
		if err != nil || got != want {
			t.Errorf("existing collection: %q, %v; want %q", got, err, want)
		}
		if got, err := db.SelectionPredicate(ctx, d, "givens < 30", "", nil); err != nil || got != "givens < 30" {
			t.Errorf("no collection: %q, %v", got, err)
		}
		if _, err := db.SelectionPredicate(ctx, d, "0) OR (1=1", "none", nil); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
			t.Errorf("missing collection and a bad where: %v, want not found", err)
		}
		if _, err := db.SelectionPredicate(ctx, d, "0) OR (1=1", "o'brien", nil); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("bad where: %v, want invalid", err)
		}
	})
}
