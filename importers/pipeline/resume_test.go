package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/symmetry"
)

// synthFile is a generated line file: n puzzles (random transformations
// of easy, a few repeated), with labels and metadata, a title line, and
// when bad is set lines that are not valid puzzles.
type synthFile struct {
	path  string
	valid int // lines holding a valid puzzle
}

func writeSynthFile(t *testing.T, n int, bad bool) synthFile {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := sudokulab.MustParse(easy)
	var b strings.Builder
	b.WriteString("# synthetic puzzles for the resume tests\n")
	f := synthFile{path: filepath.Join(t.TempDir(), "synth.txt")}
	var grids []string
	for i := range n {
		s := symmetry.Random(rng).Apply(g).String()
		switch {
		case bad && i%97 == 50:
			s = s[:80] // 80 cells: the decoder rejects it
		case bad && i%131 == 70:
			s = "11" + s[2:] // givens breaking the rules
		case i%50 == 49:
			s = grids[rng.IntN(len(grids))] // a duplicate
			f.valid++
		default:
			grids = append(grids, s)
			f.valid++
		}
		fmt.Fprintf(&b, "%s label=p%d rank=%d\n", s, i+1, i%7)
	}
	if err := os.WriteFile(f.path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// importRow is what an import leaves in its collection.
type importRow struct {
	position, line    int
	grid, label, meta string
	solutions         int
	form              string
}

// collectionRows reads a collection's puzzles through puzzle_catalog.
func collectionRows(t *testing.T, d *db.DB, collection string) []importRow {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), d.Rebind(`
		SELECT pc.position, COALESCE(cp.source_line, 0), pc.grid, pc.label, COALESCE(cp.metadata, ''),
			pc.solution_count, COALESCE(pc.symmetry_form, '')
		FROM puzzle_catalog pc JOIN collection_puzzles cp ON cp.collection_id = pc.collection_id AND cp.puzzle_id = pc.id
		WHERE pc.collection = ? ORDER BY pc.position`), collection)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []importRow
	for rows.Next() {
		var r importRow
		if err := rows.Scan(&r.position, &r.line, &r.grid, &r.label, &r.meta, &r.solutions, &r.form); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// importState reads the state, worker and records_done of an import.
func importState(t *testing.T, d *db.DB, id int64) (state, worker string, records int) {
	t.Helper()
	err := d.QueryRowContext(context.Background(), d.Rebind(`SELECT state, COALESCE(worker, ''), records_done FROM imports WHERE id = ?`), id).
		Scan(&state, &worker, &records)
	if err != nil {
		t.Fatal(err)
	}
	return state, worker, records
}

// exec runs a statement.
func exec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), d.Rebind(q), args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// interrupt imports the file and cancels the import from its progress
// once some batches are stored; it returns the loading import's id.
func interrupt(t *testing.T, d *db.DB, path string, o pipeline.Options, after int) int64 {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Progress = &cancelAfter{cancel: cancel, after: after}
	res, err := pipeline.ImportFile(ctx, d, path, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted import: error %v, want context.Canceled", err)
	}
	return res.Import.ID
}

// thisHost is the host part of this process's worker name.
func thisHost(t *testing.T) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestImportResume interrupts an import after some batches: what it
// stored is invisible, and a re-run takes it over (released by the
// cancellation, its lease lapsed, or its process gone), resumes without
// checking the stored records again and ends with the collection a
// one-shot import gives.
func TestImportResume(t *testing.T) {
	file := writeSynthFile(t, 3000, true)
	opts := pipeline.Options{Collection: "synth", SkipInvalid: true, Workers: 2}

	oneShot := openTemp(t)
	want := importFile(t, oneShot, file.path, opts)
	if want.Checked != file.valid || want.Resumed {
		t.Fatalf("one-shot import checked %d puzzles (resumed %v), want %d", want.Checked, want.Resumed, file.valid)
	}
	wantRows := collectionRows(t, oneShot, "synth")
	if len(wantRows) == 0 || want.Import.PuzzlesRejected == 0 || want.Import.PuzzlesDuplicate == 0 {
		t.Fatalf("one-shot import: %d rows, counts %+v", len(wantRows), want.Import)
	}

	tests := []struct {
		name string
		// prepare changes the interrupted import's holder before the re-run.
		prepare func(t *testing.T, d *db.DB, id int64)
	}{
		{"released by the cancellation", func(*testing.T, *db.DB, int64) {}},
		{"lease lapsed", func(t *testing.T, d *db.DB, id int64) {
			exec(t, d, `UPDATE imports SET worker = 'elsewhere:1', lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?`, id)
		}},
		{"worker gone", func(t *testing.T, d *db.DB, id int64) {
			exec(t, d, `UPDATE imports SET worker = ?, lease_until = '2999-01-01T00:00:00.000Z' WHERE id = ?`,
				thisHost(t)+":"+strconv.Itoa(1<<30), id)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			d := openTemp(t)
			id := interrupt(t, d, file.path, opts, 1000)
			state, _, records := importState(t, d, id)
			var stored, stored2 int
			if err := d.QueryRowContext(ctx, d.Rebind(`SELECT puzzles_new + puzzles_duplicate FROM imports WHERE id = ?`), id).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if state != db.ImportLoading || records == 0 || stored < 1000 || stored >= file.valid {
				t.Fatalf("interrupted import: state %s, %d records, %d puzzles stored", state, records, stored)
			}
			// Stored, yet invisible.
			if n := count(t, d, "SELECT COUNT(*) FROM puzzles"); n == 0 {
				t.Fatal("no puzzle stored by the interrupted import")
			}
			for _, q := range []string{
				"SELECT COUNT(*) FROM puzzle_catalog",
				"SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'synth'",
			} {
				if n := count(t, d, q); n != 0 {
					t.Errorf("%s = %d, want 0", q, n)
				}
			}
			if ps, err := db.ListPuzzles(ctx, d, "", 0); err != nil || len(ps) != 0 {
				t.Errorf("ListPuzzles: %d puzzles, %v; want none", len(ps), err)
			}
			if cs, err := db.ListCollections(ctx, d); err != nil || len(cs) != 0 {
				t.Errorf("ListCollections: %+v, %v; want none", cs, err)
			}
			if c, err := db.GetCollection(ctx, d, "synth"); err != nil || c.Puzzles != 0 {
				t.Errorf("GetCollection: %+v, %v; want 0 puzzles", c, err)
			}
			if tb, err := db.CollectionTable(ctx, d, "synth", 0); err != nil || len(tb.Rows) != 0 {
				t.Errorf("CollectionTable: %d rows, %v; want none", len(tb.Rows), err)
			}
			if ex, err := db.ExportPuzzles(ctx, d, "", "synth"); err != nil || len(ex) != 0 {
				t.Errorf("ExportPuzzles: %d puzzles, %v; want none", len(ex), err)
			}
			if dup, err := db.SymmetryDuplicates(ctx, d); err != nil || len(dup.Rows) != 0 {
				t.Errorf("SymmetryDuplicates: %d rows, %v; want none", len(dup.Rows), err)
			}
			// Not "already imported".
			if _, _, found, err := db.FindImport(ctx, d, want.Import.FileSHA256, "synth"); err != nil || found {
				t.Errorf("FindImport of a loading import: found %v, %v", found, err)
			}

			tt.prepare(t, d, id)
			got := importFile(t, d, file.path, opts)
			if !got.Resumed || got.ResumedAfter != records || got.Import.ID != id {
				t.Errorf("re-run: resumed %v after %d records (import %d); want import %d resumed after %d",
					got.Resumed, got.ResumedAfter, got.Import.ID, id, records)
			}
			// The stored records were decoded again but not checked.
			if got.Checked != file.valid-stored {
				t.Errorf("re-run checked %d puzzles, want %d (%d valid, %d stored before)", got.Checked, file.valid-stored, file.valid, stored)
			}
			if err := d.QueryRowContext(ctx, d.Rebind(`SELECT puzzles_new + puzzles_duplicate FROM imports WHERE id = ?`), id).Scan(&stored2); err != nil || stored2 != file.valid {
				t.Errorf("stored %d puzzles in all (%v), want %d", stored2, err, file.valid)
			}
			if state, worker, _ := importState(t, d, id); state != db.ImportDone || !strings.HasPrefix(worker, thisHost(t)+":") {
				t.Errorf("after the re-run: state %s, worker %s", state, worker)
			}
			if n := count(t, d, "SELECT COUNT(*) FROM imports"); n != 1 {
				t.Errorf("%d imports, want 1", n)
			}
			gi, wi := got.Import, want.Import
			if gi.PuzzlesRead != wi.PuzzlesRead || gi.PuzzlesNew != wi.PuzzlesNew || gi.PuzzlesDuplicate != wi.PuzzlesDuplicate ||
				gi.PuzzlesRejected != wi.PuzzlesRejected || gi.Notes != wi.Notes || gi.FinishedAt.IsZero() {
				t.Errorf("resumed import %+v\nwant %+v", gi, wi)
			}
			if got.Collection != "synth" || !slices.Equal(got.Collections, []string{"synth"}) {
				t.Errorf("collections %s %v", got.Collection, got.Collections)
			}
			if gotRows := collectionRows(t, d, "synth"); !slices.Equal(gotRows, wantRows) {
				t.Errorf("resumed collection has %d rows, one-shot %d; first difference at %d", len(gotRows), len(wantRows), firstDiff(gotRows, wantRows))
			}
			if n, m := count(t, d, "SELECT COUNT(*) FROM ratings"), count(t, oneShot, "SELECT COUNT(*) FROM ratings"); n != m {
				t.Errorf("%d ratings, one-shot %d", n, m)
			}
			// Done: the same file again changes nothing.
			if again := importFile(t, d, file.path, opts); !again.Skipped {
				t.Errorf("third run %+v, want skipped", again)
			}
		})
	}
}

func firstDiff(a, b []importRow) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestImportConflict: a loading import held by a live process is not
// taken over, whatever the options; one with other options whose holder
// is gone is cleared and the file imported afresh.
func TestImportConflict(t *testing.T) {
	file := writeSynthFile(t, 2000, false)
	opts := pipeline.Options{Collection: "synth", Workers: 2}
	me := thisHost(t) + ":" + strconv.Itoa(os.Getpid())
	future := "2999-01-01T00:00:00.000Z"
	tests := []struct {
		name, worker string
		opts         pipeline.Options
	}{
		{"another host", "elsewhere:42", opts},
		{"this process", me, opts},
		{"another host, other options", "elsewhere:42", pipeline.Options{Collection: "synth", RequireUnique: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := openTemp(t)
			id := interrupt(t, d, file.path, opts, 800)
			exec(t, d, `UPDATE imports SET worker = ?, lease_until = ? WHERE id = ?`, tt.worker, future, id)
			_, err := pipeline.ImportFile(context.Background(), d, file.path, tt.opts)
			if sudokulab.ErrorCode(err) != sudokulab.ECONFLICT || !strings.Contains(err.Error(), tt.worker) ||
				!strings.Contains(err.Error(), fmt.Sprintf("import %d, since ", id)) {
				t.Fatalf("error %v (code %s), want ECONFLICT naming %s and import %d", err, sudokulab.ErrorCode(err), tt.worker, id)
			}
			if state, worker, _ := importState(t, d, id); state != db.ImportLoading || worker != tt.worker {
				t.Errorf("the held import became %s, %s", state, worker)
			}
			// Into another collection, the file imports beside it.
			other := importFile(t, d, file.path, pipeline.Options{Collection: "other", Workers: 2})
			if other.Resumed || other.Import.PuzzlesRead != 2000 {
				t.Errorf("import into another collection: %+v", other)
			}
			// The puzzles the held import created and this one lists
			// became this one's as it was published: they show with it.
			if n := count(t, d, fmt.Sprintf(`SELECT COUNT(*) FROM puzzles p JOIN collection_puzzles cp ON cp.puzzle_id = p.id
				WHERE cp.import_id = %d AND p.import_id IS NOT %d`, other.Import.ID, other.Import.ID)); n != 0 {
				t.Errorf("%d puzzles of the published import still belong to the loading one", n)
			}
		})
	}

	t.Run("gone, other options", func(t *testing.T) {
		d := openTemp(t)
		id := interrupt(t, d, file.path, opts, 800)
		exec(t, d, `UPDATE imports SET worker = 'elsewhere:42', lease_until = '2000-01-01T00:00:00.000Z' WHERE id = ?`, id)
		o := pipeline.Options{Collection: "synth", RequireUnique: true, Workers: 2}
		res := importFile(t, d, file.path, o)
		if res.Resumed || res.Import.ID == id || res.Checked != file.valid {
			t.Errorf("import with other options: resumed %v, import %d, checked %d; want a new import checking %d", res.Resumed, res.Import.ID, res.Checked, file.valid)
		}
		if n := count(t, d, "SELECT COUNT(*) FROM imports WHERE id = "+strconv.FormatInt(id, 10)); n != 0 {
			t.Errorf("the interrupted import is still there")
		}
		fresh := openTemp(t)
		importFile(t, fresh, file.path, o)
		if a, b := collectionRows(t, d, "synth"), collectionRows(t, fresh, "synth"); !slices.Equal(a, b) {
			t.Errorf("collection after clearing differs from a one-shot import (%d and %d rows)", len(a), len(b))
		}
		if a, b := count(t, d, "SELECT COUNT(*) FROM puzzles WHERE import_id IS NOT NULL"), count(t, fresh, "SELECT COUNT(*) FROM puzzles"); a != b {
			t.Errorf("%d puzzles, want %d", a, b)
		}
	})
}

// TestImportBadEntryLate: a bad entry found after batches were stored
// fails the import and removes all it stored.
func TestImportBadEntryLate(t *testing.T) {
	d := openTemp(t)
	// A puzzle stored before by hand, that the file lists too, stays.
	keep := sudokulab.MustParse(easy)
	if _, _, err := db.AddPuzzle(context.Background(), d, &sudokulab.Puzzle{Givens: keep}); err != nil {
		t.Fatal(err)
	}
	file := writeSynthFile(t, 2000, false)
	data, err := os.ReadFile(file.path)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(easy+" label=known\n"+easy[:80]+"\n")...)
	if err := os.WriteFile(file.path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = pipeline.ImportFile(context.Background(), d, file.path, pipeline.Options{Workers: 2})
	if sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), ":2003: 80 cells, want 81") {
		t.Fatalf("error %v, want EINVALID at line 2003", err)
	}
	for table, want := range map[string]int{"puzzles": 1, "imports": 0, "collections": 0, "collection_puzzles": 0, "ratings": 0} {
		if n := count(t, d, "SELECT COUNT(*) FROM "+table); n != want {
			t.Errorf("%d rows in %s after a failed import, want %d", n, table, want)
		}
	}
}

// TestImportShortTransactions imports a file while a reader polls the
// collection's size and a writer on another connection commits small
// transactions: the reader sees nothing or everything, and the writer
// commits while the import is loading (the import waits for that after its
// first transaction, which a whole-file transaction would make a
// deadlock). How long the writes waited is logged, not bounded: a loaded
// machine (or the race detector) stretches it without end.
func TestImportShortTransactions(t *testing.T) {
	ctx := context.Background()
	file := writeSynthFile(t, 6000, false)
	path := filepath.Join(t.TempDir(), "lab.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	other, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	done := make(chan struct{})
	var (
		wg                  sync.WaitGroup
		readLoading         = make(chan struct{})
		wroteLoading        = make(chan struct{})
		seen                sync.Map // count seen -> state
		maxWait, maxPassed  atomic.Int64
		writes, loadingRead atomic.Int64
		stored              atomic.Int64 // the import's transactions
	)
	wg.Go(func() {
		var once sync.Once
		for {
			select {
			case <-done:
				return
			default:
			}
			var (
				n     int
				state string
			)
			err := other.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'synth'),
				COALESCE((SELECT state FROM imports ORDER BY id DESC LIMIT 1), '')`).Scan(&n, &state)
			if err != nil {
				t.Error(err)
				return
			}
			seen.Store(fmt.Sprintf("%d %s", n, state), true)
			if state == db.ImportLoading {
				loadingRead.Add(1)
				once.Do(func() { close(readLoading) })
			}
		}
	})
	wg.Go(func() {
		var once sync.Once
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			start, before := time.Now(), stored.Load()
			var state string
			err := other.WithTx(ctx, func(tx *sqlx.Tx) error {
				if _, err := db.EnsureExperiment(ctx, tx, fmt.Sprintf("beside-%d", i), ""); err != nil {
					return err
				}
				return tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT state FROM imports ORDER BY id DESC LIMIT 1), '')`).Scan(&state)
			})
			if err != nil {
				t.Error(err)
				return
			}
			wait, passed := time.Since(start), stored.Load()-before
			if wait.Nanoseconds() > maxWait.Load() {
				maxWait.Store(wait.Nanoseconds())
			}
			if passed > maxPassed.Load() {
				maxPassed.Store(passed)
			}
			writes.Add(1)
			if state == db.ImportLoading {
				once.Do(func() { close(wroteLoading) })
			}
		}
	})
	gate := &gateProgress{wait: []chan struct{}{readLoading, wroteLoading}, t: t, stored: &stored}
	res, err := pipeline.ImportFile(ctx, d, file.path, pipeline.Options{Collection: "synth", Workers: 2, Progress: gate})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if im := res.Import; im.PuzzlesNew+im.PuzzlesDuplicate != file.valid || im.PuzzlesNew == 0 {
		t.Fatalf("counts %+v, want %d puzzles", im, file.valid)
	}
	members := count(t, d, "SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'synth'")
	seen.Range(func(k, _ any) bool {
		var (
			n     int
			state string
		)
		fmt.Sscan(k.(string), &n, &state)
		before := n == 0 && (state == "" || state == db.ImportLoading)
		after := n == members && state == db.ImportDone
		if !before && !after {
			t.Errorf("a reader saw %d puzzles with the import %q; want 0 while loading, %d once done", n, state, members)
		}
		return true
	})
	t.Logf("%d writes beside the import, longest %v (%d of the import's %d transactions); %d reads while loading",
		writes.Load(), time.Duration(maxWait.Load()), maxPassed.Load(), stored.Load(), loadingRead.Load())
}

// gateProgress holds the import after its first batch until the channels
// are closed: a reader and a writer got in between its transactions.
type gateProgress struct {
	wait   []chan struct{}
	t      *testing.T
	after  bool
	stored *atomic.Int64 // counts the updates: the import's transactions
}

func (g *gateProgress) Start(string, int64) {}
func (g *gateProgress) Finish()             {}
func (g *gateProgress) Update(int64, int) {
	g.stored.Add(1)
	if g.after {
		return
	}
	g.after = true
	for _, c := range g.wait {
		select {
		case <-c:
		case <-time.After(2 * time.Minute):
			g.t.Error("no read or write got in while the import was loading in 2 minutes")
		}
	}
}
