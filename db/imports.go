package db

// Store functions of the importers: a fast writer of imported puzzles with
// multi-row statements, provenance lookups, collections frozen from a query
// or removed, symmetry forms, and reading puzzles back for export.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// ImportRow is one puzzle of a batch written by ImportWriter.Write.
type ImportRow struct {
	// Puzzle is the checked puzzle; Write sets its ID.
	Puzzle *sudokulab.Puzzle
	// Membership puts the puzzle in a collection: CollectionID, Label,
	// ImportID, SourceLine and Metadata (empty or a JSON object, not
	// checked) are used; the position is the next one of the collection.
	Membership sudokulab.Membership
	// Ratings are stored for the puzzle (PuzzleID is set by Write),
	// replacing ratings by the same raters.
	Ratings []sudokulab.Rating
	// Created is set by Write when the puzzle was not stored before (an
	// earlier row of the batch storing it counts as before).
	Created bool
	// Added is set by Write when the membership is new: a puzzle already
	// in the collection keeps its place, label and metadata.
	Added bool
}

// ImportWriter writes imported puzzles, their memberships and ratings in
// batches, with multi-row statements, for imports of millions of puzzles
// in one transaction. It keeps the next position of each collection it
// writes to, so nothing else may add to those collections while it is in
// use. It is not safe for concurrent use.
type ImportWriter struct {
	x     Preparer
	next  map[int64]int // next position per collection
	now   string
	stmts map[string]*sqlx.Stmt
}

// Preparer is a database or transaction that prepares statements.
type Preparer interface {
	sqlx.ExtContext
	PreparexContext(ctx context.Context, query string) (*sqlx.Stmt, error)
}

// NewImportWriter returns a writer on x, normally a transaction. Close it
// before the transaction ends.
func NewImportWriter(x Preparer) *ImportWriter {
	return &ImportWriter{x: x, next: map[int64]int{}, now: FormatTime(now()), stmts: map[string]*sqlx.Stmt{}}
}

// Close releases the prepared statements.
func (w *ImportWriter) Close() error {
	var errs []error
	for _, s := range w.stmts {
		errs = append(errs, s.Close())
	}
	clear(w.stmts)
	return errors.Join(errs...)
}

// stmt returns the statement for query, prepared once for the statements
// of full chunks, which repeat; others run unprepared.
func (w *ImportWriter) stmt(ctx context.Context, query string, rows int) (*sqlx.Stmt, error) {
	if rows != chunk {
		return nil, nil
	}
	if s, ok := w.stmts[query]; ok {
		return s, nil
	}
	s, err := w.x.PreparexContext(ctx, query)
	if err != nil {
		return nil, err
	}
	w.stmts[query] = s
	return s, nil
}

// query runs a query on the statement prepared for it, if any.
func (w *ImportWriter) query(ctx context.Context, query string, rows int, args ...any) (*sqlx.Rows, error) {
	s, err := w.stmt(ctx, query, rows)
	if err != nil {
		return nil, err
	}
	if s != nil {
		return s.QueryxContext(ctx, args...)
	}
	return w.x.QueryxContext(ctx, query, args...)
}

// exec runs a statement on the statement prepared for it, if any.
func (w *ImportWriter) exec(ctx context.Context, query string, rows int, args ...any) error {
	s, err := w.stmt(ctx, query, rows)
	if err != nil {
		return err
	}
	if s != nil {
		_, err = s.ExecContext(ctx, args...)
	} else {
		_, err = w.x.ExecContext(ctx, query, args...)
	}
	return err
}

// chunk is the most rows of one multi-row statement.
const chunk = 400

// values returns n groups of k placeholders: "(?, ?), (?, ?)".
func values(n, k int) string {
	group := "(" + strings.TrimSuffix(strings.Repeat("?, ", k), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(group+", ", n), ", ")
}

// Write stores a batch of puzzles like AddPuzzle (a stored puzzle lacking
// the solution, solution count or symmetry form that the row has gets
// them), then their memberships and ratings, and sets each row's Puzzle.ID,
// Created and Added. Unlike AddPuzzle it does not check the puzzles: the
// importer has validated the givens and checked the solutions.
func (w *ImportWriter) Write(ctx context.Context, rows []ImportRow) error {
	for start := 0; start < len(rows); start += chunk {
		part := rows[start:min(start+chunk, len(rows))]
		if err := w.puzzles(ctx, part); err != nil {
			return err
		}
		if err := w.memberships(ctx, part); err != nil {
			return err
		}
		if err := w.ratings(ctx, part); err != nil {
			return err
		}
	}
	return nil
}

type puzzleKey struct {
	rows, cols int
	grid       string
}

// puzzles stores the puzzles of at most chunk rows.
func (w *ImportWriter) puzzles(ctx context.Context, rows []ImportRow) error {
	x := w.x
	ids := make(map[puzzleKey]int64, len(rows))
	var (
		keys []puzzleKey
		args []any
	)
	first := make(map[puzzleKey]int, len(rows)) // row that stores a key
	for i, r := range rows {
		p := r.Puzzle
		k := puzzleKey{p.Givens.Shape.BoxRows, p.Givens.Shape.BoxCols, p.Givens.String()}
		if _, ok := first[k]; ok {
			continue
		}
		first[k] = i
		keys = append(keys, k)
		args = append(args, k.grid, p.Givens.N(), k.rows, k.cols, p.Givens.Givens(), nullGrid(p.Solution),
			p.SolutionCount, nullStr(p.SymmetryForm), w.now)
	}
	res, err := w.query(ctx, x.Rebind(`
		INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form, created_at)
		VALUES `+values(len(keys), 9)+`
		ON CONFLICT (box_rows, box_cols, grid) DO NOTHING
		RETURNING id, box_rows, box_cols, grid`), len(keys), args...)
	if err != nil {
		return dbError(err, "import puzzles")
	}
	created := make(map[puzzleKey]bool, len(keys))
	for res.Next() {
		var (
			k  puzzleKey
			id int64
		)
		if err := res.Scan(&id, &k.rows, &k.cols, &k.grid); err != nil {
			res.Close()
			return dbError(err, "import puzzles")
		}
		ids[k], created[k] = id, true
	}
	res.Close()
	if err := res.Err(); err != nil {
		return dbError(err, "import puzzles")
	}
	// The puzzles stored before: their ids, and what they lack.
	old := map[[2]int][]any{}
	for _, k := range keys {
		if !created[k] {
			old[[2]int{k.rows, k.cols}] = append(old[[2]int{k.rows, k.cols}], k.grid)
		}
	}
	var lacking []puzzleKey
	for shape, grids := range old {
		res, err := x.QueryxContext(ctx, x.Rebind(`
			SELECT id, box_rows, box_cols, grid,
				CASE WHEN solution IS NULL OR solution_count IS NULL OR (symmetry_form IS NULL AND size = 9) THEN 1 ELSE 0 END
			FROM puzzles WHERE box_rows = ? AND box_cols = ? AND grid IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(grids)), ", ")+`)`),
			append([]any{shape[0], shape[1]}, grids...)...)
		if err != nil {
			return dbError(err, "import puzzles")
		}
		for res.Next() {
			var (
				k    puzzleKey
				id   int64
				lack int
			)
			if err := res.Scan(&id, &k.rows, &k.cols, &k.grid, &lack); err != nil {
				res.Close()
				return dbError(err, "import puzzles")
			}
			ids[k] = id
			if lack == 1 {
				lacking = append(lacking, k)
			}
		}
		res.Close()
		if err := res.Err(); err != nil {
			return dbError(err, "import puzzles")
		}
	}
	for _, k := range lacking {
		p := rows[first[k]].Puzzle
		if _, err := x.ExecContext(ctx, x.Rebind(`
			UPDATE puzzles SET solution = COALESCE(solution, ?), solution_count = COALESCE(solution_count, ?),
				symmetry_form = COALESCE(symmetry_form, ?) WHERE id = ?`),
			nullGrid(p.Solution), p.SolutionCount, nullStr(p.SymmetryForm), ids[k]); err != nil {
			return dbError(err, "import puzzle "+k.grid+": fill in")
		}
	}
	for i := range rows {
		p := rows[i].Puzzle
		k := puzzleKey{p.Givens.Shape.BoxRows, p.Givens.Shape.BoxCols, p.Givens.String()}
		id, ok := ids[k]
		if !ok {
			return fmt.Errorf("db: import puzzle %s: stored but not found", k.grid)
		}
		p.ID = id
		rows[i].Created = created[k] && first[k] == i
		if rows[i].Created {
			p.CreatedAt, _ = ParseTime(w.now)
		}
	}
	return nil
}

type memberKey struct{ collection, puzzle int64 }

// memberships stores the memberships of at most chunk rows.
func (w *ImportWriter) memberships(ctx context.Context, rows []ImportRow) error {
	x := w.x
	// Puzzles stored before may be in the collection already.
	present := map[memberKey]bool{}
	byCollection := map[int64][]any{}
	for _, r := range rows {
		if !r.Created {
			byCollection[r.Membership.CollectionID] = append(byCollection[r.Membership.CollectionID], r.Puzzle.ID)
		}
	}
	for cid, pids := range byCollection {
		res, err := x.QueryxContext(ctx, x.Rebind(`SELECT puzzle_id FROM collection_puzzles
			WHERE collection_id = ? AND puzzle_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(pids)), ", ")+`)`),
			append([]any{cid}, pids...)...)
		if err != nil {
			return dbError(err, "import memberships")
		}
		for res.Next() {
			var pid int64
			if err := res.Scan(&pid); err != nil {
				res.Close()
				return dbError(err, "import memberships")
			}
			present[memberKey{cid, pid}] = true
		}
		res.Close()
		if err := res.Err(); err != nil {
			return dbError(err, "import memberships")
		}
	}
	var args []any
	n := 0
	for i := range rows {
		m := &rows[i].Membership
		m.PuzzleID = rows[i].Puzzle.ID
		k := memberKey{m.CollectionID, m.PuzzleID}
		if present[k] {
			continue
		}
		present[k] = true
		pos, ok := w.next[m.CollectionID]
		if !ok {
			var last int
			if err := x.QueryRowxContext(ctx, x.Rebind(`SELECT COALESCE(MAX(position), 0) FROM collection_puzzles WHERE collection_id = ?`),
				m.CollectionID).Scan(&last); err != nil {
				return dbError(err, "import memberships")
			}
			pos = last + 1
		}
		w.next[m.CollectionID] = pos + 1
		m.Position, m.AddedAt = pos, time.Time{}
		rows[i].Added = true
		args = append(args, m.CollectionID, m.PuzzleID, pos, m.Label, nullID(m.ImportID), nullID(m.SourceLine), nullStr(m.Metadata), w.now)
		n++
	}
	if n == 0 {
		return nil
	}
	err := w.exec(ctx, x.Rebind(`
		INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at)
		VALUES `+values(n, 8)), n, args...)
	return dbError(err, "import memberships")
}

type ratingKey struct {
	puzzle int64
	rater  string
}

// ratings stores the ratings of at most chunk rows; of two ratings of a
// puzzle by one rater the later wins.
func (w *ImportWriter) ratings(ctx context.Context, rows []ImportRow) error {
	last := map[ratingKey]sudokulab.Rating{}
	var order []ratingKey
	for _, r := range rows {
		for _, x := range r.Ratings {
			x.PuzzleID = r.Puzzle.ID
			k := ratingKey{x.PuzzleID, x.Rater}
			if _, ok := last[k]; !ok {
				order = append(order, k)
			}
			last[k] = x
		}
	}
	for start := 0; start < len(order); start += chunk {
		part := order[start:min(start+chunk, len(order))]
		args := make([]any, 0, 8*len(part))
		for _, k := range part {
			r := last[k]
			if r.Options == "" {
				r.Options = "{}"
			}
			args = append(args, r.PuzzleID, r.Rater, r.RaterVersion, r.Options, r.Value, nullStr(r.Label), nullStr(r.Details), w.now)
		}
		err := w.exec(ctx, w.x.Rebind(`
			INSERT INTO ratings (puzzle_id, rater, rater_version, options, value, label, details, rated_at)
			VALUES `+values(len(part), 8)+`
			ON CONFLICT (puzzle_id, rater) DO UPDATE SET
				rater_version = excluded.rater_version, options = excluded.options, value = excluded.value,
				label = excluded.label, details = excluded.details, rated_at = excluded.rated_at`), len(part), args...)
		if err != nil {
			return dbError(err, "import ratings")
		}
	}
	return nil
}

// importCols are the columns scanImport reads.
const importCols = `i.id, i.file_name, i.file_sha256, i.format, i.collection_id, i.started_at, i.finished_at,
	i.puzzles_read, i.puzzles_new, i.puzzles_duplicate, i.puzzles_rejected, i.notes`

func scanImport(r rowScanner) (sudokulab.Import, error) {
	var im sudokulab.Import
	err := r.Scan(&im.ID, &im.FileName, &im.FileSHA256, &im.Format, idCol[int64]{&im.CollectionID},
		timeCol{&im.StartedAt}, timeCol{&im.FinishedAt}, &im.PuzzlesRead, &im.PuzzlesNew,
		&im.PuzzlesDuplicate, &im.PuzzlesRejected, &im.Notes)
	return im, err
}

// FindImport returns the earliest finished import of a file with the
// given SHA-256 into the collection called collection (empty: into any
// collection that still exists), the name of its collection, and whether
// there is one.
func FindImport(ctx context.Context, x sqlx.ExtContext, sha256, collection string) (im *sudokulab.Import, name string, found bool, err error) {
	row := x.QueryRowxContext(ctx, x.Rebind(`
		SELECT `+importCols+`, c.name FROM imports i JOIN collections c ON c.id = i.collection_id
		WHERE i.file_sha256 = ? AND (c.name = ? OR ? = '') AND i.finished_at IS NOT NULL
		ORDER BY i.id LIMIT 1`), sha256, collection, collection)
	got, err := scanImport(extraScanner{row, []any{&name}})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, dbError(err, "find import")
	}
	return &got, name, true, nil
}

// ImportTable lists the imports, newest first; with a collection name,
// only those into it.
func ImportTable(ctx context.Context, x sqlx.ExtContext, collection string) (Table, error) {
	q := `SELECT i.id, i.file_name, i.format, c.name AS collection, i.started_at, i.finished_at,
		i.puzzles_read, i.puzzles_new, i.puzzles_duplicate, i.puzzles_rejected
		FROM imports i LEFT JOIN collections c ON c.id = i.collection_id`
	var args []any
	if collection != "" {
		q += ` WHERE c.name = ?`
		args = append(args, collection)
	}
	t, err := queryTable(ctx, x, q+` ORDER BY i.id DESC`, args...)
	return t, dbError(err, "list imports")
}

// GetCollection returns the collection called name with its number of
// puzzles, or an ENOTFOUND error.
func GetCollection(ctx context.Context, x sqlx.ExtContext, name string) (*sudokulab.Collection, error) {
	var c sudokulab.Collection
	err := x.QueryRowxContext(ctx, x.Rebind(`
		SELECT c.id, c.name, c.description, c.created_at,
		       (SELECT COUNT(*) FROM collection_puzzles cp WHERE cp.collection_id = c.id)
		FROM collections c WHERE c.name = ?`), name).
		Scan(&c.ID, &c.Name, &c.Description, timeCol{&c.CreatedAt}, &c.Puzzles)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no collection %q (sudokulab collections list shows them)", name)
	}
	if err != nil {
		return nil, dbError(err, "get collection "+name)
	}
	return &c, nil
}

// CollectionTable lists the puzzles of a collection in order, at most
// limit of them (0: all).
func CollectionTable(ctx context.Context, x sqlx.ExtContext, name string, limit int) (Table, error) {
	q := `SELECT cp.position, p.id, cp.label, p.givens, p.solution_count AS solutions, cp.source_line AS line, p.grid, cp.metadata
		FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
		WHERE c.name = ? ORDER BY cp.position`
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	t, err := queryTable(ctx, x, q, name)
	return t, dbError(err, "show collection "+name)
}

// DeleteCollection removes the collection called name and its
// memberships; the puzzles stay. It is an ENOTFOUND error when there is
// no such collection.
func DeleteCollection(ctx context.Context, x sqlx.ExtContext, name string) (memberships int, err error) {
	c, err := GetCollection(ctx, x, name)
	if err != nil {
		return 0, err
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM collection_puzzles WHERE collection_id = ?`), c.ID); err != nil {
		return 0, dbError(err, "remove collection "+name)
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM collections WHERE id = ?`), c.ID); err != nil {
		return 0, dbError(err, "remove collection "+name)
	}
	return c.Puzzles, nil
}

// FreezeCollection creates the collection called name holding, in order
// of id, the puzzles having a row of the view puzzle_catalog that matches
// the SQL predicate where (empty: every puzzle), and returns how many. An
// existing name is an ECONFLICT error; a predicate the database rejects an
// EINVALID one.
func FreezeCollection(ctx context.Context, x sqlx.ExtContext, name, description, where string) (int, error) {
	if _, err := GetCollection(ctx, x, name); err == nil {
		return 0, sudokulab.Errorf(sudokulab.ECONFLICT, "collection %s exists; choose another name or remove it first (sudokulab collections rm %s)", name, name)
	} else if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		return 0, err
	}
	pred := ""
	if strings.TrimSpace(where) != "" {
		if err := checkPredicate(where); err != nil {
			return 0, err
		}
		pred = " WHERE id IN (SELECT id FROM puzzle_catalog WHERE (" + where + "\n))"
	}
	id, err := EnsureCollection(ctx, x, name, description)
	if err != nil {
		return 0, err
	}
	// No placeholders, so no Rebind: a '?' in the predicate is the user's.
	res, err := x.ExecContext(ctx, `
		INSERT INTO collection_puzzles (collection_id, puzzle_id, position, added_at)
		SELECT `+strconv.FormatInt(id, 10)+`, id, ROW_NUMBER() OVER (ORDER BY id), '`+FormatTime(now())+`'
		FROM puzzles`+pred)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, dbMessage(err))
	}
	n, err := res.RowsAffected()
	return int(n), dbError(err, "freeze collection "+name)
}

// SetSymmetryForm stores the symmetry form of a puzzle.
func SetSymmetryForm(ctx context.Context, x sqlx.ExtContext, id int64, form string) error {
	_, err := x.ExecContext(ctx, x.Rebind(`UPDATE puzzles SET symmetry_form = ? WHERE id = ?`), nullStr(form), id)
	return dbError(err, "set symmetry form of puzzle "+strconv.FormatInt(id, 10))
}

// SymmetryDuplicates lists the puzzles that share their symmetry form with
// another one: one row per puzzle, grouped by form, with how many puzzles
// the group has and the collections each puzzle is in.
func SymmetryDuplicates(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT p.symmetry_form, g.n AS puzzles, p.id, p.givens, p.grid,
		       (SELECT MIN(c.name) FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		        WHERE cp.puzzle_id = p.id) AS collection
		FROM puzzles p
		JOIN (SELECT symmetry_form, COUNT(*) AS n FROM puzzles WHERE symmetry_form IS NOT NULL
		      GROUP BY symmetry_form HAVING COUNT(*) > 1) g ON g.symmetry_form = p.symmetry_form
		ORDER BY g.n DESC, p.symmetry_form, p.id`)
	return t, dbError(err, "list duplicates up to symmetry")
}

// ExportedPuzzle is a puzzle read for export: the puzzle, one of its
// memberships (in the collection exported, or its first by collection
// name), and its ratings.
type ExportedPuzzle struct {
	Puzzle     sudokulab.Puzzle
	Membership sudokulab.Membership
	Ratings    []sudokulab.Rating
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
// that match. An unknown collection is an ENOTFOUND error.
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
			WHERE c.name = '` + strings.ReplaceAll(collection, "'", "''") + `'`
		if strings.TrimSpace(where) != "" {
			q += " AND p.id IN (SELECT id FROM puzzle_catalog WHERE (" + where + "\n))"
		}
		rows, err := x.QueryxContext(ctx, q+" ORDER BY cp.position")
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
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
	return out, dbError(rows.Err(), "export ratings")
}
