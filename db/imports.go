package db

// Store functions of the importers: a fast writer of imported puzzles with
// multi-row statements, provenance lookups, collections frozen from a query
// or removed, symmetry forms, and reading puzzles back for export.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
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
	// Ratings are stored for the puzzle (PuzzleID is set by Write). A
	// rating computed here (ImportID 0) replaces the puzzle's rating by
	// its rater. A file's rating (ImportID naming the import) never
	// replaces a stored rating of the same name: one computed here
	// (import_id NULL) or an earlier file's claim, whose value stays (the
	// writer counts those that differ in KeptRatings); a rating named
	// FileRater(r) equal to the computed rating r is not stored either
	// (the lab knows it already).
	Ratings []sudokulab.Rating
	// Created is set by Write when the puzzle was not stored before (an
	// earlier row of the batch storing it counts as before).
	Created bool
	// Added is set by Write when the membership is new: a puzzle already
	// in the collection keeps its place, label and metadata.
	Added bool
	// Frozen is set by Write when the membership was not written because
	// the collection is frozen (collections.frozen) and does not hold the
	// puzzle, unless the writer's AddToFrozen is set. AddMemberships can
	// put the row into another collection.
	Frozen bool
}

// ImportWriter writes imported puzzles, their memberships and ratings in
// batches, with multi-row statements. It keeps the next position of each
// collection it writes to, read when it first writes to the collection, so
// use one writer per transaction: a transaction that begins takes the
// write lock (SQLite) and sees every position committed before it. A
// puzzle it creates gets the row's Membership.ImportID as its import_id.
// It is not safe for concurrent use.
type ImportWriter struct {
	x     Preparer
	d     *DB           // prepares the statements once for all transactions, when set
	next  map[int64]int // next position per collection
	now   string        // the time of the rows, in the stored form
	nowT  time.Time     // the same, as read back
	stmts map[string]*sqlx.Stmt
	// frozen tells, per collection written to, whether it is frozen.
	frozen map[int64]bool
	// AddToFrozen lets Write add puzzles to frozen collections, as it
	// adds to the others; by default it adds none (see ImportRow.Frozen).
	AddToFrozen bool
	// KeptRatings counts the ratings Write did not store because an
	// earlier file's rating of the same puzzle and name has another value.
	KeptRatings int
}

// Preparer is a database or transaction that prepares statements.
type Preparer interface {
	sqlx.ExtContext
	PreparexContext(ctx context.Context, query string) (*sqlx.Stmt, error)
}

// NewImportWriter returns a writer on x, normally a transaction; make a
// new one for each transaction. Close it before the transaction ends.
func NewImportWriter(x Preparer) *ImportWriter {
	w := &ImportWriter{x: x, next: map[int64]int{}, frozen: map[int64]bool{}, now: FormatTime(now()), stmts: map[string]*sqlx.Stmt{}}
	w.nowT, _ = ParseTime(w.now)
	return w
}

// ImportWriter returns a writer on the transaction tx of d whose
// statements d prepares once for all its transactions: the way to write
// batch after batch, each in its own transaction.
func (d *DB) ImportWriter(tx *sqlx.Tx) *ImportWriter {
	w := NewImportWriter(tx)
	w.d = d
	return w
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
	var (
		s   *sqlx.Stmt
		err error
	)
	if tx, ok := w.x.(*sqlx.Tx); ok && w.d != nil {
		if s, err = w.d.prepared(ctx, query); err == nil {
			s = tx.StmtxContext(ctx, s)
		}
	} else {
		s, err = w.x.PreparexContext(ctx, query)
	}
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
	_, err := w.execResult(ctx, query, rows, args...)
	return err
}

// execResult is exec with the statement's result.
func (w *ImportWriter) execResult(ctx context.Context, query string, rows int, args ...any) (sql.Result, error) {
	s, err := w.stmt(ctx, query, rows)
	if err != nil {
		return nil, err
	}
	if s != nil {
		return s.ExecContext(ctx, args...)
	}
	return w.x.ExecContext(ctx, query, args...)
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

// AddMemberships writes the memberships of rows whose puzzles Write has
// stored (their Puzzle.ID set), as Write does: for rows Write left out of
// a frozen collection, with another Membership.CollectionID.
func (w *ImportWriter) AddMemberships(ctx context.Context, rows []ImportRow) error {
	for start := 0; start < len(rows); start += chunk {
		part := rows[start:min(start+chunk, len(rows))]
		for i := range part {
			part[i].Created, part[i].Frozen = false, false
		}
		if err := w.memberships(ctx, part); err != nil {
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
		args = make([]any, 0, 12*len(rows))
	)
	rowKeys := make([]puzzleKey, len(rows))
	first := make(map[puzzleKey]int, len(rows)) // row that stores a key
	statuses := make(map[puzzleKey]string, len(rows))
	for i, r := range rows {
		p := r.Puzzle
		k := puzzleKey{p.Givens.Shape.BoxRows, p.Givens.Shape.BoxCols, p.Givens.String()}
		rowKeys[i] = k
		if _, ok := first[k]; ok {
			continue
		}
		status, err := countStatus(p)
		if err != nil {
			return err
		}
		first[k], statuses[k] = i, status
		keys = append(keys, k)
		args = append(args, k.grid, p.Givens.N(), k.rows, k.cols, p.Givens.Givens(), nullGrid(p.Solution),
			p.SolutionCount, nullStr(p.SymmetryForm), w.now, nullID(r.Membership.ImportID),
			nullStr(status), nullSeconds(status, p.CountSeconds))
	}
	created, newAbove, err := w.insertPuzzles(ctx, keys, args, ids)
	if err != nil {
		return dbError(err, "import puzzles")
	}
	// The puzzles whose ids the statement did not give: those stored
	// before, their ids and what they lack, and on SQLite the new ones
	// among them, above newAbove.
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
			if id > newAbove {
				created[k] = true
			} else if lack == 1 {
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
		set, args := `solution = COALESCE(solution, ?), symmetry_form = COALESCE(symmetry_form, ?)`,
			[]any{nullGrid(p.Solution), nullStr(p.SymmetryForm)}
		if st := statuses[k]; st != "" {
			// A count, or a later undetermined attempt's status and time,
			// for a row without an exact count.
			set += ", " + fillCount
			args = append(args, p.SolutionCount, st, nullSeconds(st, p.CountSeconds))
		}
		if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE puzzles SET `+set+` WHERE id = ?`), append(args, ids[k])...); err != nil {
			return dbError(err, "import puzzle "+k.grid+": fill in")
		}
	}
	for i := range rows {
		p := rows[i].Puzzle
		k := rowKeys[i]
		id, ok := ids[k]
		if !ok {
			return fmt.Errorf("db: import puzzle %s: stored but not found", k.grid)
		}
		p.ID = id
		rows[i].Created = created[k] && first[k] == i
		if rows[i].Created {
			p.CreatedAt = w.nowT
		}
	}
	return nil
}

// insertPuzzles inserts the puzzles of keys, whose columns args holds
// row by row, skipping those stored already, sets the ids of those it
// creates in ids and returns which keys it created. On PostgreSQL the
// statement returns the new rows. On SQLite, where the write lock is held
// through the transaction and a new row gets the largest id so far plus
// one, the rows of one statement that stores every key (the usual case)
// have consecutive ids ending at the last insert id, in statement order,
// and nothing needs returning. Otherwise the new rows are those whose ids,
// read back with those of the keys stored before, are above newAbove, the
// largest id before the statement; with every key accounted for, newAbove
// is the largest id there is.
func (w *ImportWriter) insertPuzzles(ctx context.Context, keys []puzzleKey, args []any, ids map[puzzleKey]int64) (created map[puzzleKey]bool, newAbove int64, err error) {
	x := w.x
	insert := `
		INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form, created_at, import_id,
			count_status, count_seconds)
		VALUES ` + values(len(keys), 12) + `
		ON CONFLICT (box_rows, box_cols, grid) DO NOTHING`
	created = make(map[puzzleKey]bool, len(keys))
	if dialectByDriver(x.DriverName()) != &sqliteDialect {
		res, err := w.query(ctx, x.Rebind(insert+`
		RETURNING id, box_rows, box_cols, grid`), len(keys), args...)
		if err != nil {
			return nil, 0, err
		}
		defer res.Close()
		for res.Next() {
			var (
				k  puzzleKey
				id int64
			)
			if err := res.Scan(&id, &k.rows, &k.cols, &k.grid); err != nil {
				return nil, 0, err
			}
			ids[k], created[k] = id, true
		}
		return created, math.MaxInt64, res.Err()
	}
	r, err := w.execResult(ctx, insert, len(keys), args...)
	if err != nil {
		return nil, 0, err
	}
	n, err := r.RowsAffected()
	if err != nil {
		return nil, 0, err
	}
	last, err := r.LastInsertId()
	if err != nil {
		return nil, 0, err
	}
	switch n {
	case int64(len(keys)):
		for i, k := range keys {
			ids[k], created[k] = last-n+1+int64(i), true
		}
		return created, math.MaxInt64, nil
	case 0:
		// Nothing new: last is an older statement's.
		return created, math.MaxInt64, nil
	}
	return created, last - n, nil
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
	args := make([]any, 0, 8*len(rows))
	n := 0
	for i := range rows {
		m := &rows[i].Membership
		m.PuzzleID = rows[i].Puzzle.ID
		k := memberKey{m.CollectionID, m.PuzzleID}
		if present[k] {
			continue
		}
		pos, ok := w.next[m.CollectionID]
		if !ok {
			var last, frozen int
			// Two scalar subqueries: MAX(position) alone reads one index entry.
			if err := x.QueryRowxContext(ctx, x.Rebind(`SELECT
				(SELECT COALESCE(MAX(position), 0) FROM collection_puzzles WHERE collection_id = ?),
				(SELECT COALESCE(MAX(frozen), 0) FROM collections WHERE id = ?)`),
				m.CollectionID, m.CollectionID).Scan(&last, &frozen); err != nil {
				return dbError(err, "import memberships")
			}
			pos, w.frozen[m.CollectionID] = last+1, frozen == 1
		}
		if w.frozen[m.CollectionID] && !w.AddToFrozen {
			w.next[m.CollectionID] = pos
			rows[i].Frozen = true
			continue
		}
		present[k] = true
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

// FileRaterPrefix starts the name under which an import stores a file's
// rating named after one of the lab's raters: a file's "human" is stored
// as "file:human", beside the "human" the lab computes.
const FileRaterPrefix = "file:"

// FileRater returns the name of a file's rating named rater when rater is
// one of the lab's raters (lab lists their names): FileRaterPrefix+rater;
// other names are kept.
func FileRater(rater string, lab []string) string {
	if slices.Contains(lab, rater) {
		return FileRaterPrefix + rater
	}
	return rater
}

// storedRating is what a stored rating says, for comparing an imported
// one with it.
type storedRating struct {
	value    *float64
	label    string
	computed bool
}

// ratings stores the ratings of at most chunk rows; of two ratings of a
// puzzle by one rater the later wins. A rating computed here (ImportID 0,
// such as generate's) replaces the puzzle's rating by its rater. A file's
// rating (ImportID set) whose puzzle has one of that name already, or that
// repeats the computed rating a FileRater name stands for, is left out: so
// a failed import, which removes its own ratings, takes nothing else with
// it.
func (w *ImportWriter) ratings(ctx context.Context, rows []ImportRow) error {
	last := map[ratingKey]sudokulab.Rating{}
	var order []ratingKey
	var stored []any // puzzles stored before that a file rates
	for _, r := range rows {
		if !r.Created && slices.ContainsFunc(r.Ratings, func(x sudokulab.Rating) bool { return x.ImportID != 0 }) {
			stored = append(stored, r.Puzzle.ID)
		}
		for _, x := range r.Ratings {
			x.PuzzleID = r.Puzzle.ID
			k := ratingKey{x.PuzzleID, x.Rater}
			if _, ok := last[k]; !ok {
				order = append(order, k)
			}
			last[k] = x
		}
	}
	if len(stored) > 0 {
		have, err := w.storedRatings(ctx, stored)
		if err != nil {
			return err
		}
		order = slices.DeleteFunc(order, func(k ratingKey) bool {
			r := last[k]
			if r.ImportID == 0 {
				return false
			}
			if s, ok := have[k]; ok {
				if !s.computed && !(sameValue(s.value, r.Value) && s.label == r.Label) {
					w.KeptRatings++
				}
				return true
			}
			if name, ok := strings.CutPrefix(k.rater, FileRaterPrefix); ok {
				s, ok := have[ratingKey{k.puzzle, name}]
				return ok && s.computed && sameValue(s.value, r.Value)
			}
			return false
		})
	}
	// Computed ratings replace; a file's never do (DO NOTHING also keeps
	// a rating stored since it was read).
	for _, fromFile := range []bool{false, true} {
		keys := slices.DeleteFunc(slices.Clone(order), func(k ratingKey) bool { return (last[k].ImportID != 0) != fromFile })
		conflict := `DO UPDATE SET rater_version = excluded.rater_version, options = excluded.options, value = excluded.value,
			label = excluded.label, details = excluded.details, rated_at = excluded.rated_at, import_id = NULL`
		if fromFile {
			conflict = `DO NOTHING`
		}
		for start := 0; start < len(keys); start += chunk {
			part := keys[start:min(start+chunk, len(keys))]
			args := make([]any, 0, 9*len(part))
			for _, k := range part {
				r := last[k]
				if r.Options == "" {
					r.Options = "{}"
				}
				args = append(args, r.PuzzleID, r.Rater, r.RaterVersion, r.Options, r.Value, nullStr(r.Label), nullStr(r.Details), w.now, nullID(r.ImportID))
			}
			err := w.exec(ctx, w.x.Rebind(`
				INSERT INTO ratings (puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id)
				VALUES `+values(len(part), 9)+`
				ON CONFLICT (puzzle_id, rater) `+conflict), len(part), args...)
			if err != nil {
				return dbError(err, "import ratings")
			}
		}
	}
	return nil
}

// storedRatings reads the ratings of the puzzles ids.
func (w *ImportWriter) storedRatings(ctx context.Context, ids []any) (map[ratingKey]storedRating, error) {
	rows, err := w.query(ctx, w.x.Rebind(`SELECT puzzle_id, rater, value, label, import_id FROM ratings
		WHERE puzzle_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")+`)`), len(ids), ids...)
	if err != nil {
		return nil, dbError(err, "import ratings")
	}
	defer rows.Close()
	out := map[ratingKey]storedRating{}
	for rows.Next() {
		var (
			k   ratingKey
			s   storedRating
			imp sql.NullInt64
		)
		if err := rows.Scan(&k.puzzle, &k.rater, &s.value, strCol{&s.label}, &imp); err != nil {
			return nil, dbError(err, "import ratings")
		}
		s.computed = !imp.Valid
		out[k] = s
	}
	return out, dbError(rows.Err(), "import ratings")
}

// sameValue reports whether two rating values are equal (both NULL, or
// the same number).
func sameValue(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
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

// FindImport returns the earliest finished (published) import of a file
// with the given SHA-256 into the collection called collection (empty:
// into any collection that still exists), the name of its collection, and
// whether there is one. Imports still loading are not found: see
// LoadingImports.
func FindImport(ctx context.Context, x sqlx.ExtContext, sha256, collection string) (im *sudokulab.Import, name string, found bool, err error) {
	row := x.QueryRowxContext(ctx, x.Rebind(`
		SELECT `+importCols+`, c.name FROM imports i JOIN collections c ON c.id = i.collection_id
		WHERE i.file_sha256 = ? AND (c.name = ? OR ? = '') AND i.finished_at IS NOT NULL AND i.state = 'done'
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
// puzzles, or an ENOTFOUND error. The count leaves out what imports still
// loading have written; a collection such an import created is found (so
// that no one creates it again) with the puzzles published in it.
func GetCollection(ctx context.Context, x sqlx.ExtContext, name string) (*sudokulab.Collection, error) {
	var c sudokulab.Collection
	err := x.QueryRowxContext(ctx, x.Rebind(`
		SELECT c.id, c.name, c.description, c.created_at, c.frozen,
		       (SELECT COUNT(*) FROM collection_puzzles cp JOIN puzzles p ON p.id = cp.puzzle_id
		        WHERE cp.collection_id = c.id AND `+notLoading("cp.import_id")+` AND `+notLoading("p.import_id")+`)
		FROM collections c WHERE c.name = ?`), name).
		Scan(&c.ID, &c.Name, &c.Description, timeCol{&c.CreatedAt}, &c.Frozen, &c.Puzzles)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no collection %q (sudokulab collections list shows them)", name)
	}
	if err != nil {
		return nil, dbError(err, "get collection "+name)
	}
	return &c, nil
}

// CollectionTable lists the puzzles of a collection in order, at most
// limit of them (0: all), leaving out what imports still loading have
// written.
func CollectionTable(ctx context.Context, x sqlx.ExtContext, name string, limit int) (Table, error) {
	q := `SELECT cp.position, p.id, cp.label, p.givens, p.solution_count AS solutions, cp.source_line AS line, p.grid, cp.metadata
		FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
		WHERE c.name = ? AND ` + notLoading("cp.import_id") + ` AND ` + notLoading("p.import_id") + ` ORDER BY cp.position`
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

// Freeze says what FreezeCollection puts in a collection. Where, OrderBy
// and Label are SQL over the view puzzle_catalog, pasted into the query
// as given (checked to be one expression or list, without ';').
type Freeze struct {
	// Description says what the collection is for.
	Description string
	// Where is the predicate selecting the puzzles; empty means every
	// puzzle of the view (so none that an import still loading stored).
	Where string
	// OrderBy orders the selection (an ORDER BY list, such as
	// "givens DESC"), ties broken by id; empty means the order of the
	// collections the puzzles are in: by collection name, then position,
	// puzzles in no collection last by id. A puzzle in several rows of the
	// view takes the place of its first.
	OrderBy string
	// Label is the label of each puzzle in the collection, an expression
	// such as "'hard-' || position"; empty means the label of the
	// puzzle's first row (its label in the collection it comes from).
	Label string
	// Replace lets the collection exist: its puzzles are replaced by the
	// selection (taken before the old ones go, so it may select them).
	// Without it an existing name is an ECONFLICT error.
	Replace bool
}

// FreezeCollection creates the collection called name, marked frozen,
// holding the puzzles f selects, in their order (position 1, 2, ...) with
// their labels, and returns how many. Imports do not add to a frozen
// collection (see ImportWriter.AddToFrozen). An existing name is an
// ECONFLICT error unless f.Replace; SQL the database rejects an EINVALID
// one.
func FreezeCollection(ctx context.Context, x sqlx.ExtContext, name string, f Freeze) (int, error) {
	old, err := GetCollection(ctx, x, name)
	switch {
	case err == nil && !f.Replace:
		return 0, sudokulab.Errorf(sudokulab.ECONFLICT, "collection %s exists; replace its puzzles with --replace, choose another name, or remove it first (sudokulab collections rm %s)", name, name)
	case err != nil && sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND:
		return 0, err
	}
	for _, e := range []string{f.Where, f.OrderBy, f.Label} {
		if err := checkPredicate(e); err != nil {
			return 0, err
		}
	}
	pred, order, label := "1 = 1", "collection IS NULL, collection, position", "label"
	if strings.TrimSpace(f.Where) != "" {
		pred = f.Where
	}
	if strings.TrimSpace(f.OrderBy) != "" {
		order = f.OrderBy
	}
	if strings.TrimSpace(f.Label) != "" {
		label = f.Label
	}
	// No placeholders, so no Rebind: a '?' in the SQL is the user's.
	rows, err := x.QueryxContext(ctx, `
		SELECT id, label FROM (
			SELECT id, label, rn, ROW_NUMBER() OVER (PARTITION BY id ORDER BY rn) AS k FROM (
				SELECT id, CAST((`+label+"\n"+`) AS TEXT) AS label, ROW_NUMBER() OVER (ORDER BY `+order+"\n"+`, id) AS rn
				FROM puzzle_catalog WHERE (`+pred+"\n"+`)) a) b
		WHERE k = 1 ORDER BY rn`)
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "collection %s: %s", name, dbMessage(err))
	}
	type member struct {
		id    int64
		label string
	}
	var sel []member
	for rows.Next() {
		var m member
		if err := rows.Scan(&m.id, strCol{&m.label}); err != nil {
			rows.Close()
			return 0, dbError(err, "freeze collection "+name)
		}
		sel = append(sel, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "collection %s: %s", name, dbMessage(err))
	}
	var id int64
	if old != nil {
		id = old.ID
		if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM collection_puzzles WHERE collection_id = ?`), id); err != nil {
			return 0, dbError(err, "freeze collection "+name)
		}
		if f.Description != "" {
			if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE collections SET description = ? WHERE id = ?`), f.Description, id); err != nil {
				return 0, dbError(err, "freeze collection "+name)
			}
		}
	} else if id, err = EnsureCollection(ctx, x, name, f.Description); err != nil {
		return 0, err
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE collections SET frozen = 1 WHERE id = ?`), id); err != nil {
		return 0, dbError(err, "freeze collection "+name)
	}
	at := FormatTime(now())
	for start := 0; start < len(sel); start += chunk {
		part := sel[start:min(start+chunk, len(sel))]
		args := make([]any, 0, 5*len(part))
		for i, m := range part {
			args = append(args, id, m.id, start+i+1, m.label, at)
		}
		if _, err := x.ExecContext(ctx, x.Rebind(`INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label, added_at)
			VALUES `+values(len(part), 5)), args...); err != nil {
			return 0, dbError(err, "freeze collection "+name)
		}
	}
	return len(sel), nil
}

// SetSymmetryForm stores the symmetry form of a puzzle.
func SetSymmetryForm(ctx context.Context, x sqlx.ExtContext, id int64, form string) error {
	_, err := x.ExecContext(ctx, x.Rebind(`UPDATE puzzles SET symmetry_form = ? WHERE id = ?`), nullStr(form), id)
	return dbError(err, "set symmetry form of puzzle "+strconv.FormatInt(id, 10))
}

// SymmetryDuplicates lists the puzzles that share their symmetry form with
// another one: one row per puzzle, grouped by form, with how many puzzles
// the group has and the collections each puzzle is in. What imports still
// loading have written is left out.
func SymmetryDuplicates(ctx context.Context, x sqlx.ExtContext) (Table, error) {
	t, err := queryTable(ctx, x, `
		SELECT p.symmetry_form, g.n AS puzzles, p.id, p.givens, p.grid,
		       (SELECT MIN(c.name) FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		        WHERE cp.puzzle_id = p.id AND `+notLoading("cp.import_id")+`) AS collection
		FROM puzzles p
		JOIN (SELECT symmetry_form, COUNT(*) AS n FROM puzzles q WHERE symmetry_form IS NOT NULL AND `+notLoading("q.import_id")+`
		      GROUP BY symmetry_form HAVING COUNT(*) > 1) g ON g.symmetry_form = p.symmetry_form
		WHERE `+notLoading("p.import_id")+`
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
	return out, dbError(rows.Err(), "export ratings")
}

// Imports load in short transactions under a marker and are published at
// once. An import starts in state 'loading' (BeginImport), held by a
// worker ("host:pid") until lease_until, a time taken from the database's
// clock; each batch of puzzles is written in its own transaction together
// with the import's counters and records_done (ImportProgress), which
// also renews the lease; PublishImport sets the state to 'done'. While an
// import is loading, the puzzles it created (puzzles.import_id), the
// collections it created (collections.import_id) and its memberships
// (collection_puzzles.import_id) are left out of puzzle_catalog and of
// every read of this package. A re-run of the file finds the loading
// import (LoadingImports) and, once its lease has lapsed or its worker is
// gone, takes it over (TakeOverImport) and resumes after records_done, or
// clears it (ClearImport).
//
// The holder of an import proves it on every write with an ImportLease:
// the worker and the lease_until it last wrote. A write whose lease no
// longer matches (the lease lapsed and another worker took the import
// over) changes nothing and is an ECONFLICT error.

// Import states, the column imports.state.
const (
	ImportLoading = "loading"
	ImportDone    = "done"
)

// importOptionsPrefix starts the first line of a loading import's notes:
// the options it was started with, which a resume compares. Publishing
// removes the line.
const importOptionsPrefix = "import options: "

// notLoading is an SQL condition that holds unless col names an import
// that is loading: what such an import wrote is left out of every read, as
// puzzle_catalog leaves it out. An id naming no import counts as
// published.
func notLoading(col string) string {
	return "NOT EXISTS (SELECT 1 FROM imports li WHERE li.id = " + col + " AND li.state = 'loading')"
}

// ImportLease is a worker's hold on a loading import: the import, the
// worker, and lease_until as the worker last wrote it.
type ImportLease struct {
	ID     int64
	Worker string
	Until  string
}

// LoadingImport is an import that is loading, as LoadingImports reads it.
type LoadingImport struct {
	// Import has the counters stored so far; Notes holds the remarks and
	// rejections noted so far, without the options line.
	Import sudokulab.Import
	// Collection is the name of the import's collection, or empty while it
	// has none.
	Collection string
	// Options are the options the import was started with, as given to
	// BeginImport.
	Options string
	// Worker is who holds the import ("host:pid"), LeaseUntil until when
	// (empty: released), and Lapsed whether the lease has run out by the
	// database's clock (or was released).
	Worker, LeaseUntil string
	Lapsed             bool
	// RecordsDone is the number of the file's records stored, in file
	// order.
	RecordsDone int
}

// splitLoadingNotes splits a loading import's notes into its options line
// and the rest.
func splitLoadingNotes(notes string) (options, rest string) {
	if !strings.HasPrefix(notes, importOptionsPrefix) {
		return "", notes
	}
	line, rest, _ := strings.Cut(notes, "\n")
	return strings.TrimPrefix(line, importOptionsPrefix), rest
}

// LoadingImports returns the imports of the file with the given SHA-256
// that are loading, oldest first.
func LoadingImports(ctx context.Context, x sqlx.ExtContext, sha256 string) ([]LoadingImport, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT `+importCols+`, COALESCE(c.name, ''), COALESCE(i.worker, ''), COALESCE(i.lease_until, ''),
			CASE WHEN i.lease_until IS NULL OR i.lease_until < `+dialectByDriver(x.DriverName()).now+` THEN 1 ELSE 0 END,
			i.records_done
		FROM imports i LEFT JOIN collections c ON c.id = i.collection_id
		WHERE i.file_sha256 = ? AND i.state = 'loading'
		ORDER BY i.id`), sha256)
	if err != nil {
		return nil, dbError(err, "find loading imports")
	}
	defer rows.Close()
	var out []LoadingImport
	for rows.Next() {
		var (
			l      LoadingImport
			lapsed int
		)
		l.Import, err = scanImport(extraScanner{rows, []any{&l.Collection, &l.Worker, &l.LeaseUntil, &lapsed, &l.RecordsDone}})
		if err != nil {
			return nil, dbError(err, "find loading imports")
		}
		l.Lapsed = lapsed == 1
		l.Options, l.Import.Notes = splitLoadingNotes(l.Import.Notes)
		out = append(out, l)
	}
	return out, dbError(rows.Err(), "find loading imports")
}

// leaseMillis is a lease duration as the dialects' lease expression takes
// it.
func leaseMillis(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// BeginImport records the start of an import in state 'loading', held by
// worker for lease from now: im's file, checksum and format are stored
// with no collection and zero counts, and options (one line, compared by a
// resume) as the first line of its notes. It sets im.ID and im.StartedAt.
func BeginImport(ctx context.Context, x sqlx.ExtContext, im *sudokulab.Import, options, worker string, lease time.Duration) (ImportLease, error) {
	if strings.Contains(options, "\n") {
		return ImportLease{}, fmt.Errorf("db: import options %q: more than one line", options)
	}
	im.StartedAt = stamp(im.StartedAt)
	l := ImportLease{Worker: worker}
	err := x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO imports (file_name, file_sha256, format, started_at, notes, state, worker, lease_until, records_done)
		VALUES (?, ?, ?, ?, ?, 'loading', ?, `+dialectByDriver(x.DriverName()).lease+`, 0)
		RETURNING id, lease_until`),
		im.FileName, im.FileSHA256, im.Format, FormatTime(im.StartedAt), importOptionsPrefix+options, worker,
		leaseMillis(lease)).Scan(&l.ID, &l.Until)
	if err != nil {
		return ImportLease{}, dbError(err, "record import of "+im.FileName)
	}
	im.ID = l.ID
	return l, nil
}

// TakeOverImport makes worker the holder of the loading import l for
// lease from now, provided nobody changed its holder or lease since l was
// read; ok is false when somebody did.
func TakeOverImport(ctx context.Context, x sqlx.ExtContext, l LoadingImport, worker string, lease time.Duration) (_ ImportLease, ok bool, err error) {
	nl := ImportLease{ID: l.Import.ID, Worker: worker}
	err = x.QueryRowxContext(ctx, x.Rebind(`
		UPDATE imports SET worker = ?, lease_until = `+dialectByDriver(x.DriverName()).lease+`
		WHERE id = ? AND state = 'loading' AND COALESCE(worker, '') = ? AND COALESCE(lease_until, '') = ?
		RETURNING lease_until`), worker, leaseMillis(lease), l.Import.ID, l.Worker, l.LeaseUntil).Scan(&nl.Until)
	if errors.Is(err, sql.ErrNoRows) {
		return ImportLease{}, false, nil
	}
	if err != nil {
		return ImportLease{}, false, dbError(err, fmt.Sprintf("take over import %d", l.Import.ID))
	}
	return nl, true, nil
}

// ErrImportLost is the cause of the ECONFLICT error a worker gets when it
// writes to an import it no longer holds.
var ErrImportLost = errors.New("the import is no longer this worker's")

// lostImport returns the ECONFLICT error of a worker whose lease on an
// import no longer holds.
func lostImport(ctx context.Context, x sqlx.ExtContext, l ImportLease) error {
	var state, worker, until string
	err := x.QueryRowxContext(ctx, x.Rebind(`SELECT state, COALESCE(worker, ''), COALESCE(lease_until, '') FROM imports WHERE id = ?`), l.ID).
		Scan(&state, &worker, &until)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return sudokulab.WrapError(sudokulab.ECONFLICT, ErrImportLost, "import %d was removed while %s loaded it", l.ID, l.Worker)
	case err != nil:
		return dbError(err, fmt.Sprintf("import %d", l.ID))
	case state != ImportLoading:
		return sudokulab.WrapError(sudokulab.ECONFLICT, ErrImportLost, "import %d was published by %s while %s loaded it", l.ID, worker, l.Worker)
	}
	return sudokulab.WrapError(sudokulab.ECONFLICT, ErrImportLost, "import %d: the lease of %s ran out and %s took it over (lease until %s)",
		l.ID, l.Worker, worker, until)
}

// holdImport runs an UPDATE of the loading import l that renews its lease
// for lease from now: set is the SET list (before lease_until) and args
// its arguments. It returns the new lease, or an ECONFLICT error when l no
// longer holds.
func holdImport(ctx context.Context, x sqlx.ExtContext, l ImportLease, lease time.Duration, what, set string, args ...any) (ImportLease, error) {
	if set != "" {
		set += ", "
	}
	args = append(args, leaseMillis(lease), l.ID, l.Worker, l.Until)
	err := x.QueryRowxContext(ctx, x.Rebind(`
		UPDATE imports SET `+set+`lease_until = `+dialectByDriver(x.DriverName()).lease+`
		WHERE id = ? AND state = 'loading' AND worker = ? AND lease_until = ?
		RETURNING lease_until`), args...).Scan(&l.Until)
	if errors.Is(err, sql.ErrNoRows) {
		return ImportLease{}, lostImport(ctx, x, l)
	}
	if err != nil {
		return ImportLease{}, dbError(err, fmt.Sprintf("%s import %d", what, l.ID))
	}
	return l, nil
}

// RenewImportLease extends the lease on a loading import to lease from now
// and returns the new lease; it is an ECONFLICT error when l no longer
// holds.
func RenewImportLease(ctx context.Context, x sqlx.ExtContext, l ImportLease, lease time.Duration) (ImportLease, error) {
	return holdImport(ctx, x, l, lease, "renew the lease of", "")
}

// ImportProgress stores how far the loading import l has got, in the
// transaction that wrote its latest batch: im's collection and counters,
// records (the number of the file's records stored), and notes (lines
// noted by the batch, appended to the import's notes; may be empty). It
// renews the lease for lease from now and returns it; it is an ECONFLICT
// error when l no longer holds, and then the transaction must roll back.
func ImportProgress(ctx context.Context, x sqlx.ExtContext, l ImportLease, im *sudokulab.Import, records int, notes string, lease time.Duration) (ImportLease, error) {
	add := ""
	if notes != "" {
		add = "\n" + notes
	}
	return holdImport(ctx, x, l, lease, "record the progress of",
		`collection_id = ?, puzzles_read = ?, puzzles_new = ?, puzzles_duplicate = ?, puzzles_rejected = ?,
		records_done = ?, notes = notes || ?`,
		nullID(im.CollectionID), im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate, im.PuzzlesRejected, records, add)
}

// ReleaseImport gives up the lease on a loading import, so that a re-run
// takes it over at once; what it stored stays, hidden. Releasing a lease
// that no longer holds changes nothing.
func ReleaseImport(ctx context.Context, x sqlx.ExtContext, l ImportLease) error {
	_, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE imports SET lease_until = NULL WHERE id = ? AND state = 'loading' AND worker = ? AND lease_until = ?`),
		l.ID, l.Worker, l.Until)
	return dbError(err, fmt.Sprintf("release import %d", l.ID))
}

// PublishImport ends the loading import l: its state becomes 'done' and
// its collection, counters, finish time (now when im.FinishedAt is zero,
// which is then set) and notes are stored; its notes are those noted while
// loading followed by the line tail, if not empty (im.Notes is set to
// them). Readers see everything it wrote from then on, at once. Puzzles
// and collections it lists that another import still loading had created
// become this import's, so that they appear with it. It is an ECONFLICT
// error when l no longer holds.
func PublishImport(ctx context.Context, x sqlx.ExtContext, l ImportLease, im *sudokulab.Import, tail string) error {
	var notes string
	if err := x.QueryRowxContext(ctx, x.Rebind(`SELECT notes FROM imports WHERE id = ?`), l.ID).Scan(&notes); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return lostImport(ctx, x, l)
		}
		return dbError(err, fmt.Sprintf("publish import %d", l.ID))
	}
	_, notes = splitLoadingNotes(notes)
	if tail != "" {
		if notes != "" {
			notes += "\n"
		}
		notes += tail
	}
	notes = boundNotes(notes)
	finished := stamp(im.FinishedAt)
	res, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE imports SET state = 'done', lease_until = NULL, collection_id = ?, finished_at = ?, notes = ?,
			puzzles_read = ?, puzzles_new = ?, puzzles_duplicate = ?, puzzles_rejected = ?
		WHERE id = ? AND state = 'loading' AND worker = ? AND lease_until = ?`),
		nullID(im.CollectionID), FormatTime(finished), notes, im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate,
		im.PuzzlesRejected, l.ID, l.Worker, l.Until)
	if err != nil {
		return dbError(err, fmt.Sprintf("publish import %d", l.ID))
	}
	if n, err := res.RowsAffected(); err != nil {
		return dbError(err, fmt.Sprintf("publish import %d", l.ID))
	} else if n == 0 {
		return lostImport(ctx, x, l)
	}
	others := `SELECT id FROM imports WHERE state = 'loading' AND id <> ?`
	var loading bool
	if err := x.QueryRowxContext(ctx, x.Rebind(`SELECT EXISTS (`+others+`)`), l.ID).Scan(&loading); err != nil {
		return dbError(err, fmt.Sprintf("publish import %d", l.ID))
	}
	if !loading {
		// No other import is loading, so none created what this one
		// lists: nothing to take over (the usual case, and a scan of
		// every row the import stored saved).
		im.FinishedAt, im.Notes = finished, notes
		return nil
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE puzzles SET import_id = ?
		WHERE import_id IN (`+others+`) AND id IN (SELECT puzzle_id FROM collection_puzzles WHERE import_id = ?)`),
		l.ID, l.ID, l.ID); err != nil {
		return dbError(err, fmt.Sprintf("publish import %d: puzzles", l.ID))
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE collections SET import_id = ?
		WHERE import_id IN (`+others+`)
		  AND (id = ? OR id IN (SELECT collection_id FROM collection_puzzles WHERE import_id = ?))`),
		l.ID, l.ID, im.CollectionID, l.ID); err != nil {
		return dbError(err, fmt.Sprintf("publish import %d: collections", l.ID))
	}
	im.FinishedAt, im.Notes = finished, notes
	return nil
}

// CollectionFiles returns the file names (as given to import) of the
// imports other than importID that made the collection id or put puzzles
// in it, loading ones included, in order of import.
func CollectionFiles(ctx context.Context, x sqlx.ExtContext, id, importID int64) ([]string, error) {
	// EXISTS per import reads its memberships by import_id, not every
	// membership of the collection.
	rows, err := x.QueryxContext(ctx, x.Rebind(`SELECT file_name FROM imports i
		WHERE i.id <> ? AND (i.collection_id = ?
		  OR EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.import_id = i.id AND cp.collection_id = ?))
		ORDER BY i.id`), importID, id, id)
	if err != nil {
		return nil, dbError(err, "files of a collection")
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			return nil, dbError(err, "files of a collection")
		}
		out = append(out, f)
	}
	return out, dbError(rows.Err(), "files of a collection")
}

// EnsureImportCollection is EnsureCollection for an import: a collection
// it creates records importID as its creator, so that it stays hidden
// while the import is loading, and a frozen one keeps its description.
func EnsureImportCollection(ctx context.Context, x sqlx.ExtContext, name, description string, importID int64) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "a collection needs a name")
	}
	var id int64
	err := x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO collections (name, description, created_at, import_id) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO NOTHING
		RETURNING id`), name, description, FormatTime(now()), nullID(importID)).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, dbError(err, "add collection "+name)
	}
	// An existing collection without a description gets the import's,
	// unless it is frozen: an import changes nothing of those.
	err = x.QueryRowxContext(ctx, x.Rebind(`SELECT id FROM collections WHERE name = ?`), name).Scan(&id)
	if err != nil {
		return 0, dbError(err, "find collection "+name)
	}
	if description != "" {
		_, err = x.ExecContext(ctx, x.Rebind(`UPDATE collections SET description = ? WHERE id = ? AND description = '' AND frozen = 0`), description, id)
	}
	return id, dbError(err, "describe collection "+name)
}

// ClearImport takes one step in removing what the loading import l wrote,
// deleting at most limit rows, so that each step is a short transaction:
// its memberships; the puzzles it created that nothing else refers to
// (with their ratings), the others becoming published; the collections it
// created that hold no puzzle; and last the import itself, when done is
// true. The ratings it stored go first (they replaced none). It is an
// ECONFLICT error when l no longer holds.
func ClearImport(ctx context.Context, x sqlx.ExtContext, l ImportLease, limit int) (done bool, err error) {
	var n int
	err = x.QueryRowxContext(ctx, x.Rebind(`
		SELECT COUNT(*) FROM imports WHERE id = ? AND state = 'loading' AND worker = ? AND lease_until = ?`),
		l.ID, l.Worker, l.Until).Scan(&n)
	if err != nil {
		return false, dbError(err, fmt.Sprintf("clear import %d", l.ID))
	}
	if n == 0 {
		return false, lostImport(ctx, x, l)
	}
	steps := []struct {
		what, query string
		args        []any
	}{
		{"ratings", `DELETE FROM ratings WHERE id IN (SELECT id FROM ratings WHERE import_id = ? LIMIT ?)`, []any{l.ID, limit}},
		{"memberships", `DELETE FROM collection_puzzles WHERE import_id = ?
			AND puzzle_id IN (SELECT puzzle_id FROM collection_puzzles WHERE import_id = ? LIMIT ?)`,
			[]any{l.ID, l.ID, limit}},
		// work has no index on puzzle_id: NOT IN reads it once per step.
		{"puzzles", `DELETE FROM puzzles WHERE id IN (SELECT p.id FROM puzzles p WHERE p.import_id = ?
			AND NOT EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.puzzle_id = p.id)
			AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.puzzle_id = p.id)
			AND p.id NOT IN (SELECT puzzle_id FROM work)
			AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.puzzle_id = p.id)
			LIMIT ?)`,
			[]any{l.ID, limit}},
		{"puzzles", `UPDATE puzzles SET import_id = NULL WHERE id IN (SELECT id FROM puzzles WHERE import_id = ? LIMIT ?)`,
			[]any{l.ID, limit}},
		{"collections", `DELETE FROM collections WHERE import_id = ?
			AND NOT EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.collection_id = collections.id)
			AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.collection_id = collections.id AND i.id <> ?)`,
			[]any{l.ID, l.ID}},
		{"collections", `UPDATE collections SET import_id = NULL WHERE import_id = ?`, []any{l.ID}},
	}
	for _, s := range steps {
		res, err := x.ExecContext(ctx, x.Rebind(s.query), s.args...)
		if err != nil {
			return false, dbError(err, fmt.Sprintf("clear import %d: %s", l.ID, s.what))
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, dbError(err, fmt.Sprintf("clear import %d: %s", l.ID, s.what))
		} else if n > 0 {
			return false, nil
		}
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM imports WHERE id = ?`), l.ID); err != nil {
		return false, dbError(err, fmt.Sprintf("clear import %d", l.ID))
	}
	return true, nil
}
