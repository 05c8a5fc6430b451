package db

// Merge's tags stage: the words curators put on puzzles (puzzle_tags).

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type tagCursor struct {
	puzzle int64
	tag    string
}

type tagRow struct {
	puzzle     int64
	tag, added string
	importID   sql.NullInt64
}

// key names the row for the checks.
func (r tagRow) key() badKey { return badKey{"puzzle_tags", r.puzzle, 0, r.tag} }

// mergeTags puts each source puzzle's tags on the destination's same
// puzzle, with the import that gave them. A tag the puzzle has already is
// left alone, with its own time and import: tags carry nothing that could
// conflict. The tags of imports still loading in the source are skipped.
func (m *merger) mergeTags(ctx context.Context) error {
	var loading int64
	if err := m.src.GetContext(ctx, &loading, `SELECT COUNT(*) FROM puzzle_tags t WHERE NOT `+notLoading("t.import_id")); err != nil {
		return dbError(err, "count tags of loading imports")
	}
	m.counts[MergeTags].Skipped += loading
	write := func(tx *sqlx.Tx, d *delta, page []tagRow) error {
		var add []any
		n := 0
		for _, r := range page {
			p, ok := m.puzzles[r.puzzle]
			if !ok { // a puzzle left out: of an import still loading, or invalid
				d.c(MergeTags).Skipped++
				continue
			}
			add = append(add, p, r.tag, r.added, m.dstImport(r.importID))
			n++
		}
		if n == 0 {
			return nil
		}
		return addRows(ctx, tx, d, MergeTags, "add tags", n, `INSERT INTO puzzle_tags (puzzle_id, tag, added_at, import_id)
			VALUES `+values(n, 4)+` ON CONFLICT (puzzle_id, tag) DO NOTHING`, add...)
	}
	return mergePages(ctx, m, MergeTags, nil, m.readTags, write, tagRow.key)
}

// readTags reads a page of the source's tags, by puzzle and tag, but for
// those of imports still loading.
func (m *merger) readTags(ctx context.Context, after tagCursor, n int) ([]tagRow, tagCursor, error) {
	var out []tagRow
	err := selectAll(ctx, m.src, "read tags", m.src.Rebind(`
		SELECT puzzle_id, tag, added_at, import_id FROM puzzle_tags t
		WHERE (puzzle_id, tag) > (?, ?) AND `+notLoading("t.import_id")+` ORDER BY puzzle_id, tag LIMIT ?`),
		[]any{after.puzzle, after.tag, n}, func(rs *sqlx.Rows) error {
			var r tagRow
			err := rs.Scan(&r.puzzle, &r.tag, &r.added, &r.importID)
			out = append(out, r)
			return err
		})
	if len(out) == 0 {
		return nil, after, err
	}
	last := out[len(out)-1]
	return out, tagCursor{last.puzzle, last.tag}, err
}

// checkTags checks each tag as the web interface checks what a curator
// types (CheckTag), and its time.
func (m *merger) checkTags(ctx context.Context) error {
	return checkPages(ctx, m, "puzzle_tags", m.readTags, func(r tagRow) {
		err := CheckTag(r.tag)
		if err == nil {
			err = checkStamps([2]string{"added_at", r.added})
		}
		if err != nil {
			m.invalid(r.key(), fmt.Sprintf("puzzle %d, tag %.80q", r.puzzle, r.tag), err)
		}
	})
}
