package db

// Browsing puzzle_catalog a page at a time, as the web interface does: a
// filter made of facet values, a sort on any column (a rating included),
// keyset pagination (never OFFSET: the next page starts after the last
// row's sort key), and the counts of each facet's values under the
// filter.
//
// The queries read the tables under puzzle_catalog rather than the view,
// so that a filter on a collection starts from that collection's
// memberships (the view's outer joins make SQLite scan every puzzle), and
// leave out the view's tests for imports still loading when none is
// loading: a Catalog looks once, so run it in one transaction (DB.Snapshot)
// for the look to hold for its queries.

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// CatalogFilter selects rows of puzzle_catalog; its zero value selects
// them all. Each field is one facet: a row matches when it matches every
// field set.
type CatalogFilter struct {
	// Collection keeps the rows of this collection; NoCollection the
	// puzzles in none.
	Collection   string
	NoCollection bool
	// Shape keeps the puzzles of this box shape, "3x3" (box rows x box
	// columns).
	Shape string
	// Givens keeps the puzzles with this many givens; nil: any.
	Givens *int
	// Count keeps the puzzles of this count class (CountClasses).
	Count string
	// Levels keeps the puzzles whose rating by each rater (the key) has
	// this label.
	Levels map[string]string
	// Tag keeps the puzzles having this tag (puzzle_tags).
	Tag string
	// Broad says the filter keeps many of the rows (a tenth or more, as
	// the facet counts tell): its shape and givens are then tested on
	// rows read in the page's order, not looked up through their indexes
	// (which would give every matching row, to be sorted).
	Broad bool
	// only, when restricted, holds the ids of the puzzles whose rows
	// may be read (from the catalog index).
	only       []int64
	restricted bool
	// collID, when not 0, is the id of Collection: the memberships are
	// then read by collection_puzzles.collection_id = collID, which lets
	// PostgreSQL read them in the order of its primary key (collection_id,
	// puzzle_id); by the name, it knew of no single collection id, and
	// sorted the collection's memberships or scanned them all by puzzle.
	collID int64
}

// CountClasses are the values of the count facet, in the order shown:
// one solution, none, two or more, count cut short, never counted.
var CountClasses = []string{"unique", "none", "multiple", "undetermined", "uncounted"}

// countClassExpr is the count class of a puzzle p.
const countClassExpr = `CASE WHEN p.solution_count = 1 THEN 'unique' WHEN p.solution_count = 0 THEN 'none'
	WHEN p.solution_count >= 2 THEN 'multiple' WHEN p.count_status = 'undetermined' THEN 'undetermined'
	ELSE 'uncounted' END`

// CatalogColumns are the columns a catalog page sorts by, besides
// "rating:RATER" (the rating's value).
var CatalogColumns = []string{"id", "collection", "label", "position", "givens", "size", "solution_count", "count_status", "created_at"}

// sortCol is how a sort column is read: its expression over
// the catalog's tables (puzzles p, collection_puzzles cp, collections c;
// the rating sorted by as rs), whether it may be NULL,
// and the Go type of its values ('i' integer, 'f' float, 's' text).
type sortCol struct {
	expr     string
	nullable bool
	kind     byte
	// member marks a column of the memberships, NULL for the puzzles in
	// no collection only.
	member bool
	// present, when set, is the condition that a row has a value, for
	// expr IS NOT NULL: collections.name >= '' (always true of a name)
	// leads the planner to read the collections in order of name, each
	// one's memberships in order of puzzle, where IS NOT NULL lets it
	// sort every membership.
	present string
}

// catalogSort are the sort columns. Each has an index that gives its
// order (migration 00010 added those of label, position, created_at,
// solution_count and count_status; a sort on collection reads the
// collections by name, each one's memberships by puzzle).
var catalogSort = map[string]sortCol{
	"id":             {"p.id", false, 'i', false, ""},
	"collection":     {"c.name", true, 's', true, "c.name >= ''"},
	"label":          {"cp.label", true, 's', true, ""},
	"position":       {"cp.position", true, 'i', true, ""},
	"givens":         {"p.givens", false, 'i', false, ""},
	"size":           {"p.size", false, 'i', false, ""},
	"solution_count": {"p.solution_count", true, 'i', false, ""},
	"count_status":   {"p.count_status", true, 's', false, ""},
	"created_at":     {"p.created_at", false, 's', false, ""},
}

// CatalogQuery asks for one page of puzzle_catalog.
type CatalogQuery struct {
	Filter CatalogFilter
	// Sort names the column (CatalogColumns, or "rating:RATER"); empty
	// means "id". Rows tie-break on id then collection_id; NULLs come
	// last both ways.
	Sort string
	Desc bool
	// After is the Next token of the page before; empty for the first.
	After string
	// Limit is the number of rows; 0 means 100, at most 1000.
	Limit int
	// Index, when set, is the catalog index of the state of the database
	// the Catalog reads, and no other (a reader that keeps one gives it
	// only while the database is unchanged): the page then reads only the
	// rows it can hold, by their ids.
	Index *CatalogIndex
}

// CatalogRow is one row of a catalog page.
type CatalogRow struct {
	ID            int64   `json:"id"`
	Collection    *string `json:"collection"`
	Label         *string `json:"label"`
	Position      *int64  `json:"position"`
	Size          int     `json:"size"`
	BoxRows       int     `json:"box_rows"`
	BoxCols       int     `json:"box_cols"`
	Givens        int     `json:"givens"`
	SolutionCount *int64  `json:"solution_count"`
	CountStatus   *string `json:"count_status"`
	Grid          string  `json:"grid"`
	// Ratings holds the puzzle's ratings by rater.
	Ratings map[string]CatalogRating `json:"ratings,omitempty"`
	collID  int64
	sortKey any
}

// CatalogRating is a rating as a catalog row shows it.
type CatalogRating struct {
	Value *float64 `json:"value"`
	Label *string  `json:"label"`
}

// CatalogPage is one page of rows and the token of the next (empty on
// the last page).
type CatalogPage struct {
	Rows []CatalogRow `json:"rows"`
	Next string       `json:"next,omitempty"`
}

// Catalog reads puzzle_catalog's rows a page at a time, with facets.
type Catalog struct {
	x sqlx.ExtContext
	// loading is true when an import is loading: the queries then leave
	// out what it wrote, as the view does.
	loading bool
	// collectionsRead is collectionsRead but in tests.
	collectionsRead int
}

// NewCatalog returns the Catalog read through x, a transaction for
// queries that agree with each other (see DB.Snapshot).
func NewCatalog(ctx context.Context, x sqlx.ExtContext) (*Catalog, error) {
	var loading bool
	err := x.QueryRowxContext(ctx, `SELECT EXISTS (SELECT 1 FROM imports WHERE state = 'loading')`).Scan(&loading)
	if err != nil {
		return nil, dbError(err, "browse puzzle_catalog")
	}
	return &Catalog{x: x, loading: loading, collectionsRead: collectionsRead}, nil
}

// from returns the FROM clause and WHERE condition (with its arguments)
// that give the rows of puzzle_catalog under f, with joins added after
// the tables (whose arguments come first). With members it gives only the
// rows of a collection (members: the memberships, joined to their
// puzzles, so that an index on collection_puzzles can give their order);
// so does a filter on a collection.
func (cat *Catalog) from(f CatalogFilter, members bool, joins string, joinArgs ...any) (string, []any, error) {
	var from string
	var conds []string
	args := joinArgs
	if members || f.Collection != "" && !f.NoCollection {
		// The memberships, of one collection through the index on
		// (collection_id, position).
		from = "collections c JOIN collection_puzzles cp ON cp.collection_id = c.id JOIN puzzles p ON p.id = cp.puzzle_id"
		if cat.loading {
			conds = append(conds, notLoading("cp.import_id"), notLoading("p.import_id"))
		}
		switch {
		case f.NoCollection:
			conds = append(conds, "1 = 0") // the puzzles in none have no membership
		case f.collID != 0:
			conds = append(conds, "cp.collection_id = ?")
			args = append(args, f.collID)
		case f.Collection != "":
			conds = append(conds, "c.name = ?")
			args = append(args, f.Collection)
		}
	} else {
		on := ""
		if cat.loading {
			on = " AND " + notLoading("cp.import_id")
			conds = append(conds, notLoading("p.import_id"))
		}
		from = "puzzles p LEFT JOIN collection_puzzles cp ON cp.puzzle_id = p.id" + on + " LEFT JOIN collections c ON c.id = cp.collection_id"
		if f.NoCollection {
			conds = append(conds, "cp.puzzle_id IS NULL")
		}
	}
	if f.Shape != "" {
		r, c, ok := strings.Cut(f.Shape, "x")
		br, err1 := strconv.Atoi(r)
		bc, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil || br < 1 || bc < 1 {
			return "", nil, sudokulab.Errorf(sudokulab.EINVALID, "shape %q: want box rows x box columns, such as 3x3", f.Shape)
		}
		if f.Broad {
			u := dialectByDriver(cat.x.DriverName()).unindexed
			conds = append(conds, u+"p.box_rows = ? AND "+u+"p.box_cols = ?")
		} else {
			conds = append(conds, "p.box_rows = ? AND p.box_cols = ?")
		}
		args = append(args, br, bc)
	}
	if f.Givens != nil {
		if f.Broad {
			conds = append(conds, dialectByDriver(cat.x.DriverName()).unindexed+"p.givens = ?")
		} else {
			conds = append(conds, "p.givens = ?")
		}
		args = append(args, *f.Givens)
	}
	if f.Count != "" {
		if !slices.Contains(CountClasses, f.Count) {
			return "", nil, sudokulab.Errorf(sudokulab.EINVALID, "count %q: want one of %s", f.Count, strings.Join(CountClasses, ", "))
		}
		conds = append(conds, countClassExpr+" = ?")
		args = append(args, f.Count)
	}
	raters := make([]string, 0, len(f.Levels))
	for r := range f.Levels {
		raters = append(raters, r)
	}
	slices.Sort(raters)
	for _, r := range raters {
		conds = append(conds, "EXISTS (SELECT 1 FROM ratings lr WHERE lr.puzzle_id = p.id AND lr.rater = ? AND lr.label = ?)")
		args = append(args, r, f.Levels[r])
	}
	if f.Tag != "" {
		conds = append(conds, "EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.puzzle_id = p.id AND t.tag = ?"+cat.tagNotLoading()+")")
		args = append(args, f.Tag)
	}
	if len(conds) == 0 {
		conds = append(conds, "1 = 1")
	}
	return from + joins + " WHERE " + strings.Join(conds, " AND "), args, nil
}

// tagNotLoading is the condition, to add to one on puzzle_tags t, that
// leaves out the tags of imports still loading ("" when none is).
func (cat *Catalog) tagNotLoading() string {
	if cat.loading {
		return " AND " + notLoading("t.import_id")
	}
	return ""
}

// tagged returns the ids of the puzzles having tag, in order.
func (cat *Catalog) tagged(ctx context.Context, tag string) ([]int64, error) {
	var ids []int64
	err := sqlx.SelectContext(ctx, cat.x, &ids, cat.x.Rebind(`SELECT t.puzzle_id FROM puzzle_tags t WHERE t.tag = ?`+cat.tagNotLoading()+` ORDER BY t.puzzle_id`), tag)
	return ids, dbError(err, "read a tag's puzzles")
}

// sortOf returns how to read the sort column name, and the rater whose
// rating it is ("" for a column of the view).
func sortOf(name string) (sortCol, string, error) {
	if name == "" {
		name = "id"
	}
	if rater, ok := strings.CutPrefix(name, "rating:"); ok && rater != "" {
		return sortCol{"rs.value", true, 'f', false, ""}, rater, nil
	}
	c, ok := catalogSort[name]
	if !ok {
		return sortCol{}, "", sudokulab.Errorf(sudokulab.EINVALID, "sort %q: want one of %s or rating:RATER", name, strings.Join(CatalogColumns, ", "))
	}
	return c, "", nil
}

// pageToken is the keyset of the last row of a page: its sort value (nil
// for NULL), id and collection id (0 for none).
type pageToken struct {
	V   any   `json:"v"`
	ID  int64 `json:"i"`
	CID int64 `json:"c"`
}

func encodeToken(t pageToken) string {
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeToken reads a token made by encodeToken for a column of kind.
func decodeToken(s string, kind byte) (pageToken, error) {
	bad := sudokulab.Errorf(sudokulab.EINVALID, "next %q: not a page token of this sort (start again from the first page)", s)
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return pageToken{}, bad
	}
	var t pageToken
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&t); err != nil {
		return pageToken{}, bad
	}
	switch v := t.V.(type) {
	case nil:
	case json.Number:
		switch kind {
		case 'i':
			n, err := v.Int64()
			if err != nil {
				return pageToken{}, bad
			}
			t.V = n
		case 'f':
			f, err := v.Float64()
			if err != nil {
				return pageToken{}, bad
			}
			t.V = f
		default:
			return pageToken{}, bad
		}
	case string:
		if kind != 's' {
			return pageToken{}, bad
		}
	default:
		return pageToken{}, bad
	}
	return t, nil
}

// Page returns one page of puzzle_catalog under q, with each row's
// ratings.
func (cat *Catalog) Page(ctx context.Context, q CatalogQuery) (CatalogPage, error) {
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = 100
	case limit > 1000:
		limit = 1000
	}
	page, err := cat.page(ctx, q, limit)
	if err != nil {
		return CatalogPage{}, err
	}
	return page, addCatalogRatings(ctx, cat.x, page.Rows)
}

// page reads a page of limit rows under q, without their ratings.
func (cat *Catalog) page(ctx context.Context, q CatalogQuery, limit int) (CatalogPage, error) {
	col, rater, err := sortOf(q.Sort)
	if err != nil {
		return CatalogPage{}, err
	}
	var after *pageToken
	if q.After != "" {
		t, err := decodeToken(q.After, col.kind)
		if err != nil {
			return CatalogPage{}, err
		}
		if t.V == nil && !col.nullable {
			return CatalogPage{}, sudokulab.Errorf(sudokulab.EINVALID, "next %q: not a page token of this sort (start again from the first page)", q.After)
		}
		after = &t
	}
	if q.Filter.Collection != "" && !q.Filter.NoCollection {
		// An unknown name keeps collID 0: the query by name finds no row.
		err := cat.x.QueryRowxContext(ctx, cat.x.Rebind(`SELECT id FROM collections WHERE name = ?`), q.Filter.Collection).Scan(&q.Filter.collID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return CatalogPage{}, dbError(err, "browse puzzle_catalog")
		}
	}
	if q.Index != nil {
		var tagged []int64
		if q.Filter.Tag != "" {
			if tagged, err = cat.tagged(ctx, q.Filter.Tag); err != nil {
				return CatalogPage{}, err
			}
		}
		q.Filter.only, q.Filter.restricted = q.Index.candidates(q, col, after, limit+1, tagged)
		// The rows are found through their ids, not through an index
		// on shape or givens (which would give every row having them).
		q.Filter.Broad = q.Filter.Broad || q.Filter.restricted
	}
	var rows []CatalogRow
	if !col.nullable {
		rows, err = cat.rows(ctx, q.Filter, drivePuzzles, col.expr, q.Desc, after, limit+1, "", nil, "")
	} else {
		// The rows with a value first, in its order, then those without
		// (NULL) by id: two queries without a CASE in the ORDER BY, so
		// that an index on the column serves the first (for a rating,
		// the index on ratings (rater, value)).
		// A column of the memberships (collection, label, position) is
		// NULL only for the puzzles in no collection: those with a value
		// are read from the memberships, in the order of an index on them.
		// A rating's are read from the index on ratings (rater, value,
		// puzzle_id), or with a filter on the same rater's level from
		// that on (rater, label, value, puzzle_id).
		drive := driveMembers
		if !col.member {
			drive = drivePuzzles
		}
		inner, outer, joinArgs := "", "", []any(nil)
		if rater != "" {
			inner, joinArgs = " JOIN ratings rs ON rs.puzzle_id = p.id AND rs.rater = ?", []any{rater}
			outer = " LEFT" + inner
			if l, ok := q.Filter.Levels[rater]; ok {
				// Only a rating can have the level: the rows without a
				// value are the rated ones whose value is NULL. The
				// join tests the level, the filter need not test it
				// again (PostgreSQL took the two tests for independent,
				// and sorted every puzzle of the level).
				inner += " AND rs.label = ?"
				outer, joinArgs = inner, append(joinArgs, l)
				q.Filter.Levels = maps.Clone(q.Filter.Levels)
				delete(q.Filter.Levels, rater)
			}
			drive = driveRating
		}
		present := cmp.Or(col.present, col.expr+" IS NOT NULL")
		if after == nil || after.V != nil {
			if col.expr == "c.name" && !q.Filter.NoCollection {
				rows, err = cat.collectionRows(ctx, q.Filter, q.Desc, after, limit+1)
			} else {
				rows, err = cat.rows(ctx, q.Filter, drive, col.expr, q.Desc, after, limit+1, inner, joinArgs, present)
			}
			after = nil
		}
		if err == nil && len(rows) <= limit {
			var more []CatalogRow
			more, err = cat.rows(ctx, q.Filter, drivePuzzles, "", q.Desc, after, limit+1-len(rows), outer, joinArgs, col.expr+" IS NULL")
			rows = append(rows, more...)
		}
	}
	if err != nil {
		return CatalogPage{}, err
	}
	page := CatalogPage{Rows: rows}
	if len(rows) > limit {
		page.Rows = rows[:limit]
		last := page.Rows[limit-1]
		page.Next = encodeToken(pageToken{V: last.sortKey, ID: last.ID, CID: last.collID})
	}
	return page, nil
}

// How a page's rows are read: from the puzzles, from the memberships
// (only the rows of a collection), or from the ratings of the rater
// sorted by (only the rated puzzles).
const (
	drivePuzzles = iota
	driveMembers
	driveRating
)

// rows reads at most n rows under f (with driveMembers, only those of a
// collection; see from) with cond, ordered by key (an expression; empty
// for none), id and collection id, after the token's row, with join added
// to the tables.
func (cat *Catalog) rows(ctx context.Context, f CatalogFilter, drive int, key string, desc bool, after *pageToken, n int,
	join string, joinArgs []any, cond string) ([]CatalogRow, error) {
	members := drive == driveMembers
	// A page of one collection's memberships in order of puzzle, with no
	// other filter, reads them first (through the primary key) and then
	// their puzzles: joined in one query, PostgreSQL merge-joined them
	// with every puzzle from the first id (or the last) on.
	keysFirst := f.collID != 0 && (key == "" || key == "p.id") && join == "" && cond == "" && !cat.loading &&
		f.Shape == "" && f.Givens == nil && f.Count == "" && len(f.Levels) == 0 && f.Tag == ""
	var where string
	var args []any
	var err error
	if keysFirst {
		if key != "" {
			key = "cp.puzzle_id" // the same values
		}
		where, args = "collection_puzzles cp WHERE cp.collection_id = ?", []any{f.collID}
	} else if where, args, err = cat.from(f, members, join, joinArgs...); err != nil {
		return nil, err
	}
	cmp, dir := ">", "ASC"
	if desc {
		cmp, dir = "<", "DESC"
	}
	// The tie-breaks are the columns of the table the rows are read from
	// (the same values: the puzzle's id and the collection's), so that an
	// index on it serves the order and the keyset.
	id, cid := "p.id", "COALESCE(cp.collection_id, 0)"
	switch {
	case members || f.Collection != "" && !f.NoCollection:
		id, cid = "cp.puzzle_id", "cp.collection_id"
	case drive == driveRating:
		id = "rs.puzzle_id"
	}
	keys, order, sortKey := []string{id, cid}, id+" "+dir+", "+cid+" "+dir, "NULL"
	if key != "" {
		keys, order, sortKey = append([]string{key}, keys...), key+" "+dir+", "+order, key
	}
	if cond != "" {
		where += " AND " + cond
	}
	switch {
	case f.restricted && len(f.only) == 0:
		where += " AND 1 = 0"
	case f.restricted:
		where += " AND " + id + " IN " + idList(f.only)
	}
	if after != nil {
		// The sort key and id alone first, which an index on both can
		// start from; then the whole keyset.
		var at []any
		if key != "" {
			at = append(at, after.V)
		}
		at = append(at, after.ID)
		where += fmt.Sprintf(" AND (%s) %s= (?%s)", strings.Join(keys[:len(keys)-1], ", "), cmp, strings.Repeat(", ?", len(at)-1))
		where += fmt.Sprintf(" AND (%s) %s (?%s)", strings.Join(keys, ", "), cmp, strings.Repeat(", ?", len(keys)-1))
		args = append(append(args, at...), append(at, after.CID)...)
	}
	limit := ` LIMIT ` + strconv.Itoa(n)
	if keysFirst {
		where = `(SELECT cp.* FROM ` + where + ` ORDER BY ` + order + limit +
			`) cp JOIN puzzles p ON p.id = cp.puzzle_id JOIN collections c ON c.id = cp.collection_id`
	}
	query := `SELECT p.id, c.name, cp.label, cp.position, p.size, p.box_rows, p.box_cols, p.givens,
		p.solution_count, p.count_status, p.grid, COALESCE(cp.collection_id, 0), ` + sortKey + `
		FROM ` + where + ` ORDER BY ` + order + limit
	rs, err := cat.x.QueryxContext(ctx, cat.x.Rebind(query), args...)
	if err != nil {
		return nil, dbError(err, "browse puzzle_catalog")
	}
	defer rs.Close()
	var out []CatalogRow
	for rs.Next() {
		var r CatalogRow
		if err := rs.Scan(&r.ID, &r.Collection, &r.Label, &r.Position, &r.Size, &r.BoxRows, &r.BoxCols, &r.Givens,
			&r.SolutionCount, &r.CountStatus, &r.Grid, &r.collID, &r.sortKey); err != nil {
			return nil, dbError(err, "browse puzzle_catalog")
		}
		if b, ok := r.sortKey.([]byte); ok {
			r.sortKey = string(b)
		}
		out = append(out, r)
	}
	return out, dbError(rs.Err(), "browse puzzle_catalog")
}

// collectionsRead is how many collections collectionRows reads one at a
// time before it reads the rest in one query (at least 1).
const collectionsRead = 32

// collectionRows reads at most n rows under f that have a collection,
// sorted by collection name, id and collection id, after the token's row.
// It reads the collections one at a time in order of name, each one's
// rows in order of the primary key of collection_puzzles (collection_id,
// puzzle_id), until it has n: in one query, PostgreSQL kept only the
// order of the collections and sorted every membership of the first one
// (50,000 in the scale lab) before it returned a row. Past collectionsRead
// collections (a filter that keeps few of many collections' rows), it
// reads the rest in one query, as it did before.
func (cat *Catalog) collectionRows(ctx context.Context, f CatalogFilter, desc bool, after *pageToken, n int) ([]CatalogRow, error) {
	cmp, dir := ">=", "ASC"
	if desc {
		cmp, dir = "<=", "DESC"
	}
	var conds []string
	var args []any
	if after != nil {
		conds, args = append(conds, "name "+cmp+" ?"), append(args, after.V)
	}
	if f.Collection != "" {
		conds, args = append(conds, "name = ?"), append(args, f.Collection)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	type coll struct {
		ID   int64
		Name string
	}
	var colls []coll
	err := sqlx.SelectContext(ctx, cat.x, &colls, cat.x.Rebind(`SELECT id AS "id", name AS "name" FROM collections`+where+
		` ORDER BY name `+dir+` LIMIT `+strconv.Itoa(cat.collectionsRead+1)), args...)
	if err != nil {
		return nil, dbError(err, "browse puzzle_catalog")
	}
	var out []CatalogRow
	for i, c := range colls {
		if len(out) == n {
			return out, nil
		}
		if i == cat.collectionsRead {
			// The rest, past the last collection read: a token after
			// its every row.
			last := pageToken{V: colls[i-1].Name, ID: math.MaxInt64, CID: math.MaxInt64}
			if desc {
				last.ID, last.CID = -1, -1
			}
			more, err := cat.rows(ctx, f, driveMembers, "c.name", desc, &last, n-len(out), "", nil, "c.name >= ''")
			return append(out, more...), err
		}
		g := f
		g.Collection, g.collID = c.Name, c.ID
		var at *pageToken
		if after != nil && after.V == c.Name {
			at = &pageToken{ID: after.ID, CID: after.CID}
		}
		rows, err := cat.rows(ctx, g, driveMembers, "", desc, at, n-len(out), "", nil, "")
		if err != nil {
			return nil, err
		}
		for i := range rows {
			rows[i].sortKey = c.Name
		}
		out = append(out, rows...)
	}
	return out, nil
}

// addCatalogRatings fills in the ratings of the rows, in one query.
func addCatalogRatings(ctx context.Context, x sqlx.ExtContext, rows []CatalogRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]any, 0, len(rows))
	at := map[int64][]int{}
	for i, r := range rows {
		if _, ok := at[r.ID]; !ok {
			ids = append(ids, r.ID)
		}
		at[r.ID] = append(at[r.ID], i)
	}
	rs, err := x.QueryxContext(ctx, x.Rebind(`SELECT puzzle_id, rater, value, label FROM ratings WHERE puzzle_id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`)`), ids...)
	if err != nil {
		return dbError(err, "catalog ratings")
	}
	defer rs.Close()
	for rs.Next() {
		var id int64
		var rater string
		var v CatalogRating
		if err := rs.Scan(&id, &rater, &v.Value, &v.Label); err != nil {
			return dbError(err, "catalog ratings")
		}
		for _, i := range at[id] {
			if rows[i].Ratings == nil {
				rows[i].Ratings = map[string]CatalogRating{}
			}
			rows[i].Ratings[rater] = v
		}
	}
	return dbError(rs.Err(), "catalog ratings")
}

// SymmetryEquivalents lists the other puzzles of the lab with the same
// symmetry form as puzzle id (see docs/schema.md, Symmetry form): the
// same puzzle transformed. It uses the index on symmetry_form.
func SymmetryEquivalents(ctx context.Context, x sqlx.ExtContext, id int64) ([]int64, error) {
	var ids []int64
	err := sqlx.SelectContext(ctx, x, &ids, x.Rebind(`
		SELECT q.id FROM puzzles p JOIN puzzles q ON q.symmetry_form = p.symmetry_form AND q.id <> p.id
		WHERE p.id = ? AND `+notLoading("q.import_id")+` ORDER BY q.id LIMIT 1000`), id)
	return ids, dbError(err, "symmetry equivalents")
}
