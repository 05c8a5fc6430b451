// Package pipeline imports puzzle files into the laboratory database: it
// decodes a file with its importers format, checks every puzzle, counts
// its solutions with the exact solver and computes its symmetry form on
// every core, and stores the puzzles, their memberships and ratings with
// the import's provenance in one transaction per file.
//
// The work is a pipeline: one goroutine decodes the file into batches, a
// pool of workers checks and solves them, and the calling goroutine writes
// them in file order on prepared statements. At most a few batches are in
// flight, so memory stays flat however large the file. A file with a bad
// entry imports nothing (the transaction rolls back) unless SkipInvalid is
// set; so does a cancelled context.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers"
	"sudokulab/solvers/exact"
	"sudokulab/symmetry"
)

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
	// SkipInvalid imports the valid puzzles of a file with bad entries and
	// lists the rejected ones; otherwise a bad entry fails the import.
	SkipInvalid bool
	// RequireUnique rejects puzzles without exactly one solution.
	RequireUnique bool
	// Workers is the number of goroutines solving puzzles; 0 means
	// GOMAXPROCS.
	Workers int
	// Progress, when not nil, is told how the import advances.
	Progress Progress
}

// Progress follows an import.
type Progress interface {
	// Start begins a file of size bytes.
	Start(file string, size int64)
	// Update reports the bytes decoded and the puzzles stored so far.
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
	// Import is the stored provenance record, with the counts.
	Import sudokulab.Import
	// Skipped is set when the same file (by checksum) was imported into
	// the collection before; then nothing changed, and Previous is that
	// import.
	Skipped  bool
	Previous *sudokulab.Import
	// Rejected lists the entries not imported, with SkipInvalid.
	Rejected []*importers.DecodeError
	// Notes are remarks about the file (headers, ignored content).
	Notes []string
	// Elapsed is the time the import took.
	Elapsed time.Duration
}

// batchSize is the number of entries decoded, solved and written together.
const batchSize = 400

type item struct {
	rec    importers.Record
	err    error             // from the decoder
	reject string            // why the checks refused the puzzle
	puzzle *sudokulab.Puzzle // the checked puzzle
}

type batch struct {
	seq   int
	items []item
	bytes int64 // decoded so far when the batch was cut
}

// ImportFile imports the file at path into d. Problems with the file are
// EINVALID errors naming the file and line; context cancellation returns
// the context's error with the database unchanged.
func ImportFile(ctx context.Context, d *db.DB, path string, o Options) (*Result, error) {
	start := time.Now()
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
	if o.Progress != nil {
		o.Progress.Start(path, st.Size())
		defer o.Progress.Finish()
	}
	im := &res.Import
	*im = sudokulab.Import{FileName: path, FileSHA256: sum, Format: format.Name}
	err = d.WithTx(ctx, func(tx *sqlx.Tx) error {
		return run(ctx, tx, f, format, o, res)
	})
	res.Elapsed = time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, err
	}
	return res, nil
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

// run imports the open file f inside the transaction tx.
func run(ctx context.Context, tx *sqlx.Tx, f io.Reader, format *importers.Format, o Options, res *Result) error {
	im := &res.Import
	if _, err := db.InsertImport(ctx, tx, im); err != nil {
		return err
	}
	// Collections are made as puzzles go to them; the import's is the
	// first one.
	collections := map[string]int64{}
	collection := func(name string) (int64, error) {
		if id, ok := collections[name]; ok {
			return id, nil
		}
		id, err := db.EnsureCollection(ctx, tx, name, fmt.Sprintf("imported from %s (%s)", filepath.Base(res.File), format.Name))
		if err != nil {
			return 0, err
		}
		collections[name] = id
		res.Collections = append(res.Collections, name)
		if im.CollectionID == 0 {
			im.CollectionID = id
		}
		return id, nil
	}
	w := db.NewImportWriter(tx)
	defer w.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cr := &countingReader{r: f}
	dopts := o.Decode
	dopts.File = res.File
	// tokens bounds the batches decoded but not yet written.
	tokens := make(chan struct{}, 4*workers)
	jobs := make(chan *batch, workers)
	results := make(chan *batch, workers)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		seq := 0
		b := &batch{}
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
		for rec, err := range format.Decode(cr, dopts) {
			b.items = append(b.items, item{rec: rec, err: err})
			if len(b.items) == batchSize && !send() {
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
					check(ctx, &b.items[i], &solver, &canon, o.RequireUnique)
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
		cancel()
		for range results {
		}
		return err
	}
	waiting := map[int]*batch{}
	next := 0
	for b := range results {
		waiting[b.seq] = b
		for {
			b, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			<-tokens
			if err := store(ctx, w, b, o, res, collection); err != nil {
				return stop(err)
			}
			if o.Progress != nil {
				o.Progress.Update(b.bytes, im.PuzzlesNew+im.PuzzlesDuplicate)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if o.Progress != nil {
		o.Progress.Update(cr.n.Load(), im.PuzzlesNew+im.PuzzlesDuplicate)
	}
	if im.CollectionID == 0 {
		if _, err := collection(res.Collection); err != nil {
			return err
		}
	}
	res.Collection = res.Collections[0]
	im.Notes = notes(res)
	return db.FinishImport(ctx, tx, im)
}

// check validates the puzzle of an item, counts its solutions, checks the
// solution the file gives and computes the symmetry form.
func check(ctx context.Context, it *item, solver *exact.Solver, canon *symmetry.Canonicalizer, requireUnique bool) {
	if it.err != nil || it.rec.Note != "" || ctx.Err() != nil {
		return
	}
	g := it.rec.Grid
	if err := g.Validate(); err != nil {
		it.reject = err.Error()
		return
	}
	r, err := solver.Solve(ctx, g, 2)
	if err != nil {
		it.err = err
		return
	}
	switch {
	case requireUnique && r.Count == 0:
		it.reject = "no solution (--require-unique)"
		return
	case requireUnique && r.Count > 1:
		it.reject = "two or more solutions (--require-unique)"
		return
	}
	count := r.Count
	p := &sudokulab.Puzzle{Givens: g, SolutionCount: &count}
	if count == 1 {
		p.Solution = r.Solution
	}
	if s := it.rec.Solution; s.Cells != nil {
		if err := sudokulab.CheckSolution(g, s); err != nil {
			it.reject = "the solution given is wrong: " + err.Error()
			return
		}
		if count == 1 && !s.Equal(r.Solution) {
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

// store writes a batch of checked items.
func store(ctx context.Context, w *db.ImportWriter, b *batch, o Options, res *Result, collection func(string) (int64, error)) error {
	im := &res.Import
	reject := func(de *importers.DecodeError) error {
		if de.Fatal || !o.SkipInvalid {
			msg := "import"
			if de.Fatal && o.SkipInvalid {
				msg = "import (the rest of the file cannot be read)"
			}
			return sudokulab.WrapError(sudokulab.EINVALID, de, "%s", msg)
		}
		im.PuzzlesRead++
		im.PuzzlesRejected++
		res.Rejected = append(res.Rejected, de)
		return nil
	}
	rows := make([]db.ImportRow, 0, len(b.items))
	for i := range b.items {
		it := &b.items[i]
		rec := it.rec
		switch {
		case it.err != nil:
			if errors.Is(it.err, context.Canceled) || errors.Is(it.err, context.DeadlineExceeded) {
				return it.err
			}
			var de *importers.DecodeError
			if errors.As(it.err, &de) {
				if err := reject(de); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("import %s: %w", res.File, it.err)
		case rec.Note != "":
			res.Notes = append(res.Notes, rec.Note)
			continue
		case it.reject != "":
			if err := reject(&importers.DecodeError{File: res.File, Line: rec.Line, Reason: it.reject}); err != nil {
				return err
			}
			continue
		case it.puzzle == nil:
			return ctx.Err()
		}
		name := res.Collection
		if o.Collection == "" && rec.Collection != "" {
			name = rec.Collection
		}
		cid, err := collection(name)
		if err != nil {
			return err
		}
		meta := ""
		if len(rec.Metadata) > 0 {
			b, err := json.Marshal(rec.Metadata)
			if err != nil {
				return fmt.Errorf("import %s:%d: metadata: %w", res.File, rec.Line, err)
			}
			meta = string(b)
		}
		row := db.ImportRow{Puzzle: it.puzzle, Membership: sudokulab.Membership{CollectionID: cid, Label: rec.Label,
			ImportID: im.ID, SourceLine: rec.Line, Metadata: meta}}
		for _, r := range rec.Ratings {
			v := r.Value
			row.Ratings = append(row.Ratings, sudokulab.Rating{Rater: r.Rater, RaterVersion: "imported",
				Value: &v, Details: fmt.Sprintf(`{"import_id":%d}`, im.ID)})
		}
		rows = append(rows, row)
	}
	if err := w.Write(ctx, rows); err != nil {
		return err
	}
	for _, r := range rows {
		im.PuzzlesRead++
		if r.Created {
			im.PuzzlesNew++
		} else {
			im.PuzzlesDuplicate++
		}
	}
	return nil
}

// maxNoted bounds the rejections written into the import's notes.
const maxNoted = 1000

// notes returns the import's notes: the file's remarks and the rejected
// entries.
func notes(res *Result) string {
	var b strings.Builder
	for _, n := range res.Notes {
		b.WriteString(n + "\n")
	}
	for i, r := range res.Rejected {
		if i == maxNoted {
			fmt.Fprintf(&b, "and %d more rejected\n", len(res.Rejected)-maxNoted)
			break
		}
		fmt.Fprintf(&b, "rejected line %d: %s\n", r.Line, r.Reason)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
