package db_test

import (
	"fmt"
	"testing"

	"sudokulab/db"
)

func TestMergeTable(t *testing.T) {
	reps := []db.MergeReport{
		{Source: "a.db", Counts: []db.MergeCount{
			{Kind: db.MergePuzzles, Added: 1, Existing: 2, Updated: 3, Conflicts: 4, Skipped: 5, Invalid: 6},
			{Kind: db.MergeRuns, Added: 7},
		}},
		{Source: "unopened.db"},
		{Source: "b.db", Counts: []db.MergeCount{{Kind: db.MergeRuns, Conflicts: 8}}},
	}
	tab := db.MergeTable(reps)
	if got := fmt.Sprint(tab.Columns); got != "[source kind added already updated conflicts skipped invalid]" {
		t.Fatalf("columns %s", got)
	}
	want := []string{
		fmt.Sprintf("[a.db %s 1 2 3 4 5 6]", db.MergePuzzles),
		fmt.Sprintf("[a.db %s 7 0 0 0 0 0]", db.MergeRuns),
		fmt.Sprintf("[b.db %s 0 0 0 8 0 0]", db.MergeRuns),
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %v", len(tab.Rows), len(want), tab.Rows)
	}
	for i, row := range tab.Rows {
		if got := fmt.Sprint(row); got != want[i] {
			t.Errorf("row %d = %s, want %s", i, got, want[i])
		}
	}
	if tab := db.MergeTable([]db.MergeReport{{Source: "x"}}); tab.Rows != nil {
		t.Errorf("MergeTable without counts: rows %v, want none", tab.Rows)
	}
}
