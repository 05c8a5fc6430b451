package pipeline

import (
	"context"
	"time"
)

// SQLite has one writer at a time and no queue: a writer that finds the
// database locked sleeps in its busy handler (1, 2, 5 ... then 100 ms at a
// time) and tries again. An import writing its batches back to back would
// hold the lock nearly all the time, short as each transaction is, and a
// waiting writer would wake up to find it taken again and again. So an
// import that has kept the database busy for holdMax leaves it free for
// pollGap, longer than the longest sleep of a waiting writer: every writer
// waiting then gets in. An import that waits for its solver workers leaves
// such gaps anyway, and does not pause.
const (
	holdMax = 500 * time.Millisecond
	pollGap = 110 * time.Millisecond
)

// pacer spaces the transactions of an import on SQLite.
type pacer struct {
	on        bool
	busySince time.Time // start of the current stretch without a pollGap
	lastEnd   time.Time // end of the latest transaction
}

// before is called before a transaction; it pauses when the stretch of
// transactions has lasted holdMax.
func (p *pacer) before(ctx context.Context) error {
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

// after is called when a transaction has ended.
func (p *pacer) after() {
	if p.on {
		p.lastEnd = time.Now()
	}
}
