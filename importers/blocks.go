package importers

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"sudokulab"
)

func gridFormat() Format {
	return Format{
		Name: "grid",
		Description: "grids written as rows, one or more per file with a header line each (\"Grid 01\"), any size: " +
			"rows of symbols, of numbers separated by ; , tabs or spaces, or CSV rows with empty fields; | and +-- borders ignored",
		Extensions: []string{".grid"},
		Sniff:      sniffGrid,
		Decode:     func(r io.Reader, o Options) iter.Seq2[Record, error] { return decodeBlocks(r, o, blockGrid) },
		Encode:     encodeGrid,
	}
}

func sdkFormat() Format {
	return Format{
		Name: "sdk",
		Description: "SadMan/SudoCue .sdk: one 9x9 puzzle as nine rows, #A author, #D description, #C comment, " +
			"#B date, #S source, #L level and #U URL lines, an optional [Puzzle] header; one puzzle per file",
		Extensions: []string{".sdk"},
		Sniff:      sniffSDK,
		Decode:     func(r io.Reader, o Options) iter.Seq2[Record, error] { return decodeBlocks(r, o, blockSDK) },
		Encode:     encodeSDK,
		OnePerFile: true,
	}
}

func ssFormat() Format {
	return Format{
		Name:        "ss",
		Description: "Simple Sudoku .ss: rows like |38.|...|5.6| between *-----------* and |---+---+---| borders; the first grid is the puzzle",
		Extensions:  []string{".ss"},
		Sniff:       sniffSS,
		Decode:      func(r io.Reader, o Options) iter.Seq2[Record, error] { return decodeBlocks(r, o, blockSS) },
		Encode:      encodeSS,
		OnePerFile:  true,
	}
}

// blockKind selects the dialect of decodeBlocks.
type blockKind int

const (
	blockGrid blockKind = iota // any number of grids, header lines as labels
	blockSDK                   // one grid, #X metadata lines
	blockSS                    // one grid, later grids ignored
)

// sdkKeys names the metadata lines of .sdk files.
var sdkKeys = map[byte]string{'A': "author", 'D': "description", 'C': "comment", 'B': "date", 'S': "source", 'L': "level", 'U': "url"}

// parseRow reads a line as a row of cells. It returns false for a line
// that is not a row (a header).
func parseRow(s []byte) (rawCells, bool) {
	if sep := separator(s); sep != 0 {
		parts := strings.Split(string(s), string(sep))
		toks := make([]string, 0, len(parts))
		short := true
		for _, p := range parts {
			p = strings.TrimSpace(p)
			if p == "|" || p == "+" {
				continue
			}
			toks = append(toks, p)
			if len(p) > 1 {
				short = false
			}
		}
		if short {
			b := make([]byte, len(toks))
			for i, t := range toks {
				if t == "" {
					b[i] = '.'
				} else {
					b[i] = t[0]
				}
			}
			return charRow(b)
		}
		for _, t := range toks {
			if t != "" && !isInt(t) {
				return rawCells{}, false
			}
		}
		return rawCells{toks: toks, numeric: true}, true
	}
	fields := strings.FieldsFunc(string(s), func(r rune) bool { return unicode.IsSpace(r) || r == '|' || r == '!' })
	if len(fields) == 0 {
		return rawCells{}, false
	}
	// Numbers are at most two characters (up to 32, or -1); longer
	// digit strings are groups of one-character cells (|158|679|432|).
	numeric, long := validSide(len(fields)), false
	for _, f := range fields {
		if len(f) > 1 {
			long = true
		}
		if !isInt(f) || len(f) > 2 {
			numeric = false
		}
	}
	if long && numeric {
		return rawCells{toks: fields, numeric: true}, true
	}
	return charRow([]byte(strings.Join(fields, "")))
}

// charRow checks a row of one-character cells; a word mixing upper and
// lower case (Grid, Puzzle) makes it a header.
func charRow(b []byte) (rawCells, bool) {
	upper, lower := false, false
	for _, c := range b {
		if !isCellChar(c) {
			return rawCells{}, false
		}
		upper = upper || c >= 'A' && c <= 'Z' && c != 'X'
		lower = lower || c >= 'a' && c <= 'z' && c != 'x'
	}
	if upper && lower {
		return rawCells{}, false
	}
	return rawCells{chars: b}, true
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// separator returns the field separator of a row of separated cells, or 0.
func separator(s []byte) byte {
	best, n := byte(0), 0
	for _, c := range []byte{',', ';', '\t'} {
		if k := bytes.Count(s, []byte{c}); k > n {
			best, n = c, k
		}
	}
	return best
}

// isBorder reports whether a line only draws the grid's frame. A line of
// side dashes and bars is a row of empty cells written with '-'.
func isBorder(s []byte, side int) bool {
	dashes, marks := 0, false
	for _, c := range s {
		switch c {
		case '-':
			dashes++
		case '+', '*', '=', '~':
			marks = true
		case '|', ':', ' ', '\t':
		default:
			return false
		}
	}
	return marks || (dashes > 0 && dashes != side)
}

// hasLetters reports whether a row holds letters, which grids up to 9x9
// do not.
func (c rawCells) hasLetters() bool {
	for _, ch := range c.chars {
		if ch >= 'A' && ch <= 'Z' && ch != 'X' || ch >= 'a' && ch <= 'z' && ch != 'x' {
			return true
		}
	}
	return false
}

// join makes one grid's cells of its rows.
func join(rows []rawCells) rawCells {
	numeric := false
	for _, r := range rows {
		numeric = numeric || r.numeric
	}
	var out rawCells
	out.numeric = numeric
	for _, r := range rows {
		switch {
		case !numeric:
			out.chars = append(out.chars, r.chars...)
		case r.numeric:
			out.toks = append(out.toks, r.toks...)
		default:
			for _, c := range r.chars {
				out.toks = append(out.toks, string(c))
			}
		}
	}
	return out
}

func decodeBlocks(r io.Reader, o Options, kind blockKind) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		z, err := newSymbolizer(&o, yield)
		if err != nil {
			yield(Record{}, err)
			return
		}
		lr := newLineReader(textReader(r))
		var (
			rows    []rawCells
			lines   []int // of the rows
			side    int
			start   int    // line of the grid's first row
			label   string // header line before the grid
			meta    map[string]string
			bad     error // the first error inside the grid
			grids   int
			ignored bool
		)
		emit := func() bool {
			p := pending{rec: Record{Line: start, Label: label, Metadata: meta}, err: bad}
			if bad == nil {
				p.cells = join(rows)
			}
			if kind == blockSDK && o.File != "" {
				p.rec.Label = strings.TrimSuffix(filepath.Base(o.File), filepath.Ext(o.File))
			}
			rows, lines, label, meta, bad = rows[:0], lines[:0], "", nil, nil
			grids++
			return z.push(p)
		}
		unfinished := func(line int) bool {
			if len(rows) == 0 {
				return true
			}
			bad = o.errorf(start, "grid ends after %d rows at line %d, want %d rows", len(rows), line, side)
			return emit()
		}
		for {
			raw, ok := lr.next()
			if !ok {
				break
			}
			s := bytes.TrimSpace(raw)
			if ignored {
				continue
			}
			switch {
			case len(s) == 0:
				continue
			case s[0] == '#':
				if spec, ok := symbolsComment(s); ok {
					z.setSymbols(spec)
					continue
				}
				if kind == blockSDK && len(s) >= 2 {
					if meta == nil {
						meta = map[string]string{}
					}
					key, ok := sdkKeys[s[1]]
					if !ok {
						key = string(s[:2])
					}
					meta[key] = strings.TrimSpace(string(s[2:]))
				}
				continue
			case s[0] == '[' && s[len(s)-1] == ']' && kind != blockGrid:
				if grids > 0 || len(rows) > 0 {
					if !unfinished(lr.line) {
						return
					}
					ignored = true
					if !z.push(pending{rec: Record{Line: lr.line, Note: fmt.Sprintf("line %d: section %s and what follows ignored", lr.line, s)}}) {
						return
					}
				}
				continue
			case isBorder(s, side):
				continue
			}
			row, ok := parseRow(s)
			if ok && len(rows) == 0 {
				n := row.len()
				switch {
				case z.fixed != nil && n == z.fixed.N:
					// The symbol set gives the side.
				case !validSide(n) || (n <= 9 && row.hasLetters()):
					ok = false
				}
			}
			if !ok {
				if !unfinished(lr.line) {
					return
				}
				if kind == blockGrid {
					label = strings.TrimSpace(string(s))
				} else if !z.push(pending{rec: Record{Line: lr.line, Note: fmt.Sprintf("line %d: %q ignored", lr.line, clip(string(s), 60))}}) {
					return
				}
				continue
			}
			if (kind == blockSDK || kind == blockSS) && grids > 0 {
				ignored = true
				if !z.push(pending{rec: Record{Line: lr.line, Note: fmt.Sprintf("line %d: the grids after the first (a solving state or candidates) are ignored", lr.line)}}) {
					return
				}
				continue
			}
			rows = append(rows, rawCells{chars: bytes.Clone(row.chars), toks: row.toks, numeric: row.numeric})
			lines = append(lines, lr.line)
			switch k := len(rows); {
			case k == 1:
				start, side = lr.line, row.len()
				if kind != blockGrid {
					side = 9
				}
			case bad != nil:
			case k == 2 && kind == blockGrid && row.len() != side:
				continue // the third row tells which of the first two is wrong
			case k == 3 && kind == blockGrid && rows[1].len() != rows[0].len():
				if rows[2].len() == rows[1].len() {
					side = rows[1].len()
				}
			}
			if bad == nil {
				for i, r := range rows {
					if r.len() != side {
						bad = o.errorf(lines[i], "row %d has %d cells, want %d", i+1, r.len(), side)
						break
					}
				}
			}
			if len(rows) >= side && !emit() {
				return
			}
		}
		if err := lr.err(&o); err != nil {
			z.push(pending{err: err})
			return
		}
		if !unfinished(lr.line + 1) {
			return
		}
		if grids == 0 && kind != blockGrid {
			z.push(pending{err: o.errorf(0, "no grid found")})
		}
		z.finish()
	}
}

// sniffGrid looks for a block of rows as long as they are wide.
func sniffGrid(head []byte) int {
	lr := newLineReader(bytes.NewReader(head))
	run, side := 0, 0
	for range 80 {
		raw, ok := lr.next()
		if !ok {
			break
		}
		s := bytes.TrimSpace(raw)
		if len(s) == 0 || s[0] == '#' || isBorder(s, side) {
			continue
		}
		row, ok := parseRow(s)
		if !ok {
			run = 0
			continue
		}
		n := row.len()
		if n != side || run == 0 {
			run, side = 0, n
		}
		if !validSide(n) || (n <= 9 && row.hasLetters()) {
			run = 0
			continue
		}
		run++
		if run == side || run >= 9 {
			return 3
		}
	}
	if run >= 3 && !lr.sc.Scan() {
		return 1 // the head ends inside a grid
	}
	return 0
}

func sniffSDK(head []byte) int {
	if bytes.Contains(head, []byte("[Puzzle]")) {
		return 4
	}
	if sniffGrid(head) == 0 {
		return 0
	}
	for _, line := range bytes.Split(head, []byte("\n")) {
		if len(line) >= 2 && line[0] == '#' && sdkKeys[line[1]] != "" {
			return 4
		}
	}
	return 3
}

func sniffSS(head []byte) int {
	if bytes.Contains(head, []byte("*-----------*")) || bytes.Contains(head, []byte("|---+---+---|")) {
		return 4
	}
	return 0
}

// encodeGrid writes every grid as rows, each after a header line with its
// label (or "Grid NN").
func encodeGrid(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	b.WriteString(symbolsHeader(recs))
	fixed := 0 // the side the symbols header fixes: the first above 9
	for _, r := range recs {
		if n := r.Grid.N(); n > 9 && fixed == 0 {
			fixed = n
		}
	}
	for i, r := range recs {
		label := oneLine(r.Label)
		if label == "" || !headerSafe(label, fixed) {
			label = fmt.Sprintf("Grid %02d", i+1)
		}
		b.WriteString(label + "\n")
		writeRows(&b, r.Grid, "", "")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// headerSafe reports whether a label reads back as a header line where
// a grid starts, in a file whose symbols header fixes the side (0: none),
// as decodeBlocks reads it: not a comment, not a frame line, and not a
// first row; and not one that would make the file sniff as .sdk.
func headerSafe(s string, fixed int) bool {
	if s[0] == '#' || isBorder([]byte(s), 0) || strings.Contains(s, "[Puzzle]") {
		return false
	}
	row, isRow := parseRow([]byte(s))
	n := row.len()
	return !isRow || n != fixed && (!validSide(n) || n <= 9 && row.hasLetters())
}

// writeRows writes g row by row, each between prefix and suffix.
func writeRows(b *bytes.Buffer, g sudokulab.Grid, prefix, suffix string) {
	s, n := g.String(), g.N()
	for r := range n {
		b.WriteString(prefix + s[r*n:(r+1)*n] + suffix + "\n")
	}
}

// encodeSDK writes one puzzle as a SudoCue .sdk file: the metadata lines
// it knows, [Puzzle], and nine rows.
func encodeSDK(w io.Writer, recs []Record) error {
	if len(recs) != 1 {
		return fmt.Errorf("sdk: a file holds one puzzle, not %d", len(recs))
	}
	r := recs[0]
	if r.Grid.Shape != sudokulab.Classic {
		return fmt.Errorf("sdk: only 9x9 puzzles, not %s", r.Grid.Shape)
	}
	var b bytes.Buffer
	for _, k := range []byte("ADCBSLU") {
		if v, ok := r.Metadata[sdkKeys[k]]; ok {
			fmt.Fprintf(&b, "#%c%s\n", k, oneLine(v))
		}
	}
	// The #X lines of other letters, kept under "#X" (see decodeBlocks),
	// where the line reads back so.
	for _, k := range slices.Sorted(maps.Keys(r.Metadata)) {
		if len(k) != 2 || k[0] != '#' || sdkKeys[k[1]] != "" {
			continue
		}
		line := k + oneLine(r.Metadata[k])
		if t := strings.TrimSpace(line); strings.HasPrefix(t, k) && !isSymbolsComment(t) {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("[Puzzle]\n")
	writeRows(&b, r.Grid, "", "")
	_, err := w.Write(b.Bytes())
	return err
}

// encodeSS writes one 9x9 puzzle in the Simple Sudoku layout.
func encodeSS(w io.Writer, recs []Record) error {
	if len(recs) != 1 {
		return fmt.Errorf("ss: a file holds one puzzle, not %d", len(recs))
	}
	g := recs[0].Grid
	if g.Shape != sudokulab.Classic {
		return fmt.Errorf("ss: only 9x9 puzzles, not %s", g.Shape)
	}
	var b bytes.Buffer
	s := g.String()
	b.WriteString("*-----------*\n")
	for r := range 9 {
		if r == 3 || r == 6 {
			b.WriteString("|---+---+---|\n")
		}
		row := s[9*r : 9*r+9]
		fmt.Fprintf(&b, "|%s|%s|%s|\n", row[:3], row[3:6], row[6:])
	}
	b.WriteString("*-----------*\n")
	_, err := w.Write(b.Bytes())
	return err
}
