package db

// Affected exposes affected to the external tests.
var Affected = affected

// SetSmallSet sets the index's indexSmallSet until the returned function
// is called, so that a small catalog takes the paths of a big one. (A
// field, not the package's variable, so that tests on two engines at once
// do not race.)
func (ix *CatalogIndex) SetSmallSet(n int) (restore func()) {
	old := ix.smallSet
	ix.smallSet = n
	return func() { ix.smallSet = old }
}

// SetCollectionsRead sets the catalog's collectionsRead until the
// returned function is called, so that a catalog of few collections reads
// some of them in one query, as one of many does.
func (cat *Catalog) SetCollectionsRead(n int) (restore func()) {
	old := cat.collectionsRead
	cat.collectionsRead = n
	return func() { cat.collectionsRead = old }
}
