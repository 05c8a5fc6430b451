package db_test

import (
	"context"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestAtomicWrites runs the writes that own their transaction: a puzzle
// put in a collection (once), symmetry forms, a frozen selection and the
// removal of a collection; and checks predicates and reads rating levels.
func TestAtomicWrites(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	p := &sudokulab.Puzzle{Givens: sudokulab.MustParse(strings.Repeat(".", 80) + "1")}
	if created, err := d.AddPuzzleTo(ctx, p, "mine", "first"); err != nil || !created {
		t.Fatalf("AddPuzzleTo: %v, %v", created, err)
	}
	if created, err := d.AddPuzzleTo(ctx, &sudokulab.Puzzle{Givens: p.Givens}, "", ""); err != nil || created {
		t.Errorf("again: created %v, %v", created, err)
	}
	if err := d.SetSymmetryForms(ctx, map[int64]string{p.ID: "form"}); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetPuzzle(ctx, d, p.ID)
	if err != nil || got.SymmetryForm != "form" {
		t.Errorf("symmetry form %q, %v", got.SymmetryForm, err)
	}
	if n, err := d.Freeze(ctx, "frozen", db.Freeze{Where: "label = 'first'"}); err != nil || n != 1 {
		t.Errorf("Freeze: %d, %v", n, err)
	}
	if n, err := d.RemoveCollection(ctx, "mine"); err != nil || n != 1 {
		t.Errorf("RemoveCollection: %d, %v", n, err)
	}
	_, err = d.RemoveCollection(ctx, "mine")
	wantCode(t, err, sudokulab.ENOTFOUND)

	if err := d.CheckCatalogPredicate(ctx, "givens < 30"); err != nil {
		t.Errorf("a good predicate: %v", err)
	}
	if err := d.CheckCatalogPredicate(ctx, " "); err != nil {
		t.Errorf("no predicate: %v", err)
	}
	for _, bad := range []string{"no_such_column = 1", "1) OR (1", "1; DELETE FROM puzzles"} {
		if err := d.CheckCatalogPredicate(ctx, bad); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("%q: %v, want EINVALID", bad, err)
		}
	}
	levels, err := db.RatingLevels(ctx, d, "human")
	if err != nil || levels["easy"] != 1 || levels["beyond"] != 6 || len(levels) != 6 {
		t.Errorf("human levels %v, %v", levels, err)
	}
	if levels, err := db.RatingLevels(ctx, d, "se"); err != nil || len(levels) != 0 {
		t.Errorf("se levels %v, %v", levels, err)
	}
}
