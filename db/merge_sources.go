package db

import "sudokulab"

// CheckMergeSources returns an EINVALID error naming the first of sources
// that is the destination dst itself (see SameDatabase): merging a
// database into itself would read what it writes.
func CheckMergeSources(dst string, sources []string) error {
	for _, src := range sources {
		if SameDatabase(dst, src) {
			return sudokulab.Errorf(sudokulab.EINVALID, "source %s is the destination (--db %s) itself", Redact(src), Redact(dst))
		}
	}
	return nil
}
