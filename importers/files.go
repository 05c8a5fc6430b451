package importers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"sudokulab"
)

// Entry is one entry of a puzzle file: a puzzle, or one that does not
// read (Err is its *DecodeError, and Record.Line its line).
type Entry struct {
	File   string
	Record Record
	Err    error
}

// FileReader reads puzzle files, without a database, in a format named or
// detected (rate FILE... and check FILE... read them so).
type FileReader struct {
	// Format names the files' format; "" detects each file's.
	Format string
	// Decode are the decoders' options; File is set for each file.
	Decode Options
	// Registry has the formats (nil: Default()).
	Registry *Registry
}

// Entries decodes the files in order and sends each entry to emit, which
// may stop the reading by returning an error. A file that cannot be read,
// a fatal decode error and a file of no puzzle at all are EINVALID errors
// naming the file.
func (fr *FileReader) Entries(ctx context.Context, files []string, emit func(Entry) error) error {
	if fr.Registry == nil {
		fr.Registry = Default()
	}
	for _, file := range files {
		if err := fr.file(ctx, file, emit); err != nil {
			return err
		}
	}
	return nil
}

func (fr *FileReader) file(ctx context.Context, file string, emit func(Entry) error) error {
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
	var format *Format
	if fr.Format != "" {
		format, err = fr.Registry.Lookup(fr.Format)
	} else {
		format, err = fr.Registry.Detect(file, head[:n])
	}
	if err != nil {
		return err
	}
	// The head read for detection, then the rest: no seek, so that a
	// pipe, a FIFO or a process substitution (<(...)) reads too.
	in := io.MultiReader(bytes.NewReader(head[:n]), f)
	o := fr.Decode
	o.File = file
	entries := 0
	var notes []string
	for rec, err := range format.Decode(in, o) {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		var de *DecodeError
		switch {
		case err != nil && errors.As(err, &de) && !de.Fatal:
			entries++
			rec.Line = de.Line
			if err := emit(Entry{File: file, Record: rec, Err: de}); err != nil {
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
		if err := emit(Entry{File: file, Record: rec}); err != nil {
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
