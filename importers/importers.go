// Package importers reads and writes the puzzle file formats curators
// bring to the laboratory: one puzzle per line, SadMan/SudoCue .sdk, Simple
// Sudoku .ss, multi-grid text files and grids of any size written as rows,
// HoDoKu's library lines, OpenSudoku XML, CSV/TSV with a header, JSON, and the benchmark instance
// files of the large-grid literature (sudoku_acs). Each format is a small
// Decoder and, where it makes sense, an Encoder, listed in one explicit
// Registry (see Default); Registry.Detect picks the format of a file by its
// extension, then by sniffing its content.
//
// Decoders stream: they yield one Record per puzzle as they read, so that
// a file of a million puzzles is read in constant memory. They accept UTF-8
// and UTF-16 with or without a byte-order mark, LF, CRLF, CR and mixed line
// endings, a missing final newline and trailing blank lines. A problem with
// one puzzle is yielded as a *DecodeError naming the file, the line and the
// reason, and decoding goes on with the next puzzle; a problem that ends
// the file (a truncated XML document) is a DecodeError with Fatal set.
package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"sudokulab"
)

// Record is one puzzle read from a file, with what the file says about it.
type Record struct {
	// Line is the 1-based line of the file where the puzzle starts.
	Line int
	// Grid is the puzzle. It is the zero Grid in a record that only
	// carries a Note.
	Grid sudokulab.Grid
	// Solution is the solution the file gives, or the zero Grid.
	Solution sudokulab.Grid
	// Label is the puzzle's name in the file, or empty.
	Label string
	// Collection names the part of the file the puzzle belongs to (an
	// OpenSudoku folder), or is empty.
	Collection string
	// Metadata holds the file's other fields about the puzzle (an author, a
	// level, extra columns), or is nil.
	Metadata map[string]string
	// Ratings are the numeric difficulty ratings the file gives.
	Ratings []Rating
	// Tags are the puzzle's tags (puzzle_tags), sorted, or nil: a JSON
	// array of strings in a CSV column or JSON field named tags.
	Tags []string
	// Note is a remark about the file rather than a puzzle, such as a
	// header line or ignored content, for the import's notes.
	Note string
}

// Rating is a difficulty rating of a puzzle given by a file: a number, a
// label, or both.
type Rating struct {
	// Rater names the rating and where it comes from, such as "se-er" for
	// the Sudoku Explainer rating ER.
	Rater string
	// Value is the number, NaN when the rating has none (only a label,
	// such as Sudoku Explainer's "partial").
	Value float64
	// Label is the rater's verbal grade, or empty.
	Label string
}

// HasValue reports whether the rating has a number.
func (r Rating) HasValue() bool { return !math.IsNaN(r.Value) }

// tagList reads tags written as a JSON array of strings, sorted and each
// once; ok is false for anything else (such a column or field is read as
// metadata, as before tags were written).
func tagList(v []byte) (tags []string, ok bool) {
	if err := json.Unmarshal(v, &tags); err != nil || tags == nil {
		return nil, false
	}
	slices.Sort(tags)
	return slices.Compact(tags), true
}

// tagText writes tags as tagList reads them.
func tagText(tags []string) string {
	b, err := json.Marshal(tags)
	if err != nil { // a []string always marshals
		panic(err)
	}
	return string(b)
}

// setMeta sets a metadata field, creating the map.
func (r *Record) setMeta(k, v string) {
	if r.Metadata == nil {
		r.Metadata = map[string]string{}
	}
	r.Metadata[k] = v
}

// Options adjust decoding.
type Options struct {
	// File names the file in error messages.
	File string
	// Symbols is the symbol set of the file's cells, such as "0-F" (16x16,
	// 0 is a value), "1-G", "A-P", "A-Y" or "1-16" (numbers). Empty means
	// detect it; see ParseSymbols.
	Symbols string
	// PuzzleColumn and SolutionColumn name the CSV columns holding the
	// puzzle and its solution, for headers the decoder does not know.
	PuzzleColumn, SolutionColumn string
	// RatingColumns maps further CSV columns to the rater their numbers
	// are stored under.
	RatingColumns map[string]string
}

// Decoder reads the puzzles of a file. It yields each puzzle as it reads
// it, and a *DecodeError for each entry it cannot read (then goes on,
// unless the error is Fatal). An error reading r is yielded as a Fatal
// DecodeError.
type Decoder func(r io.Reader, o Options) iter.Seq2[Record, error]

// Encoder writes puzzles in a format. Records carry the puzzle, its
// solution, label, collection, metadata and ratings.
type Encoder func(w io.Writer, recs []Record) error

// DecodeError says what is wrong with an entry of a file.
type DecodeError struct {
	File   string
	Line   int // 1-based; 0 when the error is about the whole file
	Reason string
	// Fatal is set when decoding cannot go on after the error.
	Fatal bool
}

func (e *DecodeError) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// errorf returns a DecodeError for a line of the file of o.
func (o *Options) errorf(line int, format string, args ...any) *DecodeError {
	return &DecodeError{File: o.fileName(), Line: line, Reason: fmt.Sprintf(format, args...)}
}

// fatalf returns a Fatal DecodeError.
func (o *Options) fatalf(line int, format string, args ...any) *DecodeError {
	e := o.errorf(line, format, args...)
	e.Fatal = true
	return e
}

func (o *Options) fileName() string {
	if o.File == "" {
		return "input"
	}
	return o.File
}

// Format is one file format.
type Format struct {
	// Name is what people type after --format.
	Name string
	// Description says what files look like, in a sentence.
	Description string
	// Extensions are the lower-case file extensions of the format, with
	// the dot; "" stands for a file without one.
	Extensions []string
	// Sniff returns how surely head, the start of a file as UTF-8, is in
	// this format: 0 for not at all, higher for surer.
	Sniff func(head []byte) int
	// Decode reads a file.
	Decode Decoder
	// Encode writes puzzles, or is nil for a format that is only read.
	Encode Encoder
	// Caveat, when not nil, says what of recs Encode writes otherwise
	// than they are (for export to tell), or "" when nothing.
	Caveat func(recs []Record) string
	// OnePerFile is set for formats holding one puzzle per file: Encode
	// then takes exactly one record.
	OnePerFile bool
}

// Registry is a set of formats by name.
type Registry struct {
	byName map[string]*Format
	names  []string
}

// NewRegistry returns a registry of the given formats. A format without a
// name or decoder, or two formats with one name, is an error.
func NewRegistry(formats ...Format) (*Registry, error) {
	r := &Registry{byName: map[string]*Format{}}
	for i := range formats {
		f := &formats[i]
		switch {
		case f.Name == "" || f.Decode == nil || f.Sniff == nil:
			return nil, fmt.Errorf("importers: format %q needs a name, a decoder and a sniffer", f.Name)
		case r.byName[f.Name] != nil:
			return nil, fmt.Errorf("importers: format %q registered twice", f.Name)
		}
		r.byName[f.Name] = f
		r.names = append(r.names, f.Name)
	}
	slices.Sort(r.names)
	return r, nil
}

// Default returns the registry of every format of this package.
func Default() *Registry {
	r, err := NewRegistry(
		csvFormat(),
		gridFormat(),
		hodokuFormat(),
		instanceFormat(),
		jsonFormat(),
		lineFormat(),
		openSudokuFormat(),
		sdkFormat(),
		sdmFormat(),
		ssFormat(),
	)
	if err != nil {
		panic(err)
	}
	return r
}

// Names returns the format names, sorted.
func (r *Registry) Names() []string { return slices.Clone(r.names) }

// All returns the formats sorted by name.
func (r *Registry) All() []*Format {
	out := make([]*Format, len(r.names))
	for i, n := range r.names {
		out[i] = r.byName[n]
	}
	return out
}

// Lookup returns the format called name, or an EINVALID error listing the
// known ones.
func (r *Registry) Lookup(name string) (*Format, error) {
	if f := r.byName[strings.ToLower(name)]; f != nil {
		return f, nil
	}
	return nil, sudokulab.Errorf(sudokulab.EINVALID, "unknown format %q: want one of %s", name, strings.Join(r.names, ", "))
}

// Detect returns the format of the file at path whose first bytes are
// head. Every format sniffs the content; a format claiming the file's
// extension gets a point more, so the extension decides between formats
// that fit equally well. When nothing fits, the format claiming the
// extension is used (its decoder then says what is wrong), and without one
// Detect returns an EINVALID error.
func (r *Registry) Detect(path string, head []byte) (*Format, error) {
	text := headText(head)
	ext := strings.ToLower(filepath.Ext(path))
	var (
		best    *Format
		score   int
		claimed *Format
	)
	for _, f := range r.All() {
		s := f.Sniff(text)
		if slices.Contains(f.Extensions, ext) {
			if claimed == nil {
				claimed = f
			}
			if s > 0 {
				s++
			}
		}
		if s > score {
			best, score = f, s
		}
	}
	switch {
	case best != nil:
		return best, nil
	case claimed != nil:
		return claimed, nil
	}
	return nil, sudokulab.Errorf(sudokulab.EINVALID, "%s: cannot tell its format; give --format (one of %s)", path, strings.Join(r.names, ", "))
}
