package db_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestViewPuzzle reads a puzzle with its place in a collection and its
// ratings (a lab's own, with no import_id), and an unknown id as
// ENOTFOUND.
func TestViewPuzzle(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	p := &sudokulab.Puzzle{Givens: sudokulab.MustParse(strings.Repeat(".", 80) + "1")}
	if _, err := d.AddPuzzleTo(ctx, p, "mine", "first"); err != nil {
		t.Fatal(err)
	}
	v := 3.5
	if err := db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "se", RaterVersion: "1", Value: &v, Label: "easy"}); err != nil {
		t.Fatal(err)
	}
	got, err := db.ViewPuzzle(ctx, d, p.ID, 20)
	if err != nil {
		t.Fatal(err)
	}
	if got.Puzzle.ID != p.ID || got.Puzzle.Givens.String() != p.Givens.String() {
		t.Errorf("puzzle %d %s, want %d %s", got.Puzzle.ID, got.Puzzle.Givens, p.ID, p.Givens)
	}
	if len(got.Memberships.Rows) != 1 {
		t.Fatalf("memberships %v, want one", got.Memberships.Rows)
	}
	m := got.Memberships.Rows[0]
	if m[0] != "mine" || m[2] != "first" || m[3] != nil {
		t.Errorf("membership %v, want collection mine, label first, no source line", m)
	}
	wantRating := []any{"se", "1", "{}", 3.5, "easy", "", nil}
	if len(got.Ratings) != 1 || len(got.RatingTable.Rows) != 1 || !reflect.DeepEqual(got.RatingTable.Rows[0], wantRating) {
		t.Errorf("ratings %v, table %v, want one row %v", got.Ratings, got.RatingTable.Rows, wantRating)
	}
	if got.Runs != 0 || len(got.FirstRuns.Rows) != 0 || len(got.FirstRuns.Columns) != 7 {
		t.Errorf("runs %d, first runs %v (columns %v), want none under 7 columns", got.Runs, got.FirstRuns.Rows, got.FirstRuns.Columns)
	}
	if _, err := db.ViewPuzzle(ctx, d, p.ID+1, 20); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Errorf("unknown id: %v, want ENOTFOUND", err)
	}
}
