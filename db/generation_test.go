package db_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
)

// TestGenerationWriter stores puzzles in batches, each with the counts of
// the imports row, and finishes the row with the final state; a frozen
// collection is refused before anything is written.
func TestGenerationWriter(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	var commits []int
	w, err := d.BeginGeneration(ctx, db.Generation{Collection: "gen", Count: 5, Batch: 2, Every: time.Hour, // batches by size alone
		Import:    sudokulab.Import{FileName: "test generation", FileSHA256: strings.Repeat("0", 64), Format: "generate"},
		Committed: func(n int) { commits = append(commits, n) }})
	if err != nil {
		t.Fatal(err)
	}
	base := strings.Repeat(".", 80)
	for i, last := range []string{"1", "2", "3", "1", "4"} {
		row := db.ImportRow{Puzzle: &sudokulab.Puzzle{Givens: sudokulab.MustParse(base + last)},
			Membership: sudokulab.Membership{Label: "p" + last}}
		if err := w.Add(ctx, row); err != nil {
			t.Fatalf("puzzle %d: %v", i, err)
		}
	}
	if err := w.Finish(ctx, func(n int) string { return "done " + strings.Repeat("x", n) }); err != nil {
		t.Fatal(err)
	}
	im := w.Import()
	if w.Written() != 5 || im.PuzzlesRead != 5 || im.PuzzlesNew != 4 || im.PuzzlesDuplicate != 1 || im.Notes != "done xxxxx" || im.FinishedAt.IsZero() {
		t.Errorf("written %d, import %+v", w.Written(), im)
	}
	if want := []int{2, 4, 5}; len(commits) != 3 || commits[0] != want[0] || commits[1] != want[1] || commits[2] != want[2] {
		t.Errorf("commits %v, want %v", commits, want)
	}
	if _, err := d.Freeze(ctx, "frozen", db.Freeze{}); err != nil {
		t.Fatal(err)
	}
	_, err = d.BeginGeneration(ctx, db.Generation{Collection: "frozen", Import: sudokulab.Import{FileName: "x", Format: "generate"}})
	wantCode(t, err, sudokulab.EINVALID)
}
