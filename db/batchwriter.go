package db

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
)

// DefaultBatch is the most items (or keys, see BatchOptions.Key) one
// transaction of a BatchWriter writes when BatchOptions.Size is 0.
const DefaultBatch = 100

// finishTimeout bounds the last transaction of a stopped job: long enough
// to wait out another writer, short enough that a dead server does not
// hold a Ctrl-C for long (a second Ctrl-C quits at once anyway).
const finishTimeout = time.Minute

// BatchOptions tune a BatchWriter. Zero values mean the documented
// defaults.
type BatchOptions[T any] struct {
	// Size bounds what one transaction writes: items, or with Key the
	// distinct keys of the items (0: DefaultBatch).
	Size int
	// Key, when not nil, groups the items: Size then counts groups, so
	// that the ratings of one puzzle by several raters count once.
	Key func(T) int64
	// Committed, when not nil, is called after each transaction with the
	// items it wrote (which the writer reuses afterwards).
	Committed func(items []T)
}

// BatchWriter writes the results of a long job (rate, count) in short
// transactions as they come: Add gathers them and writes them once Size
// of them wait, Flush writes those waiting (call it every so often, so
// that a result never waits long), and Finish writes the rest when the
// job ends, stopped or not. Each transaction is paced on SQLite (Pacer),
// so that other writers wait for milliseconds at most, and retried while
// the database is busy (WithTx), so that this writer waits rather than
// fails; what a stopped job finished is stored. A BatchWriter is used
// from one goroutine.
//
// The import pipeline does not use it: each of its transactions writes
// batches in the order of the file, under the import's lease, with the
// import's progress; what it shares with this writer is the Pacer and
// WithTx.
type BatchWriter[T any] struct {
	d       *DB
	write   func(ctx context.Context, x sqlx.ExtContext, item T) error
	o       BatchOptions[T]
	pace    *Pacer
	buf     []T
	keys    map[int64]bool // of buf, with o.Key
	written int
	failed  error
}

// NewBatchWriter returns a BatchWriter that stores each item with write,
// as in db.UpsertRating or db.SetCount, in transactions on d.
func NewBatchWriter[T any](d *DB, write func(ctx context.Context, x sqlx.ExtContext, item T) error, o BatchOptions[T]) *BatchWriter[T] {
	if o.Size <= 0 {
		o.Size = DefaultBatch
	}
	return &BatchWriter[T]{d: d, write: write, o: o, pace: NewPacer(d), keys: map[int64]bool{}}
}

// Add takes an item and writes those waiting once they are Size. Once ctx
// is done it only gathers: Finish writes them.
func (w *BatchWriter[T]) Add(ctx context.Context, item T) error {
	w.buf = append(w.buf, item)
	n := len(w.buf)
	if w.o.Key != nil {
		w.keys[w.o.Key(item)] = true
		n = len(w.keys)
	}
	if n < w.o.Size || ctx.Err() != nil {
		return nil
	}
	return w.Flush(ctx)
}

// Flush writes the items waiting in one transaction. A failed write fails
// the writer: Finish then writes nothing more.
func (w *BatchWriter[T]) Flush(ctx context.Context) error {
	if w.failed != nil {
		return w.failed
	}
	if len(w.buf) == 0 {
		return nil
	}
	if err := w.pace.Before(ctx); err != nil {
		return err
	}
	err := w.d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for _, item := range w.buf {
			if err := w.write(ctx, tx, item); err != nil {
				return err
			}
		}
		return nil
	})
	w.pace.After()
	if err != nil {
		if ctx.Err() == nil {
			w.failed = err
		}
		return err
	}
	w.written += len(w.buf)
	if w.o.Committed != nil {
		w.o.Committed(w.buf)
	}
	w.buf = w.buf[:0]
	clear(w.keys)
	return nil
}

// Finish writes the items still waiting when the job ends, with err (nil
// when the job did all its work), in a context that the end of ctx
// (Ctrl-C) does not cancel, so that a stopped job keeps what it finished.
// It returns err joined with its own failure. After a failed write it
// writes nothing: that failure is the job's error already.
func (w *BatchWriter[T]) Finish(ctx context.Context, err error) error {
	if w.failed != nil {
		if err == nil {
			return w.failed
		}
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	return errors.Join(err, w.Flush(ctx))
}

// Written returns the number of items written so far.
func (w *BatchWriter[T]) Written() int { return w.written }
