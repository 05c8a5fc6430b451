package importers

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"sudokulab"
)

func openSudokuFormat() Format {
	return Format{
		Name: "opensudoku",
		Description: "OpenSudoku XML, version 1 (name, author, description, level, source) and 2 (<folder> elements); " +
			"data as 81 digits or the versioned value|note|editable| form; folders become collections",
		Extensions: []string{".opensudoku", ".xml"},
		Sniff:      sniffOpenSudoku,
		Decode:     decodeOpenSudoku,
		Encode:     encodeOpenSudoku,
	}
}

func sniffOpenSudoku(head []byte) int {
	if bytes.Contains(head, []byte("<opensudoku")) {
		return 5
	}
	return 0
}

// v1Fields are the collection-level elements of OpenSudoku version 1.
var v1Fields = map[string]bool{"name": true, "author": true, "description": true, "comment": true,
	"created": true, "source": true, "level": true, "sourceURL": true}

func decodeOpenSudoku(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		z, err := newSymbolizer(&o, yield)
		if err != nil {
			yield(Record{}, err)
			return
		}
		d := xml.NewDecoder(textReader(r))
		d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
		var (
			root, closed bool
			folder       string
			v1           = map[string]string{}
			field        string
			text         strings.Builder
		)
		fail := func(err error) {
			line, _ := d.InputPos()
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				line = se.Line
				err = errors.New(se.Msg)
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected EOF") {
				err = errors.New("the XML ends early (truncated?)")
			}
			z.push(pending{err: o.fatalf(line, "%v", err)})
		}
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				fail(err)
				return
			}
			switch t := tok.(type) {
			case xml.StartElement:
				switch name := t.Name.Local; {
				case !root:
					if name != "opensudoku" {
						z.push(pending{err: o.fatalf(1, "the root element is <%s>, want <opensudoku>", name)})
						return
					}
					root = true
				case name == "folder":
					folder = attr(t, "name")
				case name == "game":
					line, _ := d.InputPos()
					if !z.push(openSudokuGame(&o, t, line, folder, v1)) {
						return
					}
				case v1Fields[name]:
					field = name
					text.Reset()
				}
			case xml.CharData:
				if field != "" {
					text.Write(t)
				}
			case xml.EndElement:
				switch name := t.Name.Local; {
				case name == field:
					if v := strings.TrimSpace(text.String()); v != "" {
						v1[field] = v
					}
					field = ""
				case name == "folder":
					folder = ""
				case name == "opensudoku":
					closed = true
				}
			}
		}
		switch {
		case !root:
			z.push(pending{err: o.fatalf(0, "no <opensudoku> element")})
			return
		case !closed:
			fail(io.ErrUnexpectedEOF)
			return
		}
		z.finish()
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// openSudokuGame makes the entry of a <game> element.
func openSudokuGame(o *Options, e xml.StartElement, line int, folder string, v1 map[string]string) pending {
	p := pending{rec: Record{Line: line}}
	collection := folder
	if collection == "" {
		collection = v1["name"]
	}
	p.rec.Collection = collection
	for k, v := range v1 {
		if k != "name" {
			p.rec.setMeta(k, v)
		}
	}
	data := ""
	for _, a := range e.Attr {
		switch k := a.Name.Local; k {
		case "data":
			data = a.Value
		case "label":
			p.rec.Label = a.Value
		default:
			if a.Value != "" {
				p.rec.setMeta(k, a.Value)
			}
		}
	}
	data = strings.TrimSpace(data)
	if data == "" {
		p.err = o.errorf(line, "<game> without data")
		return p
	}
	if !strings.Contains(data, "|") {
		cells, err := gridText(o, line, data)
		p.cells, p.err = cells, err
		if n := cells.len(); err == nil && n > 81 {
			p.err = tooLargeForOpenSudoku(o, line, n)
		}
		return p
	}
	// The versioned form: "version: 1" on a line, then value|note|editable|
	// for each cell; a cell is a given when it is not editable.
	if strings.HasPrefix(data, "version:") {
		_, data, _ = strings.Cut(data, "\n")
	}
	fields := strings.Split(strings.TrimSpace(data), "|")
	if n := len(fields); n > 0 && strings.TrimSpace(fields[n-1]) == "" {
		fields = fields[:n-1]
	}
	if len(fields)%3 != 0 {
		p.err = o.errorf(line, "data has %d fields, want value|note|editable| for each cell", len(fields))
		return p
	}
	b := make([]byte, len(fields)/3)
	for i := range b {
		v, editable := strings.TrimSpace(fields[3*i]), strings.TrimSpace(fields[3*i+2])
		switch {
		case len(v) != 1 || v[0] < '0' || v[0] > '9':
			p.err = o.errorf(line, "cell %d: value %q is not a digit", i+1, v)
			return p
		case editable == "0":
			b[i] = v[0]
		default:
			b[i] = '0'
		}
	}
	if why := badCells(len(b), string(b)); why != "" {
		p.err = o.errorf(line, "%s", why)
		return p
	}
	if isqrt(len(b)) > 9 {
		p.err = tooLargeForOpenSudoku(o, line, len(b))
		return p
	}
	p.cells = rawCells{chars: b}
	return p
}

// tooLargeForOpenSudoku is the error of a game of n cells, more than a
// 9x9 grid: OpenSudoku writes a cell as one digit, values up to 9.
func tooLargeForOpenSudoku(o *Options, line, n int) error {
	return o.errorf(line, "%d cells: OpenSudoku games are grids up to 9x9 (81 cells)", n)
}

// encodeOpenSudoku writes OpenSudoku XML version 2: a folder per
// collection, a game per puzzle with its cells as digits (81 for 9x9, 0
// for blanks); the label
// and the metadata whose keys are XML names go in further attributes,
// which OpenSudoku ignores.
func encodeOpenSudoku(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<opensudoku version="2">` + "\n")
	open := false
	folder := ""
	for i, r := range recs {
		if shape, err := sudokulab.ShapeForN(r.Grid.N()); err != nil || r.Grid.N() > 9 || r.Grid.Shape != shape {
			return fmt.Errorf("opensudoku: only grids up to 9x9 with their usual boxes, not %s", r.Grid.Shape)
		}
		if !open || r.Collection != folder {
			if open {
				b.WriteString("  </folder>\n")
			}
			folder, open = r.Collection, true
			name := folder
			if name == "" {
				name = "sudokulab"
			}
			fmt.Fprintf(&b, "  <folder name=\"%s\">\n", xmlEscape(name))
		}
		data := []byte(r.Grid.String())
		for j, c := range data {
			if c == sudokulab.Blank {
				data[j] = '0'
			}
		}
		fmt.Fprintf(&b, "    <game data=\"%s\"", data)
		if r.Label != "" {
			fmt.Fprintf(&b, " label=\"%s\"", xmlEscape(r.Label))
		}
		for _, k := range sortedKeys(boolKeys(r.Metadata)) {
			if xmlName(k) && k != "data" && k != "label" {
				fmt.Fprintf(&b, " %s=\"%s\"", k, xmlEscape(r.Metadata[k]))
			}
		}
		b.WriteString("/>\n")
		if i%1024 == 1023 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	if open {
		b.WriteString("  </folder>\n")
	}
	b.WriteString("</opensudoku>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func xmlEscape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&#34;")
}

// xmlName reports whether s can be an attribute name.
func xmlName(s string) bool {
	if s == "" || strings.HasPrefix(strings.ToLower(s), "xml") {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}
