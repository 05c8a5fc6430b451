package importers

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strconv"
	"strings"

	"sudokulab"
)

// The instance format is that of the benchmark instances shipped with the
// large-grid Sudoku literature, as in the instances/ folder of
// github.com/huwlloyd-mmu/sudoku_acs (Lloyd and Amos, ant colony
// optimisation for Sudoku): 6,300 files instances/general/instNxN_F_K.txt
// (9x9, 16x16 and 25x25, F the percentage of cells given, 0 to 95, K the
// instance 0 to 99) and 16 logic-solvable 9x9 ones. Every one of them is
//
//	3\r\n                      the box order b: 3 for 9x9, 4 for 16x16, 5 for 25x25
//	1\r\n                      always 1
//	-1\t-1\t7\t...\t-1\t\r\n   b*b rows of b*b values, each followed by a tab
//
// with CRLF line endings, a tab after every value (so a trailing tab before
// each line end), a final CRLF and nothing else: one puzzle per file. A
// value is 1 to b*b, and -1 is a blank. The reference reader
// (src/solvermain.cpp, ReadFile) reads the file with C++ stream
// extraction: the order, then the second number, which it ignores (read
// into a dummy), then b^4 integers whatever the whitespace between them;
// it reads one grid and nothing after it.
//
// The decoder is stricter about layout and looser about whitespace: one
// row per line, values separated by tabs or spaces, any line endings,
// blank lines ignored. The second line must be 1. Anything but blank
// lines after the last row is an error (the puzzle itself is still
// yielded), as the format holds one puzzle. Orders 2 to 5 are read (4x4 to
// 25x25; larger grids do not fit the lab). The puzzle's label is the
// file's name without its extension, as for .sdk files. The encoder
// writes exactly the layout above, so a benchmark file decodes and
// encodes to the same bytes; it takes one puzzle with square boxes.

// instanceMaxOrder is the largest box order the lab holds: 5 (25x25).
const instanceMaxOrder = 5

func instanceFormat() Format {
	return Format{
		Name: "instance",
		Description: "benchmark instance files of the large-grid literature (sudoku_acs instances/): the box order (3, 4, 5 for " +
			"9x9, 16x16, 25x25), a line 1, then one row per line of tab-separated numbers, -1 for a blank; one puzzle per file, square boxes only",
		Extensions: []string{".instance"},
		Sniff:      sniffInstance,
		Decode:     decodeInstance,
		Encode:     encodeInstance,
		OnePerFile: true,
	}
}

// instanceValue reads one value of a row of a grid of side n: 0 for -1 (a
// blank), else 1 to n.
func instanceValue(tok string, n int) (uint8, error) {
	v, err := strconv.Atoi(tok)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", clip(tok, 20))
	case v == -1:
		return 0, nil
	case v < 1 || v > n:
		return 0, fmt.Errorf("value %d out of range: want 1 to %d, or -1 for a blank", v, n)
	}
	return uint8(v), nil
}

// instanceOrder reads the first line: the box order, or an error.
func instanceOrder(s []byte) (int, error) {
	b, err := strconv.Atoi(string(s))
	switch {
	case err != nil:
		return 0, fmt.Errorf("first line %q is not a box order (3 for 9x9, 4 for 16x16, 5 for 25x25); is it another format?", clip(string(s), 40))
	case b < 2 || b > instanceMaxOrder:
		return 0, fmt.Errorf("box order %d: want 2 to %d (4x4 to 25x25 grids)", b, instanceMaxOrder)
	}
	return b, nil
}

func decodeInstance(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		lr := newLineReader(textReader(r))
		var (
			order, n int
			header   int // header lines read: 0, 1 or 2
			rec      Record
			rows     int
			done     bool // the grid is complete
		)
		for {
			raw, ok := lr.next()
			if !ok {
				break
			}
			s := bytes.TrimSpace(raw)
			if len(s) == 0 {
				continue
			}
			switch {
			case header == 0:
				b, err := instanceOrder(s)
				if err != nil {
					yield(Record{}, o.fatalf(lr.line, "%v", err))
					return
				}
				order, n, header = b, b*b, 1
				continue
			case header == 1:
				if string(s) != "1" {
					yield(Record{}, o.fatalf(lr.line, "second line %q, want 1", clip(string(s), 40)))
					return
				}
				header = 2
				continue
			case done:
				if yield(rec, nil) {
					yield(Record{}, o.errorf(lr.line, "%q after the grid: an instance file holds one puzzle", clip(string(s), 40)))
				}
				return
			}
			if rows == 0 {
				g, err := sudokulab.NewGrid(sudokulab.Shape{BoxRows: order, BoxCols: order})
				if err != nil { // cannot happen for orders 2 to 5
					yield(Record{}, o.fatalf(lr.line, "%v", err))
					return
				}
				rec = Record{Line: lr.line, Grid: g}
				if o.File != "" {
					rec.Label = strings.TrimSuffix(filepath.Base(o.File), filepath.Ext(o.File))
				}
			}
			fields := strings.Fields(string(s))
			if len(fields) != n {
				yield(Record{}, o.errorf(lr.line, "row %d has %d values, want %d", rows+1, len(fields), n))
				return
			}
			for c, f := range fields {
				v, err := instanceValue(f, n)
				if err != nil {
					yield(Record{}, o.errorf(lr.line, "row %d, column %d: %v", rows+1, c+1, err))
					return
				}
				rec.Grid.Cells[rows*n+c] = v
			}
			rows++
			done = rows == n
		}
		if err := lr.err(&o); err != nil {
			yield(Record{}, err)
			return
		}
		switch {
		case done:
			yield(rec, nil)
		case header < 2:
			yield(Record{}, o.fatalf(0, "no grid found: the file ends before the box order and the line 1"))
		case rows == 0:
			yield(Record{}, o.errorf(lr.line+1, "no grid found after the box order: want %d rows", n))
		default:
			yield(Record{}, o.errorf(lr.line+1, "grid ends after %d rows, want %d", rows, n))
		}
	}
}

// sniffInstance recognises the box order on the first line, 1 on the
// second, and rows of b*b numbers (-1 or 1 to b*b) after them, as far as
// the head goes. It claims orders up to 8 (the reference reader's limit)
// so that the decoder, rather than another format, says a large grid does
// not fit.
func sniffInstance(head []byte) int {
	lr := newLineReader(bytes.NewReader(head))
	var lines [][]byte
	for len(lines) < 2+64 {
		raw, ok := lr.next()
		if !ok {
			break
		}
		if s := bytes.TrimSpace(raw); len(s) > 0 {
			lines = append(lines, s)
		}
	}
	if len(lines) < 3 || string(lines[1]) != "1" {
		return 0
	}
	b, err := strconv.Atoi(string(lines[0]))
	if err != nil || b < 2 || b > 8 {
		return 0
	}
	n := b * b
	// The head may end inside the last row read.
	truncated := !bytes.HasSuffix(head, []byte("\n")) && !bytes.HasSuffix(head, []byte("\r"))
	rows := lines[2:]
	if len(rows) > n {
		rows = rows[:n]
	}
	for i, s := range rows {
		fields := strings.Fields(string(s))
		partial := truncated && i == len(rows)-1 && len(rows) < n && len(fields) < n
		if len(fields) != n && !partial {
			return 0
		}
		for _, f := range fields {
			v, err := strconv.Atoi(f)
			if err != nil || v != -1 && (v < 1 || v > n) {
				return 0
			}
		}
	}
	return 5
}

// encodeInstance writes one puzzle with square boxes in the layout of the
// benchmark files: CRLF line endings, a tab after every value.
func encodeInstance(w io.Writer, recs []Record) error {
	if len(recs) != 1 {
		return fmt.Errorf("instance: a file holds one puzzle, not %d", len(recs))
	}
	g := recs[0].Grid
	if err := g.Shape.Validate(); err != nil || len(g.Cells) != g.Shape.Cells() {
		return fmt.Errorf("instance: not a grid: %s", g.Shape)
	}
	if g.Shape.BoxRows != g.Shape.BoxCols {
		return fmt.Errorf("instance: only grids with square boxes (box order b, b*b x b*b: 4x4, 9x9, 16x16, 25x25), not %s", g.Shape)
	}
	n := g.N()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d\r\n1\r\n", g.Shape.BoxRows)
	for r := range n {
		for _, v := range g.Cells[r*n : (r+1)*n] {
			if v == 0 {
				b.WriteString("-1\t")
			} else {
				b.WriteString(strconv.Itoa(int(v)))
				b.WriteByte('\t')
			}
		}
		b.WriteString("\r\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}
