package importers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

func jsonFormat() Format {
	return Format{
		Name: "json",
		Description: "JSON: an array of grid strings, an array of objects with a puzzle field (solution, label, ratings, " +
			"tags, metadata and other fields kept), or the web-API shape {\"board\": [[...9 numbers...] x 9]} with 0 for blanks",
		Extensions: []string{".json"},
		Sniff:      sniffJSON,
		Decode:     decodeJSON,
		Encode:     encodeJSON,
	}
}

func sniffJSON(head []byte) int {
	t := bytes.TrimSpace(head)
	if len(t) > 0 && (t[0] == '[' || t[0] == '{') {
		return 4
	}
	return 0
}

// lineCounter counts the lines of what is read through it, so that a
// byte offset can be turned into a line number; offsets must be asked for
// in increasing order.
type lineCounter struct {
	r        io.Reader
	read     int64
	newlines []int64 // offsets of newlines not yet passed
	line     int
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.newlines = append(c.newlines, c.read+int64(i))
		}
	}
	c.read += int64(n)
	return n, err
}

// lineAt returns the 1-based line of the byte at offset.
func (c *lineCounter) lineAt(offset int64) int {
	k := 0
	for k < len(c.newlines) && c.newlines[k] < offset {
		k++
	}
	c.line += k
	c.newlines = c.newlines[k:]
	return c.line + 1
}

func decodeJSON(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		z, err := newSymbolizer(&o, yield)
		if err != nil {
			yield(Record{}, err)
			return
		}
		lc := &lineCounter{r: textReader(r)}
		br := bufio.NewReader(lc)
		dec := json.NewDecoder(br)
		dec.UseNumber()
		syntax := func(err error) {
			line := lc.lineAt(dec.InputOffset())
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line = lc.lineAt(se.Offset)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = errors.New("the JSON ends early (truncated?)")
			}
			z.push(pending{err: o.fatalf(line, "%v", err)})
		}
		tok, err := dec.Token()
		if err != nil {
			if err == io.EOF {
				err = errors.New("empty: no JSON")
			}
			syntax(err)
			return
		}
		switch tok {
		case json.Delim('{'):
			// One object: read it whole.
			obj, err := readObject(dec)
			if err != nil {
				syntax(err)
				return
			}
			raw, _ := json.Marshal(obj)
			if !z.push(jsonEntry(&o, raw, 1)) {
				return
			}
		case json.Delim('['):
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					syntax(err)
					return
				}
				line := lc.lineAt(dec.InputOffset() - int64(len(raw)))
				if !z.push(jsonEntry(&o, raw, line)) {
					return
				}
			}
			if _, err := dec.Token(); err != nil {
				syntax(err)
				return
			}
		default:
			z.push(pending{err: o.fatalf(1, "want an array of puzzles or an object, not %v", tok)})
			return
		}
		z.finish()
	}
}

// readObject reads the rest of an object whose '{' was read.
func readObject(dec *json.Decoder) (map[string]json.RawMessage, error) {
	obj := map[string]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := k.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		obj[key] = v
	}
	_, err := dec.Token()
	return obj, err
}

// jsonEntry makes the entry of one element: a grid string, a grid as an
// array of numbers, or an object.
func jsonEntry(o *Options, raw json.RawMessage, line int) pending {
	p := pending{rec: Record{Line: line}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		p.err = o.errorf(line, "empty element")
		return p
	}
	if raw[0] != '{' {
		cells, err := jsonGrid(o, line, raw)
		p.cells, p.err = cells, err
		return p
	}
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		p.err = o.errorf(line, "%v", err)
		return p
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pick := func(names []string, given string) string {
		if given != "" {
			names = []string{given}
		}
		for _, k := range keys {
			if slices.Contains(names, strings.ToLower(k)) || (given != "" && strings.EqualFold(k, given)) {
				return k
			}
		}
		return ""
	}
	pk := pick(puzzleColumns, o.PuzzleColumn)
	if pk == "" {
		p.err = o.errorf(line, "object has no puzzle field (want one of %s)", strings.Join(puzzleColumns, ", "))
		return p
	}
	var err error
	if p.cells, err = jsonGrid(o, line, obj[pk]); err != nil {
		p.err = err
		return p
	}
	sk := pick(solutionColumns, o.SolutionColumn)
	if sk != "" && string(obj[sk]) != "null" {
		if p.sol, err = jsonGrid(o, line, obj[sk]); err != nil {
			p.err = err
			return p
		}
		p.hasSol = true
	}
	for _, k := range keys {
		v := obj[k]
		switch lk := strings.ToLower(k); {
		case k == pk || k == sk:
		case lk == "label" || lk == "name":
			if s, ok := jsonString(v); ok && p.rec.Label == "" {
				p.rec.Label = s
			} else {
				p.rec.setMeta(k, jsonText(v))
			}
		case lk == "collection":
			p.rec.Collection, _ = jsonString(v)
		case lk == "ratings":
			var m map[string]jsonRating
			if err := json.Unmarshal(v, &m); err != nil {
				p.err = o.errorf(line, "ratings: want an object of numbers, labels or {\"value\": NUMBER, \"label\": TEXT}: %v", err)
				return p
			}
			for _, rater := range sortedKeys(boolKeys(m)) {
				if x := (Rating{Rater: rater, Value: m[rater].value, Label: m[rater].label}); x.HasValue() || x.Label != "" {
					p.rec.Ratings = append(p.rec.Ratings, x) // null is none
				}
			}
		case lk == "tags" && p.rec.Tags == nil:
			if tags, ok := tagList(v); ok {
				p.rec.Tags = tags
			} else {
				p.rec.setMeta(k, jsonText(v))
			}
		case lk == "metadata":
			var m map[string]json.RawMessage
			if err := json.Unmarshal(v, &m); err != nil {
				p.err = o.errorf(line, "metadata: want an object: %v", err)
				return p
			}
			for mk, mv := range m {
				p.rec.setMeta(mk, jsonText(mv))
			}
		case string(v) == "null":
		default:
			p.rec.setMeta(k, jsonText(v))
		}
	}
	return p
}

func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// jsonString returns the string a JSON value holds.
func jsonString(v json.RawMessage) (string, bool) {
	var s string
	err := json.Unmarshal(v, &s)
	return s, err == nil
}

// jsonText returns a JSON value as metadata text: a string as it is,
// anything else as JSON.
func jsonText(v json.RawMessage) string {
	if s, ok := jsonString(v); ok {
		return s
	}
	return string(bytes.TrimSpace(v))
}

// jsonGrid reads a grid: a string of cell characters, or an array of N
// arrays of N numbers, or of N*N numbers.
func jsonGrid(o *Options, line int, v json.RawMessage) (rawCells, error) {
	if s, ok := jsonString(v); ok {
		return gridText(o, line, s)
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var arr []any
	if err := dec.Decode(&arr); err != nil {
		return rawCells{}, o.errorf(line, "a grid is a string or an array of numbers, not %s", clip(string(v), 30))
	}
	var toks []string
	add := func(x any) error {
		switch n := x.(type) {
		case json.Number:
			toks = append(toks, n.String())
		case nil:
			toks = append(toks, "")
		case string:
			toks = append(toks, n)
		default:
			return fmt.Errorf("cell %d is %v, not a number", len(toks)+1, x)
		}
		return nil
	}
	for _, x := range arr {
		if row, ok := x.([]any); ok {
			for _, y := range row {
				if err := add(y); err != nil {
					return rawCells{}, o.errorf(line, "%v", err)
				}
			}
			continue
		}
		if err := add(x); err != nil {
			return rawCells{}, o.errorf(line, "%v", err)
		}
	}
	if why := badCells(len(toks), strings.Join(toks, ",")); why != "" {
		return rawCells{}, o.errorf(line, "%s", why)
	}
	for i, t := range toks {
		if _, err := strconv.Atoi(t); err != nil && t != "" && t != "." {
			return rawCells{}, o.errorf(line, "cell %d is %q, not a number", i+1, t)
		}
	}
	return rawCells{toks: toks, numeric: true}, nil
}

// jsonRating is a rating in a ratings object: a number when it has no
// label, its label (a string) when it has no number, else an object
// {"value": NUMBER, "label": TEXT} (either member may be left out). A
// string that is a finite number is read as the number, as files write
// numbers in quotes; a label alone that reads so is written as an object.
type jsonRating struct {
	value float64 // NaN: none
	label string
}

// jsonRatingObject is a jsonRating's object form.
type jsonRatingObject struct {
	Value *float64 `json:"value,omitempty"`
	Label string   `json:"label,omitempty"`
}

func (r jsonRating) MarshalJSON() ([]byte, error) {
	switch {
	case r.label == "" && math.IsNaN(r.value):
		return []byte("null"), nil // a rating of neither, read back as none
	case r.label == "":
		return json.Marshal(r.value)
	case math.IsNaN(r.value):
		if _, ok := finite(r.label); ok {
			return json.Marshal(jsonRatingObject{Label: r.label})
		}
		return json.Marshal(r.label)
	}
	return json.Marshal(jsonRatingObject{&r.value, r.label})
}

func (r *jsonRating) UnmarshalJSON(b []byte) error {
	r.value = math.NaN()
	switch t := bytes.TrimSpace(b); {
	case len(t) > 0 && t[0] == '"':
		if err := json.Unmarshal(t, &r.label); err != nil {
			return err
		}
		if v, ok := finite(r.label); ok {
			r.value, r.label = v, ""
		}
		return nil
	case len(t) > 0 && t[0] == '{':
		var o jsonRatingObject
		if err := json.Unmarshal(t, &o); err != nil {
			return err
		}
		if o.Value == nil && o.Label == "" {
			return errors.New("a rating object without value or label")
		}
		if o.Value != nil {
			r.value = *o.Value
		}
		r.label = o.Label
		return nil
	}
	return json.Unmarshal(b, &r.value)
}

// finite returns the number s spells, if it is a finite one.
func finite(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// encodeJSON writes an array of objects, one per line: puzzle, solution,
// label, collection, ratings (see jsonRating), tags and metadata. Grids up to 9x9 are strings;
// larger ones are arrays of rows of numbers, 0 for blanks, so that they
// read back without a symbol set.
func encodeJSON(w io.Writer, recs []Record) error {
	type obj struct {
		Puzzle     any                   `json:"puzzle"`
		Solution   any                   `json:"solution,omitempty"`
		Label      string                `json:"label,omitempty"`
		Collection string                `json:"collection,omitempty"`
		Ratings    map[string]jsonRating `json:"ratings,omitempty"`
		Tags       []string              `json:"tags,omitempty"`
		Metadata   map[string]string     `json:"metadata,omitempty"`
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	for i, r := range recs {
		o := obj{Puzzle: jsonGridValue(r.Grid.N(), r.Grid.Cells), Label: r.Label, Collection: r.Collection, Tags: r.Tags,
			Metadata: r.Metadata}
		if r.Solution.Cells != nil {
			o.Solution = jsonGridValue(r.Solution.N(), r.Solution.Cells)
		}
		if len(r.Ratings) > 0 {
			o.Ratings = map[string]jsonRating{}
			for _, x := range r.Ratings {
				o.Ratings[x.Rater] = jsonRating{x.Value, x.Label}
			}
		}
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		bw.Write(b)
	}
	if len(recs) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

func jsonGridValue(n int, cells []uint8) any {
	if n <= 9 {
		b := make([]byte, len(cells))
		for i, v := range cells {
			b[i] = '.'
			if v != 0 {
				b[i] = '0' + v
			}
		}
		return string(b)
	}
	rows := make([][]uint8, n)
	for r := range n {
		rows[r] = cells[r*n : (r+1)*n]
	}
	return jsonRows(rows)
}

// jsonRows marshals rows of cells as numbers rather than base64.
type jsonRows [][]uint8

func (j jsonRows) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, row := range j {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for k, v := range row {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(v)))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}
