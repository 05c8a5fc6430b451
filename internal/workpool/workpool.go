// Package workpool spreads a long job's independent pieces of work (the
// ratings of rate, the counts of count) over goroutines and hands their
// results, one at a time, to the goroutine that called it, which stores
// them (see db.BatchWriter).
package workpool

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Options tune Run. Zero values mean the documented defaults.
type Options struct {
	// Workers is the number of goroutines doing the work (0: one per
	// CPU).
	Workers int
	// Every is the period of Tick (0: Tick is not called).
	Every time.Duration
	// Tick, when not nil, is called every Every on the calling goroutine,
	// between results: a writer flushes there, so that no result waits
	// long to be stored.
	Tick func() error
}

// Run calls do for each piece of work on o.Workers goroutines; do hands
// its results to emit. Run passes each result to take on the calling
// goroutine, in no set order, and calls o.Tick there every o.Every.
//
// The first error of do, take or Tick stops the run and is returned; the
// results do emitted before an error of do are still taken. When ctx ends
// (Ctrl-C), the work under way stops as do honours ctx, the results not
// yet taken are dropped, and Run returns the cause of the end. What take
// was given is what the run did, for the caller to store (see
// db.BatchWriter.Finish).
func Run[J, R any](ctx context.Context, work []J, o Options, do func(ctx context.Context, job J, emit func(R) error) error, take func(R) error) error {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	results := make(chan R, 4*workers)
	emit := func(r R) error {
		select {
		case results <- r:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, max(len(work), 1)) {
		wg.Go(func() {
			for i := range next {
				if err := do(ctx, work[i], emit); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	go func() {
		defer close(next)
		for i := range work {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var ticks <-chan time.Time
	if o.Tick != nil && o.Every > 0 {
		t := time.NewTicker(o.Every)
		defer t.Stop()
		ticks = t.C
	}
	stopped := false // by ctx's end or a failed take or Tick
	for {
		select {
		case r, ok := <-results:
			if !ok {
				return context.Cause(ctx)
			}
			if stopped = stopped || parent.Err() != nil; stopped {
				continue // drain
			}
			if err := take(r); err != nil {
				cancel(err)
				stopped = true
			}
		case <-ticks:
			if ctx.Err() != nil {
				continue
			}
			if err := o.Tick(); err != nil {
				cancel(err)
				stopped = true
			}
		}
	}
}
