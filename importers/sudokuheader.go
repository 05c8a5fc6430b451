package importers

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The #!sudoku header is the first line of the puzzle lists of the Sudoku
// Players' Forum, after Glenn Fowler's sudoku program (gsf), which reads it:
// "#!sudoku" and then options that hold for the file, of which the ones
// about reading it are
//
//	-cNC[names]  the puzzle is in column N (counting from 1) of fields
//	             separated by the character C (runs of white space when C is
//	             a space or missing); C-separated names of the columns, in
//	             order, may follow (the puzzle's column among them)
//	-lX          X labels the file
//	-xS          the puzzles are XML elements <S>...</S>
//
// so that "#!sudoku -c1,PuzzleR,Label,Poster,q1,q2,ER,EP,ED,Sx9,Sxt" says:
// comma-separated fields, the puzzle in the first, named PuzzleR, then
// Label, Poster ... Sxt. Words are separated by white space and may be
// quoted ('...' or "..."); "-c 1,a,b" is "-c1,a,b". Other options are
// gsf's options for solving, and say nothing about reading the file.

// maxHeaderColumns bounds the column number and the names of a #!sudoku
// header, so that a hostile header cannot make a huge layout.
const maxHeaderColumns = 1024

// sudokuHeader is what a #!sudoku line says about reading its file.
type sudokuHeader struct {
	// Column is the puzzle's column, counting from 1; 0 (no -c, or -c0)
	// means the puzzle starts the line.
	Column int
	// Sep is the field separator; 0 means runs of white space.
	Sep rune
	// Names are the columns' names in order, or nil.
	Names []string
	// Label is the file's label (-l), or empty.
	Label string
	// XML is the tag of XML-tagged puzzle data (-x), or empty.
	XML string
	// Ignored are the options that are not about reading the file.
	Ignored []string
}

// parseSudokuHeader reads a #!sudoku line (with or without the "#!sudoku"
// itself).
func parseSudokuHeader(line string) (sudokuHeader, error) {
	var h sudokuHeader
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "#!sudoku"))
	words, err := headerWords(line)
	if err != nil {
		return h, err
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if len(w) < 2 || w[0] != '-' {
			return h, fmt.Errorf("#!sudoku: %q is not an option (want -cNC[names] and the like)", clip(w, 40))
		}
		opt, arg := w[1], w[2:]
		switch opt {
		case 'c', 'l', 'x':
			if arg == "" && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				i++
				arg = words[i]
			}
		default:
			// Options of gsf's solver; one written apart from its
			// argument ("-f %v") takes the next word.
			if len(w) == 2 && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				i++
				w += " " + words[i]
			}
			h.Ignored = append(h.Ignored, w)
			continue
		}
		switch opt {
		case 'c':
			if err := h.columns(arg); err != nil {
				return h, err
			}
		case 'l':
			h.Label = arg
		case 'x':
			if arg == "" {
				arg = "question" // gsf's default tag
			}
			h.XML = arg
		}
	}
	return h, nil
}

// columns reads the argument of -c: NC[names].
func (h *sudokuHeader) columns(arg string) error {
	end := 0
	for end < len(arg) && arg[end] >= '0' && arg[end] <= '9' {
		end++
	}
	if end == 0 {
		return fmt.Errorf("#!sudoku -c%s: want the puzzle's column number, counting from 1", clip(arg, 40))
	}
	n, err := strconv.Atoi(arg[:end])
	if err != nil || n > maxHeaderColumns {
		return fmt.Errorf("#!sudoku -c%s: column %s is out of range (at most %d)", clip(arg, 40), clip(arg[:end], 20), maxHeaderColumns)
	}
	h.Column, h.Sep, h.Names = n, 0, nil
	rest := arg[end:]
	if rest == "" {
		return nil
	}
	sep, size := utf8.DecodeRuneInString(rest)
	switch {
	case sep == utf8.RuneError || sep == '"' || sep == '\r' || sep == '\n':
		return fmt.Errorf("#!sudoku -c%s: %q cannot separate fields", clip(arg, 40), sep)
	case unicode.IsSpace(sep):
		sep = 0
	}
	h.Sep = sep
	var names []string
	if sep == 0 {
		names = strings.Fields(rest)
	} else {
		names = strings.Split(rest[size:], string(sep))
	}
	if len(names) > maxHeaderColumns {
		return fmt.Errorf("#!sudoku -c: %d column names, at most %d", len(names), maxHeaderColumns)
	}
	for _, name := range names {
		h.Names = append(h.Names, strings.TrimSpace(name))
	}
	if len(h.Names) == 1 && h.Names[0] == "" {
		h.Names = nil
	}
	return nil
}

// headerWords splits the options of a #!sudoku line into words at white
// space, keeping quoted text ('...' or "...") whole, without the quotes.
func headerWords(s string) ([]string, error) {
	var (
		words []string
		w     strings.Builder
		in    bool // in a word
		quote rune
	)
	for _, c := range s {
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case unicode.IsSpace(c):
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("#!sudoku: the quote %c is not closed", quote)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}
