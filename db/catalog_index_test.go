package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// TestCatalogIndex runs the catalog index scenarios on every backend.
func TestCatalogIndex(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		runScenarios(t, b, []scenario{
			{"PagesAsWithout", suiteCatalogIndexPages},
		})
	})
}

// suiteCatalogIndexPages reads every page of many filters and sorts with
// the catalog index and without it: the same rows in the same order, and
// the same cube.
func suiteCatalogIndexPages(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	// Human levels on some puzzles (a NULL value on one), a rating
	// without a level on others.
	labels := []string{"easy", "hard", "easy", "extreme", "hard"}
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for g := 20; g < 35; g++ {
			if g%3 != 0 {
				v := float64(g % 7)
				r := sudokulab.Rating{PuzzleID: ids[g], Rater: "human", RaterVersion: "1", Options: "{}", Value: &v, Label: labels[g%5]}
				if g == 24 {
					r.Value = nil
				}
				if err := db.UpsertRating(ctx, tx, r); err != nil {
					return err
				}
			}
			if g%4 == 1 {
				if _, err := db.TagPuzzles(ctx, tx, "odd one", []int64{ids[g]}); err != nil {
					return err
				}
			}
			v := float64(g)
			if err := db.UpsertRating(ctx, tx, sudokulab.Rating{PuzzleID: ids[g], Rater: "givens", RaterVersion: "1", Options: "{}", Value: &v}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Ties and NULLs in the puzzles' own sort columns.
	for _, q := range []string{
		`UPDATE puzzles SET solution_count = id % 3, count_status = 'counted' WHERE id % 4 <> 0`,
		`UPDATE puzzles SET count_status = 'undetermined' WHERE id % 8 = 0`,
		`UPDATE puzzles SET created_at = '2026-01-0' || (id % 5) || 'T00:00:00.000Z'`,
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	g26, g30 := 26, 30
	filters := []db.CatalogFilter{
		{},
		{NoCollection: true},
		{Collection: "many"},
		{Collection: "nothing such"},
		{Givens: &g26},
		{Givens: &g30, Levels: map[string]string{"human": "hard"}},
		{Levels: map[string]string{"human": "easy"}},
		{Levels: map[string]string{"human": "beyond"}},
		{NoCollection: true, Levels: map[string]string{"human": "hard"}},
		{Collection: "even", Shape: "3x3", Count: "unique"},
		{Count: "uncounted"},
		{Tag: "odd one"},
		{Tag: "odd one", NoCollection: true},
		{Tag: "odd one", Levels: map[string]string{"human": "hard"}},
		{Tag: "no such tag"},
	}
	sorts := []string{"", "id", "givens", "size", "label", "collection", "position", "solution_count", "count_status", "created_at", "rating:human", "rating:givens"}
	err = d.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err != nil {
			return err
		}
		ix, err := cat.Index(ctx)
		if err != nil {
			return err
		}
		cube, err := cat.Cube(ctx)
		if err != nil {
			return err
		}
		for _, f := range filters {
			total := cube.Total(f)
			if f.Tag != "" {
				tc, err := cat.TagCube(ctx, ix, f.Tag)
				if err != nil {
					return err
				}
				total = tc.Total(f)
			}
			for _, s := range sorts {
				for _, desc := range []bool{false, true} {
					q := db.CatalogQuery{Filter: f, Sort: s, Desc: desc, Limit: 3}
					want := allPages(t, ctx, cat, q)
					if s == "collection" {
						// The collections past the first read in one
						// query, as past collectionsRead of many.
						restore := cat.SetCollectionsRead(1)
						got := allPages(t, ctx, cat, q)
						restore()
						if got != want {
							t.Errorf("%+v sort %q desc %v, one collection at a time:\n%s\nthe rest in one query:\n%s", f, s, desc, want, got)
						}
					}
					q.Index = ix
					// With every set small, then with every set big
					// (the rows read in the sort's order).
					for _, small := range []int{10000, 0} {
						restore := ix.SetSmallSet(small)
						got := allPages(t, ctx, cat, q)
						restore()
						if got != want {
							t.Errorf("%+v sort %q desc %v, small sets up to %d:\nwith the index %s\nwithout it    %s", f, s, desc, small, got, want)
						}
					}
					if n := int64(strings.Count(want, " ")); n != total {
						t.Errorf("%+v sort %q: %d rows, the cube counts %d", f, s, n, total)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// allPages reads every page of q, following Next, and returns the rows
// as "id/collection " each.
func allPages(t *testing.T, ctx context.Context, cat *db.Catalog, q db.CatalogQuery) string {
	t.Helper()
	var b strings.Builder
	for pages := 0; ; pages++ {
		if pages > 40 {
			t.Fatalf("%+v: more pages than rows", q)
		}
		p, err := cat.Page(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		for _, r := range p.Rows {
			c := "-"
			if r.Collection != nil {
				c = *r.Collection
			}
			fmt.Fprintf(&b, "%d/%s ", r.ID, c)
		}
		if p.Next == "" {
			return b.String()
		}
		q.After = p.Next
	}
}
