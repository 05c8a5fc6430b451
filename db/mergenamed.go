package db

// Merge's first stages: collections and experiments, matched by name.

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

// namedRow is a row of collections or experiments.
type namedRow struct {
	id                         int64
	name, description, created string
	frozen                     int64 // collections only
}

// mergeCollections merges collections by name. Those an import still
// loading in the source created are left out, as the source's readers do.
func (m *merger) mergeCollections(ctx context.Context) error {
	var loading int64
	if err := m.src.GetContext(ctx, &loading, `SELECT COUNT(*) FROM collections c WHERE NOT `+notLoading("c.import_id")); err != nil {
		return dbError(err, "count collections of loading imports")
	}
	if loading > 0 {
		m.counts[MergeCollections].Skipped += loading
		m.note("%d collections created by imports still loading in the source were left out", loading)
	}
	return m.mergeNamed(ctx, MergeCollections, "collection", collectionsQuery, m.collections)
}

// collectionsQuery and experimentsQuery read a page of the source's
// collections and experiments.
var (
	collectionsQuery = `SELECT id, name, description, created_at, frozen FROM collections c
		WHERE id > ? AND ` + notLoading("c.import_id") + ` ORDER BY id LIMIT ?`
	experimentsQuery = `SELECT id, name, description, created_at, 0 FROM experiments WHERE id > ? ORDER BY id LIMIT ?`
)

// mergeExperiments merges experiments by name.
func (m *merger) mergeExperiments(ctx context.Context) error {
	return m.mergeNamed(ctx, MergeExperiments, "experiment", experimentsQuery, m.experiments)
}

// mergeNamed merges the rows of collections or experiments (kind) read by
// query: a row is its name; a missing description is filled in.
func (m *merger) mergeNamed(ctx context.Context, kind, what, query string, ids map[int64]int64) error {
	read := m.readNamed(kind, query)
	write := func(tx *sqlx.Tx, d *delta, rows []namedRow) error {
		for _, r := range rows {
			var id int64
			cols, params, args := "name, description, created_at", "?, ?, ?", []any{r.name, r.description, r.created}
			if kind == MergeCollections {
				cols, params, args = cols+", frozen", params+", ?", append(args, r.frozen)
			}
			err := tx.QueryRowxContext(ctx, tx.Rebind(`INSERT INTO `+kind+` (`+cols+`)
				VALUES (`+params+`) ON CONFLICT (name) DO NOTHING RETURNING id`), args...).Scan(&id)
			if err == nil {
				d.c(kind).Added++
				d.ids[r.id] = id
				d.created = append(d.created, id)
				continue
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return dbError(err, "add "+what+" "+r.name)
			}
			var desc string
			if err := tx.QueryRowxContext(ctx, tx.Rebind(`SELECT id, description FROM `+kind+` WHERE name = ?`), r.name).Scan(&id, &desc); err != nil {
				return dbError(err, "find "+what+" "+r.name)
			}
			d.ids[r.id] = id
			if desc == "" && r.description != "" {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE `+kind+` SET description = ? WHERE id = ?`), r.description, id); err != nil {
					return dbError(err, "describe "+what+" "+r.name)
				}
				d.c(kind).Updated++
				continue
			}
			d.c(kind).Existing++
		}
		return nil
	}
	return mergePages(ctx, m, kind, ids, read, write, func(r namedRow) badKey { return badKey{kind, r.id, 0, ""} })
}

// readNamed returns the reader of the pages of collections or experiments
// (kind) that query selects.
func (m *merger) readNamed(kind, query string) func(ctx context.Context, after int64, n int) ([]namedRow, int64, error) {
	return func(ctx context.Context, after int64, n int) ([]namedRow, int64, error) {
		var out []namedRow
		err := selectAll(ctx, m.src, "read "+kind, m.src.Rebind(query), []any{after, n}, func(rs *sqlx.Rows) error {
			var r namedRow
			err := rs.Scan(&r.id, &r.name, &r.description, &r.created, &r.frozen)
			out = append(out, r)
			return err
		})
		if len(out) == 0 {
			return nil, after, err
		}
		return out, out[len(out)-1].id, err
	}
}
