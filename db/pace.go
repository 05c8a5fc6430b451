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
// up to find it taken again and again. So a job that has kept the
// database busy for holdMax leaves it free for pollGap, longer than the
// longest sleep of a waiting writer: every writer waiting then gets in. A
// job that waits for other work between its transactions leaves such gaps
// anyway, and does not pause.
const (
	holdMax = 500 * time.Millisecond
	pollGap = 110 * time.Millisecond
)

// Pacer spaces the back-to-back write transactions of one long job on
// SQLite so that other writers get the lock; on PostgreSQL, whose writers
// lock rows rather than the database, it does nothing. Call Before before
// each transaction and After when it has ended.
type Pacer struct {
	on        bool
	busySince time.Time // start of the current stretch without a pollGap
	lastEnd   time.Time // end of the latest transaction
}

// NewPacer returns a Pacer for jobs writing to d.
func NewPacer(d *DB) *Pacer { return &Pacer{on: d.dialect == &sqliteDialect} }

// Before is called before a transaction; it pauses when the stretch of
// transactions has lasted holdMax.
func (p *Pacer) Before(ctx context.Context) error {
	if !p.on {
		return nil
	}
	now := time.Now()
	if p.lastEnd.IsZero() || now.Sub(p.lastEnd) >= pollGap {
		p.busySince = now
		return nil
	}
	if now.Sub(p.busySince) < holdMax {
		return nil
	}
	t := time.NewTimer(pollGap - now.Sub(p.lastEnd))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
	}
	p.busySince = time.Now()
	return nil
}

// After is called when a transaction has ended.
func (p *Pacer) After() {
	if p.on {
		p.lastEnd = time.Now()
	}
}
