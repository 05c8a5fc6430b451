package db

// ImportWriter: the importers' fast writer of puzzles, memberships and
// ratings with multi-row statements.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
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
	// FileRater(r) equal to the puzzle's rating r is not stored either
	// (the lab knows it already).
	Ratings []sudokulab.Rating
	// Tags are put on the puzzle (puzzle_tags) with the import of
	// Membership.ImportID; a tag the puzzle has already is left as it is.
	// They are not checked: the importer has checked them (CheckTag).
	Tags []string
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
		if err := w.tags(ctx, part); err != nil {
			return err
		}
	}
	return nil
}

// tags stores the tags of at most chunk rows.
func (w *ImportWriter) tags(ctx context.Context, rows []ImportRow) error {
	var args []any
	n := 0
	for _, r := range rows {
		for _, tag := range r.Tags {
			args = append(args, r.Puzzle.ID, tag, w.now, nullID(r.Membership.ImportID))
			n++
		}
	}
	// Unprepared: the number of tags of a chunk varies.
	for start := 0; start < n; start += chunk {
		k := min(chunk, n-start)
		_, err := w.x.ExecContext(ctx, w.x.Rebind(`INSERT INTO puzzle_tags (puzzle_id, tag, added_at, import_id)
			VALUES `+values(k, 4)+` ON CONFLICT (puzzle_id, tag) DO NOTHING`), args[4*start:4*(start+k)]...)
		if err != nil {
			return dbError(err, "import tags")
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
	lacking, err := w.findStored(ctx, keys, created, newAbove, ids)
	if err != nil {
		return err
	}
	for _, k := range lacking {
		if err := w.fillIn(ctx, rows[first[k]].Puzzle, statuses[k], ids[k]); err != nil {
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

// findStored reads the ids of the puzzles of keys whose ids the insert did
// not give (created says which it did): those stored before, into ids,
// and on SQLite the new ones among them, above newAbove, which it marks
// created. It returns the keys of the puzzles stored before that lack a
// solution, a count or (9x9) a symmetry form.
func (w *ImportWriter) findStored(ctx context.Context, keys []puzzleKey, created map[puzzleKey]bool, newAbove int64, ids map[puzzleKey]int64) (lacking []puzzleKey, err error) {
	x := w.x
	old := map[[2]int][]any{}
	for _, k := range keys {
		if !created[k] {
			old[[2]int{k.rows, k.cols}] = append(old[[2]int{k.rows, k.cols}], k.grid)
		}
	}
	for shape, grids := range old {
		res, err := x.QueryxContext(ctx, x.Rebind(`
			SELECT id, box_rows, box_cols, grid,
				CASE WHEN solution IS NULL OR solution_count IS NULL OR (symmetry_form IS NULL AND size = 9) THEN 1 ELSE 0 END
			FROM puzzles WHERE box_rows = ? AND box_cols = ? AND grid IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(grids)), ", ")+`)`),
			append([]any{shape[0], shape[1]}, grids...)...)
		if err != nil {
			return nil, dbError(err, "import puzzles")
		}
		for res.Next() {
			var (
				k    puzzleKey
				id   int64
				lack int
			)
			if err := res.Scan(&id, &k.rows, &k.cols, &k.grid, &lack); err != nil {
				res.Close()
				return nil, dbError(err, "import puzzles")
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
			return nil, dbError(err, "import puzzles")
		}
	}
	return lacking, nil
}

// fillIn fills in what the stored puzzle id lacks from the imported
// puzzle p: its solution and symmetry form, and its count (status) unless
// it has an exact one.
func (w *ImportWriter) fillIn(ctx context.Context, p *sudokulab.Puzzle, status string, id int64) error {
	set, args := `solution = COALESCE(solution, ?), symmetry_form = COALESCE(symmetry_form, ?)`,
		[]any{nullGrid(p.Solution), nullStr(p.SymmetryForm)}
	if status != "" {
		// A count, or a later undetermined attempt's status and time,
		// for a row without an exact count.
		set += ", " + fillCount
		args = append(args, p.SolutionCount, status, nullSeconds(status, p.CountSeconds))
	}
	_, err := w.x.ExecContext(ctx, w.x.Rebind(`UPDATE puzzles SET `+set+` WHERE id = ?`), append(args, id)...)
	return err
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
	n, err := affected(r, "add puzzles")
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
// one of the lab's raters (lab lists their names) or a name FileRater
// gives (a lab's export holds its computed "human" and a file's
// "file:human" side by side): FileRaterPrefix+rater, so that neither
// takes the other's place; other names are kept.
func FileRater(rater string, lab []string) string {
	if slices.Contains(lab, rater) || strings.HasPrefix(rater, FileRaterPrefix) {
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
// puzzle by one rater the later wins. A rating that Rating.Check refuses
// is an EINVALID error (the importer has named its file and line). A
// rating computed here (ImportID 0, such as generate's) replaces the
// puzzle's rating by its rater. A file's rating (ImportID set) that
// repeats the value of the rating a FileRater name stands for (the lab's
// own "human", or a file's "file:human"), or whose puzzle has one of its
// name already, is left out: so a failed import, which removes its own
// ratings, takes nothing else with it.
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
			if err := x.Check(); err != nil { // as UpsertRating and merge check theirs
				return sudokulab.WrapError(sudokulab.EINVALID, err, "rating of puzzle %d by %.80q", x.PuzzleID, x.Rater)
			}
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
			if name, ok := strings.CutPrefix(k.rater, FileRaterPrefix); ok {
				if s, ok := have[ratingKey{k.puzzle, name}]; ok && sameValue(s.value, r.Value) {
					return true
				}
			}
			if s, ok := have[k]; ok {
				if !s.computed && !(sameValue(s.value, r.Value) && s.label == r.Label) {
					w.KeptRatings++
				}
				return true
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
