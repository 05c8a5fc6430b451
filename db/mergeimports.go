package db

// Merge's imports stage: the provenance of finished imports.

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// dstImport is the destination's id of the source import id, or nil
// (NULL) for none or one not merged.
func (m *merger) dstImport(id sql.NullInt64) any {
	if d, ok := m.imports[id.Int64]; ok && id.Valid {
		return d
	}
	return nil
}

type importRow struct {
	id                             int64
	fileName, sha, format, started string
	collection                     sql.NullInt64
	finished                       sql.NullString
	read, added, duplicate, reject int64
	notes                          string
	records                        int64
}

// mergeImports copies the provenance of the source's finished imports:
// an import is its file checksum, collection and start time. Imports
// still loading in the source are left out, with what they wrote.
func (m *merger) mergeImports(ctx context.Context) error {
	var loading int64
	if err := m.src.GetContext(ctx, &loading, `SELECT COUNT(*) FROM imports WHERE state <> 'done'`); err != nil {
		return dbError(err, "count loading imports")
	}
	if loading > 0 {
		m.counts[MergeImports].Skipped += loading
		m.note("%d imports still loading in the source were left out, with the puzzles and memberships only they wrote", loading)
	}
	read := m.readImports
	write := func(tx *sqlx.Tx, d *delta, rows []importRow) error {
		for _, r := range rows {
			var coll sql.NullInt64
			if r.collection.Valid {
				if id, ok := m.collections[r.collection.Int64]; ok {
					coll = sql.NullInt64{Int64: id, Valid: true}
				}
			}
			var found int64
			err := selectAll(ctx, tx, "find import", tx.Rebind(`SELECT id, collection_id FROM imports
				WHERE file_sha256 = ? AND started_at = ?`), []any{r.sha, r.started}, func(rs *sqlx.Rows) error {
				var (
					id int64
					c  sql.NullInt64
				)
				if err := rs.Scan(&id, &c); err != nil {
					return err
				}
				if c == coll && found == 0 {
					found = id
				}
				return nil
			})
			if err != nil {
				return err
			}
			if found != 0 {
				d.ids[r.id] = found
				d.c(MergeImports).Existing++
				continue
			}
			err = tx.QueryRowxContext(ctx, tx.Rebind(`
				INSERT INTO imports (file_name, file_sha256, format, collection_id, started_at, finished_at, puzzles_read,
					puzzles_new, puzzles_duplicate, puzzles_rejected, notes, state, records_done)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'done', ?)
				RETURNING id`), r.fileName, r.sha, r.format, coll, r.started, r.finished, r.read, r.added,
				r.duplicate, r.reject, r.notes, r.records).Scan(&found)
			if err != nil {
				return dbError(err, "add import of "+r.fileName)
			}
			d.ids[r.id] = found
			d.c(MergeImports).Added++
		}
		return nil
	}
	return mergePages(ctx, m, MergeImports, m.imports, read, write, func(r importRow) badKey { return badKey{"imports", r.id, 0, ""} })
}

// readImports reads a page of the source's finished imports.
func (m *merger) readImports(ctx context.Context, after int64, n int) ([]importRow, int64, error) {
	var out []importRow
	err := selectAll(ctx, m.src, "read imports", m.src.Rebind(`
		SELECT id, file_name, file_sha256, format, collection_id, started_at, finished_at, puzzles_read,
			puzzles_new, puzzles_duplicate, puzzles_rejected, notes, records_done
		FROM imports WHERE id > ? AND state = 'done' ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r importRow
		err := rs.Scan(&r.id, &r.fileName, &r.sha, &r.format, &r.collection, &r.started, &r.finished, &r.read,
			&r.added, &r.duplicate, &r.reject, &r.notes, &r.records)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}
