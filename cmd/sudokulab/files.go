package main

import (
	"context"

	"sudokulab/importers"
	"sudokulab/internal/workpool"
)

// Reading puzzle files without a database, for rate FILE... and check
// FILE...: the files are decoded in order (importers.FileReader), the
// puzzles worked on by several goroutines, and the results handed on in
// the order of the files and of the puzzles in them, each as soon as
// those before it are, so the output streams (workpool.Ordered).

// fileEntry is one entry of a puzzle file.
type fileEntry = importers.Entry

// inOrder reads the entries of the files with fr, works on each with work
// on jobs goroutines (0: one per CPU), and calls emit with the results in
// the order of the entries, from the calling goroutine.
func inOrder[R any](ctx context.Context, fr *importers.FileReader, files []string, jobs int,
	work func(context.Context, fileEntry) (R, error), emit func(fileEntry, R) error) error {
	produce := func(ctx context.Context, send func(fileEntry) error) error { return fr.Entries(ctx, files, send) }
	return workpool.Ordered(ctx, jobs, produce, work, emit)
}

// longest is the length of the longest of names, for the width of a
// streamed table's column.
func longest(names []string) int {
	n := 0
	for _, s := range names {
		n = max(n, len(s))
	}
	return n
}
