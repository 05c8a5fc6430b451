package db

// The catalog index: every row of puzzle_catalog with its facet values,
// held in memory by a reader (the web interface) while the database is
// unchanged. It is read once, a table at a time in the order of an index
// (no GROUP BY over joins), and then answers, in a pass over some
// 1,000,000 rows in memory (a few milliseconds), what no SQL index can: which
// rows a combination of facets keeps (the puzzles in no collection; a rare
// level with givens). A page then reads from SQL only the rows it shows,
// through their ids. The facet cube is counted from it too.

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// CatalogIndex is every row of puzzle_catalog with its facet values, in
// the order of id and collection id, as a Catalog read them. It is exact
// for the database state it was read from only: a reader gives it to a
// CatalogQuery only while the database is unchanged since then (see
// ChangeWatch), and reads SQL alone otherwise.
type CatalogIndex struct {
	// cube counts the rows per combination of facet values.
	cube CatalogCube
	// The puzzles, in order of id, and their facet values: shape (an
	// index into shapes), givens, count class (an index into
	// CountClasses) and, per rater of cube.Raters, level (0: no rating,
	// else 1 + an index into labels[rater]).
	ids    []int64
	shape  []uint8
	givens []uint16
	count  []uint8
	level  [][]uint16
	shapes []string
	labels [][]string
	// The rows, in order of puzzle id and collection id: the puzzle (an
	// index into ids) and the collection (0: none, else 1 + an index
	// into colls, which are in order of id).
	rowPuzzle []uint32
	rowColl   []uint32
	colls     []int64
	collNames []string
	// The sort keys held, as numbers in the database's order: per shape
	// its size; per collection (as in rowColl) the rank of its name; per
	// puzzle its solution count (-1: NULL), count status (0: NULL, else
	// 1 + an index into statuses, which are in order) and its created_at
	// in milliseconds (TimeLayout, whose text sorts as its time; nil when
	// a value is written otherwise: the index then does not hold it).
	shapeSize []int
	collRank  []uint32
	solutions []int8
	status    []uint8
	statuses  []string
	created   []int64
	// smallSet is indexSmallSet but in tests.
	smallSet int
}

// indexSmallSet bounds the rows a filter may keep for a page under a sort
// on a column the index does not hold (label, position, a rating) to be
// read through the ids of all of them (SQL sorts them); a filter keeping
// more is read in the sort's order, as without the index.
const indexSmallSet = 10000

// Index reads the catalog index, in one reading of each table.
func (cat *Catalog) Index(ctx context.Context) (*CatalogIndex, error) {
	ix := &CatalogIndex{smallSet: indexSmallSet}
	if err := cat.readLevels(ctx, &ix.cube); err != nil {
		return nil, err
	}
	fail := func(err error) (*CatalogIndex, error) { return nil, dbError(err, "read the catalog index") }
	rows, err := cat.x.QueryxContext(ctx, `SELECT id, name FROM collections ORDER BY id`)
	if err != nil {
		return fail(err)
	}
	byID := map[int64]uint32{}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return fail(err)
		}
		ix.colls, ix.collNames = append(ix.colls, id), append(ix.collNames, name)
		byID[id] = uint32(len(ix.colls))
	}
	if err := closeRows(rows); err != nil {
		return fail(err)
	}
	where := ""
	if cat.loading {
		where = " WHERE " + notLoading("p.import_id")
	}
	// The values of the text columns sorted by, in the database's order
	// (its collation, which Go's may not be), through their indexes.
	var collOrder []int64
	for _, l := range []struct {
		dest  any
		query string
	}{
		{&collOrder, `SELECT id FROM collections ORDER BY name`},
		{&ix.statuses, `SELECT DISTINCT count_status FROM puzzles WHERE count_status IS NOT NULL ORDER BY count_status`},
	} {
		if err := sqlx.SelectContext(ctx, cat.x, l.dest, l.query); err != nil {
			return fail(err)
		}
	}
	ix.collRank = make([]uint32, len(ix.colls)+1)
	for rank, id := range collOrder {
		ix.collRank[byID[id]] = uint32(rank)
	}
	if len(ix.statuses) >= math.MaxUint8 {
		return nil, fmt.Errorf("read the catalog index: more than %d count statuses", math.MaxUint8-1)
	}
	// A count first, so that the arrays are made once.
	var n int
	if err := cat.x.QueryRowxContext(ctx, `SELECT COUNT(*) FROM puzzles p`+where).Scan(&n); err != nil {
		return fail(err)
	}
	ix.ids, ix.shape, ix.givens, ix.count = make([]int64, 0, n), make([]uint8, 0, n), make([]uint16, 0, n), make([]uint8, 0, n)
	ix.solutions, ix.status, ix.created = make([]int8, 0, n), make([]uint8, 0, n), make([]int64, 0, n)
	// The text columns are read as bytes, not copied into a string per
	// puzzle: a million strings of garbage would double the heap.
	rows, err = cat.x.QueryxContext(ctx, `SELECT p.id, p.box_rows, p.box_cols, p.givens, p.solution_count, p.count_status, p.created_at
		FROM puzzles p`+where+` ORDER BY p.id`)
	if err != nil {
		return fail(err)
	}
	shapeOf := map[[2]int]uint8{}
	// Scanned into again and again: a variable per row would be one
	// allocation each (Scan takes pointers), a row's text is copied into
	// the bytes.
	var (
		id              int64
		br, bc, givens  int
		solutions       sql.NullInt64
		status, created sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&id, &br, &bc, &givens, &solutions, &status, &created); err != nil {
			rows.Close()
			return fail(err)
		}
		sol, st := int8(-1), uint8(0)
		if solutions.Valid {
			sol = int8(min(solutions.Int64, math.MaxInt8))
		}
		if status != nil {
			st = uint8(slices.IndexFunc(ix.statuses, func(s string) bool { return s == string(status) }) + 1)
		}
		ix.solutions, ix.status = append(ix.solutions, sol), append(ix.status, st)
		ix.count = append(ix.count, countClass(sol, string(status) == "undetermined"))
		if ix.created != nil {
			if ms, ok := parseTimeLayout(created); ok {
				ix.created = append(ix.created, ms)
			} else {
				ix.created = nil // not all in TimeLayout: not held
			}
		}
		s, ok := shapeOf[[2]int{br, bc}]
		if !ok {
			if len(ix.shapes) > math.MaxUint8 {
				rows.Close()
				return nil, fmt.Errorf("read the catalog index: more than %d box shapes", math.MaxUint8+1)
			}
			s = uint8(len(ix.shapes))
			shapeOf[[2]int{br, bc}] = s
			ix.shapes, ix.shapeSize = append(ix.shapes, strconv.Itoa(br)+"x"+strconv.Itoa(bc)), append(ix.shapeSize, br*bc)
		}
		ix.ids = append(ix.ids, id)
		ix.shape = append(ix.shape, s)
		ix.givens = append(ix.givens, uint16(givens))
	}
	if err := closeRows(rows); err != nil {
		return fail(err)
	}
	ix.level = make([][]uint16, len(ix.cube.Raters))
	ix.labels = make([][]string, len(ix.cube.Raters))
	for i, r := range ix.cube.Raters {
		ix.level[i] = make([]uint16, len(ix.ids))
		// The index on ratings (rater, label, ...) gives them without
		// reading the table.
		rows, err := cat.x.QueryxContext(ctx, cat.x.Rebind(`SELECT label, puzzle_id FROM ratings WHERE rater = ? AND label IS NOT NULL ORDER BY label`), r)
		if err != nil {
			return fail(err)
		}
		code := uint16(0)
		var label sql.RawBytes // a string only when it changes
		var id int64
		for rows.Next() {
			if err := rows.Scan(&label, &id); err != nil {
				rows.Close()
				return fail(err)
			}
			if code == 0 || string(label) != ix.labels[i][code-1] {
				at := slices.IndexFunc(ix.labels[i], func(l string) bool { return l == string(label) })
				if at < 0 {
					if len(ix.labels[i]) == math.MaxUint16-1 {
						rows.Close()
						return nil, fmt.Errorf("read the catalog index: rater %s has more than %d labels", r, math.MaxUint16-1)
					}
					ix.labels[i] = append(ix.labels[i], string(label))
					at = len(ix.labels[i]) - 1
				}
				code = uint16(at + 1)
			}
			if p, ok := slices.BinarySearch(ix.ids, id); ok {
				ix.level[i][p] = code
			}
		}
		if err := closeRows(rows); err != nil {
			return fail(err)
		}
	}
	// The memberships, each a row; a puzzle in none is one row too.
	where = ""
	if cat.loading {
		where = " WHERE " + notLoading("cp.import_id")
	}
	rows, err = cat.x.QueryxContext(ctx, `SELECT cp.puzzle_id, cp.collection_id FROM collection_puzzles cp`+where+` ORDER BY cp.puzzle_id, cp.collection_id`)
	if err != nil {
		return fail(err)
	}
	ix.rowPuzzle = make([]uint32, 0, len(ix.ids)+len(ix.ids)/8)
	ix.rowColl = make([]uint32, 0, cap(ix.rowPuzzle))
	next := 0 // the next puzzle not yet given its rows
	var pid, cid int64
	for rows.Next() {
		if err := rows.Scan(&pid, &cid); err != nil {
			rows.Close()
			return fail(err)
		}
		for next < len(ix.ids) && ix.ids[next] < pid {
			if len(ix.rowPuzzle) == 0 || ix.rowPuzzle[len(ix.rowPuzzle)-1] != uint32(next) {
				ix.rowPuzzle, ix.rowColl = append(ix.rowPuzzle, uint32(next)), append(ix.rowColl, 0)
			}
			next++
		}
		if next == len(ix.ids) || ix.ids[next] != pid {
			continue // a membership of a puzzle left out (loading)
		}
		ix.rowPuzzle, ix.rowColl = append(ix.rowPuzzle, uint32(next)), append(ix.rowColl, byID[cid])
	}
	if err := closeRows(rows); err != nil {
		return fail(err)
	}
	for ; next < len(ix.ids); next++ {
		if len(ix.rowPuzzle) == 0 || ix.rowPuzzle[len(ix.rowPuzzle)-1] != uint32(next) {
			ix.rowPuzzle, ix.rowColl = append(ix.rowPuzzle, uint32(next)), append(ix.rowColl, 0)
		}
	}
	ix.countCube()
	return ix, nil
}

// countClass is the count class (an index into CountClasses) of a puzzle
// with sol solutions (-1: not counted), as countClassExpr says.
func countClass(sol int8, undetermined bool) uint8 {
	switch {
	case sol == 1:
		return 0
	case sol == 0:
		return 1
	case sol >= 2:
		return 2
	case undetermined:
		return 3
	}
	return 4
}

// parseTimeLayout reads b, a time in TimeLayout, as milliseconds since
// 1970; ok is false when b is not such a time exactly (then its text
// would not sort as its time).
func parseTimeLayout(b []byte) (ms int64, ok bool) {
	if len(b) != len(TimeLayout) {
		return 0, false
	}
	num := func(from, to int) int {
		n := 0
		for _, c := range b[from:to] {
			if c < '0' || c > '9' {
				ok = false
			}
			n = 10*n + int(c-'0')
		}
		return n
	}
	ok = b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == '.' && b[23] == 'Z'
	y, mo, d, h, mi, sec, milli := num(0, 4), num(5, 7), num(8, 10), num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	t := time.Date(y, time.Month(mo), d, h, mi, sec, milli*int(time.Millisecond), time.UTC)
	// A date out of range (a 13th month) would be normalized.
	ok = ok && t.Year() == y && int(t.Month()) == mo && t.Day() == d && t.Hour() == h && t.Minute() == mi && t.Second() == sec
	return t.UnixMilli(), ok
}

// closeRows closes rows and returns the error that ended them, if any.
func closeRows(rows *sqlx.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// puzzleSet is the set of the puzzles ids (those the index holds), by
// their place in ids: bit p%64 of word p/64.
func (ix *CatalogIndex) puzzleSet(ids []int64) []uint64 {
	set := make([]uint64, (len(ix.ids)+63)/64)
	for _, id := range ids {
		if p, ok := slices.BinarySearch(ix.ids, id); ok {
			set[p/64] |= 1 << (p % 64)
		}
	}
	return set
}

// TagCube counts the rows of the puzzles having tag per combination of
// facet values, from the index ix and the tag's puzzles in the database
// the Catalog reads.
func (cat *Catalog) TagCube(ctx context.Context, ix *CatalogIndex, tag string) (CatalogCube, error) {
	ids, err := cat.tagged(ctx, tag)
	if err != nil {
		return CatalogCube{}, err
	}
	cube := ix.cube
	cube.Cells = ix.cells(ix.puzzleSet(ids))
	return cube, nil
}

// countCube counts the rows per combination of facet values.
func (ix *CatalogIndex) countCube() { ix.cube.Cells = ix.cells(nil) }

// cells counts the rows of the puzzles of set (nil: all) per combination
// of facet values.
func (ix *CatalogIndex) cells(set []uint64) []CubeCell {
	n := len(ix.cube.Raters)
	key := make([]byte, 8+2*n)
	counts := map[string]*int64{}
	for r, p := range ix.rowPuzzle {
		if set != nil && set[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		c := ix.rowColl[r]
		key[0], key[1], key[2], key[3] = byte(c), byte(c>>8), byte(c>>16), byte(c>>24)
		key[4], key[5], key[6], key[7] = ix.shape[p], byte(ix.givens[p]), byte(ix.givens[p]>>8), ix.count[p]
		for i := range n {
			key[8+2*i], key[9+2*i] = byte(ix.level[i][p]), byte(ix.level[i][p]>>8)
		}
		if n := counts[string(key)]; n != nil {
			*n++ // a look-up by string(key) copies nothing
		} else {
			one := int64(1)
			counts[string(key)] = &one
		}
	}
	cells := make([]CubeCell, 0, len(counts))
	for k, rows := range counts {
		c := uint32(k[0]) | uint32(k[1])<<8 | uint32(k[2])<<16 | uint32(k[3])<<24
		cell := CubeCell{Shape: ix.shapes[k[4]], Givens: int(k[5]) | int(k[6])<<8, Count: CountClasses[k[7]],
			Levels: make([]*string, n), Rows: *rows}
		if c != 0 {
			cell.Collection = &ix.collNames[c-1]
		}
		for i := range n {
			if l := int(k[8+2*i]) | int(k[9+2*i])<<8; l != 0 {
				cell.Levels[i] = &ix.labels[i][l-1]
			}
		}
		cells = append(cells, cell)
	}
	return cells
}

// Cube returns the facet cube of the rows the index holds.
func (ix *CatalogIndex) Cube() CatalogCube { return ix.cube }

// matcher tests a row of the index against a filter.
type matcher struct {
	ix *CatalogIndex
	// coll: -1 any, 0 none, else 1 + an index into colls; shape, givens,
	// count: -1 any; levels: per rater, -1 any.
	coll, shape, givens, count int
	levels                     []int
	// tagged, when not nil, is the set of puzzles (by their place in
	// ids) having the filter's tag.
	tagged []uint64
	// none is true when nothing matches (a value the lab does not hold).
	none bool
}

// matcher returns the test of f, whose tag the puzzles tagged have; ok
// is false when the index cannot tell (a level of a rater it does not
// hold).
func (ix *CatalogIndex) matcher(f CatalogFilter, tagged []int64) (m matcher, ok bool) {
	m = matcher{ix: ix, coll: -1, shape: -1, givens: -1, count: -1, levels: make([]int, len(ix.cube.Raters))}
	if f.Tag != "" {
		m.tagged = ix.puzzleSet(tagged)
	}
	switch {
	case f.NoCollection:
		m.coll = 0
	case f.Collection != "":
		at := slices.Index(ix.collNames, f.Collection)
		m.coll, m.none = at+1, at < 0
	}
	if f.Shape != "" {
		m.shape = slices.Index(ix.shapes, f.Shape)
		m.none = m.none || m.shape < 0
	}
	if f.Givens != nil {
		m.givens = *f.Givens
	}
	if f.Count != "" {
		m.count = slices.Index(CountClasses, f.Count)
		m.none = m.none || m.count < 0
	}
	for i := range m.levels {
		m.levels[i] = -1
	}
	for r, l := range f.Levels {
		i := slices.Index(ix.cube.Raters, r)
		if i < 0 {
			return m, false
		}
		at := slices.Index(ix.labels[i], l)
		m.levels[i], m.none = at+1, m.none || at < 0
	}
	return m, true
}

// all tells whether every row matches.
func (m *matcher) all() bool {
	return m.tagged == nil && m.coll < 0 && m.shape < 0 && m.givens < 0 && m.count < 0 && !slices.ContainsFunc(m.levels, func(l int) bool { return l >= 0 })
}

// match tells whether row r matches.
func (m *matcher) match(r int) bool {
	ix := m.ix
	p := ix.rowPuzzle[r]
	if m.coll >= 0 && int(ix.rowColl[r]) != m.coll ||
		m.shape >= 0 && int(ix.shape[p]) != m.shape ||
		m.givens >= 0 && int(ix.givens[p]) != m.givens ||
		m.count >= 0 && int(ix.count[p]) != m.count ||
		m.tagged != nil && m.tagged[p/64]&(1<<(p%64)) == 0 {
		return false
	}
	for i, l := range m.levels {
		if l >= 0 && int(ix.level[i][p]) != l {
			return false
		}
	}
	return true
}

// rowCollID is row r's collection id, 0 for none.
func (ix *CatalogIndex) rowCollID(r int) int64 {
	if c := ix.rowColl[r]; c != 0 {
		return ix.colls[c-1]
	}
	return 0
}

// candidates returns the ids of the puzzles whose rows may be on the page
// of q, of n rows after the token after, sorted by col: in id order, or
// in the order of a column the index holds, those of the next n rows under
// q's filter; under another sort, those of every row under the filter
// when there are at most indexSmallSet. ok is false
// when the index cannot narrow the page down (the page is then read as
// without it).
func (ix *CatalogIndex) candidates(q CatalogQuery, col sortCol, after *pageToken, n int, tagged []int64) (ids []int64, ok bool) {
	m, ok := ix.matcher(q.Filter, tagged)
	if !ok {
		return nil, false
	}
	if m.none {
		return []int64{}, true
	}
	// The rows in no collection have no value of a membership's
	// column: sorted by one, they come in id order.
	if col.expr == "p.id" || col.member && q.Filter.NoCollection {
		start, step := 0, 1
		if q.Desc {
			start, step = len(ix.rowPuzzle)-1, -1
		}
		// A token of the rows with a value (a forged one: the puzzles
		// in no collection have none) restarts, as the SQL does.
		if after != nil && (after.V == nil || !col.member) {
			// The first row at or past the token's (id, collection id).
			at, found := ix.search(after.ID, after.CID)
			start = at
			if found {
				start++
			}
			if q.Desc {
				start = at - 1
			}
		}
		for r := start; r >= 0 && r < len(ix.rowPuzzle) && len(ids) < n; r += step {
			if m.match(r) {
				if id := ix.ids[ix.rowPuzzle[r]]; len(ids) == 0 || ids[len(ids)-1] != id {
					ids = append(ids, id)
				}
			}
		}
		if ids == nil {
			ids = []int64{}
		}
		return ids, true
	}
	if m.all() {
		// Every row: an index on the column gives the page in order.
		return nil, false
	}
	if _, held := ix.sortKey(q.Sort); held {
		return ix.firstRows(m, q, after, n)
	}
	ids = []int64{}
	rows := 0
	for r := range ix.rowPuzzle {
		if m.match(r) {
			if rows++; rows > ix.smallSet {
				return nil, false
			}
			if id := ix.ids[ix.rowPuzzle[r]]; len(ids) == 0 || ids[len(ids)-1] != id {
				ids = append(ids, id)
			}
		}
	}
	return ids, true
}

// sortKey is how the index reads a sort column of row r: code, its value
// as a number in the database's order (ok false: NULL), and value, its
// value as a page token holds it (nil: NULL).
type sortKey struct {
	code  func(r int) (int64, bool)
	value func(r int) any
}

// sortKey returns the sort column name as the index holds it; ok is false
// for a column it does not hold (label, position, a rating).
func (ix *CatalogIndex) sortKey(name string) (k sortKey, ok bool) {
	pz := func(r int) uint32 { return ix.rowPuzzle[r] }
	same := func(code func(r int) (int64, bool)) func(r int) any {
		return func(r int) any {
			if c, ok := code(r); ok {
				return c
			}
			return nil
		}
	}
	switch name {
	case "givens":
		k.code = func(r int) (int64, bool) { return int64(ix.givens[pz(r)]), true }
		k.value = same(k.code)
	case "size":
		k.code = func(r int) (int64, bool) { return int64(ix.shapeSize[ix.shape[pz(r)]]), true }
		k.value = same(k.code)
	case "solution_count":
		k.code = func(r int) (int64, bool) { n := int64(ix.solutions[pz(r)]); return n, n >= 0 }
		k.value = same(k.code)
	case "collection":
		k.code = func(r int) (int64, bool) { c := ix.rowColl[r]; return int64(ix.collRank[c]), c != 0 }
		k.value = func(r int) any {
			if c := ix.rowColl[r]; c != 0 {
				return ix.collNames[c-1]
			}
			return nil
		}
	case "count_status":
		k.code = func(r int) (int64, bool) { st := ix.status[pz(r)]; return int64(st), st != 0 }
		k.value = func(r int) any {
			if st := ix.status[pz(r)]; st != 0 {
				return ix.statuses[st-1]
			}
			return nil
		}
	case "created_at":
		if ix.created == nil && len(ix.ids) > 0 {
			return k, false
		}
		k.code = func(r int) (int64, bool) { return ix.created[pz(r)], true }
		k.value = func(r int) any { return time.UnixMilli(ix.created[pz(r)]).UTC().Format(TimeLayout) }
	default:
		return k, false
	}
	return k, true
}

// firstRows returns the ids of the puzzles of the first n rows under m
// past the token after, in the order of q's sort, when the index holds
// its column: a pass over every row keeping the n first in a heap. ok is
// false when it does not, or the token is not one of its rows.
func (ix *CatalogIndex) firstRows(m matcher, q CatalogQuery, after *pageToken, n int) (ids []int64, ok bool) {
	key, ok := ix.sortKey(q.Sort)
	if !ok {
		return nil, false
	}
	// A row's place: the rows with a value in its order, then those
	// without (NULL), each by id and collection id; all the other way
	// round with Desc, NULLs still last.
	type place struct {
		null          bool
		code, id, cid int64
	}
	placeOf := func(r int) place {
		code, ok := key.code(r)
		return place{!ok, code, ix.ids[ix.rowPuzzle[r]], ix.rowCollID(r)}
	}
	order := func(a, b place) int {
		if a.null != b.null {
			if a.null {
				return 1
			}
			return -1
		}
		c := 0
		if !a.null {
			c = cmp.Compare(a.code, b.code)
		}
		c = cmp.Or(c, cmp.Compare(a.id, b.id), cmp.Compare(a.cid, b.cid))
		if q.Desc {
			return -c
		}
		return c
	}
	var from *place
	if after != nil {
		r, found := ix.search(after.ID, after.CID)
		if !found {
			return nil, false
		}
		if key.value(r) != after.V {
			return nil, false // a token of another row: read as without the index
		}
		p := placeOf(r)
		from = &p
	}
	// h is a heap of the first rows found, the last of them on top. The
	// rows are read in the page's order of id, so that a column that
	// grows with id (created_at) seldom changes the heap.
	type entry struct {
		r int
		p place
	}
	h := make([]entry, 0, n)
	r, step := 0, 1
	if q.Desc {
		r, step = len(ix.rowPuzzle)-1, -1
	}
	for ; r >= 0 && r < len(ix.rowPuzzle); r += step {
		if !m.match(r) {
			continue
		}
		p := placeOf(r)
		if from != nil && order(*from, p) >= 0 || len(h) == n && order(p, h[0].p) >= 0 {
			continue
		}
		if len(h) < n {
			h = append(h, entry{r, p})
			for i := len(h) - 1; i > 0 && order(h[(i-1)/2].p, h[i].p) < 0; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
			continue
		}
		h[0] = entry{r, p}
		for i := 0; ; {
			c := 2*i + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && order(h[c].p, h[c+1].p) < 0 {
				c++
			}
			if order(h[i].p, h[c].p) >= 0 {
				break
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	ids = make([]int64, 0, len(h))
	for _, e := range h {
		ids = append(ids, e.p.id)
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// search returns the first row at or past (id, collection id) and
// whether it is that row.
func (ix *CatalogIndex) search(id, cid int64) (int, bool) {
	r := sort.Search(len(ix.rowPuzzle), func(r int) bool {
		return cmp.Or(cmp.Compare(ix.ids[ix.rowPuzzle[r]], id), cmp.Compare(ix.rowCollID(r), cid)) >= 0
	})
	return r, r < len(ix.rowPuzzle) && ix.ids[ix.rowPuzzle[r]] == id && ix.rowCollID(r) == cid
}

// idList is ids as an SQL list of integer literals, "(1, 2, 3)"; the
// ids are numbers the index read, so writing them into the query is
// safe, and no engine's limit on parameters applies.
func idList(ids []int64) string {
	var b strings.Builder
	b.Grow(len(ids) * 8)
	b.WriteByte('(')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(')')
	return b.String()
}
