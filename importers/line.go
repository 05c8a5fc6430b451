package importers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sudokulab"
)

func lineFormat() Format {
	return Format{
		Name: "line",
		Description: "one puzzle per line (81 characters for 9x9, blanks . 0 - * _ x); # comments, a count " +
			"or header lines at the top; what follows the grid on its line is kept as metadata (field1 ..., KEY=VALUE, KEY=\"a value\"; " +
			"--rating-column field1=RATER makes a number a rating), an id before it as id (<id> <puzzle> <rating>, " +
			"as sudoku-exchange's puzzle bank); HoDoKu library lines (see hodoku-lib) may be mixed in; export writes a metadata key " +
			"holding white space, #, = or quotes (or an empty key) with _ in their place (csv and json keep every key)",
		Extensions: []string{".txt", ""},
		Sniff:      sniffLine,
		Decode:     decodeLine,
		Encode:     encodeLine,
		Caveat:     lineCaveat,
	}
}

func sdmFormat() Format {
	return Format{
		Name:        "sdm",
		Description: "SadMan/SudoCue .sdm: one 9x9 puzzle per line, 0 for blanks; read like the line format",
		Extensions:  []string{".sdm"},
		Sniff:       sniffLine,
		Decode:      decodeLine,
		Encode:      encodeSDM,
	}
}

// asDecodeError is errors.As for *DecodeError.
func asDecodeError(err error, de **DecodeError) bool { return errors.As(err, de) }

// isCellChar reports whether c may be a cell of a grid written in
// characters.
func isCellChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte(charBlanks, c) >= 0
}

// gridLike reports whether tok may be a whole grid on one line.
func gridLike(tok []byte) bool {
	if len(tok) < 16 {
		return false
	}
	for _, c := range tok {
		if !isCellChar(c) {
			return false
		}
	}
	return true
}

// validSide reports whether n is the side of a grid with a default box
// shape.
func validSide(n int) bool {
	_, err := sudokulab.ShapeForN(n)
	return err == nil
}

// badCells says why n cells, read as text, make no grid (their count is
// not a square, or its side has no box shape), naming what was read and
// the sizes near it; "" when they make one.
func badCells(n int, text string) string {
	side := isqrt(n)
	if side*side == n && validSide(side) {
		return ""
	}
	below, above := 0, 0
	for s := 4; s <= sudokulab.MaxN; s++ {
		switch c := s * s; {
		case !validSide(s):
		case c < n:
			below = c
		case c > n && above == 0:
			above = c
		}
	}
	size := func(c int) string { return fmt.Sprintf("%d (%dx%d)", c, isqrt(c), isqrt(c)) }
	var want string
	switch {
	case below == 0:
		want = size(above)
	case above == 0:
		want = size(below)
	case side*side == n || n-below == above-n:
		want = size(below) + " or " + size(above)
	case n-below < above-n:
		want = size(below)
	default:
		want = size(above)
	}
	why := fmt.Sprintf("%d cells, want %s", n, want)
	if side*side == n {
		why += fmt.Sprintf(" (a %dx%d grid has no boxes)", side, side)
	}
	return why + fmt.Sprintf(": read %q", clip(text, 40))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func decodeLine(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		z, err := newSymbolizer(&o, yield)
		if err != nil {
			yield(Record{}, err)
			return
		}
		lr := newLineReader(textReader(r))
		seen := false // a puzzle line was read
		headers := 0  // lines before it that are not puzzles
		for {
			raw, ok := lr.next()
			if !ok {
				break
			}
			s := bytes.TrimSpace(raw)
			if len(s) == 0 {
				continue
			}
			if s[0] == '#' {
				if spec, ok := symbolsComment(s); ok {
					z.setSymbols(spec)
				}
				continue
			}
			if looksLibraryLine(s) {
				// A HoDoKu library line among puzzle lines, as in HoDoKu's
				// exemplars-1.0.txt (see hodoku.go).
				seen = true
				var p pending
				if cells, meta, reason := libraryLine(s); reason != "" {
					p.err = o.errorf(lr.line, "%s", reason)
				} else {
					p.rec = Record{Line: lr.line, Metadata: meta}
					p.cells = rawCells{chars: cells}
				}
				if !z.push(p) {
					return
				}
				continue
			}
			id, tok, rest := idAndGrid(s)
			if !gridLike(tok) {
				var p pending
				switch {
				case !seen && isDigits(tok) && len(bytes.TrimSpace(rest)) == 0:
					continue // a count line
				case !seen:
					headers++
					p.rec = Record{Line: lr.line, Note: fmt.Sprintf("line %d: header %q", lr.line, clip(string(s), 80))}
				default:
					p.err = o.errorf(lr.line, "not a puzzle: %q", clip(string(s), 40))
				}
				if !z.push(p) {
					return
				}
				continue
			}
			var p pending
			seen = true
			switch why := badCells(len(tok), string(tok)); {
			case why != "":
				p.err = o.errorf(lr.line, "%s", why)
			default:
				p.rec = Record{Line: lr.line}
				if id != nil {
					p.rec.setMeta("id", string(id))
				}
				lineMeta(&p.rec, string(rest), o.RatingColumns)
				p.cells = rawCells{chars: bytes.Clone(tok)}
			}
			if !z.push(p) {
				return
			}
		}
		if err := lr.err(&o); err != nil {
			z.push(pending{err: err})
			return
		}
		if !seen && headers > 0 {
			z.push(pending{err: o.fatalf(0, "no puzzle line in %d lines of text; is it another format? (see sudokulab formats)", headers)})
			return
		}
		z.finish()
	}
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isqrt(x int) int {
	r := 0
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// clip shortens s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// idAndGrid splits a line into the grid's token, what follows it, and the
// token before it when the line starts with an id or label: "<id> <grid>
// ...", as in the puzzle banks that number their puzzles, such as
// sudoku-exchange's ("0000183b305c 0507...093000409000 1.2"). The first
// token is an id when it is not a grid but the second is (and not one of
// as many cells, which would be a grid with a wrong symbol).
func idAndGrid(s []byte) (id, tok, rest []byte) {
	tok, rest = s, nil
	if i := bytes.IndexAny(s, " \t"); i >= 0 {
		tok, rest = s[:i], bytes.TrimLeft(s[i+1:], " \t")
	}
	if rest == nil || bytes.IndexByte(tok, '=') >= 0 {
		return nil, tok, rest
	}
	if _, ok := gridChars(string(tok)); ok {
		return nil, tok, rest
	}
	next, after := rest, []byte(nil)
	if i := bytes.IndexAny(rest, " \t"); i >= 0 {
		next, after = rest[:i], rest[i+1:]
	}
	if _, ok := gridChars(string(next)); !ok || gridLike(tok) && len(tok) == len(next) {
		return nil, tok, rest
	}
	return tok, next, after
}

// lineMeta reads what follows a grid on its line: white-space separated
// fields, KEY=VALUE fields kept under KEY (label=NAME is the label; the
// Sudoku Explainer ratings ER, EP and ED, or ED=ER/EP/ED, are also kept as
// ratings se-er, se-ep and se-ed), other fields as field1, field2 ..., and
// a # comment to the end of the line as comment. A value in double quotes
// (KEY="Easter Monster", Go's quoting, as the line encoder writes a value
// with white space, # or a leading quote) is the text between them. A field
// named in ratings (field1, or a KEY) whose value is a number is a rating by
// the rater it maps to instead.
func lineMeta(rec *Record, rest string, ratings map[string]string) {
	rated := func(name, val string) bool {
		rater, ok := ratings[name]
		if !ok {
			return false
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return false
		}
		rec.Ratings = append(rec.Ratings, Rating{Rater: rater, Value: v})
		return true
	}
	k := 0
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			return
		}
		if rest[0] == '#' {
			if c := strings.TrimSpace(rest[1:]); c != "" {
				rec.setMeta("comment", c)
			}
			return
		}
		key, val, quoted := quotedField(rest)
		if quoted {
			rest = rest[len(key)+1+len(val):]
			val, _ = strconv.Unquote(val)
		} else {
			end := strings.IndexFunc(rest, func(r rune) bool { return r == '#' || unicode.IsSpace(r) })
			if end < 0 {
				end = len(rest)
			}
			f := rest[:end]
			rest = rest[end:]
			var ok bool
			key, val, ok = strings.Cut(f, "=")
			if !ok || key == "" || strings.ContainsAny(key, "\"'") {
				k++
				if name := "field" + strconv.Itoa(k); !rated(name, f) {
					rec.setMeta(name, f)
				}
				continue
			}
		}
		if key == "label" {
			rec.Label = val
			continue
		}
		if rated(key, val) {
			continue
		}
		rec.setMeta(key, val)
		seRatings(rec, key, val)
	}
}

// quotedField reads a KEY="..." field at the start of s: its key and its
// value as quoted (Go's syntax), which ends the field.
func quotedField(s string) (key, quoted string, ok bool) {
	key, after, found := strings.Cut(s, "=")
	if !found || key == "" || strings.ContainsFunc(key, func(r rune) bool {
		return r == '#' || r == '"' || r == '\'' || unicode.IsSpace(r)
	}) || !strings.HasPrefix(after, `"`) {
		return "", "", false
	}
	q, err := strconv.QuotedPrefix(after)
	if err != nil || q[0] != '"' {
		return "", "", false
	}
	if next, _ := utf8.DecodeRuneInString(after[len(q):]); len(after) > len(q) && next != '#' && !unicode.IsSpace(next) {
		return "", "", false
	}
	return key, q, true
}

// seRatings adds the Sudoku Explainer ratings a field gives.
func seRatings(rec *Record, key, val string) {
	key = strings.ToUpper(key)
	if key != "ER" && key != "EP" && key != "ED" {
		return
	}
	parts := strings.Split(val, "/")
	if key == "ED" && len(parts) == 3 {
		for i, k := range []string{"se-er", "se-ep", "se-ed"} {
			if v, err := strconv.ParseFloat(parts[i], 64); err == nil {
				rec.Ratings = append(rec.Ratings, Rating{Rater: k, Value: v})
			}
		}
		return
	}
	if v, err := strconv.ParseFloat(val, 64); err == nil && len(parts) == 1 {
		rec.Ratings = append(rec.Ratings, Rating{Rater: "se-" + strings.ToLower(key), Value: v})
	}
}

// sniffLine looks for a first puzzle line.
func sniffLine(head []byte) int {
	lr := newLineReader(bytes.NewReader(head))
	for range 40 {
		raw, ok := lr.next()
		if !ok {
			return 0
		}
		s := bytes.TrimSpace(raw)
		if len(s) == 0 || s[0] == '#' {
			continue
		}
		_, tok, _ := idAndGrid(s)
		if !gridLike(tok) {
			continue
		}
		side := isqrt(len(tok))
		if side*side != len(tok) || !validSide(side) {
			return 1
		}
		for _, c := range candidates(side, false) {
			var buf [sudokulab.MaxN * sudokulab.MaxN]uint8
			if c.decode(rawCells{chars: tok}, buf[:len(tok)]) < 0 {
				return 3
			}
		}
		return 1
	}
	return 0
}

// symbolsHeader returns the "# symbols:" comment that makes a file of
// these grids read back as written, or "" when the default reads them.
func symbolsHeader(recs []Record) string {
	for _, r := range recs {
		if n := r.Grid.N(); n > 9 {
			return fmt.Sprintf("# symbols: 1-%c\n", sudokulab.Symbols[n-1])
		}
	}
	return ""
}

// encodeLine writes one puzzle per line: the grid in canonical text form,
// then label=NAME, the metadata fields (field1 ... as they were, others as
// KEY=VALUE, with _ in place of what a key cannot hold: see lineKey), and
// the comment. A label
// or value with white space, # or a leading quote is written in double
// quotes (KEY="Easter Monster"), as lineMeta reads it back; a field1 ...
// that needs them is written as field1="...".
func encodeLine(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	b.WriteString(symbolsHeader(recs))
	for _, r := range recs {
		b.WriteString(r.Grid.String())
		if r.Label != "" {
			b.WriteString(" label=" + lineValue(r.Label))
		}
		var keys []string
		for k := range r.Metadata {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			na, aok := fieldNumber(a)
			nb, bok := fieldNumber(b)
			switch {
			case aok && bok:
				return na - nb
			case aok:
				return -1
			case bok:
				return 1
			}
			return strings.Compare(a, b)
		})
		pos := 0 // positional fields written
		for _, k := range keys {
			v := r.Metadata[k]
			switch n, field := fieldNumber(k); {
			case k == "comment":
			case field && n == pos+1 && v != "" && lineValue(v) == v && !strings.Contains(v, "="):
				// Read back as field n only in its place.
				pos++
				b.WriteString(" " + noSpace(v))
			case v == "":
				b.WriteString(" " + lineKey(k) + "=")
			default:
				b.WriteString(" " + lineKey(k) + "=" + lineValue(v))
			}
		}
		if c, ok := r.Metadata["comment"]; ok {
			b.WriteString(" # " + oneLine(c))
		}
		b.WriteByte('\n')
		if b.Len() > 64<<10 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func fieldNumber(k string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(k, "field"))
	return n, err == nil && strings.HasPrefix(k, "field")
}

// oneLine returns s without line breaks (and the white space around
// them), so that it stays on its line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// lineValue writes a label or value for a KEY=VALUE field: as it is, or
// in double quotes when it has white space or # or starts with a quote.
func lineValue(s string) string {
	if s == "" {
		return "_"
	}
	if strings.HasPrefix(s, `"`) || strings.ContainsFunc(s, func(r rune) bool { return r == '#' || unicode.IsSpace(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// lineKey writes a metadata key of a KEY=VALUE field so that lineMeta
// reads it back as a key: white space, #, = and quotes (which would end
// the key, the field or make it no KEY=VALUE) become _, and so does an
// empty key.
func lineKey(k string) string {
	return noSpace(strings.Map(func(r rune) rune {
		if r == '=' || r == '"' || r == '\'' {
			return '_'
		}
		return r
	}, k))
}

// lineCaveat says which metadata keys of recs encodeLine writes
// otherwise (lineKey), or "".
func lineCaveat(recs []Record) string {
	renamed := map[string]bool{}
	for _, r := range recs {
		for k := range r.Metadata {
			if _, field := fieldNumber(k); !field && k != "comment" && lineKey(k) != k {
				renamed[k] = true
			}
		}
	}
	if len(renamed) == 0 {
		return ""
	}
	first := slices.Min(slices.Collect(maps.Keys(renamed)))
	keys := "1 metadata key holds"
	if len(renamed) > 1 {
		keys = fmt.Sprintf("%d metadata keys hold", len(renamed))
	}
	return fmt.Sprintf("%s what a line's KEY=VALUE cannot (white space, #, = or quotes, or nothing): written with _ in its place, such as %q as %s (the formats csv and json keep every key)",
		keys, first, lineKey(first))
}

func noSpace(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "#", "_")), "_")
}

// encodeSDM writes bare grids, one per line, 0 for blanks.
func encodeSDM(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	b.WriteString(symbolsHeader(recs))
	for _, r := range recs {
		s := []byte(r.Grid.String())
		for i, c := range s {
			if c == sudokulab.Blank {
				s[i] = '0'
			}
		}
		if r.Grid.N() > 9 {
			s = []byte(r.Grid.String())
		}
		b.Write(s)
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}
