package db

// Merge's ratings stage.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
)

type ratingRow struct {
	id, puzzle                     int64
	rater, version, options, rated string
	value                          sql.NullFloat64
	label, details                 sql.NullString
	importID                       sql.NullInt64
	dstPuzzle                      int64
}

// mergeRatings merges ratings by puzzle and rater; the same rater giving
// another version, options, value or label is a conflict.
func (m *merger) mergeRatings(ctx context.Context) error {
	read := m.readRatings
	write := func(tx *sqlx.Tx, d *delta, page []ratingRow) error {
		var rows []ratingRow
		for _, r := range page {
			p, ok := m.puzzles[r.puzzle]
			if !ok {
				d.c(MergeRatings).Skipped++
				continue
			}
			r.dstPuzzle = p
			rows = append(rows, r)
		}
		if len(rows) == 0 {
			return nil
		}
		keys := make([][]any, len(rows))
		for i, r := range rows {
			keys[i] = []any{int64(i), r.dstPuzzle, r.rater}
		}
		cte, args := keyTable("k", []string{"i", "p", "r"}, []string{"BIGINT", "BIGINT", "TEXT"}, keys)
		found := map[int64]bool{}
		err := selectAll(ctx, tx, "find ratings", tx.Rebind(`WITH `+cte+`
			SELECT k.i, r.rater_version, r.options, r.value, r.label
			FROM k CROSS JOIN ratings r WHERE r.puzzle_id = k.p AND r.rater = k.r`), args, func(rs *sqlx.Rows) error {
			var (
				i                int64
				version, options string
				value            sql.NullFloat64
				label            sql.NullString
			)
			if err := rs.Scan(&i, &version, &options, &value, &label); err != nil {
				return err
			}
			found[i] = true
			s := rows[i]
			var diff differ
			if version != s.version {
				diff.add("rater version", strconv.Quote(version), strconv.Quote(s.version))
			}
			if options != s.options {
				diff.add("options", options, s.options)
			}
			if value != s.value {
				diff.add("value", nullFloat(value), nullFloat(s.value))
			}
			if label != s.label {
				diff.add("label", nullText(label), nullText(s.label))
			}
			if len(diff) > 0 {
				d.conflict(MergeRatings, fmt.Sprintf("rating of puzzle %d by %s", s.dstPuzzle, s.rater), diff.String())
			} else {
				d.c(MergeRatings).Existing++
			}
			return nil
		})
		if err != nil {
			return err
		}
		var add []any
		n := 0
		for i, r := range rows {
			if !found[int64(i)] {
				imp := m.dstImport(r.importID)
				add = append(add, r.dstPuzzle, r.rater, r.version, r.options, r.value, r.label, r.details, r.rated, imp)
				n++
			}
		}
		if n == 0 {
			return nil
		}
		return addRows(ctx, tx, d, MergeRatings, "add ratings", n, `INSERT INTO ratings
			(puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id)
			VALUES `+values(n, 9)+` ON CONFLICT (puzzle_id, rater) DO NOTHING`, add...)
	}
	return mergePages(ctx, m, MergeRatings, nil, read, write, func(r ratingRow) badKey { return badKey{"ratings", r.id, 0, ""} })
}

// readRatings reads a page of the source's ratings.
func (m *merger) readRatings(ctx context.Context, after int64, n int) ([]ratingRow, int64, error) {
	var out []ratingRow
	err := selectAll(ctx, m.src, "read ratings", m.src.Rebind(`
		SELECT id, puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id
		FROM ratings WHERE id > ? ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r ratingRow
		err := rs.Scan(&r.id, &r.puzzle, &r.rater, &r.version, &r.options, &r.value, &r.label, &r.details, &r.rated,
			&r.importID)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}
