package db

import (
	"context"
	"time"
)

// SQLite has one writer at a time and no queue: a writer that finds the
// database locked sleeps in its busy handler (1, 2, 5 ... then 100 ms at a
// time) and tries again. A job writing its batches back to back (an
// import, the enqueueing of a large plan) would hold the lock nearly all
// the time, short as each transaction is, and a waiting writer would wake
// up to find it taken again and again. So before each of its transactions
// a job looks whether another writer has announced that it waits (the
// writer signal, writers.go: every write transaction of sudokulab
// announces itself) and if so leaves the lock free until that writer has
// it, for pollGap at most, longer than the longest sleep of a waiting
// writer. Writers of other programs cannot announce themselves: for them
// a job that has kept the database busy for holdMax leaves it free for
// pollGap all the same. Where the signal does not work, holdMax is
// holdMaxBlind. A job that waits for other work between its transactions
// leaves such gaps anyway, and does not pause.
const (
	holdMax      = 2 * time.Second
	holdMaxBlind = 500 * time.Millisecond
	pollGap      = 110 * time.Millisecond
	// pollEvery is how often a job that gave way looks whether the
	// writer it waits for has the lock.
	pollEvery = time.Millisecond
)

// Pacer spaces the back-to-back write transactions of one long job on
// SQLite so that other writers get the lock; on PostgreSQL, whose writers
// lock rows rather than the database, it does nothing. Call Before before
// each transaction and After when it has ended.
type Pacer struct {
	on        bool
	writers   *writerSignal
	hold      time.Duration
	busySince time.Time // start of the current stretch without a pollGap
	lastEnd   time.Time // end of the latest transaction
}

// NewPacer returns a Pacer for jobs writing to d.
func NewPacer(d *DB) *Pacer {
	p := &Pacer{on: d.dialect == &sqliteDialect, writers: d.writers, hold: holdMaxBlind}
	if p.writers.on() {
		p.hold = holdMax
	}
	return p
}

// Before is called before a transaction; it gives way to a writer that
// waits, and pauses when the stretch of transactions has lasted the
// holding time.
func (p *Pacer) Before(ctx context.Context) error {
	if !p.on {
		return nil
	}
	now := time.Now()
	if p.lastEnd.IsZero() || now.Sub(p.lastEnd) >= pollGap {
		p.busySince = now
		return nil
	}
	if p.writers.waiting() {
		return p.giveWay(ctx)
	}
	if now.Sub(p.busySince) < p.hold {
		return nil
	}
	if err := sleep(ctx, pollGap-now.Sub(p.lastEnd)); err != nil {
		return err
	}
	p.busySince = time.Now()
	return nil
}

// giveWay waits until no writer waits any more, or pollGap after the end
// of the job's latest transaction.
func (p *Pacer) giveWay(ctx context.Context) error {
	for p.writers.waiting() && time.Since(p.lastEnd) < pollGap {
		if err := sleep(ctx, pollEvery); err != nil {
			return err
		}
	}
	p.busySince = time.Now()
	return nil
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// After is called when a transaction has ended.
func (p *Pacer) After() {
	if p.on {
		p.lastEnd = time.Now()
	}
}
