package db

// Reading puzzles back for export.

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// ExportedPuzzle is a puzzle read for export: the puzzle, one of its
// memberships (in the collection exported, or its first by collection
// name), its ratings, and its tags (by tag).
type ExportedPuzzle struct {
	Puzzle     sudokulab.Puzzle
	Membership sudokulab.Membership
	Ratings    []sudokulab.Rating
	Tags       []string
}

// extraScanner scans a puzzle row's columns followed by more.
type extraScanner struct {
	r     rowScanner
	extra []any
}

func (e extraScanner) Scan(dest ...any) error { return e.r.Scan(append(dest, e.extra...)...) }

// ExportPuzzles reads the puzzles to export: those of the collection
// called collection in its order, or (with collection empty) those
// matching the SQL predicate where over puzzle_catalog in order of id; a
// collection and a predicate together select the collection's puzzles
// that match. What imports still loading have written is left out. An
// unknown collection is an ENOTFOUND error.
func ExportPuzzles(ctx context.Context, x sqlx.ExtContext, where, collection string) ([]ExportedPuzzle, error) {
	if strings.TrimSpace(where) != "" {
		if err := checkPredicate(where); err != nil {
			return nil, err
		}
	}
	var out []ExportedPuzzle
	if collection != "" {
		if _, err := GetCollection(ctx, x, collection); err != nil {
			return nil, err
		}
		q := `SELECT p.` + strings.ReplaceAll(puzzleCols, ", ", ", p.") + `, cp.label, cp.metadata, cp.source_line, c.name
			FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
			WHERE c.name = '` + strings.ReplaceAll(collection, "'", "''") + `'
			AND ` + notLoading("cp.import_id") + ` AND ` + notLoading("p.import_id")
		qx, qctx := x, ctx
		if strings.TrimSpace(where) != "" {
			q += " AND p.id IN (SELECT id FROM puzzle_catalog WHERE (" + where + "\n))"
			var release func()
			var err error
			if qx, qctx, release, err = readOnlyExt(ctx, x); err != nil {
				return nil, err
			}
			defer release()
		}
		rows, err := qx.QueryxContext(qctx, q+" ORDER BY cp.position")
		if err != nil {
			if qctx.Err() != nil {
				return nil, context.Cause(qctx)
			}
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, dbMessage(err))
		}
		defer rows.Close()
		for rows.Next() {
			var e ExportedPuzzle
			m := &e.Membership
			p, err := scanPuzzle(extraScanner{rows, []any{&m.Label, strCol{&m.Metadata}, idCol[int]{&m.SourceLine}, &m.Collection}})
			if err != nil {
				return nil, dbError(err, "export")
			}
			e.Puzzle, m.PuzzleID = p, p.ID
			out = append(out, e)
		}
		if err := rows.Err(); err != nil {
			return nil, dbError(err, "export")
		}
	} else {
		ps, err := ListPuzzles(ctx, x, where, 0)
		if err != nil {
			return nil, err
		}
		index := make(map[int64]int, len(ps))
		for i, p := range ps {
			out = append(out, ExportedPuzzle{Puzzle: p})
			index[p.ID] = i
		}
		rows, err := x.QueryxContext(ctx, `
			SELECT cp.puzzle_id, cp.label, cp.metadata, cp.source_line, c.name
			FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
			WHERE `+notLoading("cp.import_id")+`
			ORDER BY cp.puzzle_id, c.name`)
		if err != nil {
			return nil, dbError(err, "export")
		}
		defer rows.Close()
		for rows.Next() {
			var m sudokulab.Membership
			if err := rows.Scan(&m.PuzzleID, &m.Label, strCol{&m.Metadata}, idCol[int]{&m.SourceLine}, &m.Collection); err != nil {
				return nil, dbError(err, "export")
			}
			if i, ok := index[m.PuzzleID]; ok && out[i].Membership.PuzzleID == 0 {
				out[i].Membership = m
			}
		}
		if err := rows.Err(); err != nil {
			return nil, dbError(err, "export")
		}
	}
	index := make(map[int64]int, len(out))
	for i, e := range out {
		index[e.Puzzle.ID] = i
	}
	rows, err := x.QueryxContext(ctx, `SELECT puzzle_id, rater, rater_version, value, label FROM ratings ORDER BY puzzle_id, rater`)
	if err != nil {
		return nil, dbError(err, "export ratings")
	}
	defer rows.Close()
	for rows.Next() {
		var r sudokulab.Rating
		if err := rows.Scan(&r.PuzzleID, &r.Rater, &r.RaterVersion, &r.Value, strCol{&r.Label}); err != nil {
			return nil, dbError(err, "export ratings")
		}
		if i, ok := index[r.PuzzleID]; ok {
			out[i].Ratings = append(out[i].Ratings, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, dbError(err, "export ratings")
	}
	err = selectAll(ctx, x, "export tags", `SELECT t.puzzle_id, t.tag FROM puzzle_tags t WHERE `+notLoading("t.import_id")+`
		ORDER BY t.puzzle_id, t.tag`, nil, func(rs *sqlx.Rows) error {
		var (
			id  int64
			tag string
		)
		if err := rs.Scan(&id, &tag); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			out[i].Tags = append(out[i].Tags, tag)
		}
		return nil
	})
	return out, err
}
