package db_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestMustExist finds a stored name, reports a missing one as ENOTFOUND
// with the command that lists them, and reports a failure to look (a
// closed database) as what it is, never as "not found".
func TestMustExist(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	if _, err := d.ExecContext(ctx, `INSERT INTO experiments (name) VALUES ('e1')`); err != nil {
		t.Fatal(err)
	}
	if err := db.MustExist(ctx, d, "experiments", "experiment", "e1"); err != nil {
		t.Errorf("stored experiment: %v", err)
	}
	err := db.MustExist(ctx, d, "configs", "configuration", "nope")
	wantCode(t, err, sudokulab.ENOTFOUND)
	if want := `no configuration called "nope" (sudokulab configs list shows them)`; err.Error() != want {
		t.Errorf("missing: %q, want %q", err, want)
	}
	wantCode(t, db.MustExist(ctx, d, "puzzles", "puzzle", "x"), sudokulab.EINTERNAL)
	d.Close()
	if err := db.MustExist(ctx, d, "experiments", "experiment", "e1"); err == nil || sudokulab.ErrorCode(err) == sudokulab.ENOTFOUND ||
		!strings.Contains(err.Error(), "find experiment e1") {
		t.Errorf("closed database: %v, want an error of the lookup", err)
	}
}

// TestNamesAndCount lists the names of a table and counts the puzzles.
func TestNamesAndCount(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	for _, n := range []string{"b", "a"} {
		if _, err := db.EnsureCollection(ctx, d, n, ""); err != nil {
			t.Fatal(err)
		}
	}
	names, err := db.Names(ctx, d, "collections")
	if err != nil || len(names) != 2 || !slices.Contains(names, "a") || !slices.Contains(names, "b") {
		t.Errorf("Names: %v, %v", names, err)
	}
	wantCode(t, func() error { _, err := db.Names(ctx, d, "puzzles"); return err }(), sudokulab.EINTERNAL)
	if _, _, err := db.AddPuzzle(ctx, d, &sudokulab.Puzzle{Givens: sudokulab.MustParse(strings.Repeat(".", 80) + "1")}); err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountPuzzles(ctx, d); err != nil || n != 1 {
		t.Errorf("CountPuzzles: %d, %v; want 1", n, err)
	}
}
