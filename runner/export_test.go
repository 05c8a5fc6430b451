package runner

import (
	"time"

	"sudokulab/db"
)

// SetAfterWork makes f run each time a plan's work runs out, before Run
// looks at the queue again, until the returned func restores the default.
func SetAfterWork(f func()) (restore func()) {
	afterWork = f
	return func() { afterWork = nil }
}

// SetAfterEnqueue makes f run once a plan left to workers is in the queue,
// until the returned func restores the default.
func SetAfterEnqueue(f func()) (restore func()) {
	afterEnqueue = f
	return func() { afterEnqueue = nil }
}

// UnclaimedTold reports, for each look at the queue (what is left, at a
// time after the first look), whether a plan left to workers tells that
// its runs wait unclaimed, with opts' bound.
func UnclaimedTold(opts Options, left []db.WorkLeft, at []time.Duration) []bool {
	u := newUnclaimedWatch(opts)
	start := time.Unix(0, 0)
	out := make([]bool, len(left))
	for i := range left {
		out[i] = u.look(left[i], start.Add(at[i]))
	}
	return out
}
