package web

import (
	"context"
	"sync"
	"time"

	"sudokulab/db"
)

// keeper keeps what pages compute from the whole of a big table (the
// facet counts over every puzzle, an experiment's success table over its
// runs, the lab's sizes) while the database is unchanged, so that pages
// read them in microseconds instead of seconds at a million puzzles and
// runs. Once the database changed (workers recording runs change it every
// second), a value older than lag is computed again in the background
// while pages show the one kept: a page may show values that lag that
// much and the time a computation takes, and says when they were
// computed. Where changes cannot be seen (PostgreSQL before 13: see
// db.ChangeWatch), a value is computed
// again once it is older than lag. Only the first computation of a value
// is waited for, and that one at most the wait its caller gives. With a
// negative lag every change is computed at once, in the request.
type keeper struct {
	mu      sync.Mutex
	watch   *db.ChangeWatch
	lag     time.Duration
	entries map[string]*keptValue
	// bytes is the sum of the entries' sizes.
	bytes int64
	// stop ends the computations under way (close); wg waits for them.
	stop context.CancelFunc
	base context.Context
	wg   sync.WaitGroup
}

// keptValue is one value a keeper holds.
type keptValue struct {
	v     any
	seen  int64
	at    time.Time
	valid bool
	used  time.Time
	size  int64
	// computing is closed when the background computation under way
	// ends; nil when none is. It began at began.
	computing chan struct{}
	began     time.Time
}

// keptMax bounds the values a keeper holds: past it the one used least
// recently is dropped (a value is small: counts per configuration or per
// facet value, never rows).
const keptMax = 256

// keptMaxBytes bounds the bytes of the values whose size a keeper knows
// (keep.size: results of the console's canned queries), past which the
// ones used least recently are dropped.
const keptMaxBytes = 32 << 20

func newKeeper(watch *db.ChangeWatch, lag time.Duration) *keeper {
	base, stop := context.WithCancel(context.Background())
	return &keeper{watch: watch, lag: lag, entries: map[string]*keptValue{}, base: base, stop: stop}
}

// keep says how a value is kept: how long a request waits for its first
// computation (then the page does without it), how long for a new one
// while the old one is kept (fresh: a value that is quick to compute is
// then always shown up to date), the value's own lag (0: the keeper's),
// and its longest life even while the database is unchanged (maxAge; 0:
// no limit), for a value that changes with time.
//
// An exact value is never shown once the database changed since its
// computation began: no lag, and no old value while a new one is
// computed (the request waits up to wait for the new one, then does
// without). Where changes cannot be seen (PostgreSQL before 13) an exact value is
// computed in every request, as with a negative lag (which an exact value
// otherwise ignores: it never lags). size, when not nil,
// says how many bytes a value holds; the keeper holds at most
// keptMaxBytes of values that have a size.
type keep struct {
	wait, fresh, lag, maxAge time.Duration
	exact                    bool
	size                     func(any) int64
}

// get returns the value kept under key, computing it with compute when
// there is none or it is out of date (see keeper); ok is false when the
// first computation did not end within o.wait.
func (k *keeper) get(ctx context.Context, key string, o keep, compute func(context.Context) (any, error)) (v any, at time.Time, ok bool, err error) {
	lag := k.lag
	if o.lag != 0 && lag >= 0 {
		lag = o.lag
	}
	k.mu.Lock()
	// The change counter is read before the computation's snapshot
	// begins, so that a change between the two is seen next time.
	ver, known, err := k.watch.Version(ctx)
	if err != nil {
		k.mu.Unlock()
		return nil, at, false, err
	}
	e := k.entries[key]
	if e == nil {
		// Used now: evict drops another.
		e = &keptValue{used: time.Now()}
		k.entries[key] = e
		k.evict()
	}
	e.used = time.Now()
	age := time.Since(e.at)
	if e.valid && (o.maxAge <= 0 || age < o.maxAge) && (known && ver == e.seen || !o.exact && lag > 0 && age < lag) {
		defer k.mu.Unlock()
		return e.v, e.at, true, nil
	}
	if lag < 0 && !o.exact || o.exact && !known {
		k.mu.Unlock()
		v, err := compute(ctx)
		if err != nil {
			return nil, at, false, err
		}
		if !known && o.exact {
			return v, time.Now(), true, nil // no later request could use it
		}
		k.mu.Lock()
		defer k.mu.Unlock()
		k.set(e, v, ver, o)
		return e.v, e.at, true, nil
	}
	if e.computing == nil {
		if err := k.base.Err(); err != nil {
			// Closed: close waits for the computations under way, and a
			// new one would start past its Wait.
			k.mu.Unlock()
			return nil, at, false, err
		}
		done := make(chan struct{})
		e.computing, e.began = done, time.Now()
		k.wg.Add(1)
		go func() {
			defer k.wg.Done()
			v, err := compute(k.base)
			k.mu.Lock()
			defer k.mu.Unlock()
			if err == nil {
				k.set(e, v, ver, o)
			} else if !e.valid {
				e.v = err // the waiting request reports it
			}
			close(done)
			e.computing = nil
		}()
	}
	done, wait := e.computing, o.wait
	if e.valid && !o.exact {
		// Wait for the new one only while it may come within fresh of
		// its start: a long computation delays no request past that.
		wait = o.fresh - time.Since(e.began)
		if wait <= 0 {
			defer k.mu.Unlock()
			return e.v, e.at, true, nil // the one kept, while the new one is computed
		}
	}
	k.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	case <-ctx.Done():
		return nil, at, false, ctx.Err()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !e.valid {
		if err, isErr := e.v.(error); isErr {
			e.v = nil
			return nil, at, false, err
		}
		return nil, at, false, nil
	}
	if o.exact && e.seen != ver {
		// Computed from before the change this request saw (or still
		// the old one): the next request computes it again.
		return nil, at, false, nil
	}
	return e.v, e.at, true, nil
}

// current returns the value kept under key when it was computed from the
// database as it is now: nil when there is none, or the database changed
// since (or the engine cannot tell).
func (k *keeper) current(ctx context.Context, key string) (any, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := k.entries[key]
	if e == nil || !e.valid {
		return nil, nil
	}
	ver, known, err := k.watch.Version(ctx)
	if err != nil || !known || ver != e.seen {
		return nil, err
	}
	return e.v, nil
}

// set keeps v in e, computed at version ver; k.mu is held.
func (k *keeper) set(e *keptValue, v any, ver int64, o keep) {
	e.v, e.seen, e.at, e.valid = v, ver, time.Now(), true
	if o.size != nil {
		k.bytes -= e.size
		e.size = o.size(v)
		k.bytes += e.size
		k.evict()
	}
}

// evict drops the value used least recently while there are too many or
// they hold too many bytes; k.mu is held.
func (k *keeper) evict() {
	for len(k.entries) > keptMax || k.bytes > keptMaxBytes {
		var oldest string
		var t time.Time
		for key, e := range k.entries {
			if e.computing == nil && (oldest == "" || e.used.Before(t)) {
				oldest, t = key, e.used
			}
		}
		if oldest == "" {
			return
		}
		k.bytes -= k.entries[oldest].size
		delete(k.entries, oldest)
	}
}

// close ends the computations under way and waits for them.
func (k *keeper) close() {
	// Under mu, so that get starts no computation once Wait may run.
	k.mu.Lock()
	k.stop()
	k.mu.Unlock()
	k.wg.Wait()
}

// keptValueOf returns the value kept under key, computing it (and waiting
// for it without bound) when needed: for pages that cannot do without it.
func keptValueOf[T any](ctx context.Context, k *keeper, key string, o keep, compute func(context.Context) (T, error)) (T, time.Time, error) {
	var zero T
	o.wait = time.Minute
	for {
		v, at, ok, err := k.get(ctx, key, o, func(ctx context.Context) (any, error) { return compute(ctx) })
		if err != nil {
			return zero, at, err
		}
		if ok {
			return v.(T), at, nil
		}
	}
}
