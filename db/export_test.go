package db

// Affected exposes affected to the external tests.
var Affected = affected

// SetIndexSmallSet sets indexSmallSet until the returned function is
// called, so that a small catalog takes the paths of a big one.
func SetIndexSmallSet(n int) (restore func()) {
	old := indexSmallSet
	indexSmallSet = n
	return func() { indexSmallSet = old }
}
