package db

// Imports: the provenance of imported files, and the life of an import from
// BeginImport (loading, under a lease) to PublishImport.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

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
	if n, err := affected(res, "finish import of "+im.FileName); err != nil {
		return err
	} else if n == 0 {
		return sudokulab.Errorf(sudokulab.ENOTFOUND, "no import with id %d", im.ID)
	}
	return nil
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
	if n, err := affected(res, fmt.Sprintf("publish import %d", l.ID)); err != nil {
		return err
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
// (no run, work, rating or tag left), the others becoming published; the collections it
// created that hold no puzzle; and last the import itself, when done is
// true. The ratings and tags it stored go first (they replaced none). It is an
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
		{"tags", `DELETE FROM puzzle_tags WHERE import_id = ?
			AND (puzzle_id, tag) IN (SELECT puzzle_id, tag FROM puzzle_tags WHERE import_id = ? LIMIT ?)`, []any{l.ID, l.ID, limit}},
		{"memberships", `DELETE FROM collection_puzzles WHERE import_id = ?
			AND puzzle_id IN (SELECT puzzle_id FROM collection_puzzles WHERE import_id = ? LIMIT ?)`,
			[]any{l.ID, l.ID, limit}},
		// work has no index on puzzle_id: NOT IN reads it once per step.
		{"puzzles", `DELETE FROM puzzles WHERE id IN (SELECT p.id FROM puzzles p WHERE p.import_id = ?
			AND NOT EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.puzzle_id = p.id)
			AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.puzzle_id = p.id)
			AND p.id NOT IN (SELECT puzzle_id FROM work)
			AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.puzzle_id = p.id)
			AND NOT EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.puzzle_id = p.id)
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
		if n, err := affected(res, fmt.Sprintf("clear import %d: %s", l.ID, s.what)); err != nil {
			return false, err
		} else if n > 0 {
			return false, nil
		}
	}
	if _, err := x.ExecContext(ctx, x.Rebind(`DELETE FROM imports WHERE id = ?`), l.ID); err != nil {
		return false, dbError(err, fmt.Sprintf("clear import %d", l.ID))
	}
	return true, nil
}
