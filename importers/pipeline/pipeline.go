// Package pipeline imports puzzle files into the laboratory database: it
// decodes a file with its importers format, checks every puzzle, counts
// its solutions with the exact solver within a time budget per puzzle
// (Options.CountTimeout; a count cut short is stored as undetermined) and
// computes its symmetry form on every core, and stores the puzzles, their memberships and ratings with
// the import's provenance.
//
// The work is a pipeline: one goroutine decodes the file into batches, a
// pool of workers checks and solves them, and the calling goroutine writes
// them in file order. At most a few batches are in flight, so memory stays
// flat however large the file.
//
// No transaction spans the file: the import is recorded in state
// 'loading', each batch is written in its own short transaction with the
// import's counters and the number of the file's records stored, and one
// last short transaction publishes it (state 'done'). Readers see nothing
// of a loading import (package db leaves it out of every read, as the view
// puzzle_catalog does), then all of it. Other writers wait at most for one
// batch. An interrupted import (Ctrl-C, a crash, a lost connection) stays
// loading with what it stored; importing the same file into the same
// collection with the same options again takes it over and resumes after
// the records stored, without checking them again. A file with a bad entry
// imports nothing unless SkipInvalid is set: what was stored before the
// entry is removed. So does one with an entry the database itself refuses
// (db.Refused: a constraint, a value its column cannot hold), whatever
// SkipInvalid says, since running it again cannot mend that: the error
// names the file and the line of the entry refused (or the lines of the
// batch, when no entry is refused alone).
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
	"sudokulab/symmetry"
)

// labRaters are the names of the lab's raters: a file's rating under one
// of them is stored as db.FileRater names it, beside the lab's own.
var labRaters = raters.Default().Names()

// Options adjust an import. The zero value imports with format detection
// into a collection named after the file, on every core.
type Options struct {
	// Registry lists the formats; nil means importers.Default().
	Registry *importers.Registry
	// Format names the file's format; empty means detect it.
	Format string
	// Decode holds the decoders' settings (symbols, CSV columns); its File
	// is set for each file.
	Decode importers.Options
	// Collection names the collection the puzzles go to. Empty means a
	// collection named after the file (its base name without extension),
	// or the one the file names for a puzzle (an OpenSudoku folder). A
	// file imported before (with the same checksum) into Collection, or
	// with Collection empty into any collection, is not imported again.
	Collection string
	// AddToFrozen lets the import add puzzles to frozen collections (made
	// by sudokulab collections add). Without it, a puzzle the file puts in
	// a frozen collection that does not hold it goes to Collection (or the
	// collection named after the file) instead, with a note, and the
	// import fails if that one is frozen too: a frozen collection changes
	// only when asked.
	AddToFrozen bool
	// SkipInvalid imports the valid puzzles of a file with bad entries and
	// lists the rejected ones; otherwise a bad entry fails the import.
	SkipInvalid bool
	// RequireUnique rejects puzzles without exactly one solution, and
	// those whose count is undetermined within CountTimeout.
	RequireUnique bool
	// CountTimeout is the budget of each puzzle's solution count (wall
	// time): 0 means DefaultCountTimeout (10s), a negative value no limit.
	// A puzzle whose count the budget cuts short is stored all the same,
	// with count status sudokulab.CountUndetermined, no solution count and
	// the solution if one was found.
	CountTimeout time.Duration
	// Workers is the number of goroutines solving puzzles; 0 means
	// GOMAXPROCS.
	Workers int
	// SpoolLimit bounds what is read from a file that is not a regular
	// file (a pipe, a FIFO, a device), which is kept in a temporary file
	// while it is imported: 0 means DefaultSpoolLimit, a negative value
	// no limit. A larger input is an EINVALID error.
	SpoolLimit int64
	// Description describes the collections the import creates, and those
	// it adds to that have none yet: where the puzzles come from, such as
	// the program and command line that generated them. Empty means
	// "imported from FILE (FORMAT)".
	Description string
	// Slot, when not nil, is the file's place in a Sequence of files
	// imported at once.
	Slot *Slot
	// Progress, when not nil, is told how the import advances.
	Progress Progress
}

// Progress follows an import.
type Progress interface {
	// Start begins a file of size bytes.
	Start(file string, size int64)
	// Update reports the bytes decoded and the puzzles stored so far, after
	// each batch is committed.
	Update(bytes int64, puzzles int)
	// Finish ends the file.
	Finish()
}

// Result is what an import did.
type Result struct {
	// File is the path imported, Format the format used and Collection the
	// collection the puzzles went to; Collections lists every collection
	// they went to, in order, when the file names several.
	File, Format, Collection string
	Collections              []string
	// Import is the stored provenance record, with the counts (of the
	// whole file, when resumed).
	Import sudokulab.Import
	// Skipped is set when the same file (by checksum) was imported into
	// the collection before; then nothing changed, and Previous is that
	// import.
	Skipped  bool
	Previous *sudokulab.Import
	// Resumed is set when this import finished one that was interrupted
	// (same file, collection and options); ResumedAfter is the number of
	// the file's records that one had stored, which this one decoded again
	// but did not check.
	Resumed      bool
	ResumedAfter int
	// Checked counts the puzzles this call checked with the exact solver;
	// Undetermined those of them stored with their count undetermined
	// (the count budget ran out).
	Checked      int
	Undetermined int
	// Rejected lists the entries not imported, with SkipInvalid, that this
	// call checked (a resumed import's earlier rejections are in the
	// import's notes).
	Rejected []*importers.DecodeError
	// Notes are remarks about the file (headers, ignored content).
	Notes []string
	// Elapsed is the time the import took.
	Elapsed time.Duration
}

const (
	// batchSize is the number of records decoded and solved together;
	// maxGroup the most batches written in one transaction (those solved
	// by the time the writer gets to them). A transaction of 400 records
	// takes 10 to 20 ms.
	batchSize = 400
	maxGroup  = 4
	// leaseTime is how long a loading import stays this process's without
	// news from it; it is renewed with every batch and every leaseTime/3.
	leaseTime = 30 * time.Second
	// clearRows bounds the rows removed in one transaction when a failed
	// import is cleared.
	clearRows = 5000
)

type item struct {
	rec    importers.Record
	err    error             // from the decoder
	reject string            // why the checks refused the puzzle
	puzzle *sudokulab.Puzzle // the checked puzzle
}

type batch struct {
	seq   int
	items []item
	side  int   // the largest grid side of the batch's puzzles
	bytes int64 // decoded so far when the batch was cut
	// skip is what the records an earlier run stored say, on the first
	// batch of a resumed import.
	skip *skipped
}

// skipped is what the decoder saw in the records it skipped when resuming.
type skipped struct {
	notes []string // remarks about the file
	names []string // collections named, in order of first appearance
}

// ImportFile imports the file at path into d. Problems with the file are
// EINVALID errors naming the file and line; a loading import of the same
// file into the same collection held by a live process is an ECONFLICT
// error. Context cancellation returns the context's error, leaving what
// was stored hidden for a re-run to resume.
func ImportFile(ctx context.Context, d *db.DB, path string, o Options) (*Result, error) {
	start := time.Now()
	if o.Slot != nil {
		defer o.Slot.Done()
	}
	if o.Registry == nil {
		o.Registry = importers.Default()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "import")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "import %s", path)
	}
	if st.IsDir() {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "import %s: a directory, not a file", path)
	}
	if !st.Mode().IsRegular() {
		// A pipe, a FIFO or a process substitution: read once, so it is
		// kept in a temporary file, which the checksum and the decoding
		// read; the import names path all the same.
		spool, closeSpool, err := spoolFile(ctx, f, o.SpoolLimit)
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", path, err)
		}
		defer closeSpool()
		f = spool
		if st, err = f.Stat(); err != nil {
			return nil, sudokulab.WrapError(sudokulab.EINVALID, err, "import %s", path)
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	head := make([]byte, 64<<10)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	head = head[:n]
	var format *importers.Format
	if o.Format != "" {
		format, err = o.Registry.Lookup(o.Format)
	} else {
		format, err = o.Registry.Detect(path, head)
	}
	if err != nil {
		return nil, err
	}
	collection := o.Collection
	if collection == "" {
		collection = defaultCollection(path)
	}
	res := &Result{File: path, Format: format.Name, Collection: collection}
	if o.Slot != nil {
		if err := o.Slot.waitBegin(ctx, sum); err != nil {
			return nil, err
		}
	}
	prev, name, found, err := db.FindImport(ctx, d, sum, o.Collection)
	if err != nil {
		return nil, err
	}
	if found {
		res.Skipped, res.Previous, res.Import, res.Collection = true, prev, *prev, name
		res.Elapsed = time.Since(start)
		return res, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	res.Import = sudokulab.Import{FileName: path, FileSHA256: sum, Format: format.Name}
	imp := &importer{d: d, o: o, format: format, res: res, key: optionsKey(o, format), worker: workerName(),
		description: o.Description, pace: db.NewPacer(d), size: st.Size()}
	if imp.description == "" {
		imp.description = fmt.Sprintf("imported from %s (%s)", filepath.Base(path), format.Name)
	}
	if err := imp.begin(ctx); err != nil {
		return nil, err
	}
	if o.Slot != nil {
		o.Slot.begun()
	}
	if o.Progress != nil {
		o.Progress.Start(path, st.Size())
		defer o.Progress.Finish()
	}
	err = imp.end(ctx, imp.run(ctx, f))
	res.Checked = int(imp.checked.Load())
	res.Elapsed = time.Since(start)
	return res, err
}

// DefaultSpoolLimit is Options.SpoolLimit when it is 0: 2 GiB, more than
// the largest puzzle collections published (some 1.5 GB as CSV), less
// than a full disk.
const DefaultSpoolLimit = 2 << 30

// SpoolLimitMiB is the SpoolLimit of import's --pipe-limit, given in
// MiB: negative for no limit, as is a number of MiB too large for bytes;
// 0 is an EINVALID error (0 bytes would refuse every pipe).
func SpoolLimitMiB(mib int64) (int64, error) {
	switch {
	case mib == 0:
		return 0, sudokulab.Errorf(sudokulab.EINVALID, "--pipe-limit 0: want a number of MiB (negative: no limit)")
	case mib > math.MaxInt64>>20:
		return -1, nil
	}
	return mib << 20, nil
}

// spoolFile copies what f holds, at most limit bytes (see
// Options.SpoolLimit), into a new temporary file in os.TempDir() and
// returns it positioned at its start, with the function that closes it.
// The file's name is removed at once (where the system allows it), so that
// nothing is left behind however the process ends, even by SIGKILL;
// otherwise closing removes it. Cancelling ctx stops the copy, and a read
// that waits on a pipe, with ctx's error.
func spoolFile(ctx context.Context, f *os.File, limit int64) (_ *os.File, closeSpool func(), err error) {
	switch {
	case limit == 0:
		limit = DefaultSpoolLimit
	case limit < 0:
		limit = math.MaxInt64
	}
	t, err := os.CreateTemp("", "sudokulab-import-*")
	if err != nil {
		return nil, nil, spoolError(err, os.TempDir())
	}
	cleanup := func() { t.Close() }
	if os.Remove(t.Name()) != nil {
		cleanup = func() { t.Close(); os.Remove(t.Name()) }
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	// A read waiting on a pipe ends when ctx does; a device that cannot
	// wait (such as /dev/zero) is stopped between reads.
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	defer stop()
	buf := make([]byte, 1<<20)
	var n int64
	for {
		if ctx.Err() != nil {
			return nil, nil, context.Cause(ctx)
		}
		k, rerr := f.Read(buf)
		if n+int64(k) > limit {
			return nil, nil, sudokulab.Errorf(sudokulab.EINVALID,
				"more than %d MiB read from a pipe or device (the limit of what is kept in a temporary file while it is imported; --pipe-limit sets it)", limit>>20)
		}
		if _, err := t.Write(buf[:k]); err != nil {
			return nil, nil, spoolError(err, t.Name())
		}
		n += int64(k)
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			if ctx.Err() != nil {
				return nil, nil, context.Cause(ctx)
			}
			return nil, nil, sudokulab.WrapError(sudokulab.EINVALID, rerr, "read")
		}
	}
	if _, err := t.Seek(0, io.SeekStart); err != nil {
		return nil, nil, spoolError(err, t.Name())
	}
	return t, cleanup, nil
}

// spoolError wraps a failure to write the temporary file at path.
func spoolError(err error, path string) error {
	return fmt.Errorf("keep the input in a temporary file %s (set TMPDIR to a folder with more room): %w", path, err)
}

// ownName checks that the collection id, named after the file being
// imported (no --collection), holds no puzzles of another file of that
// name in another folder (a/x.txt after b/x.txt), unless an earlier import
// of this file put some there: such files go to distinct collections only
// when named so, with --collection.
func (imp *importer) ownName(ctx context.Context, x sqlx.ExtContext, id, importID int64) error {
	files, err := db.CollectionFiles(ctx, x, id, importID)
	if err != nil {
		return err
	}
	file, other := imp.res.File, ""
	for _, f := range files {
		if samePath(f, file) {
			return nil // the file's own collection from an earlier import
		}
		if other == "" && filepath.Base(f) == filepath.Base(file) {
			other = f
		}
	}
	if other != "" {
		return sudokulab.Errorf(sudokulab.EINVALID,
			"import %s: collection %s, named after the file, holds the puzzles of %s, another file of that name; "+
				"name this file's collection with --collection (--collection %s adds to that one)",
			file, defaultCollection(file), other, defaultCollection(file))
	}
	return nil
}

// samePath reports whether two file names as given name the same file:
// equal once cleaned, or as absolute paths from here.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// defaultCollection names the collection of a file: its base name without
// the extension.
func defaultCollection(path string) string {
	base := filepath.Base(path)
	if s := strings.TrimSuffix(base, filepath.Ext(base)); s != "" {
		return s
	}
	return base
}

// importKey is what an import must share with an interrupted one to resume
// it: the options that decide what is stored.
type importKey struct {
	Collection     string            `json:"collection"`
	Format         string            `json:"format"`
	SkipInvalid    bool              `json:"skip_invalid"`
	RequireUnique  bool              `json:"require_unique"`
	Symbols        string            `json:"symbols,omitempty"`
	PuzzleColumn   string            `json:"puzzle_column,omitempty"`
	SolutionColumn string            `json:"solution_column,omitempty"`
	RatingColumns  map[string]string `json:"rating_columns,omitempty"`
	AddToFrozen    bool              `json:"add_to_frozen,omitempty"`
}

// optionsKey returns the options line of an import: its importKey in JSON
// (map keys sorted, so equal options give equal lines).
func optionsKey(o Options, format *importers.Format) string {
	b, _ := json.Marshal(importKey{Collection: o.Collection, Format: format.Name, SkipInvalid: o.SkipInvalid,
		RequireUnique: o.RequireUnique, Symbols: o.Decode.Symbols, PuzzleColumn: o.Decode.PuzzleColumn,
		SolutionColumn: o.Decode.SolutionColumn, RatingColumns: o.Decode.RatingColumns, AddToFrozen: o.AddToFrozen})
	return string(b)
}

// keyCollection returns the collection option of an options line, and
// whether the line could be read.
func keyCollection(line string) (string, bool) {
	var k importKey
	if err := json.Unmarshal([]byte(line), &k); err != nil {
		return "", false
	}
	return k.Collection, true
}

// workerName names this process as the holder of an import: host:pid.
func workerName() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(os.Getpid())
}

// workerGone reports whether worker ("host:pid") is a process of this host
// that no longer exists, so that a rerun after kill -9 takes its import
// over at once. The holder records no start time: a new process that got
// the dead one's PID keeps the import held until its lease lapses, which
// errs on the safe side.
func workerGone(worker string) bool {
	i := strings.LastIndexByte(worker, ':')
	if i < 0 {
		return false
	}
	host, pid := worker[:i], worker[i+1:]
	if me, _ := os.Hostname(); host != me {
		return false
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return processGone(n)
}

// importer is one file's import.
type importer struct {
	d           *db.DB
	o           Options
	format      *importers.Format
	res         *Result
	key         string // the options line
	worker      string
	description string // of the collections it creates
	hold        holder
	size        int64 // of the file, in bytes
	// records is the number of the file's records stored; first names the
	// import's collection, once it has one.
	records int
	first   string
	checked atomic.Int64
	pace    *db.Pacer
	// diverted are the notes of the latest batch on puzzles kept out of
	// frozen collections.
	diverted []string
	// ownChecked is set once ownName has passed the import's own
	// collection: it is checked once, not with every batch.
	ownChecked bool
}

// holder keeps the lease on the import being loaded.
type holder struct {
	d     *db.DB
	mu    sync.Mutex
	lease db.ImportLease
}

// tx runs fn in a transaction with the lease held; the lease fn returns is
// kept once the transaction commits.
func (h *holder) tx(ctx context.Context, fn func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error)) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var next db.ImportLease
	err := h.d.WithTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		next, err = fn(tx, h.lease)
		return err
	})
	if err == nil {
		h.lease = next
	}
	return err
}

// keep renews the lease every leaseTime/3 until stop is called; losing the
// import cancels ctx with the error.
func (h *holder) keep(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(leaseTime / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			err := h.tx(ctx, func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error) {
				return db.RenewImportLease(ctx, tx, l, leaseTime)
			})
			if errors.Is(err, db.ErrImportLost) {
				cancel(err)
				return
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// begin records the import as loading, or takes over an interrupted one
// of the same file into the same collection: one with the same options is
// resumed, others are cleared. A loading one held by a live process is an
// ECONFLICT error.
func (imp *importer) begin(ctx context.Context) error {
	res, im := imp.res, &imp.res.Import
	imp.hold.d = imp.d
	var (
		resume *db.LoadingImport
		lease  db.ImportLease
		stale  []db.ImportLease
	)
	err := imp.d.WithTx(ctx, func(tx *sqlx.Tx) error {
		resume, stale = nil, nil
		loads, err := db.LoadingImports(ctx, tx, im.FileSHA256)
		if err != nil {
			return err
		}
		var same []db.LoadingImport
		for _, l := range loads {
			if c, ok := keyCollection(l.Options); ok && c == imp.o.Collection {
				same = append(same, l)
			}
		}
		for _, l := range same {
			if !l.Lapsed && !workerGone(l.Worker) {
				into := l.Collection
				if into == "" {
					into = res.Collection
				}
				return sudokulab.Errorf(sudokulab.ECONFLICT,
					"import %s: %s is importing this file into collection %s (import %d, since %s, lease until %s, %d records stored); wait for it to finish, or stop it and run this again",
					res.File, l.Worker, into, l.Import.ID, l.Import.StartedAt.Format(time.RFC3339), l.LeaseUntil, l.RecordsDone)
			}
		}
		for i, l := range same {
			nl, ok, err := db.TakeOverImport(ctx, tx, l, imp.worker, leaseTime)
			if err != nil {
				return err
			}
			if !ok {
				return sudokulab.Errorf(sudokulab.ECONFLICT, "import %s: another process took over import %d of this file just now", res.File, l.Import.ID)
			}
			if resume == nil && l.Options == imp.key {
				resume, lease = &same[i], nl
			} else {
				stale = append(stale, nl)
			}
		}
		if resume == nil {
			fresh := sudokulab.Import{FileName: im.FileName, FileSHA256: im.FileSHA256, Format: im.Format}
			if lease, err = db.BeginImport(ctx, tx, &fresh, imp.key, imp.worker, leaseTime); err != nil {
				return err
			}
			*im = fresh
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Interrupted imports of the file into the collection with other
	// options cannot be resumed by this one: what they stored goes.
	for _, l := range stale {
		h := &holder{d: imp.d, lease: l}
		if err := h.clear(ctx); err != nil {
			imp.hold.lease = lease
			imp.release(ctx)
			return fmt.Errorf("import %s: clearing interrupted import %d: %w", res.File, l.ID, err)
		}
	}
	imp.hold.lease = lease
	if resume != nil {
		res.Resumed, res.ResumedAfter = true, resume.RecordsDone
		*im = resume.Import
		imp.records, imp.first = resume.RecordsDone, resume.Collection
		if resume.Collection != "" {
			res.Collections = []string{resume.Collection}
		}
	}
	return nil
}

// clear removes what the held import stored, and the import, in short
// transactions.
func (h *holder) clear(ctx context.Context) error {
	for done := false; !done; {
		err := h.tx(ctx, func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error) {
			var err error
			if done, err = db.ClearImport(ctx, tx, l, clearRows); err != nil || done {
				return l, err
			}
			return db.RenewImportLease(ctx, tx, l, leaseTime)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// release gives up the import, keeping what it stored for a re-run.
func (imp *importer) release(ctx context.Context) {
	_ = imp.hold.tx(ctx, func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error) {
		return l, db.ReleaseImport(ctx, tx, l)
	})
}

// end settles an import that ran with error err (nil: published). An
// interruption releases the import for a re-run to resume; a bad file
// removes what it stored; an import taken over by another process is left
// to it.
func (imp *importer) end(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	switch {
	case errors.Is(err, db.ErrImportLost):
		return err
	case ctx.Err() != nil:
		imp.release(bg)
		return ctx.Err()
	case sudokulab.ErrorCode(err) == sudokulab.EINVALID || db.Refused(err):
		// Neither a bad entry nor data the database refuses imports
		// again: nothing of the import stays.
		if sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			err = sudokulab.WrapError(sudokulab.EINVALID, err, "import %s: the database refuses what it would store", imp.res.File)
		}
		if cerr := imp.hold.clear(bg); cerr != nil {
			imp.release(bg)
			return errors.Join(err, fmt.Errorf("import %s: removing what was stored: %w", imp.res.File, cerr))
		}
		return err
	}
	imp.release(bg)
	return err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// run imports the open file f under the import's lease, skipping the
// records stored before, and publishes the import.
func (imp *importer) run(ctx context.Context, f io.Reader) error {
	o, res := imp.o, imp.res
	im := &res.Import
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopKeep := imp.hold.keep(ctx, cancel)
	defer stopKeep()

	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cr := &countingReader{r: f}
	dopts := o.Decode
	dopts.File = res.File
	skip := imp.records
	// tokens bounds the batches decoded but not yet written.
	tokens := make(chan struct{}, 4*workers)
	jobs := make(chan *batch, workers)
	results := make(chan *batch, workers)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		seq := 0
		b := &batch{}
		if skip > 0 {
			b.skip = &skipped{}
		}
		send := func() bool {
			b.seq, b.bytes = seq, cr.n.Load()
			seq++
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- b:
			case <-ctx.Done():
				return false
			}
			b = &batch{items: make([]item, 0, batchSize)}
			return true
		}
		seen := map[string]bool{}
		n := 0
		for rec, err := range imp.format.Decode(cr, dopts) {
			if n < skip {
				// Stored by an earlier run: decoded again, not checked.
				n++
				switch {
				case err != nil:
				case rec.Note != "":
					b.skip.notes = append(b.skip.notes, rec.Note)
				default:
					if name := imp.collectionOf(rec); !seen[name] {
						seen[name] = true
						b.skip.names = append(b.skip.names, name)
					}
				}
				if n%batchSize == 0 && ctx.Err() != nil {
					return
				}
				continue
			}
			b.items = append(b.items, item{rec: rec, err: err})
			if err == nil {
				b.side = max(b.side, rec.Grid.Shape.N())
			}
			if len(b.items) >= batchLimit(b.side) && !send() {
				return
			}
		}
		send()
	})
	for range workers {
		wg.Go(func() {
			var (
				solver exact.Solver
				canon  symmetry.Canonicalizer
			)
			for b := range jobs {
				for i := range b.items {
					check(ctx, &b.items[i], &solver, &canon, o.RequireUnique, o.CountTimeout, &imp.checked)
				}
				select {
				case results <- b:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	stop := func(err error) error {
		cancel(err)
		for range results {
		}
		return err
	}
	took := false
	turn := func() error {
		if took || o.Slot == nil {
			return nil
		}
		took = true
		return o.Slot.waitStore(ctx)
	}
	waiting := map[int]*batch{}
	next := 0
	for b := range results {
		waiting[b.seq] = b
		// Take in the batches solved meanwhile, to write them together.
	more:
		for {
			select {
			case b, ok := <-results:
				if !ok {
					break more
				}
				waiting[b.seq] = b
			default:
				break more
			}
		}
		for {
			var group []*batch
			for len(group) < maxGroup {
				b, ok := waiting[next]
				if !ok {
					break
				}
				delete(waiting, next)
				next++
				<-tokens
				group = append(group, b)
			}
			if len(group) == 0 {
				break
			}
			if err := turn(); err != nil {
				return stop(err)
			}
			if sk := group[0].skip; sk != nil {
				if err := imp.skipped(ctx, sk); err != nil {
					return stop(err)
				}
			}
			if err := imp.store(ctx, group); err != nil {
				return stop(err)
			}
			if o.Progress != nil {
				o.Progress.Update(group[len(group)-1].bytes, im.PuzzlesNew+im.PuzzlesDuplicate)
			}
		}
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if o.Progress != nil {
		o.Progress.Update(cr.n.Load(), im.PuzzlesNew+im.PuzzlesDuplicate)
	}
	if err := turn(); err != nil {
		return err
	}
	if im.PuzzlesNew+im.PuzzlesDuplicate == 0 {
		return imp.nothingRead()
	}
	return imp.publish(ctx)
}

// nothingRead is the error of an import that stores no puzzle: an empty
// file, a file nothing of which reads as a puzzle in its format, or one
// whose every entry was rejected. It is EINVALID, so end removes the
// import record and anything else it stored, and the corrected file
// imports afresh.
func (imp *importer) nothingRead() error {
	res := imp.res
	var reason string
	switch {
	case imp.size == 0:
		reason = "the file is empty"
	case len(res.Rejected) > 0:
		r := res.Rejected[0]
		reason = fmt.Sprintf("all %d entries were rejected (the first, line %d: %s)", res.Import.PuzzlesRejected, r.Line, r.Reason)
	default:
		reason = fmt.Sprintf("nothing in it reads as a puzzle in the %s format (see sudokulab formats; --format names another)", imp.format.Name)
		if len(res.Notes) > 0 {
			reason += "; " + strings.Join(res.Notes, "; ")
		}
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "import %s: no puzzle imported: %s", res.File, reason)
}

// collectionOf names the collection a record's puzzle goes to.
func (imp *importer) collectionOf(rec importers.Record) string {
	if imp.o.Collection == "" && rec.Collection != "" {
		return rec.Collection
	}
	return imp.res.Collection
}

// skipped takes in what the records stored by an earlier run say: their
// remarks, and the collections they went to (those that exist), for the
// result.
func (imp *importer) skipped(ctx context.Context, sk *skipped) error {
	res := imp.res
	res.Notes = append(res.Notes, sk.notes...)
	for _, name := range sk.names {
		if contains(res.Collections, name) {
			continue
		}
		if _, err := db.GetCollection(ctx, imp.d, name); err == nil {
			res.Collections = append(res.Collections, name)
		} else if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
			return err
		}
	}
	return nil
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// batchLimit is the most records of a batch whose largest grid has side n:
// batchSize for grids up to 9x9, fewer for larger ones, whose counts can
// each take up to the count budget, so that the workers share them.
func batchLimit(n int) int {
	switch {
	case n <= 9:
		return batchSize
	case n <= 16:
		return 16
	}
	return 1
}

// DefaultCountTimeout is the budget of one puzzle's solution count when
// Options.CountTimeout is 0.
const DefaultCountTimeout = 10 * time.Second

// CountBudget returns the budget a CountTimeout option means: timeout
// itself, DefaultCountTimeout for 0, and 0 (no limit) for a negative one.
func CountBudget(timeout time.Duration) time.Duration {
	switch {
	case timeout == 0:
		return DefaultCountTimeout
	case timeout < 0:
		return 0
	}
	return timeout
}

// Count counts the solutions of g up to 2 with solver's CountWithin (the
// fastest engine the binary and processor have; the count does not depend
// on it),
// within the budget CountBudget(timeout), and returns g as a Puzzle with
// its count: status
// sudokulab.CountCounted with SolutionCount and, when unique, the
// solution; or, when the budget ran out, sudokulab.CountUndetermined
// without a count but with the solution found so far, if any. CountSeconds
// is the wall time the count took. The exact solver's result comes too.
// Only a malformed grid or the end of ctx itself is an error.
func Count(ctx context.Context, solver *exact.Solver, g sudokulab.Grid, timeout time.Duration) (*sudokulab.Puzzle, exact.Result, error) {
	start := time.Now()
	r, err := solver.CountWithin(ctx, g, 2, CountBudget(timeout))
	p := &sudokulab.Puzzle{Givens: g, CountSeconds: time.Since(start).Seconds()}
	switch {
	case err == nil:
		count := r.Count
		p.SolutionCount, p.CountStatus = &count, sudokulab.CountCounted
		if count == 1 {
			p.Solution = r.Solution
		}
	case ctx.Err() != nil:
		return nil, r, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		p.CountStatus = sudokulab.CountUndetermined
		if r.Count > 0 {
			p.Solution = r.Solution
		}
	default:
		return nil, r, err
	}
	return p, r, nil
}

// check validates the puzzle of an item, counts its solutions within the
// count budget, checks the solution the file gives and computes the
// symmetry form. It counts the puzzles it solves in checked.
func check(ctx context.Context, it *item, solver *exact.Solver, canon *symmetry.Canonicalizer, requireUnique bool, countTimeout time.Duration, checked *atomic.Int64) {
	if it.err != nil || it.rec.Note != "" || ctx.Err() != nil {
		return
	}
	g := it.rec.Grid
	if err := g.Validate(); err != nil {
		it.reject = err.Error()
		return
	}
	if err := sudokulab.CheckLabel(it.rec.Label); err != nil { // as merge would refuse it
		it.reject = err.Error()
		return
	}
	checked.Add(1)
	p, r, err := Count(ctx, solver, g, countTimeout)
	if err != nil {
		it.err = err
		return
	}
	unique := p.SolutionCount != nil && *p.SolutionCount == 1
	switch {
	case requireUnique && p.SolutionCount == nil:
		it.reject = fmt.Sprintf("count undetermined within the budget of %v (--require-unique)", CountBudget(countTimeout))
		return
	case requireUnique && *p.SolutionCount == 0:
		it.reject = "no solution (--require-unique)"
		return
	case requireUnique && *p.SolutionCount > 1:
		it.reject = "two or more solutions (--require-unique)"
		return
	}
	if s := it.rec.Solution; s.Cells != nil {
		if err := sudokulab.CheckSolution(g, s); err != nil {
			it.reject = "the solution given is wrong: " + err.Error()
			return
		}
		if unique && !s.Equal(r.Solution) {
			geo := g.Geometry()
			for i := range s.Cells {
				if s.Cells[i] != r.Solution.Cells[i] {
					it.reject = fmt.Sprintf("the solution given differs from the puzzle's unique solution at %s", geo.CellName(i))
					return
				}
			}
		}
		p.Solution = s
	}
	if g.Shape == sudokulab.Classic {
		p.SymmetryForm, _ = canon.Form(g)
	}
	it.puzzle = p
}

// entry is a line a batch adds to the import's notes: a remark about the
// file, or a rejected entry.
type entry struct {
	remark   string
	rejected *importers.DecodeError
}

// prepared is a batch ready to be written: its rows with the collection
// each goes to, and its notes in file order.
type prepared struct {
	rows  []db.ImportRow
	names []string
	notes []entry
	// own is set when a row goes to the collection named after the file
	// for want of another name (no --collection, none in the record).
	own bool
}

// prepare turns a batch of checked items into rows, outside any
// transaction. A bad entry without SkipInvalid, or one that ends the file,
// is an EINVALID error.
func (imp *importer) prepare(ctx context.Context, b *batch) (*prepared, error) {
	o, res := imp.o, imp.res
	p := &prepared{rows: make([]db.ImportRow, 0, len(b.items))}
	reject := func(de *importers.DecodeError) error {
		if de.Fatal || !o.SkipInvalid {
			msg := "import"
			if de.Fatal && o.SkipInvalid {
				msg = "import (the rest of the file cannot be read)"
			}
			return sudokulab.WrapError(sudokulab.EINVALID, de, "%s", msg)
		}
		p.notes = append(p.notes, entry{rejected: de})
		return nil
	}
	for i := range b.items {
		it := &b.items[i]
		rec := it.rec
		switch {
		case it.err != nil:
			if errors.Is(it.err, context.Canceled) || errors.Is(it.err, context.DeadlineExceeded) {
				return nil, it.err
			}
			var de *importers.DecodeError
			if errors.As(it.err, &de) {
				if err := reject(de); err != nil {
					return nil, err
				}
				continue
			}
			return nil, fmt.Errorf("import %s: %w", res.File, it.err)
		case rec.Note != "":
			p.notes = append(p.notes, entry{remark: rec.Note})
			continue
		case it.reject != "":
			if err := reject(&importers.DecodeError{File: res.File, Line: rec.Line, Reason: it.reject}); err != nil {
				return nil, err
			}
			continue
		case it.puzzle == nil:
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("import %s:%d: the puzzle was not checked", res.File, rec.Line)
		}
		ratings, bad := fileRatings(rec.Ratings, res.Import.ID)
		if bad == nil {
			bad = badTag(rec.Tags)
		}
		if bad != nil {
			if err := reject(&importers.DecodeError{File: res.File, Line: rec.Line, Reason: bad.Error()}); err != nil {
				return nil, err
			}
			continue
		}
		meta := ""
		if len(rec.Metadata) > 0 {
			b, err := json.Marshal(rec.Metadata)
			if err != nil {
				return nil, fmt.Errorf("import %s:%d: metadata: %w", res.File, rec.Line, err)
			}
			meta = string(b)
		}
		id := res.Import.ID
		row := db.ImportRow{Puzzle: it.puzzle, Membership: sudokulab.Membership{Label: rec.Label,
			ImportID: id, SourceLine: rec.Line, Metadata: meta}, Tags: rec.Tags, Ratings: ratings}
		p.rows = append(p.rows, row)
		p.names = append(p.names, imp.collectionOf(rec))
		p.own = p.own || o.Collection == "" && rec.Collection == ""
	}
	return p, nil
}

// fileRatings returns the ratings a record gives, as the import
// importID stores them, or the error of the first that rate or merge
// would refuse (sudokulab.Rating.Check: a rater that is no name, a label
// holding a NUL). A value that is no finite number ("NaN" or "inf" in a
// rating column) is none: the rating is its label alone (value NULL), or
// no rating without a label.
func fileRatings(rs []importers.Rating, importID int64) ([]sudokulab.Rating, error) {
	var out []sudokulab.Rating
	for _, r := range rs {
		x := sudokulab.Rating{Rater: db.FileRater(r.Rater, labRaters), RaterVersion: "imported", Label: r.Label, ImportID: importID}
		if v := r.Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
			x.Value = &v
		} else if r.Label == "" {
			continue
		}
		if err := x.Check(); err != nil {
			return nil, fmt.Errorf("rating by %.80q: %w", r.Rater, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// badTag returns the error of the first of tags that serve --write would
// refuse (db.CheckTag), or nil.
func badTag(tags []string) error {
	for _, tag := range tags {
		if err := db.CheckTag(tag); err != nil {
			return err
		}
	}
	return nil
}

// maxNoted bounds the rejections written into the import's notes.
const maxNoted = 1000

// store writes batches that follow each other in the file in one
// transaction, with the import's progress.
func (imp *importer) store(ctx context.Context, bs []*batch) error {
	p := &prepared{}
	records := 0
	for _, b := range bs {
		bp, err := imp.prepare(ctx, b)
		if err != nil {
			return err
		}
		p.rows = append(p.rows, bp.rows...)
		p.names = append(p.names, bp.names...)
		p.own = p.own || bp.own
		p.notes = append(p.notes, bp.notes...)
		records += len(b.items)
	}
	res := imp.res
	var (
		next  sudokulab.Import
		first string
	)
	if err := imp.pace.Before(ctx); err != nil {
		return err
	}
	defer imp.pace.After()
	err := imp.hold.tx(ctx, func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error) {
		// From the committed state: the transaction may run again.
		next, first = res.Import, imp.first
		ids := map[string]int64{}
		collection := func(name string) (int64, error) {
			if id, ok := ids[name]; ok {
				return id, nil
			}
			id, err := db.EnsureImportCollection(ctx, tx, name, imp.description, next.ID)
			if err == nil && p.own && name == res.Collection && !imp.ownChecked {
				err = imp.ownName(ctx, tx, id, next.ID)
				imp.ownChecked = err == nil
			}
			ids[name] = id
			return id, err
		}
		// Rows kept out of frozen collections go to the file's own
		// collection, checked as the rows that name none.
		own := func() (int64, error) {
			if p.own || imp.o.Collection != "" {
				return collection(res.Collection)
			}
			p.own = true
			delete(ids, res.Collection)
			return collection(res.Collection)
		}
		if first != "" {
			id, err := collection(first)
			if err != nil {
				return l, err
			}
			next.CollectionID = id
		}
		for i := range p.rows {
			id, err := collection(p.names[i])
			if err != nil {
				return l, err
			}
			if first == "" {
				first, next.CollectionID = p.names[i], id
			}
			p.rows[i].Membership.CollectionID = id
		}
		w := imp.d.ImportWriter(tx)
		defer w.Close()
		w.AddToFrozen = imp.o.AddToFrozen
		if err := w.Write(ctx, p.rows); err != nil {
			return l, err
		}
		diverted, err := imp.divert(ctx, w, p.rows, p.names, own)
		if err != nil {
			return l, err
		}
		if w.KeptRatings > 0 {
			n := fmt.Sprintf("%d of the file's ratings differ from those an earlier file gave the same puzzles under the same names: the earlier ones stay", w.KeptRatings)
			diverted = append(diverted, entry{remark: n})
			imp.diverted = append(imp.diverted, n)
		}
		var notes strings.Builder
		for _, e := range append(p.notes, diverted...) {
			line := e.remark
			if e.rejected != nil {
				next.PuzzlesRead++
				next.PuzzlesRejected++
				if next.PuzzlesRejected > maxNoted {
					continue
				}
				line = fmt.Sprintf("rejected line %d: %s", e.rejected.Line, e.rejected.Reason)
			}
			if notes.Len() > 0 {
				notes.WriteByte('\n')
			}
			notes.WriteString(line)
		}
		for _, r := range p.rows {
			next.PuzzlesRead++
			if r.Created {
				next.PuzzlesNew++
			} else {
				next.PuzzlesDuplicate++
			}
		}
		return db.ImportProgress(ctx, tx, l, &next, imp.records+records, notes.String(), leaseTime)
	})
	if err != nil && db.Refused(err) {
		if line := imp.refusedRow(ctx, p.rows, p.names); line > 0 {
			return sudokulab.WrapError(sudokulab.EINVALID, err, "%s:%d: the database refuses the entry", res.File, line)
		}
		return refusedLines(res.File, p.rows, err)
	}
	if err != nil {
		return err
	}
	res.Import, imp.first = next, first
	imp.records += records
	for _, r := range p.rows {
		if r.Puzzle.CountStatus == sudokulab.CountUndetermined {
			res.Undetermined++
		}
	}
	if first != "" && !contains(res.Collections, first) {
		res.Collections = append([]string{first}, res.Collections...)
	}
	for _, name := range p.names {
		if !contains(res.Collections, name) {
			res.Collections = append(res.Collections, name)
		}
	}
	for _, e := range p.notes {
		if e.rejected != nil {
			res.Rejected = append(res.Rejected, e.rejected)
		} else {
			res.Notes = append(res.Notes, e.remark)
		}
	}
	res.Notes = append(res.Notes, imp.diverted...)
	return nil
}

// refusedRow returns the source line of the first of rows (to go to the
// collections names) that the database refuses written alone, each tried
// in a transaction rolled back, so that the error can name its line; 0
// when none is refused alone (the refusal was of rows together, or of
// the import's own row) or ctx is done.
func (imp *importer) refusedRow(ctx context.Context, rows []db.ImportRow, names []string) int {
	for i, r := range rows {
		if ctx.Err() != nil {
			return 0
		}
		err := func() error {
			tx, err := imp.d.BeginTxx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if r.Membership.CollectionID, err = db.EnsureImportCollection(ctx, tx, names[i], imp.description, imp.res.Import.ID); err != nil {
				return err
			}
			w := imp.d.ImportWriter(tx)
			defer w.Close()
			return w.Write(ctx, []db.ImportRow{r})
		}()
		if err != nil && db.Refused(err) {
			return r.Membership.SourceLine
		}
	}
	return 0
}

// refusedLines is the EINVALID error of rows the database refused with
// err (db.Refused): a constraint or a value a column cannot hold, which
// importing again cannot mend. It names the file and the line of the row,
// or the lines of the rows written together in the statement refused.
func refusedLines(file string, rows []db.ImportRow, err error) error {
	lo, hi := 0, 0
	for _, r := range rows {
		if n := r.Membership.SourceLine; n > 0 {
			if lo == 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
	}
	switch {
	case lo == 0:
		return sudokulab.WrapError(sudokulab.EINVALID, err, "import %s: the database refuses what it would store", file)
	case lo == hi:
		return sudokulab.WrapError(sudokulab.EINVALID, err, "%s:%d: the database refuses the entry", file, lo)
	}
	return sudokulab.WrapError(sudokulab.EINVALID, err, "%s: lines %d-%d: the database refuses an entry among them", file, lo, hi)
}

// divert puts the rows Write left out of frozen collections into the
// import's own collection (imp.res.Collection, whose id own returns) and
// returns a note per frozen collection for the import's notes; it sets
// imp.diverted to the same notes. The import's own collection being frozen
// too is an EINVALID error naming the way out.
func (imp *importer) divert(ctx context.Context, w *db.ImportWriter, rows []db.ImportRow, names []string,
	own func() (int64, error)) ([]entry, error) {
	imp.diverted = nil
	var out []db.ImportRow
	count := map[string]int{}
	var frozen []string
	for i, r := range rows {
		if r.Frozen {
			out = append(out, r)
			if count[names[i]] == 0 {
				frozen = append(frozen, names[i])
			}
			count[names[i]]++
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	id, err := own()
	if err != nil {
		return nil, err
	}
	name := imp.res.Collection
	for i := range out {
		out[i].Membership.CollectionID = id
	}
	if err := w.AddMemberships(ctx, out); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(out, func(r db.ImportRow) bool { return r.Frozen }) {
		return nil, sudokulab.Errorf(sudokulab.EINVALID,
			"import %s: %d puzzles would be added to collection %s, which is frozen (sudokulab collections add made it): "+
				"name another collection with --collection, or add them with --add-to-frozen", imp.res.File, len(out), name)
	}
	var notes []entry
	for _, f := range frozen {
		n := fmt.Sprintf("%d of the file's puzzles in collection %s went to collection %s: %s is frozen (--add-to-frozen adds them to it)",
			count[f], f, name, f)
		notes = append(notes, entry{remark: n})
		imp.diverted = append(imp.diverted, n)
	}
	return notes, nil
}

// publish ends the import in one transaction: its collection (made now if
// no puzzle went to one), counters, notes and state 'done'.
func (imp *importer) publish(ctx context.Context) error {
	res := imp.res
	var next sudokulab.Import
	first := imp.first
	if first == "" {
		first = res.Collection
	}
	err := imp.hold.tx(ctx, func(tx *sqlx.Tx, l db.ImportLease) (db.ImportLease, error) {
		next = res.Import
		id, err := db.EnsureImportCollection(ctx, tx, first, imp.description, next.ID)
		if err != nil {
			return l, err
		}
		next.CollectionID = id
		tail := ""
		if next.PuzzlesRejected > maxNoted {
			tail = fmt.Sprintf("and %d more rejected", next.PuzzlesRejected-maxNoted)
		}
		return l, db.PublishImport(ctx, tx, l, &next, tail)
	})
	if err != nil {
		return err
	}
	res.Import, imp.first = next, first
	if !contains(res.Collections, first) {
		res.Collections = append([]string{first}, res.Collections...)
	}
	res.Collection = res.Collections[0]
	return nil
}
