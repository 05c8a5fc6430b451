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
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

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
}

// indexSmallSet bounds the rows a filter may keep for a page under a sort
// other than id to be read through the ids of all of them (SQL sorts
// them); a filter keeping more is read in the sort's order, as without
// the index.
const indexSmallSet = 10000

// Index reads the catalog index, in one reading of each table.
func (cat *Catalog) Index(ctx context.Context) (*CatalogIndex, error) {
	ix := &CatalogIndex{}
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
	rows, err = cat.x.QueryxContext(ctx, `SELECT p.id, p.box_rows, p.box_cols, p.givens, `+countClassExpr+` FROM puzzles p`+where+` ORDER BY p.id`)
	if err != nil {
		return fail(err)
	}
	shapeOf := map[string]uint8{}
	for rows.Next() {
		var id int64
		var br, bc, givens int
		var class string
		if err := rows.Scan(&id, &br, &bc, &givens, &class); err != nil {
			rows.Close()
			return fail(err)
		}
		sh := strconv.Itoa(br) + "x" + strconv.Itoa(bc)
		s, ok := shapeOf[sh]
		if !ok {
			if len(ix.shapes) > math.MaxUint8 {
				rows.Close()
				return nil, fmt.Errorf("read the catalog index: more than %d box shapes", math.MaxUint8+1)
			}
			s = uint8(len(ix.shapes))
			shapeOf[sh] = s
			ix.shapes = append(ix.shapes, sh)
		}
		ix.ids = append(ix.ids, id)
		ix.shape = append(ix.shape, s)
		ix.givens = append(ix.givens, uint16(givens))
		ix.count = append(ix.count, uint8(slices.Index(CountClasses, class)))
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
		var last string
		code := uint16(0)
		for rows.Next() {
			var label string
			var id int64
			if err := rows.Scan(&label, &id); err != nil {
				rows.Close()
				return fail(err)
			}
			if code == 0 || label != last {
				at := slices.Index(ix.labels[i], label)
				if at < 0 {
					if len(ix.labels[i]) == math.MaxUint16-1 {
						rows.Close()
						return nil, fmt.Errorf("read the catalog index: rater %s has more than %d labels", r, math.MaxUint16-1)
					}
					ix.labels[i] = append(ix.labels[i], label)
					at = len(ix.labels[i]) - 1
				}
				code, last = uint16(at+1), label
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
	for rows.Next() {
		var pid, cid int64
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

// closeRows closes rows and returns the error that ended them, if any.
func closeRows(rows *sqlx.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// countCube counts the rows per combination of facet values.
func (ix *CatalogIndex) countCube() {
	n := len(ix.cube.Raters)
	key := make([]byte, 8+2*n)
	counts := map[string]int64{}
	for r, p := range ix.rowPuzzle {
		c := ix.rowColl[r]
		key[0], key[1], key[2], key[3] = byte(c), byte(c>>8), byte(c>>16), byte(c>>24)
		key[4], key[5], key[6], key[7] = ix.shape[p], byte(ix.givens[p]), byte(ix.givens[p]>>8), ix.count[p]
		for i := range n {
			key[8+2*i], key[9+2*i] = byte(ix.level[i][p]), byte(ix.level[i][p]>>8)
		}
		counts[string(key)]++
	}
	cells := make([]CubeCell, 0, len(counts))
	for k, rows := range counts {
		c := uint32(k[0]) | uint32(k[1])<<8 | uint32(k[2])<<16 | uint32(k[3])<<24
		cell := CubeCell{Shape: ix.shapes[k[4]], Givens: int(k[5]) | int(k[6])<<8, Count: CountClasses[k[7]],
			Levels: make([]*string, n), Rows: rows}
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
	ix.cube.Cells = cells
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
	// none is true when nothing matches (a value the lab does not hold).
	none bool
}

// matcher returns the test of f; ok is false when the index cannot tell
// (a level of a rater it does not hold).
func (ix *CatalogIndex) matcher(f CatalogFilter) (m matcher, ok bool) {
	m = matcher{ix: ix, coll: -1, shape: -1, givens: -1, count: -1, levels: make([]int, len(ix.cube.Raters))}
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

// match tells whether row r matches.
func (m *matcher) match(r int) bool {
	ix := m.ix
	p := ix.rowPuzzle[r]
	if m.coll >= 0 && int(ix.rowColl[r]) != m.coll ||
		m.shape >= 0 && int(ix.shape[p]) != m.shape ||
		m.givens >= 0 && int(ix.givens[p]) != m.givens ||
		m.count >= 0 && int(ix.count[p]) != m.count {
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
// of q, of n rows after the token after, sorted by col: in id order, those
// of the next n rows under q's filter; under another sort, those of every
// row under the filter when there are at most indexSmallSet. ok is false
// when the index cannot narrow the page down (the page is then read as
// without it).
func (ix *CatalogIndex) candidates(q CatalogQuery, col sortCol, after *pageToken, n int) (ids []int64, ok bool) {
	m, ok := ix.matcher(q.Filter)
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
	ids = []int64{}
	rows := 0
	for r := range ix.rowPuzzle {
		if m.match(r) {
			if rows++; rows > indexSmallSet {
				return nil, false
			}
			if id := ix.ids[ix.rowPuzzle[r]]; len(ids) == 0 || ids[len(ids)-1] != id {
				ids = append(ids, id)
			}
		}
	}
	return ids, true
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
