package importers

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// maxLine is the longest line the text decoders read.
const maxLine = 16 << 20

// textReader returns r's text as UTF-8: a UTF-8 byte-order mark is
// dropped, and UTF-16, announced by its byte-order mark or recognised by
// the zero bytes of ASCII text, is converted.
func textReader(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
		return br
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		br.Discard(2)
		return &utf16Reader{r: br, le: true}
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		br.Discard(2)
		return &utf16Reader{r: br}
	}
	head, _ = br.Peek(512)
	if le, ok := looksUTF16(head); ok {
		return &utf16Reader{r: br, le: le}
	}
	return br
}

// looksUTF16 reports whether b, without a byte-order mark, looks like
// UTF-16 text and whether little-endian: mostly ASCII text has a zero in
// every other byte.
func looksUTF16(b []byte) (le, ok bool) {
	pairs := len(b) / 2
	if pairs < 2 {
		return false, false
	}
	var even, odd int
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 {
			even++
		}
		if b[i+1] == 0 {
			odd++
		}
	}
	switch {
	case odd*10 >= pairs*8 && even*20 <= pairs:
		return true, true
	case even*10 >= pairs*8 && odd*20 <= pairs:
		return false, true
	}
	return false, false
}

// utf16Reader converts UTF-16 to UTF-8.
type utf16Reader struct {
	r   *bufio.Reader
	le  bool
	out []byte
	err error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.fill()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// fill converts the next chunk of input.
func (u *utf16Reader) fill() {
	var buf [4096]byte
	n, err := io.ReadFull(u.r, buf[:])
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	b := buf[:n]
	units := make([]uint16, 0, n/2)
	for i := 0; i+1 < len(b); i += 2 {
		if u.le {
			units = append(units, uint16(b[i])|uint16(b[i+1])<<8)
		} else {
			units = append(units, uint16(b[i])<<8|uint16(b[i+1]))
		}
	}
	// A high surrogate at the end of the chunk waits for its partner.
	if k := len(units); k > 0 && err == nil && utf16.IsSurrogate(rune(units[k-1])) && units[k-1] < 0xDC00 {
		var pair [2]byte
		if _, perr := io.ReadFull(u.r, pair[:]); perr == nil {
			if u.le {
				units = append(units, uint16(pair[0])|uint16(pair[1])<<8)
			} else {
				units = append(units, uint16(pair[0])<<8|uint16(pair[1]))
			}
		}
	}
	u.out = u.out[:0]
	for _, r := range utf16.Decode(units) {
		u.out = utf8.AppendRune(u.out, r)
	}
	if n%2 == 1 {
		u.out = utf8.AppendRune(u.out, utf8.RuneError)
	}
	u.err = err
}

// headText returns the start of a file as UTF-8, for sniffing.
func headText(head []byte) []byte {
	b, _ := io.ReadAll(textReader(bytes.NewReader(head)))
	return b
}

// lineReader reads text line by line, accepting LF, CRLF and CR line
// endings, mixed, and a last line without one. It counts lines from 1.
type lineReader struct {
	sc   *bufio.Scanner
	line int
}

func newLineReader(r io.Reader) *lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	sc.Split(splitLines)
	return &lineReader{sc: sc}
}

// next returns the next line without its ending, and false at the end of
// the text or on an error (see err). The line is valid until the next call.
func (l *lineReader) next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.line++
	return l.sc.Bytes(), true
}

// err returns the error that ended reading, or nil at the end of the text.
func (l *lineReader) err(o *Options) error {
	switch err := l.sc.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return o.fatalf(l.line+1, "line longer than %d MiB", maxLine>>20)
	default:
		return o.fatalf(l.line+1, "reading: %v", err)
	}
}

// splitLines is a bufio.SplitFunc for lines ended by LF, CRLF or CR.
func splitLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // is the CR followed by an LF?
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
