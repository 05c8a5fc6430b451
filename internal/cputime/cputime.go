// Package cputime measures the CPU time of the calling goroutine's thread,
// which the run engine records as a run's cpu_seconds.
//
// Go has no per-goroutine CPU clock, so the engine pins the goroutine that
// runs a search to its OS thread (runtime.LockOSThread) and reads that
// thread's CPU clock before and after. The time counts the search and the
// garbage-collection assists it was charged; it leaves out the collector's
// background workers and any goroutine the search starts (no solver starts
// one).
package cputime

import "time"

// Thread returns the CPU time the calling OS thread has used, and false
// where the platform cannot measure it. Call it from a goroutine locked to
// its thread, or the difference of two readings means nothing.
func Thread() (time.Duration, bool) { return thread() }
