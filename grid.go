package sudokulab

import (
	"fmt"
	"strings"
)

// Symbols is the alphabet of the canonical text form: value v is written
// Symbols[v-1]. Grids up to 9x9 therefore use the familiar digits; larger
// grids continue with letters (16x16 uses 1-9 then A-G, 25x25 1-9 then A-P).
const Symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVW"

// Blank is the character the canonical text form uses for an empty cell.
const Blank = '.'

// blanks are the characters Parse accepts for an empty cell.
const blanks = ".0-*_xX"

// Grid is a square Sudoku grid of some box shape. Cells holds the N*N cells
// row by row; 0 is an empty cell and 1..N are symbols.
type Grid struct {
	Shape Shape
	Cells []uint8
}

// NewGrid returns an empty grid of the given shape.
func NewGrid(s Shape) (Grid, error) {
	if err := s.Validate(); err != nil {
		return Grid{}, err
	}
	return Grid{Shape: s, Cells: make([]uint8, s.Cells())}, nil
}

// N returns the side length of the grid.
func (g Grid) N() int { return g.Shape.N() }

// Geometry returns the unit structure of the grid's shape.
func (g Grid) Geometry() *Geometry { return GeometryOf(g.Shape) }

// Clone returns a deep copy of g.
func (g Grid) Clone() Grid {
	return Grid{Shape: g.Shape, Cells: append([]uint8(nil), g.Cells...)}
}

// Equal reports whether g and h have the same shape and cells.
func (g Grid) Equal(h Grid) bool {
	return g.Shape == h.Shape && string(g.Cells) == string(h.Cells)
}

// Givens returns the number of filled cells.
func (g Grid) Givens() int {
	n := 0
	for _, v := range g.Cells {
		if v != 0 {
			n++
		}
	}
	return n
}

// Full reports whether every cell is filled.
func (g Grid) Full() bool { return g.Givens() == len(g.Cells) }

// String returns the canonical text form: one line of N*N characters, a
// symbol from Symbols for each filled cell and '.' for each empty one. The
// box shape is not part of the text; ParseShape takes it separately, and
// Parse assumes ShapeForN.
func (g Grid) String() string {
	b := make([]byte, len(g.Cells))
	for i, v := range g.Cells {
		if v == 0 {
			b[i] = Blank
		} else {
			b[i] = Symbols[v-1]
		}
	}
	return string(b)
}

// ParseError says why a string is not a grid. Pos is the 0-based cell index
// of the offending character, or -1 when the error is about the whole text.
type ParseError struct {
	Pos    int
	Reason string
}

func (e *ParseError) Error() string {
	if e.Pos < 0 {
		return e.Reason
	}
	return fmt.Sprintf("cell %d: %s", e.Pos+1, e.Reason)
}

// Parse reads a grid in text form, assuming the default box shape for its
// size (see ShapeForN). White space is ignored, so a grid may be written on
// one line or on N lines. Empty cells may be written as any of ". 0 - * _ x
// X"; symbols are those of Symbols, letters in either case.
func Parse(s string) (Grid, error) {
	cells := compact(s)
	n := isqrt(len(cells))
	if n*n != len(cells) || n < 4 {
		return Grid{}, &ParseError{Pos: -1, Reason: fmt.Sprintf("%d cells: not a square grid (want 16, 36, 81, 144, 256, 625 ...)", len(cells))}
	}
	shape, err := ShapeForN(n)
	if err != nil {
		return Grid{}, &ParseError{Pos: -1, Reason: fmt.Sprintf("%d cells: %v", len(cells), err)}
	}
	return parseCells(cells, shape)
}

// ParseShape reads a grid in text form with an explicit box shape. It
// accepts the same characters as Parse.
func ParseShape(s string, shape Shape) (Grid, error) {
	if err := shape.Validate(); err != nil {
		return Grid{}, &ParseError{Pos: -1, Reason: err.Error()}
	}
	cells := compact(s)
	if len(cells) != shape.Cells() {
		return Grid{}, &ParseError{Pos: -1, Reason: fmt.Sprintf("%d cells, want %d", len(cells), shape.Cells())}
	}
	return parseCells(cells, shape)
}

// MustParse is Parse for literals known to be valid, in tests and presets.
// It panics on error.
func MustParse(s string) Grid {
	g, err := Parse(s)
	if err != nil {
		panic(fmt.Sprintf("sudokulab.MustParse(%q): %v", s, err))
	}
	return g
}

func compact(s string) []byte {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			b = append(b, c)
		}
	}
	return b
}

func parseCells(cells []byte, shape Shape) (Grid, error) {
	n := shape.N()
	g := Grid{Shape: shape, Cells: make([]uint8, len(cells))}
	for i, c := range cells {
		v, ok := SymbolValue(c)
		switch {
		case ok && v <= n:
			g.Cells[i] = uint8(v)
		case ok:
			return Grid{}, &ParseError{Pos: i, Reason: fmt.Sprintf("symbol %q is value %d, above %d for a %dx%d grid", c, v, n, n, n)}
		case strings.IndexByte(blanks, c) >= 0:
		case c >= 0x80:
			return Grid{}, &ParseError{Pos: i, Reason: fmt.Sprintf("non-ASCII byte 0x%02x is not a symbol or blank", c)}
		default:
			return Grid{}, &ParseError{Pos: i, Reason: fmt.Sprintf("%q is not a symbol (%s) or blank (%s)", c, Symbols[:n], blanks)}
		}
	}
	return g, nil
}

// SymbolValue returns the value of a symbol character of Symbols, accepting
// lower-case letters, and whether c is a symbol at all.
func SymbolValue(c byte) (int, bool) {
	switch {
	case c >= '1' && c <= '9':
		return int(c - '0'), true
	case c >= 'A' && c <= 'W':
		return int(c-'A') + 10, true
	case c >= 'a' && c <= 'w':
		return int(c-'a') + 10, true
	}
	return 0, false
}

func isqrt(x int) int {
	r := 0
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// Pretty draws the grid as a boxed board, one row per line:
//
//	+-------+-------+-------+
//	| 5 3 . | . 7 . | . . . |
//	...
func (g Grid) Pretty() string {
	s, n := g.Shape, g.N()
	var sep strings.Builder
	for b := 0; b < n/s.BoxCols; b++ {
		sep.WriteString("+")
		sep.WriteString(strings.Repeat("-", 2*s.BoxCols+1))
	}
	sep.WriteString("+\n")
	var out strings.Builder
	for r := 0; r < n; r++ {
		if r%s.BoxRows == 0 {
			out.WriteString(sep.String())
		}
		for c := 0; c < n; c++ {
			if c%s.BoxCols == 0 {
				out.WriteString("| ")
			}
			if v := g.Cells[r*n+c]; v == 0 {
				out.WriteByte(Blank)
			} else {
				out.WriteByte(Symbols[v-1])
			}
			out.WriteByte(' ')
		}
		out.WriteString("|\n")
	}
	out.WriteString(sep.String())
	return out.String()
}
