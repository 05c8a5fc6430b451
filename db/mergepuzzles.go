package db

// Merge's puzzles stage: puzzles matched by box shape and givens.

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type puzzleRow struct {
	id                       int64
	grid                     string
	size, rows, cols, givens int64
	solution, form           sql.NullString
	count                    sql.NullInt64
	status                   sql.NullString
	seconds                  sql.NullFloat64
	created                  string
	importID                 sql.NullInt64
	dstSolution, dstForm     sql.NullString
	dstStatus                sql.NullString
	dstCount                 sql.NullInt64
	dstID                    int64
	hasDst                   bool
}

// published selects the puzzles p the source's readers see, and those
// runs refer to (which clearing an import keeps too).
var published = "(" + notLoading("p.import_id") + " OR EXISTS (SELECT 1 FROM runs r WHERE r.puzzle_id = p.id))"

// mergePuzzles merges puzzles by box shape and givens. A stored puzzle
// gains the solution, solution count and symmetry form it lacks; other
// values than the stored ones are a conflict (but for the solution of a
// puzzle with several, which may be any of them).
func (m *merger) mergePuzzles(ctx context.Context) error {
	var loading int64
	if err := m.src.GetContext(ctx, &loading, `SELECT COUNT(*) FROM puzzles p WHERE NOT `+published); err != nil {
		return dbError(err, "count puzzles of loading imports")
	}
	m.counts[MergePuzzles].Skipped += loading
	read := m.readPuzzles
	write := func(tx *sqlx.Tx, d *delta, page []puzzleRow) error {
		rows := make([]puzzleRow, len(page)) // written to: fresh on each attempt
		copy(rows, page)
		if err := m.findPuzzles(ctx, tx, rows); err != nil {
			return err
		}
		var missing []puzzleRow
		for _, r := range rows {
			if !r.hasDst {
				missing = append(missing, r)
				continue
			}
			d.ids[r.id] = r.dstID
			if err := m.comparePuzzle(ctx, tx, d, r); err != nil {
				return err
			}
		}
		if len(missing) == 0 {
			return nil
		}
		args := make([]any, 0, 12*len(missing))
		for _, r := range missing {
			imp := m.dstImport(r.importID)
			args = append(args, r.grid, r.size, r.rows, r.cols, r.givens, r.solution, r.count, r.form, r.created, imp,
				r.status, r.seconds)
		}
		type key struct {
			rows, cols int64
			grid       string
		}
		added := map[key]int64{}
		err := selectAll(ctx, tx, "add puzzles", tx.Rebind(`
			INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form,
				created_at, import_id, count_status, count_seconds)
			VALUES `+values(len(missing), 12)+`
			ON CONFLICT (box_rows, box_cols, grid) DO NOTHING
			RETURNING id, box_rows, box_cols, grid`), args, func(rs *sqlx.Rows) error {
			var (
				id int64
				k  key
			)
			err := rs.Scan(&id, &k.rows, &k.cols, &k.grid)
			added[k] = id
			return err
		})
		if err != nil {
			return err
		}
		var raced []puzzleRow
		for _, r := range missing {
			if id, ok := added[key{r.rows, r.cols, r.grid}]; ok {
				d.ids[r.id] = id
				d.c(MergePuzzles).Added++
			} else {
				raced = append(raced, r)
			}
		}
		if len(raced) == 0 {
			return nil
		}
		// Stored by another writer since the lookup: compare as stored.
		if err := m.findPuzzles(ctx, tx, raced); err != nil {
			return err
		}
		for _, r := range raced {
			if !r.hasDst {
				return fmt.Errorf("db: merge puzzle %s: neither added nor found", r.grid)
			}
			d.ids[r.id] = r.dstID
			if err := m.comparePuzzle(ctx, tx, d, r); err != nil {
				return err
			}
		}
		return nil
	}
	return mergePages(ctx, m, MergePuzzles, m.puzzles, read, write, func(r puzzleRow) badKey { return badKey{"puzzles", r.id, 0, ""} })
}

// readPuzzles reads a page of the puzzles the source publishes.
func (m *merger) readPuzzles(ctx context.Context, after int64, n int) ([]puzzleRow, int64, error) {
	var out []puzzleRow
	err := selectAll(ctx, m.src, "read puzzles", m.src.Rebind(`
		SELECT id, grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form, created_at, import_id,
			count_status, count_seconds
		FROM puzzles p WHERE id > ? AND `+published+` ORDER BY id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var r puzzleRow
		err := rs.Scan(&r.id, &r.grid, &r.size, &r.rows, &r.cols, &r.givens, &r.solution, &r.count, &r.form,
			&r.created, &r.importID, &r.status, &r.seconds)
		out = append(out, r)
		return err
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].id, err
}

// findPuzzles looks the rows up in the destination by identity and sets
// their dst fields.
func (m *merger) findPuzzles(ctx context.Context, tx *sqlx.Tx, rows []puzzleRow) error {
	keys := make([][]any, len(rows))
	for i, r := range rows {
		keys[i] = []any{int64(i), r.rows, r.cols, r.grid}
	}
	cte, args := keyTable("k", []string{"i", "r", "c", "g"}, []string{"BIGINT", "BIGINT", "BIGINT", "TEXT"}, keys)
	return selectAll(ctx, tx, "find puzzles", tx.Rebind(`WITH `+cte+`
		SELECT k.i, p.id, p.solution, p.solution_count, p.symmetry_form, p.count_status
		FROM k CROSS JOIN puzzles p WHERE p.box_rows = k.r AND p.box_cols = k.c AND p.grid = k.g`), args, func(rs *sqlx.Rows) error {
		var i int64
		var r puzzleRow
		if err := rs.Scan(&i, &r.dstID, &r.dstSolution, &r.dstCount, &r.dstForm, &r.dstStatus); err != nil {
			return err
		}
		p := &rows[i]
		p.dstID, p.dstSolution, p.dstCount, p.dstForm, p.dstStatus, p.hasDst = r.dstID, r.dstSolution, r.dstCount, r.dstForm, r.dstStatus, true
		return nil
	})
}

// comparePuzzle counts a puzzle found in the destination: the same,
// filled in, or in conflict.
func (m *merger) comparePuzzle(ctx context.Context, tx *sqlx.Tx, d *delta, r puzzleRow) error {
	var diff differ
	several := (r.count.Valid && r.count.Int64 == 2) || (r.dstCount.Valid && r.dstCount.Int64 == 2)
	if r.solution.Valid && r.dstSolution.Valid && r.solution.String != r.dstSolution.String && !several {
		diff.add("solution", r.dstSolution.String, r.solution.String)
	}
	if r.count.Valid && r.dstCount.Valid && r.count.Int64 != r.dstCount.Int64 {
		diff.add("solution count", nullInt(r.dstCount), nullInt(r.count))
	}
	if r.form.Valid && r.dstForm.Valid && r.form.String != r.dstForm.String {
		diff.add("symmetry form", r.dstForm.String, r.form.String)
	}
	// A count, or an undetermined one where none was tried, comes with
	// its status and effort.
	fill := (r.solution.Valid && !r.dstSolution.Valid) || (r.count.Valid && !r.dstCount.Valid) || (r.form.Valid && !r.dstForm.Valid) ||
		(!r.dstCount.Valid && !r.dstStatus.Valid && r.status.Valid)
	if fill {
		_, err := tx.ExecContext(ctx, tx.Rebind(`
			UPDATE puzzles SET solution = COALESCE(solution, ?), solution_count = COALESCE(solution_count, ?),
				symmetry_form = COALESCE(symmetry_form, ?),
				count_status = CASE WHEN solution_count IS NULL THEN COALESCE(?, count_status) ELSE count_status END,
				count_seconds = CASE WHEN solution_count IS NULL THEN COALESCE(?, count_seconds) ELSE count_seconds END
			WHERE id = ?`), r.solution, r.count, r.form, r.status, r.seconds, r.dstID)
		if err != nil {
			return dbError(err, fmt.Sprintf("fill in puzzle %d", r.dstID))
		}
	}
	switch {
	case len(diff) > 0:
		d.conflict(MergePuzzles, fmt.Sprintf("puzzle %d (%dx%d boxes) %s", r.dstID, r.rows, r.cols, r.grid), diff.String())
	case fill:
		d.c(MergePuzzles).Updated++
	default:
		d.c(MergePuzzles).Existing++
	}
	return nil
}
