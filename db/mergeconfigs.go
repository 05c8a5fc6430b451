package db

// Merge's configurations stage: solver configurations matched by settings.

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type configRow struct {
	id                                               int64
	name, solver, params, hash, description, created string
	preset                                           int64
}

// mergeConfigs merges configurations by solver and settings (params_hash).
// The same settings under another name map to the stored configuration; a
// name the destination gives other settings is a conflict, and the runs
// and work of that configuration are skipped.
func (m *merger) mergeConfigs(ctx context.Context) error {
	read := m.readConfigs
	write := func(tx *sqlx.Tx, d *delta, rows []configRow) error {
		for _, r := range rows {
			var same, clash *configRow
			err := selectAll(ctx, tx, "find configuration "+r.name, tx.Rebind(`
				SELECT id, name, solver, params, params_hash FROM configs
				WHERE name = ? OR (solver = ? AND params_hash = ?)`), []any{r.name, r.solver, r.hash}, func(rs *sqlx.Rows) error {
				var s configRow
				if err := rs.Scan(&s.id, &s.name, &s.solver, &s.params, &s.hash); err != nil {
					return err
				}
				if s.solver == r.solver && s.hash == r.hash {
					same = &s
				} else {
					clash = &s
				}
				return nil
			})
			if err != nil {
				return err
			}
			if same == nil && clash != nil && clash.name == r.name && clash.solver == r.solver &&
				m.opts.SameSettings != nil && m.opts.SameSettings(r.solver, clash.params, r.params) {
				same, clash = clash, nil // the same settings, stored by another version
			}
			switch {
			case same != nil:
				d.ids[r.id] = same.id
				d.names[same.id] = same.name
				d.c(MergeConfigs).Existing++
				if same.name != r.name {
					d.notes = append(d.notes, fmt.Sprintf("configuration %s of the source has the settings of configuration %s here: its runs are merged under %s",
						r.name, same.name, same.name))
				}
			case clash != nil:
				d.conflict(MergeConfigs, "configuration "+r.name,
					fmt.Sprintf("settings %s %s here, %s %s in the source; its runs and work are not merged", clash.solver, clash.params, r.solver, r.params))
			default:
				var id int64
				err := tx.QueryRowxContext(ctx, tx.Rebind(`
					INSERT INTO configs (name, solver, params, params_hash, description, preset, created_at)
					VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
					r.name, r.solver, r.params, r.hash, r.description, r.preset, r.created).Scan(&id)
				if err != nil {
					return dbError(err, "add configuration "+r.name)
				}
				d.ids[r.id] = id
				d.names[id] = r.name
				d.c(MergeConfigs).Added++
			}
		}
		return nil
	}
	return mergePages(ctx, m, MergeConfigs, m.configs, read, write, func(r configRow) badKey { return badKey{"configs", r.id, 0, ""} })
}

// readConfigs reads a page of the source's configurations.
func (m *merger) readConfigs(ctx context.Context, after int64, n int) ([]configRow, int64, error) {
	var out []configRow
	err := selectAll(ctx, m.src, "read configurations", m.src.Rebind(`
		SELECT id, name, solver, params, params_hash, description, preset, created_at
		FROM configs WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r configRow
		err := rs.Scan(&r.id, &r.name, &r.solver, &r.params, &r.hash, &r.description, &r.preset, &r.created)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}
