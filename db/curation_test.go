package db_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// TestCuration runs the curation scenarios on every backend.
func TestCuration(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		runScenarios(t, b, []scenario{
			{"SelectionFrozenAsCollectionsAdd", suiteSelectionFrozenAsCollectionsAdd},
			{"Tags", suiteTags},
			{"CuratorTagBesideLoadingImport", suiteCuratorTagBesideLoadingImport},
		})
	})
}

// members returns a collection's puzzles and labels in order.
func members(t *testing.T, d *db.DB, name string) []string {
	t.Helper()
	tab, err := db.CollectionTable(context.Background(), d, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range tab.Rows {
		out = append(out, fmt.Sprintf("%d %d %v", asInt(t, r[0]), asInt(t, r[1]), r[2]))
	}
	return out
}

// suiteSelectionFrozenAsCollectionsAdd freezes catalog selections (the
// web's) and the same selections written as collections add's SQL: the
// two collections hold the same puzzles, positions and labels, and are
// both frozen.
func suiteSelectionFrozenAsCollectionsAdd(t *testing.T, d *db.DB) {
	ctx := context.Background()
	seedCatalog(t, d)
	for i, c := range []struct {
		q              db.CatalogQuery
		where, orderBy string
	}{
		// First, while some puzzles are in no collection (the freezes
		// below put every puzzle in one).
		{db.CatalogQuery{Filter: db.CatalogFilter{NoCollection: true}}, "collection IS NULL", "id"},
		{db.CatalogQuery{Filter: db.CatalogFilter{Collection: "even"}, Sort: "givens", Desc: true}, "collection = 'even'", "givens DESC, id DESC"},
		// A puzzle in no collection has no label: last.
		{db.CatalogQuery{Sort: "label"}, "1 = 1", "collection_id IS NULL, label, id, collection_id"},
		{db.CatalogQuery{Sort: "collection", Desc: true}, "1 = 1", "collection IS NULL, collection DESC, id DESC"},
		{db.CatalogQuery{Filter: db.CatalogFilter{Givens: new(26)}, After: "ignored"}, "givens = 26", "id"},
	} {
		var sel []db.FrozenMember
		err := d.Snapshot(ctx, func(tx *sqlx.Tx) error {
			cat, err := db.NewCatalog(ctx, tx)
			if err != nil {
				return err
			}
			sel, err = cat.Selection(ctx, c.q, 100)
			return err
		})
		if err != nil {
			t.Fatalf("selection %d: %v", i, err)
		}
		web, cli := fmt.Sprintf("web-%d", i), fmt.Sprintf("cli-%d", i)
		if _, err := d.Freeze(ctx, cli, db.Freeze{Where: c.where, OrderBy: c.orderBy}); err != nil {
			t.Fatal(err)
		}
		if n, err := d.FreezeSelection(ctx, web, "", sel); err != nil || n != len(sel) {
			t.Fatalf("FreezeSelection %d = %d, %v", i, n, err)
		}
		got, want := members(t, d, web), members(t, d, cli)
		if len(got) == 0 || !slices.Equal(got, want) {
			t.Errorf("selection %d %+v frozen:\n%v\nwant, as collections add --where %q --order-by %q:\n%v", i, c.q, got, c.where, c.orderBy, want)
		}
		for _, name := range []string{web, cli} {
			if col, err := db.GetCollection(ctx, d, name); err != nil || !col.Frozen {
				t.Errorf("%s: %+v, %v; want frozen", name, col, err)
			}
		}
	}
	_, err := d.FreezeSelection(ctx, "web-0", "", nil)
	wantCode(t, err, sudokulab.ECONFLICT)
	err = d.Snapshot(ctx, func(tx *sqlx.Tx) error {
		cat, err := db.NewCatalog(ctx, tx)
		if err != nil {
			return err
		}
		_, err = cat.Selection(ctx, db.CatalogQuery{}, 5)
		return err
	})
	if wantCode(t, err, sudokulab.EINVALID); err == nil || !strings.Contains(err.Error(), "more than 5 rows") {
		t.Errorf("a selection over its bound: %v", err)
	}
}

// suiteTags puts tags on puzzles and takes them off.
func suiteTags(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	sel := []int64{ids[20], ids[21], ids[22], 999999}
	if n, err := d.Tag(ctx, "x <b>", sel); err != nil || n != 3 {
		t.Fatalf("Tag = %d, %v; want 3 (the missing puzzle left out)", n, err)
	}
	if n, err := d.Tag(ctx, "x <b>", sel[:2]); err != nil || n != 0 {
		t.Fatalf("Tag again = %d, %v; want 0", n, err)
	}
	if n, err := d.Tag(ctx, "y", sel[1:2]); err != nil || n != 1 {
		t.Fatalf("Tag y = %d, %v", n, err)
	}
	for _, bad := range []string{"", "a\nb", strings.Repeat("t", sudokulab.MaxNameBytes+1), "\xff"} {
		_, err := d.Tag(ctx, bad, sel)
		wantCode(t, err, sudokulab.EINVALID)
	}
	tags, err := db.PuzzleTags(ctx, d, ids[21])
	if err != nil || len(tags) != 2 || tags[0].Tag != "x <b>" || tags[1].Tag != "y" || tags[0].AddedAt.IsZero() {
		t.Fatalf("PuzzleTags = %+v, %v", tags, err)
	}
	list, err := db.ListTags(ctx, d)
	if err != nil || len(list) != 2 || list[0].Tag != "x <b>" || list[0].Puzzles != 3 || list[1].Puzzles != 1 {
		t.Fatalf("ListTags = %+v, %v", list, err)
	}
	tagged, err := db.TaggedPuzzles(ctx, d, "x <b>", 2)
	if err != nil || len(tagged) != 2 || tagged[0].PuzzleID != ids[20] || tagged[1].PuzzleID != ids[21] {
		t.Fatalf("TaggedPuzzles = %+v, %v", tagged, err)
	}
	if n, err := d.Untag(ctx, "x <b>", []int64{ids[21]}); err != nil || n != 1 {
		t.Fatalf("Untag = %d, %v; want 1", n, err)
	}
	if n, err := d.Untag(ctx, "x <b>", []int64{ids[21]}); err != nil || n != 0 {
		t.Fatalf("Untag again = %d, %v; want 0", n, err)
	}
	// A selection: the puzzles having the tag lose it, the others and
	// the other tags are left alone.
	if n, err := d.Untag(ctx, "y", sel); err != nil || n != 1 {
		t.Fatalf("Untag y of the selection = %d, %v; want 1", n, err)
	}
	if list, err := db.ListTags(ctx, d); err != nil || len(list) != 1 || list[0].Tag != "x <b>" || list[0].Puzzles != 2 {
		t.Fatalf("ListTags after untagging y = %+v, %v", list, err)
	}
	if _, err := d.Tag(ctx, "y", sel[:3]); err != nil {
		t.Fatal(err)
	}
	// A selection of more ids than one statement takes: the puzzle in a
	// later chunk loses its tag too.
	if _, err := d.Tag(ctx, "z", []int64{ids[30]}); err != nil {
		t.Fatal(err)
	}
	many := make([]int64, 0, 1001)
	for i := range 1000 {
		many = append(many, int64(1_000_000+i))
	}
	many = slices.Insert(many, 850, ids[30])
	if n, err := d.Untag(ctx, "z", many); err != nil || n != 1 {
		t.Fatalf("Untag z of 1001 ids = %d, %v; want 1", n, err)
	}
	// A puzzle's tags go with it.
	if _, err := d.ExecContext(ctx, d.Rebind(`DELETE FROM puzzles WHERE id = ?`), ids[22]); err != nil {
		t.Fatal(err)
	}
	if list, err := db.ListTags(ctx, d); err != nil || len(list) != 2 || list[0].Puzzles != 1 || list[1].Puzzles != 2 {
		t.Fatalf("ListTags after a puzzle went = %+v, %v", list, err)
	}
	ps, err := db.PuzzlesByID(ctx, d, []int64{ids[30], ids[20], 999999, ids[25]})
	if err != nil || len(ps) != 3 || ps[0].ID != ids[30] || ps[1].ID != ids[20] || ps[2].ID != ids[25] || ps[0].Givens.Givens() != 30 {
		t.Fatalf("PuzzlesByID = %v, %v", ps, err)
	}
}

// BenchmarkCuration measures, on SQLite, what a curation form of serve
// --write costs at the web's bound (web.DefaultMaxSelection, 100,000
// rows): reading the selection (a read transaction, no lock held) and
// the write transactions of a freeze, a tag and its untag, the time other
// writers may wait. Each is reported in ms per operation:
//
//	go test ./db -run '^$' -bench Curation -benchtime 3x
func BenchmarkCuration(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	d := openTemp(b)
	if _, err := d.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < `+strconv.Itoa(n)+`)
		INSERT INTO puzzles (grid, size, box_rows, box_cols, givens) SELECT replace(printf('%081d', i), '0', '.'), 9, 3, 3, 17 + i % 20 FROM n`); err != nil {
		b.Fatal(err)
	}
	q := db.CatalogQuery{Sort: "givens", Desc: true}
	var sel []db.FrozenMember
	var read, freeze, tag, untag time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		err := d.Snapshot(ctx, func(tx *sqlx.Tx) error {
			cat, err := db.NewCatalog(ctx, tx)
			if err != nil {
				return err
			}
			sel, err = cat.Selection(ctx, q, n)
			return err
		})
		if err != nil || len(sel) != n {
			b.Fatalf("selection: %d, %v", len(sel), err)
		}
		read += time.Since(start)
		start = time.Now()
		if _, err := d.FreezeSelection(ctx, fmt.Sprintf("bench-%d", i), "", sel); err != nil {
			b.Fatal(err)
		}
		freeze += time.Since(start)
		ids := make([]int64, len(sel))
		for k, m := range sel {
			ids[k] = m.PuzzleID
		}
		start = time.Now()
		if _, err := d.Tag(ctx, fmt.Sprintf("bench-%d", i), ids); err != nil {
			b.Fatal(err)
		}
		tag += time.Since(start)
		start = time.Now()
		if k, err := d.Untag(ctx, fmt.Sprintf("bench-%d", i), ids); err != nil || k != n {
			b.Fatalf("untag: %d, %v", k, err)
		}
		untag += time.Since(start)
		// Gone again, so that the next selection has the same rows.
		if _, err := d.RemoveCollection(ctx, fmt.Sprintf("bench-%d", i)); err != nil {
			b.Fatal(err)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(read), "select-ms")
	b.ReportMetric(ms(freeze), "freeze-ms")
	b.ReportMetric(ms(tag), "tag-ms")
	b.ReportMetric(ms(untag), "untag-ms")
}

// suiteCuratorTagBesideLoadingImport tags puzzles as serve --write does
// with the tag an import still loading has put on them (one puzzle the
// lab held, one the import created), and with one it has not; then the
// import fails and is cleared: the curator's tags stay (with the puzzle
// the import created), the tag the import alone gave goes.
func suiteCuratorTagBesideLoadingImport(t *testing.T, d *db.DB) {
	ctx := context.Background()
	ids := seedCatalog(t, d)
	col, err := db.EnsureCollection(ctx, d, "file", "")
	if err != nil {
		t.Fatal(err)
	}
	im := &sudokulab.Import{FileName: "tags.json", FileSHA256: strings.Repeat("cd", 32), Format: "json"}
	l, err := db.BeginImport(ctx, d, im, "{}", "test:1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	held, created := fromSolution(t, 20), fromSolution(t, 40)
	rows := []db.ImportRow{
		{Puzzle: held, Membership: sudokulab.Membership{CollectionID: col, ImportID: l.ID}, Tags: []string{"classic", "from-file"}},
		{Puzzle: created, Membership: sudokulab.Membership{CollectionID: col, ImportID: l.ID}, Tags: []string{"classic"}},
	}
	if err := writeImportRows(d, rows); err != nil {
		t.Fatal(err)
	}
	if held.ID != ids[20] || created.ID == 0 {
		t.Fatalf("puzzles %d and %d, want %d and a new one", held.ID, created.ID, ids[20])
	}
	// The import's tags are not shown while it loads: to the curator the
	// puzzles lack the tag, and tagging them counts both.
	if n, err := d.Tag(ctx, "classic", []int64{held.ID, created.ID}); err != nil || n != 2 {
		t.Fatalf("Tag classic = %d, %v; want 2", n, err)
	}
	if n, err := d.Tag(ctx, "mine", []int64{created.ID}); err != nil || n != 1 {
		t.Fatalf("Tag mine = %d, %v; want 1", n, err)
	}
	for done := false; !done; {
		if err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
			done, err = db.ClearImport(ctx, tx, l, 100)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := d.QueryxContext(ctx, d.Rebind(`SELECT puzzle_id, tag, import_id FROM puzzle_tags
		WHERE puzzle_id IN (?, ?) ORDER BY puzzle_id, tag`), held.ID, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var got []string
	for rs.Next() {
		var id int64
		var tag string
		var imp *int64
		if err := rs.Scan(&id, &tag, &imp); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s %v", id, tag, imp != nil))
	}
	want := []string{fmt.Sprintf("%d classic false", held.ID), fmt.Sprintf("%d classic false", created.ID), fmt.Sprintf("%d mine false", created.ID)}
	if !slices.Equal(got, want) {
		t.Errorf("tags after the import failed: %q, want %q (none an import's)", got, want)
	}
}
