package runner

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
