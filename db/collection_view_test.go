package db_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestViewCollection reads a collection with its members in order, at
// most limit of them, and lists collections with their puzzle counts; a
// missing collection is ENOTFOUND.
func TestViewCollection(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	for i, last := range []string{"1", "2", "3"} {
		p := &sudokulab.Puzzle{Givens: sudokulab.MustParse(strings.Repeat(".", 80) + last)}
		if _, err := d.AddPuzzleTo(ctx, p, "mine", "p"+last); err != nil {
			t.Fatalf("puzzle %d: %v", i, err)
		}
	}
	v, err := db.ViewCollection(ctx, d, "mine", 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.Collection.Name != "mine" || v.Collection.Puzzles != 3 {
		t.Errorf("collection %+v, want mine with 3 puzzles", v.Collection)
	}
	label := slices.Index(v.Members.Columns, "label")
	if len(v.Members.Rows) != 2 || label < 0 || v.Members.Rows[0][label] != "p1" || v.Members.Rows[1][label] != "p2" {
		t.Errorf("members %v %v, want p1 and p2 (limit 2)", v.Members.Columns, v.Members.Rows)
	}
	if len(v.Imports.Rows) != 0 {
		t.Errorf("imports %v, want none", v.Imports.Rows)
	}
	if _, err := db.ViewCollection(ctx, d, "nope", 0); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Errorf("missing collection: %v, want ENOTFOUND", err)
	}

	list, err := db.CollectionListTable(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(list.Columns, []string{"name", "puzzles", "created_at", "description", "frozen"}) ||
		len(list.Rows) != 1 || list.Rows[0][0] != "mine" || list.Rows[0][1] != 3 || list.Rows[0][4] != false {
		t.Errorf("collection list %v %v, want mine with 3 puzzles, not frozen", list.Columns, list.Rows)
	}
}
