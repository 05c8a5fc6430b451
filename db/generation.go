package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// The puzzles are written in short transactions of at most
// DefaultGenerationBatch puzzles, and at least every DefaultGenerationEvery
// while some wait.
const (
	DefaultGenerationBatch = 200
	DefaultGenerationEvery = 250 * time.Millisecond
)

// Generation says where a GenerationWriter stores a generation's
// puzzles and how it records it in the table imports.
type Generation struct {
	// Collection receives the puzzles, created if needed; a frozen one is
	// an EINVALID error.
	Collection string
	// Import is the generation's row of imports: FileName, FileSHA256 and
	// Format; Notes, the collection and the counts are set by the writer.
	Import sudokulab.Import
	// Count is how many puzzles the generation is to make.
	Count int
	// Notes returns the row's notes for a state of the generation
	// ("generating", "done", "stopped ..."), such as the generator, its
	// version and options, then the state (nil: the state alone).
	Notes func(state string) string
	// Batch bounds the puzzles of one transaction, Every the time between
	// two transactions (0: DefaultGenerationBatch, DefaultGenerationEvery).
	Batch int
	Every time.Duration
	// Committed, when not nil, is told the puzzles written so far after
	// each transaction.
	Committed func(puzzles int)
}

// GenerationWriter stores the puzzles of a generation as they come, in
// short transactions, each of which also stores the counts of the
// generation's imports row, so that a generation killed outright leaves a
// true record. It is not safe for concurrent use.
type GenerationWriter struct {
	d       *DB
	g       Generation
	im      sudokulab.Import
	batch   []ImportRow
	written int
	last    time.Time
}

// BeginGeneration records the start of a generation (its imports row, its
// collection) and returns the writer of its puzzles. Writes use a context
// that ctx's cancellation does not reach, so that Ctrl-C keeps what was
// finished and lets the row be completed.
func (d *DB) BeginGeneration(ctx context.Context, g Generation) (*GenerationWriter, error) {
	if g.Batch <= 0 {
		g.Batch = DefaultGenerationBatch
	}
	if g.Every <= 0 {
		g.Every = DefaultGenerationEvery
	}
	if g.Notes == nil {
		g.Notes = func(state string) string { return state }
	}
	w := &GenerationWriter{d: d, g: g, im: g.Import, last: time.Now()}
	w.im.Notes = g.Notes("generating")
	ctx = context.WithoutCancel(ctx)
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		if c, err := GetCollection(ctx, tx, g.Collection); err == nil && c.Frozen {
			return sudokulab.Errorf(sudokulab.EINVALID, "collection %s is frozen (sudokulab collections add made it): generate into another --collection", g.Collection)
		}
		id, err := EnsureCollection(ctx, tx, g.Collection, "puzzles made by "+w.im.FileName)
		if err != nil {
			return err
		}
		w.im.CollectionID = id
		_, err = InsertImport(ctx, tx, &w.im)
		return err
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// Import returns the generation's imports row as stored so far.
func (w *GenerationWriter) Import() sudokulab.Import { return w.im }

// Written returns how many puzzles are stored.
func (w *GenerationWriter) Written() int { return w.written }

// Add adds a puzzle, writing the batch when it is full or due. The
// writer sets the row's CollectionID and ImportID.
func (w *GenerationWriter) Add(ctx context.Context, row ImportRow) error {
	row.Membership.CollectionID, row.Membership.ImportID = w.im.CollectionID, w.im.ID
	w.batch = append(w.batch, row)
	if len(w.batch) >= w.g.Batch || time.Since(w.last) >= w.g.Every {
		return w.Flush(ctx)
	}
	return nil
}

// Flush writes the puzzles added since the last write, with the counts
// of the imports row, in one transaction.
func (w *GenerationWriter) Flush(ctx context.Context) error {
	if len(w.batch) == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	next := w.im
	err := w.d.WithTx(ctx, func(tx *sqlx.Tx) error {
		iw := w.d.ImportWriter(tx)
		err := iw.Write(ctx, w.batch)
		if cerr := iw.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		next = w.im
		for _, r := range w.batch {
			next.PuzzlesRead++
			if r.Created {
				next.PuzzlesNew++
			} else {
				next.PuzzlesDuplicate++
			}
		}
		next.Notes = w.g.Notes(fmt.Sprintf("generating: %d of %d stored (a generation that ends here was stopped)",
			w.written+len(w.batch), w.g.Count))
		return ImportCounts(ctx, tx, &next)
	})
	if err != nil {
		return err
	}
	w.im = next
	w.written += len(w.batch)
	w.batch, w.last = w.batch[:0], time.Now()
	if w.g.Committed != nil {
		w.g.Committed(w.written)
	}
	return nil
}

// Finish writes what is left and completes the imports row with the
// notes of state.
func (w *GenerationWriter) Finish(ctx context.Context, state func(written int) string) error {
	if err := w.Flush(ctx); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	w.im.Notes = w.g.Notes(state(w.written))
	return w.d.Retry(ctx, func() error { return FinishImport(ctx, w.d, &w.im) })
}
