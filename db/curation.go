package db

// Curation as the web interface does it (sudokulab serve --write): the
// rows a catalog selection holds, frozen as a collection, tagged or rated;
// and the tags on puzzles (table puzzle_tags). Each write is one short
// transaction.

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// Selection returns the puzzles of the rows of puzzle_catalog that q's
// filter selects, in q's order (its sort, ties by id and collection), from
// the first row whatever q.After says: each puzzle once, at the place of
// its first row, with its label there ("" for a puzzle in no collection),
// as FreezeCollection orders and labels a selection. More than max rows
// is an EINVALID error, so that no curation holds the write lock long or
// the selection in memory unbounded.
func (cat *Catalog) Selection(ctx context.Context, q CatalogQuery, max int) ([]FrozenMember, error) {
	q.After = ""
	page, err := cat.page(ctx, q, max)
	if err != nil {
		return nil, err
	}
	if page.Next != "" {
		return nil, sudokulab.Errorf(sudokulab.EINVALID,
			"the selection has more than %d rows: choose fewer (a collection, givens, a level), or use the command line (sudokulab collections add, rate --where), which has no such bound", max)
	}
	seen := make(map[int64]bool, len(page.Rows))
	out := make([]FrozenMember, 0, len(page.Rows))
	for _, r := range page.Rows {
		if seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		m := FrozenMember{PuzzleID: r.ID}
		if r.Label != nil {
			m.Label = *r.Label
		}
		out = append(out, m)
	}
	return out, nil
}

// FreezeSelection is FreezeMembers in a transaction of its own.
func (d *DB) FreezeSelection(ctx context.Context, name, description string, sel []FrozenMember) (n int, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		n, err = FreezeMembers(ctx, tx, name, description, false, sel)
		return err
	})
	return n, err
}

// PuzzlesByID returns the stored puzzles of ids, in the order of ids; an
// id naming no puzzle is left out.
func PuzzlesByID(ctx context.Context, x sqlx.ExtContext, ids []int64) ([]sudokulab.Puzzle, error) {
	byID := make(map[int64]sudokulab.Puzzle, len(ids))
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := x.QueryxContext(ctx, x.Rebind(`SELECT `+puzzleCols+` FROM puzzles WHERE id IN (?`+
			strings.Repeat(", ?", len(part)-1)+`)`), args...)
		if err != nil {
			return nil, dbError(err, "read puzzles")
		}
		for rows.Next() {
			p, err := scanPuzzle(rows)
			if err != nil {
				rows.Close()
				return nil, dbError(err, "read puzzles")
			}
			byID[p.ID] = p
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, dbError(err, "read puzzles")
		}
	}
	out := make([]sudokulab.Puzzle, 0, len(byID))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// CheckTag reports a tag that is empty, longer than
// sudokulab.MaxNameBytes, not UTF-8, or holds a control character, as an
// EINVALID error.
func CheckTag(tag string) error {
	if err := sudokulab.CheckName("tag", tag); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "tag")
	}
	return nil
}

// TagPuzzles puts tag on each puzzle of ids that lacks it and returns how
// many it tagged; an id naming no puzzle is left out. A puzzle having tag
// from an import still loading (not shown until it is published) counts
// as lacking it: the tag becomes the caller's (import_id NULL), which the
// import's failure leaves in place. A bad tag (CheckTag) is an EINVALID
// error.
func TagPuzzles(ctx context.Context, x sqlx.ExtContext, tag string, ids []int64) (int, error) {
	if err := CheckTag(tag); err != nil {
		return 0, err
	}
	// The tag an import still loading gave (not shown yet) becomes the
	// curator's, so that the import's failure does not take it back.
	n, err := execByIDs(ctx, x, ids, []any{tag, FormatTime(now())}, func(in string) string {
		return `INSERT INTO puzzle_tags (puzzle_id, tag, added_at)
			SELECT id, ?, ? FROM puzzles WHERE id IN ` + in + `
			ON CONFLICT (puzzle_id, tag) DO UPDATE SET import_id = NULL, added_at = excluded.added_at
			WHERE puzzle_tags.import_id IN (SELECT id FROM imports WHERE state = 'loading')`
	})
	return n, dbError(err, "tag puzzles "+tag)
}

// UntagPuzzles takes tag off each puzzle of ids that has it and returns
// how many it took it off.
func UntagPuzzles(ctx context.Context, x sqlx.ExtContext, tag string, ids []int64) (int, error) {
	n, err := execByIDs(ctx, x, ids, []any{tag}, func(in string) string {
		return `DELETE FROM puzzle_tags WHERE tag = ? AND puzzle_id IN ` + in
	})
	return n, dbError(err, "untag puzzles "+tag)
}

// execByIDs runs the statement query gives for a list of placeholders
// (in: "(?, ?, ...)") once per chunk of ids, with args before the chunk's
// ids, and returns the rows affected in all.
func execByIDs(ctx context.Context, x sqlx.ExtContext, ids []int64, args []any, query func(in string) string) (int, error) {
	n := 0
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		all := append(make([]any, 0, len(args)+len(part)), args...)
		for _, id := range part {
			all = append(all, id)
		}
		res, err := x.ExecContext(ctx, x.Rebind(query("(?"+strings.Repeat(", ?", len(part)-1)+")")), all...)
		if err != nil {
			return n, err
		}
		k, err := res.RowsAffected()
		if err != nil {
			return n, err
		}
		n += int(k)
	}
	return n, nil
}

// Tag is TagPuzzles in a transaction of its own.
func (d *DB) Tag(ctx context.Context, tag string, ids []int64) (n int, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		n, err = TagPuzzles(ctx, tx, tag, ids)
		return err
	})
	return n, err
}

// Untag is UntagPuzzles in a transaction of its own.
func (d *DB) Untag(ctx context.Context, tag string, ids []int64) (n int, err error) {
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		n, err = UntagPuzzles(ctx, tx, tag, ids)
		return err
	})
	return n, err
}

// PuzzleTag is a tag on a puzzle, or a puzzle with a tag.
type PuzzleTag struct {
	PuzzleID int64     `json:"puzzle_id"`
	Tag      string    `json:"tag"`
	AddedAt  time.Time `json:"added_at"`
}

// PuzzleTags returns the tags on a puzzle, by tag, leaving out those of
// imports still loading.
func PuzzleTags(ctx context.Context, x sqlx.ExtContext, puzzleID int64) ([]PuzzleTag, error) {
	return scanTags(ctx, x, `SELECT t.puzzle_id, t.tag, t.added_at FROM puzzle_tags t WHERE t.puzzle_id = ? AND `+
		notLoading("t.import_id")+` ORDER BY t.tag`, puzzleID)
}

// TaggedPuzzles returns the first limit puzzles (by id) having tag,
// leaving out what imports still loading have written.
func TaggedPuzzles(ctx context.Context, x sqlx.ExtContext, tag string, limit int) ([]PuzzleTag, error) {
	return scanTags(ctx, x, `SELECT t.puzzle_id, t.tag, t.added_at FROM puzzle_tags t JOIN puzzles p ON p.id = t.puzzle_id
		WHERE t.tag = ? AND `+notLoading("p.import_id")+` AND `+notLoading("t.import_id")+` ORDER BY t.puzzle_id LIMIT `+strconv.Itoa(limit), tag)
}

func scanTags(ctx context.Context, x sqlx.ExtContext, query string, args ...any) ([]PuzzleTag, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(query), args...)
	if err != nil {
		return nil, dbError(err, "read tags")
	}
	defer rows.Close()
	out := []PuzzleTag{}
	for rows.Next() {
		var t PuzzleTag
		if err := rows.Scan(&t.PuzzleID, &t.Tag, timeCol{&t.AddedAt}); err != nil {
			return nil, dbError(err, "read tags")
		}
		out = append(out, t)
	}
	return out, dbError(rows.Err(), "read tags")
}

// TagCount is a tag with the number of puzzles having it and when it was
// last put on one.
type TagCount struct {
	Tag       string    `json:"tag"`
	Puzzles   int64     `json:"puzzles"`
	LastAdded time.Time `json:"last_added"`
}

// ListTags returns every tag with its number of puzzles, by tag, leaving
// out what imports still loading have written.
func ListTags(ctx context.Context, x sqlx.ExtContext) ([]TagCount, error) {
	rows, err := x.QueryxContext(ctx, `SELECT t.tag, COUNT(*), MAX(t.added_at) FROM puzzle_tags t JOIN puzzles p ON p.id = t.puzzle_id
		WHERE `+notLoading("p.import_id")+` AND `+notLoading("t.import_id")+` GROUP BY t.tag ORDER BY t.tag`)
	if err != nil {
		return nil, dbError(err, "list tags")
	}
	defer rows.Close()
	out := []TagCount{}
	for rows.Next() {
		var c TagCount
		if err := rows.Scan(&c.Tag, &c.Puzzles, timeCol{&c.LastAdded}); err != nil {
			return nil, dbError(err, "list tags")
		}
		out = append(out, c)
	}
	return out, dbError(rows.Err(), "list tags")
}
