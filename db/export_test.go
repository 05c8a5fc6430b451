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

// SetCollectionsRead sets collectionsRead until the returned function is
// called, so that a catalog of few collections reads some of them in one
// query, as one of many does.
func SetCollectionsRead(n int) (restore func()) {
	old := collectionsRead
	collectionsRead = n
	return func() { collectionsRead = old }
}
