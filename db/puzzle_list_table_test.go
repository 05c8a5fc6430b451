package db_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestPuzzleListTable lists a counted, an undetermined and an uncounted
// puzzle, each with its count as puzzles list shows it, and honours where
// and limit.
func TestPuzzleListTable(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	one := 1
	grid := func(last string) sudokulab.Grid { return sudokulab.MustParse(strings.Repeat(".", 80) + last) }
	ps := []*sudokulab.Puzzle{
		{Givens: grid("1"), SolutionCount: &one, CountStatus: sudokulab.CountCounted},
		{Givens: grid("2"), CountStatus: sudokulab.CountUndetermined},
		{Givens: grid("3")},
	}
	for _, p := range ps {
		if _, err := d.AddPuzzleTo(ctx, p, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.PuzzleListTable(ctx, d, "1", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{
		{ps[0].ID, 9, 1, 1, ps[0].Givens.String()},
		{ps[1].ID, 9, 1, sudokulab.CountUndetermined, ps[1].Givens.String()},
		{ps[2].ID, 9, 1, nil, ps[2].Givens.String()},
	}
	if !reflect.DeepEqual(got.Columns, []string{"id", "size", "givens", "solutions", "grid"}) || !reflect.DeepEqual(got.Rows, want) {
		t.Errorf("table %v %v, want %v", got.Columns, got.Rows, want)
	}
	if got, err := db.PuzzleListTable(ctx, d, "1", 2); err != nil || len(got.Rows) != 2 {
		t.Errorf("limit 2: %v, %v", got.Rows, err)
	}
	if got, err := db.PuzzleListTable(ctx, d, "solution_count = 1", 0); err != nil || len(got.Rows) != 1 || got.Rows[0][0] != ps[0].ID {
		t.Errorf("where solution_count = 1: %v, %v", got.Rows, err)
	}
}
