package db

// Puzzles: adding, counting, finding and listing them, and their symmetry
// forms.

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

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
	if n, err := affected(res, "store the count of puzzle "+strconv.FormatInt(p.ID, 10)); err != nil {
		return err
	} else if n == 0 {
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
