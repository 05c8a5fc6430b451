package db

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// puzzleCols are the columns scanPuzzle reads, in order.
const puzzleCols = "id, grid, box_rows, box_cols, solution, solution_count, symmetry_form, created_at, count_status, count_seconds"

type rowScanner interface{ Scan(dest ...any) error }

func scanPuzzle(r rowScanner) (sudokulab.Puzzle, error) {
	var (
		p              sudokulab.Puzzle
		grid, solution string
		shape          sudokulab.Shape
		seconds        sql.NullFloat64
	)
	err := r.Scan(&p.ID, &grid, &shape.BoxRows, &shape.BoxCols, strCol{&solution},
		&p.SolutionCount, strCol{&p.SymmetryForm}, timeCol{&p.CreatedAt}, strCol{&p.CountStatus}, &seconds)
	if err != nil {
		return p, err
	}
	p.CountSeconds = seconds.Float64
	if p.Givens, err = parseGridCol(grid, shape, "puzzle"); err != nil {
		return p, err
	}
	if p.Solution, err = parseGridCol(solution, shape, "solution"); err != nil {
		return p, err
	}
	return p, nil
}

// countStatus checks the count of p and returns its count status: p's
// CountStatus, or CountCounted for a count without one. A count status
// other than CountCounted (with a count), CountUndetermined (without one)
// or empty is an EINVALID error.
func countStatus(p *sudokulab.Puzzle) (string, error) {
	switch st := p.CountStatus; {
	case st == "" && p.SolutionCount != nil, st == sudokulab.CountCounted && p.SolutionCount != nil:
		return sudokulab.CountCounted, nil
	case st == "" && p.SolutionCount == nil, st == sudokulab.CountUndetermined && p.SolutionCount == nil:
		return st, nil
	}
	return "", sudokulab.Errorf(sudokulab.EINVALID, "puzzle %s: count status %q: want %q with a solution count, %q or none without one",
		p.Givens.String(), p.CountStatus, sudokulab.CountCounted, sudokulab.CountUndetermined)
}

// nullSeconds is the value of count_seconds: NULL for 0 or no count status.
func nullSeconds(status string, s float64) any {
	if status == "" || s <= 0 {
		return nil
	}
	return s
}

// fillCount is the SET clause that gives a stored puzzle the count of a
// new attempt with status (CountCounted or CountUndetermined) when the row
// has no exact count: its arguments are the count, status and seconds.
const fillCount = `solution_count = COALESCE(solution_count, ?),
	count_status = CASE WHEN solution_count IS NULL THEN ? ELSE count_status END,
	count_seconds = CASE WHEN solution_count IS NULL THEN ? ELSE count_seconds END`

// AddPuzzle stores p unless a puzzle with the same box shape and text form
// is stored already, and returns the id either way; created says whether
// the row is new. When the stored row lacks a solution or an exact
// solution count that p has, they are filled in (an undetermined count
// gets p's count, or p's undetermined status and seconds when p has none
// either); a known solution is never replaced. A count without a
// CountStatus is stored as CountCounted. It sets p.ID, and p.CreatedAt
// when created. A malformed puzzle, one whose givens break the rules, a
// wrong solution or a count status that does not fit the count is an
// EINVALID error.
func AddPuzzle(ctx context.Context, x sqlx.ExtContext, p *sudokulab.Puzzle) (id int64, created bool, err error) {
	g := p.Givens
	if err := p.Check(); err != nil {
		return 0, false, sudokulab.WrapError(sudokulab.EINVALID, err, "puzzle %s", g.String())
	}
	status, err := countStatus(p)
	if err != nil {
		return 0, false, err
	}
	text, shape := g.String(), g.Shape
	createdAt := stamp(p.CreatedAt)
	err = x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form, created_at,
			count_status, count_seconds)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (box_rows, box_cols, grid) DO NOTHING
		RETURNING id`),
		text, shape.N(), shape.BoxRows, shape.BoxCols, g.Givens(), nullGrid(p.Solution), p.SolutionCount,
		nullStr(p.SymmetryForm), FormatTime(createdAt), nullStr(status), nullSeconds(status, p.CountSeconds)).Scan(&id)
	switch {
	case err == nil:
		p.ID, p.CreatedAt = id, createdAt
		return id, true, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, false, dbError(err, "add puzzle")
	}

	// Stored already: fill in what the row lacks.
	var (
		solution string
		count    *int
	)
	err = x.QueryRowxContext(ctx, x.Rebind(`
		SELECT id, solution, solution_count, created_at FROM puzzles
		WHERE box_rows = ? AND box_cols = ? AND grid = ?`), shape.BoxRows, shape.BoxCols, text).
		Scan(&id, strCol{&solution}, &count, timeCol{&p.CreatedAt})
	if err != nil {
		return 0, false, dbError(err, "add puzzle")
	}
	p.ID = id
	if (solution == "" && p.HasSolution()) || (count == nil && status != "") {
		set, args := `solution = COALESCE(solution, ?)`, []any{nullGrid(p.Solution)}
		if count == nil && status != "" {
			set += ", " + fillCount
			args = append(args, p.SolutionCount, status, nullSeconds(status, p.CountSeconds))
		}
		_, err = x.ExecContext(ctx, x.Rebind(`UPDATE puzzles SET `+set+` WHERE id = ?`), append(args, id)...)
		if err != nil {
			return 0, false, dbError(err, "add puzzle: fill in solution")
		}
	}
	return id, false, nil
}

// SetCount stores a new count of the stored puzzle p.ID, made by counting
// again (sudokulab count), under the fill-in rules of AddPuzzle: a row
// without an exact count gets p's count, or, when p's count is
// undetermined too, p's status and seconds; a row counted meanwhile keeps
// its count; a missing solution is filled in from p. A missing puzzle is
// an ENOTFOUND error, a count status that does not fit the count an
// EINVALID error.
func SetCount(ctx context.Context, x sqlx.ExtContext, p *sudokulab.Puzzle) error {
	status, err := countStatus(p)
	if err != nil {
		return err
	}
	if status == "" {
		return sudokulab.Errorf(sudokulab.EINVALID, "puzzle %d: no count to store", p.ID)
	}
	res, err := x.ExecContext(ctx, x.Rebind(`UPDATE puzzles SET solution = COALESCE(solution, ?), `+fillCount+` WHERE id = ?`),
		nullGrid(p.Solution), p.SolutionCount, status, nullSeconds(status, p.CountSeconds), p.ID)
	if err != nil {
		return dbError(err, "store the count of puzzle "+strconv.FormatInt(p.ID, 10))
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "no puzzle with id %d", p.ID)
	}
	return nil
}

// GetPuzzle returns the puzzle with the given id, or an ENOTFOUND error.
func GetPuzzle(ctx context.Context, x sqlx.ExtContext, id int64) (*sudokulab.Puzzle, error) {
	p, err := scanPuzzle(x.QueryRowxContext(ctx, x.Rebind(`SELECT `+puzzleCols+` FROM puzzles WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no puzzle with id %d", id)
	}
	if err != nil {
		return nil, dbError(err, "get puzzle")
	}
	return &p, nil
}

// FindPuzzle returns the stored puzzle of the given shape whose givens are
// grid, written in any form ParseShape accepts, or an ENOTFOUND error. A
// grid that does not parse is an EINVALID error.
func FindPuzzle(ctx context.Context, x sqlx.ExtContext, shape sudokulab.Shape, grid string) (*sudokulab.Puzzle, error) {
	g, err := sudokulab.ParseShape(grid, shape)
	if err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "grid")
	}
	p, err := scanPuzzle(x.QueryRowxContext(ctx, x.Rebind(`
		SELECT `+puzzleCols+` FROM puzzles WHERE box_rows = ? AND box_cols = ? AND grid = ?`),
		shape.BoxRows, shape.BoxCols, g.String()))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "puzzle %s (%s) is not stored", g.String(), shape)
	}
	if err != nil {
		return nil, dbError(err, "find puzzle")
	}
	return &p, nil
}

// ListPuzzles returns the distinct puzzles having a row of the view
// puzzle_catalog that matches the SQL predicate where, such as
// "collection = 'sato-inoue-2010' AND givens < 30", ordered by id; an empty
// predicate matches every puzzle of the view (which leaves out what
// imports still loading have stored). A positive limit keeps the first limit
// puzzles. A predicate the database rejects is an EINVALID error carrying
// the database's message. The predicate must be a single expression: it
// cannot hold a ';' outside quotes.
func ListPuzzles(ctx context.Context, x sqlx.ExtContext, where string, limit int) ([]sudokulab.Puzzle, error) {
	q := `SELECT ` + puzzleCols + ` FROM puzzles WHERE id IN (SELECT id FROM puzzle_catalog)`
	if strings.TrimSpace(where) != "" {
		if err := checkPredicate(where); err != nil {
			return nil, err
		}
		// The newline ends a trailing "--" comment in the predicate.
		q = `SELECT ` + puzzleCols + ` FROM puzzles WHERE id IN (SELECT id FROM puzzle_catalog WHERE (` + where + "\n))"
	}
	q += " ORDER BY id"
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	// Given the pool, the user's predicate runs as read-only SQL (on
	// PostgreSQL in a READ ONLY transaction rolled back afterwards),
	// whatever the command opened the database for.
	if strings.TrimSpace(where) != "" {
		var release func()
		var err error
		if x, ctx, release, err = readOnlyExt(ctx, x); err != nil {
			return nil, err
		}
		defer release()
	}
	predicateErr := func(err error) error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return sudokulab.Errorf(sudokulab.EINVALID, "predicate %q: %s", where, dbMessage(err))
	}
	// No placeholders, so no Rebind: a '?' in the predicate is the user's.
	rows, err := x.QueryxContext(ctx, q)
	if err != nil {
		return nil, predicateErr(err)
	}
	defer rows.Close()
	var out []sudokulab.Puzzle
	for rows.Next() {
		p, err := scanPuzzle(rows)
		if err != nil {
			return nil, dbError(err, "list puzzles")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, predicateErr(err)
	}
	return out, nil
}

// connExt is one connection of a pool as a sqlx.ExtContext.
type connExt struct {
	*sqlx.Conn
	pool *sqlx.DB
}

func (c connExt) DriverName() string     { return c.pool.DriverName() }
func (c connExt) Rebind(q string) string { return c.pool.Rebind(q) }
func (c connExt) BindNamed(q string, arg any) (string, []any, error) {
	return c.pool.BindNamed(q, arg)
}

// EnsureCollection returns the id of the collection called name, creating
// it with the description if there is none. An existing collection keeps
// its description unless it has none.
func EnsureCollection(ctx context.Context, x sqlx.ExtContext, name, description string) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "a collection needs a name")
	}
	return ensureNamed(ctx, x, "collections", "collection", name, description)
}

// EnsureExperiment returns the id of the experiment called name, creating
// it with the description if there is none. An existing experiment keeps
// its description unless it has none.
func EnsureExperiment(ctx context.Context, x sqlx.ExtContext, name, description string) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "an experiment needs a name")
	}
	return ensureNamed(ctx, x, "experiments", "experiment", name, description)
}

// ExperimentID returns the id of the experiment called name. Only a
// missing experiment is an ENOTFOUND error; a failed read is returned as
// the database reported it, so that callers can try it again.
func ExperimentID(ctx context.Context, x sqlx.ExtContext, name string) (int64, error) {
	var id int64
	err := sqlx.GetContext(ctx, x, &id, x.Rebind(`SELECT id FROM experiments WHERE name = ?`), name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, sudokulab.Errorf(sudokulab.ENOTFOUND, "no experiment called %q (see sudokulab experiments list)", name)
	}
	return id, dbError(err, "find experiment "+name)
}

// ensureNamed implements EnsureCollection and EnsureExperiment, whose
// tables both have id, name (unique), description and created_at.
func ensureNamed(ctx context.Context, x sqlx.ExtContext, table, what, name, description string) (int64, error) {
	if err := (&sudokulab.Collection{Name: name, Description: description}).Check(); err != nil {
		return 0, sudokulab.WrapError(sudokulab.EINVALID, err, "%s %.80q", what, name)
	}
	var id int64
	err := x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO `+table+` (name, description, created_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO NOTHING
		RETURNING id`), name, description, FormatTime(now())).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, dbError(err, "add "+what+" "+name)
	}
	var old string
	err = x.QueryRowxContext(ctx, x.Rebind(`SELECT id, description FROM `+table+` WHERE name = ?`), name).Scan(&id, &old)
	if err != nil {
		return 0, dbError(err, "find "+what+" "+name)
	}
	if old == "" && description != "" {
		if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE `+table+` SET description = ? WHERE id = ?`), description, id); err != nil {
			return 0, dbError(err, "describe "+what+" "+name)
		}
	}
	return id, nil
}

// AddMembership puts a puzzle in a collection. Position 0 places it after
// the collection's last puzzle. If the puzzle is in the collection already
// nothing changes, except the label when m has a non-empty one. A missing
// collection, puzzle or import is an ENOTFOUND error; a label longer than
// sudokulab.MaxLabelBytes, or Metadata that is neither empty nor a JSON
// object, is an EINVALID error.
func AddMembership(ctx context.Context, x sqlx.ExtContext, m sudokulab.Membership) error {
	check := m
	check.Position = max(m.Position, 1) // 0: after the last one
	if err := check.Check(); err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "membership of puzzle %d", m.PuzzleID)
	}
	var pos any
	if m.Position > 0 {
		pos = m.Position
	} else if m.Position < 0 {
		return sudokulab.Errorf(sudokulab.EINVALID, "membership position %d: want 1 or more, or 0 for the next one", m.Position)
	}
	_, err := x.ExecContext(ctx, x.Rebind(`
		INSERT INTO collection_puzzles
			(collection_id, puzzle_id, position, label, import_id, source_line, metadata, added_at)
		VALUES (?, ?,
			COALESCE(?, (SELECT COALESCE(MAX(position), 0) + 1 FROM collection_puzzles WHERE collection_id = ?)),
			?, ?, ?, ?, ?)
		ON CONFLICT (collection_id, puzzle_id) DO UPDATE SET label = excluded.label
		WHERE excluded.label <> ''`),
		m.CollectionID, m.PuzzleID, pos, m.CollectionID, m.Label, nullID(m.ImportID), nullID(m.SourceLine),
		nullStr(m.Metadata), FormatTime(stamp(m.AddedAt)))
	if err != nil {
		return dbError(err, "add puzzle "+strconv.FormatInt(m.PuzzleID, 10)+" to collection "+strconv.FormatInt(m.CollectionID, 10))
	}
	return nil
}

// PuzzleCollections returns the memberships of a puzzle, with the
// collection names, ordered by collection name; memberships written by
// imports still loading are left out.
func PuzzleCollections(ctx context.Context, x sqlx.ExtContext, puzzleID int64) ([]sudokulab.Membership, error) {
	rows, err := x.QueryxContext(ctx, x.Rebind(`
		SELECT cp.collection_id, cp.puzzle_id, cp.position, cp.label, cp.import_id, cp.source_line,
		       cp.metadata, cp.added_at, c.name
		FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id
		WHERE cp.puzzle_id = ? AND `+notLoading("cp.import_id")+`
		ORDER BY c.name`), puzzleID)
	if err != nil {
		return nil, dbError(err, "puzzle collections")
	}
	defer rows.Close()
	var out []sudokulab.Membership
	for rows.Next() {
		var m sudokulab.Membership
		if err := rows.Scan(&m.CollectionID, &m.PuzzleID, &m.Position, &m.Label, idCol[int64]{&m.ImportID},
			idCol[int]{&m.SourceLine}, strCol{&m.Metadata}, timeCol{&m.AddedAt}, &m.Collection); err != nil {
			return nil, dbError(err, "puzzle collections")
		}
		out = append(out, m)
	}
	return out, dbError(rows.Err(), "puzzle collections")
}

// ListCollections returns every collection with its number of puzzles,
// ordered by name. Collections created by imports still loading, and the
// puzzles and memberships such imports wrote, are left out.
func ListCollections(ctx context.Context, x sqlx.ExtContext) ([]sudokulab.Collection, error) {
	rows, err := x.QueryxContext(ctx, `
		SELECT c.id, c.name, c.description, c.created_at, c.frozen, COUNT(p.id)
		FROM collections c
		LEFT JOIN collection_puzzles cp ON cp.collection_id = c.id AND `+notLoading("cp.import_id")+`
		LEFT JOIN puzzles p ON p.id = cp.puzzle_id AND `+notLoading("p.import_id")+`
		WHERE `+notLoading("c.import_id")+`
		GROUP BY c.id, c.name, c.description, c.created_at, c.frozen
		ORDER BY c.name`)
	if err != nil {
		return nil, dbError(err, "list collections")
	}
	defer rows.Close()
	var out []sudokulab.Collection
	for rows.Next() {
		var c sudokulab.Collection
		if err := rows.Scan(&c.ID, &c.Name, &c.Description, timeCol{&c.CreatedAt}, &c.Frozen, &c.Puzzles); err != nil {
			return nil, dbError(err, "list collections")
		}
		out = append(out, c)
	}
	return out, dbError(rows.Err(), "list collections")
}

// InsertImport records the start of an import and sets im.ID (and
// im.StartedAt when zero).
func InsertImport(ctx context.Context, x sqlx.ExtContext, im *sudokulab.Import) (int64, error) {
	im.StartedAt = stamp(im.StartedAt)
	im.Notes = boundNotes(im.Notes)
	var id int64
	err := x.QueryRowxContext(ctx, x.Rebind(`
		INSERT INTO imports (file_name, file_sha256, format, collection_id, started_at, finished_at,
			puzzles_read, puzzles_new, puzzles_duplicate, puzzles_rejected, notes)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`),
		im.FileName, im.FileSHA256, im.Format, nullID(im.CollectionID), FormatTime(im.StartedAt), nullTime(im.FinishedAt),
		im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate, im.PuzzlesRejected, im.Notes).Scan(&id)
	if err != nil {
		return 0, dbError(err, "record import of "+im.FileName)
	}
	im.ID = id
	return id, nil
}

// boundNotes keeps an import's notes within sudokulab.MaxTextBytes: the
// lines that fit, then one saying how much was left out (a file with many
// rejected entries notes each).
func boundNotes(notes string) string {
	const room = 200 // for the last line
	if len(notes) <= sudokulab.MaxTextBytes {
		return notes
	}
	cut := strings.LastIndexByte(notes[:sudokulab.MaxTextBytes-room], '\n')
	if cut < 0 { // one long line: cut it at a character
		cut = sudokulab.MaxTextBytes - room
		for cut > 0 && !utf8.RuneStart(notes[cut]) {
			cut--
		}
	}
	return notes[:cut] + "\n... and " + strconv.Itoa(len(notes)-cut) + " more bytes of notes, not kept"
}

// ImportCounts stores the counts and notes of an import still under way,
// leaving it unfinished (finished_at NULL), so that a process killed
// between two batches leaves an imports row that counts what it stored.
func ImportCounts(ctx context.Context, x sqlx.ExtContext, im *sudokulab.Import) error {
	im.Notes = boundNotes(im.Notes)
	_, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE imports SET puzzles_read = ?, puzzles_new = ?, puzzles_duplicate = ?, puzzles_rejected = ?, notes = ?
		WHERE id = ?`),
		im.PuzzlesRead, im.PuzzlesNew, im.PuzzlesDuplicate, im.PuzzlesRejected, im.Notes, im.ID)
	return dbError(err, "record the progress of import "+im.FileName)
}

// FinishImport stores the counts, notes and collection of an import
// recorded by InsertImport, and its finish time (now when
// im.FinishedAt is zero, which is then set).
func FinishImport(ctx context.Context, x sqlx.ExtContext, im *sudokulab.Import) error {
	im.FinishedAt = stamp(im.FinishedAt)
	im.Notes = boundNotes(im.Notes)
	res, err := x.ExecContext(ctx, x.Rebind(`
		UPDATE imports SET collection_id = ?, finished_at = ?, puzzles_read = ?, puzzles_new = ?,
			puzzles_duplicate = ?, puzzles_rejected = ?, notes = ?
		WHERE id = ?`),
		nullID(im.CollectionID), FormatTime(im.FinishedAt), im.PuzzlesRead, im.PuzzlesNew,
		im.PuzzlesDuplicate, im.PuzzlesRejected, im.Notes, im.ID)
	if err != nil {
		return dbError(err, "finish import of "+im.FileName)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "no import with id %d", im.ID)
	}
	return nil
}
