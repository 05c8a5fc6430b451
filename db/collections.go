package db

// Collections: creating and filling them, listing, freezing them from a
// query, and removing them.

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// EnsureCollection returns the id of the collection called name, creating
// it with the description if there is none. An existing collection keeps
// its description unless it has none.
func EnsureCollection(ctx context.Context, x sqlx.ExtContext, name, description string) (int64, error) {
	if strings.TrimSpace(name) == "" {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "a collection needs a name")
	}
	return ensureNamed(ctx, x, "collections", "collection", name, description)
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
	old, err := frozenTarget(ctx, x, name, f.Replace)
	if err != nil {
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
	var sel []FrozenMember
	for rows.Next() {
		var m FrozenMember
		if err := rows.Scan(&m.PuzzleID, strCol{&m.Label}); err != nil {
			rows.Close()
			return 0, dbError(err, "freeze collection "+name)
		}
		sel = append(sel, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "collection %s: %s", name, dbMessage(err))
	}
	return len(sel), writeFrozen(ctx, x, name, f.Description, old, sel)
}

// FrozenMember is a puzzle of a frozen collection with its label there.
type FrozenMember struct {
	PuzzleID int64
	Label    string
}

// FreezeMembers creates the frozen collection called name holding the
// puzzles of sel in their order, as FreezeCollection does with the
// puzzles its SQL selects, and returns how many. An existing name is an
// ECONFLICT error unless replace.
func FreezeMembers(ctx context.Context, x sqlx.ExtContext, name, description string, replace bool, sel []FrozenMember) (int, error) {
	old, err := frozenTarget(ctx, x, name, replace)
	if err != nil {
		return 0, err
	}
	return len(sel), writeFrozen(ctx, x, name, description, old, sel)
}

// frozenTarget returns the collection a freeze replaces (nil for a new
// name), or the ECONFLICT error of an existing name without replace.
func frozenTarget(ctx context.Context, x sqlx.ExtContext, name string, replace bool) (*sudokulab.Collection, error) {
	old, err := GetCollection(ctx, x, name)
	switch {
	case err == nil && !replace:
		return nil, sudokulab.Errorf(sudokulab.ECONFLICT, "collection %s exists; replace its puzzles with --replace, choose another name, or remove it first (sudokulab collections rm %s)", name, name)
	case err != nil && sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND:
		return nil, err
	}
	return old, nil
}

// writeFrozen makes the collection called name (replacing old's puzzles
// when old is not nil) frozen, holding sel in order. A label longer than
// sudokulab.MaxLabelBytes is an EINVALID error.
func writeFrozen(ctx context.Context, x sqlx.ExtContext, name, description string, old *sudokulab.Collection, sel []FrozenMember) error {
	for _, m := range sel {
		if err := sudokulab.CheckLabel(m.Label); err != nil {
			return sudokulab.WrapError(sudokulab.EINVALID, err, "collection %s: puzzle %d", name, m.PuzzleID)
		}
	}
	var id int64
	var err error
	if old != nil {
		id = old.ID
		if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM collection_puzzles WHERE collection_id = ?`), id); err != nil {
			return dbError(err, "freeze collection "+name)
		}
		if description != "" {
			if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE collections SET description = ? WHERE id = ?`), description, id); err != nil {
				return dbError(err, "freeze collection "+name)
			}
		}
	} else if id, err = EnsureCollection(ctx, x, name, description); err != nil {
		return err
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`UPDATE collections SET frozen = 1 WHERE id = ?`), id); err != nil {
		return dbError(err, "freeze collection "+name)
	}
	at := FormatTime(now())
	for start := 0; start < len(sel); start += chunk {
		part := sel[start:min(start+chunk, len(sel))]
		args := make([]any, 0, 5*len(part))
		for i, m := range part {
			args = append(args, id, m.PuzzleID, start+i+1, m.Label, at)
		}
		if _, err := x.ExecContext(ctx, x.Rebind(`INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label, added_at)
			VALUES `+values(len(part), 5)), args...); err != nil {
			return dbError(err, "freeze collection "+name)
		}
	}
	return nil
}
