package progress

import "time"

// SetNow makes the package tell the time by f until the test ends.
func SetNow(cleanup func(func()), f func() time.Time) {
	old := now
	now = f
	cleanup(func() { now = old })
}
