package db

// Merge's memberships stage: the puzzles of each collection, in order.

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type memberCursor struct{ collection, position, puzzle int64 }

type memberRow struct {
	collection, puzzle, position int64
	label                        string
	importID, line               sql.NullInt64
	metadata                     sql.NullString
	added                        string
}

// mergeMemberships merges the memberships of puzzles in collections: a
// missing one is appended to the destination's collection, in the
// source's order; a stored one keeps its place, and gains a label if it
// has none; another label is a conflict.
func (m *merger) mergeMemberships(ctx context.Context) error {
	var loading int64
	if err := m.src.GetContext(ctx, &loading, `SELECT COUNT(*) FROM collection_puzzles cp WHERE NOT `+notLoading("cp.import_id")); err != nil {
		return dbError(err, "count memberships of loading imports")
	}
	m.counts[MergeMemberships].Skipped += loading
	write := func(tx *sqlx.Tx, d *delta, page []memberRow) error { return m.writeMemberships(ctx, tx, d, page) }
	return mergePages(ctx, m, MergeMemberships, nil, m.readMemberships, write, func(r memberRow) badKey { return badKey{"collection_puzzles", r.collection, r.puzzle, ""} })
}

// mappedMember is a source membership with its collection and puzzle
// mapped to the destination's.
type mappedMember struct {
	memberRow
	dstColl, dstPuzzle int64
}

// writeMemberships writes one page of memberships in the transaction tx.
func (m *merger) writeMemberships(ctx context.Context, tx *sqlx.Tx, d *delta, page []memberRow) error {
	var rows []mappedMember
	for _, r := range page {
		c, okC := m.collections[r.collection]
		p, okP := m.puzzles[r.puzzle]
		if !okC || !okP {
			d.c(MergeMemberships).Skipped++
			continue
		}
		rows = append(rows, mappedMember{r, c, p})
	}
	if len(rows) == 0 {
		return nil
	}
	found, err := findMemberships(ctx, tx, rows)
	if err != nil {
		return err
	}
	next := map[int64]int64{}  // next position per destination collection
	frozen := map[int64]bool{} // whether it is frozen and not added by this merge
	var add []any
	n := 0
	for i, r := range rows {
		label, ok := found[int64(i)]
		switch {
		case ok && (label == r.label || r.label == ""):
			d.c(MergeMemberships).Existing++
		case ok && label == "":
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE collection_puzzles SET label = ?
				WHERE collection_id = ? AND puzzle_id = ?`), r.label, r.dstColl, r.dstPuzzle); err != nil {
				return dbError(err, "label membership")
			}
			d.c(MergeMemberships).Updated++
		case ok:
			d.conflict(MergeMemberships, fmt.Sprintf("puzzle %d in collection %d", r.dstPuzzle, r.dstColl),
				fmt.Sprintf("label %q here, %q in the source", label, r.label))
		default:
			pos, seen := next[r.dstColl]
			if !seen {
				var f int64
				if err := tx.QueryRowxContext(ctx, tx.Rebind(`SELECT
					(SELECT COALESCE(MAX(position), 0) + 1 FROM collection_puzzles WHERE collection_id = ?),
					(SELECT frozen FROM collections WHERE id = ?)`), r.dstColl, r.dstColl).Scan(&pos, &f); err != nil {
					return dbError(err, "next position")
				}
				frozen[r.dstColl] = f == 1 && !m.created[r.dstColl]
			}
			next[r.dstColl] = pos
			if frozen[r.dstColl] { // changed only when asked (collections add)
				d.conflict(MergeMemberships, fmt.Sprintf("puzzle %d in collection %d", r.dstPuzzle, r.dstColl),
					"the collection is frozen here and does not hold the puzzle; not added")
				continue
			}
			next[r.dstColl] = pos + 1
			imp := m.dstImport(r.importID)
			add = append(add, r.dstColl, r.dstPuzzle, pos, r.label, imp, r.line, r.metadata, r.added)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return addRows(ctx, tx, d, MergeMemberships, "add memberships", n, `INSERT INTO collection_puzzles
		(collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at)
		VALUES `+values(n, 8)+` ON CONFLICT DO NOTHING`, add...)
}

// findMemberships returns the labels of the memberships of rows the
// destination holds, by index in rows.
func findMemberships(ctx context.Context, tx *sqlx.Tx, rows []mappedMember) (map[int64]string, error) {
	keys := make([][]any, len(rows))
	for i, r := range rows {
		keys[i] = []any{int64(i), r.dstColl, r.dstPuzzle}
	}
	cte, args := keyTable("k", []string{"i", "c", "p"}, []string{"BIGINT", "BIGINT", "BIGINT"}, keys)
	found := map[int64]string{}
	err := selectAll(ctx, tx, "find memberships", tx.Rebind(`WITH `+cte+`
		SELECT k.i, cp.label FROM k CROSS JOIN collection_puzzles cp WHERE cp.collection_id = k.c AND cp.puzzle_id = k.p`),
		args, func(rs *sqlx.Rows) error {
			var (
				i     int64
				label string
			)
			err := rs.Scan(&i, &label)
			found[i] = label
			return err
		})
	return found, err
}

// readMemberships reads a page of the source's memberships, but for those of imports still loading.
func (m *merger) readMemberships(ctx context.Context, after memberCursor, n int) ([]memberRow, memberCursor, error) {
	var out []memberRow
	err := selectAll(ctx, m.src, "read memberships", m.src.Rebind(`
		SELECT collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at
		FROM collection_puzzles cp
		WHERE (collection_id, position, puzzle_id) > (?, ?, ?) AND `+notLoading("cp.import_id")+`
		ORDER BY collection_id, position, puzzle_id LIMIT ?`),
		[]any{after.collection, after.position, after.puzzle, n}, func(rs *sqlx.Rows) error {
			var r memberRow
			err := rs.Scan(&r.collection, &r.puzzle, &r.position, &r.label, &r.importID, &r.line, &r.metadata, &r.added)
			out = append(out, r)
			return err
		})
	if len(out) == 0 {
		return nil, after, err
	}
	last := out[len(out)-1]
	return out, memberCursor{last.collection, last.position, last.puzzle}, err
}
