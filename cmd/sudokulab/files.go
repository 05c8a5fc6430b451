package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"sudokulab"
	"sudokulab/importers"
)

// Reading puzzle files without a database, for rate FILE... and check
// FILE...: the files are decoded in order with the importers, the puzzles
// worked on by several goroutines, and the results handed on in the order
// of the files and of the puzzles in them, each as soon as those before
// it are, so the output streams.

// fileEntry is one entry of a puzzle file: a puzzle, or one that does not
// read (err is its *importers.DecodeError, and rec.Line its line).
type fileEntry struct {
	file string
	rec  importers.Record
	err  error
}

// fileReader reads puzzle files in a format named or detected.
type fileReader struct {
	format string // "" detects each file's format
	decode importers.Options
	reg    *importers.Registry
}

// entries decodes the files in order and sends each entry to emit, which
// may stop the reading by returning an error. A file that cannot be read,
// a fatal decode error and a file of no puzzle at all are EINVALID errors
// naming the file.
func (fr *fileReader) entries(ctx context.Context, files []string, emit func(fileEntry) error) error {
	if fr.reg == nil {
		fr.reg = importers.Default()
	}
	for _, file := range files {
		if err := fr.file(ctx, file, emit); err != nil {
			return err
		}
	}
	return nil
}

func (fr *fileReader) file(ctx context.Context, file string, emit func(fileEntry) error) error {
	f, err := os.Open(file)
	if err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "read")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "read %s", file)
	}
	if st.IsDir() {
		return sudokulab.Errorf(sudokulab.EINVALID, "read %s: a directory, not a file", file)
	}
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return sudokulab.WrapError(sudokulab.EINVALID, err, "read %s", file)
	}
	var format *importers.Format
	if fr.format != "" {
		format, err = fr.reg.Lookup(fr.format)
	} else {
		format, err = fr.reg.Detect(file, head[:n])
	}
	if err != nil {
		return err
	}
	// The head read for detection, then the rest: no seek, so that a
	// pipe, a FIFO or a process substitution (<(...)) reads too.
	in := io.MultiReader(bytes.NewReader(head[:n]), f)
	o := fr.decode
	o.File = file
	entries := 0
	var notes []string
	for rec, err := range format.Decode(in, o) {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		var de *importers.DecodeError
		switch {
		case err != nil && errors.As(err, &de) && !de.Fatal:
			entries++
			rec.Line = de.Line
			if err := emit(fileEntry{file: file, rec: rec, err: de}); err != nil {
				return err
			}
			continue
		case err != nil && errors.As(err, &de):
			return sudokulab.WrapError(sudokulab.EINVALID, err, "")
		case err != nil:
			return sudokulab.WrapError(sudokulab.EINVALID, err, "read %s", file)
		case rec.Note != "":
			notes = append(notes, rec.Note)
			continue
		}
		entries++
		if err := emit(fileEntry{file: file, rec: rec}); err != nil {
			return err
		}
	}
	if entries == 0 {
		reason := fmt.Sprintf("nothing in it reads as a puzzle in the %s format (see sudokulab formats; --format names another)", format.Name)
		if n == 0 {
			reason = "the file is empty"
		}
		for _, n := range notes {
			reason += "; " + n
		}
		return sudokulab.Errorf(sudokulab.EINVALID, "%s: no puzzle read: %s", file, reason)
	}
	return nil
}

// inOrder reads the entries of the files with fr, works on each with work
// on jobs goroutines (0: one per CPU), and calls emit with the results in
// the order of the entries, from the calling goroutine, each as soon as
// those before it are emitted. At most a few entries per goroutine wait at
// a time. The first error (of reading, work or emit) stops it all and is
// returned.
func inOrder[R any](ctx context.Context, fr *fileReader, files []string, jobs int,
	work func(context.Context, fileEntry) (R, error), emit func(fileEntry, R) error) error {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type job struct {
		seq   int
		entry fileEntry
	}
	type result struct {
		job
		r R
	}
	tokens := make(chan struct{}, 4*jobs)
	jobsc := make(chan job)
	results := make(chan result, jobs)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobsc)
		seq := 0
		err := fr.entries(ctx, files, func(e fileEntry) error {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			select {
			case jobsc <- job{seq, e}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
			seq++
			return nil
		})
		if err != nil {
			cancel(err)
		}
	})
	for range jobs {
		wg.Go(func() {
			for j := range jobsc {
				r, err := work(ctx, j.entry)
				if err != nil {
					cancel(err)
					return
				}
				select {
				case results <- result{j, r}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	waiting := map[int]result{}
	next := 0
	for res := range results {
		if ctx.Err() != nil {
			continue // drain
		}
		waiting[res.seq] = res
		for {
			r, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			<-tokens
			if err := emit(r.entry, r.r); err != nil {
				cancel(err)
				break
			}
		}
	}
	return context.Cause(ctx)
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
