package main

import (
	"io"

	"sudokulab/internal/progress"
)

// isTerminal, workBar and newWorkBar keep the names that import.go,
// dedupe.go and generate.go use for internal/progress until those files
// call it themselves.
var isTerminal = progress.IsTerminal

type workBar struct{ *progress.Work }

func newWorkBar(w io.Writer, what string, todo int) *workBar {
	return &workBar{progress.NewWork(w, what, todo)}
}

func (b *workBar) add(n int, detail string) { b.Add(n, detail) }

func (b *workBar) finish() { b.Finish() }
