// Package tabular writes what the commands print in the three output
// formats of --output-format: an aligned table, CSV with a header, or
// JSON whose objects keep their keys in order. Numbers are shown at the
// precision a float64 carries (tables and CSV) or in full (JSON).
package tabular

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Write writes a result set as an aligned table, CSV with a header, or
// a JSON array of objects whose keys keep the column order.
func Write(w io.Writer, format string, cols []string, rows [][]any) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(cols); err != nil {
			return err
		}
		rec := make([]string, len(cols))
		for _, r := range rows {
			for i, v := range r {
				rec[i] = cell(v, "")
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case "json":
		// One object a line, keys in the columns' order.
		var b strings.Builder
		b.WriteString("[")
		for ri, r := range rows {
			if ri > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n  {")
			for i, v := range r {
				if i > 0 {
					b.WriteString(", ")
				}
				k, _ := json.Marshal(cols[i])
				val, err := json.Marshal(jsonValue(v))
				if err != nil {
					return err
				}
				b.Write(k)
				b.WriteString(": ")
				b.Write(val)
			}
			b.WriteString("}")
		}
		if len(rows) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("]\n")
		_, err := io.WriteString(w, b.String())
		return err
	default:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
		for _, r := range rows {
			parts := make([]string, len(r))
			for i, v := range r {
				parts[i] = cell(v, "NULL")
			}
			fmt.Fprintln(tw, strings.Join(parts, "\t"))
		}
		return tw.Flush()
	}
}

// cell formats one value for text output; null is how NULL is shown.
func cell(v any, null string) string {
	switch x := v.(type) {
	case nil:
		return null
	case []byte:
		return string(x)
	case float64:
		return shortFloat(x)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// shortFloat writes x for a table or CSV with the 15 significant digits a
// float64 carries exactly, so that the error of binary arithmetic does
// not show: 10.525, not 10.524999999999999 (an AVG), 13.2, not
// 13.200000000000017 (a sum). JSON keeps every digit.
func shortFloat(x float64) string {
	return strconv.FormatFloat(x, 'g', 15, 64)
}

// jsonValue is v as JSON shows it: bytes and strings as strings, but a
// string holding a JSON object or array (a stored document: metadata,
// options, params, details) as that object or array, never as a string
// of JSON; times in RFC 3339.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return jsonValue(string(x))
	case string:
		if t := strings.TrimSpace(x); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
			return json.RawMessage(t)
		}
		return x
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	}
	return v
}

// Field is one named value of an Object. It is a struct without a name
// of its own, so that a command may write one as {"key", value}.
type Field = struct {
	Key   string
	Value any
}

// Object is a JSON object whose keys keep their order; its values go
// through jsonValue.
type Object []Field

// MarshalJSON writes the object with its keys in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(jsonValue(f.Value))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// RowObject is one row of a result set as an object keyed by its columns.
func RowObject(cols []string, row []any) Object {
	o := make(Object, len(cols))
	for i, c := range cols {
		o[i] = Field{c, row[i]}
	}
	return o
}

// RowObjects is a result set as an array of objects.
func RowObjects(cols []string, rows [][]any) []Object {
	out := make([]Object, len(rows))
	for i, r := range rows {
		out[i] = RowObject(cols, r)
	}
	return out
}

// WriteJSON writes v as indented JSON and a newline.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// WriteRecord prints what a command did: with the table format as text
// (text writes it), with csv as a header and one row of the fields, with
// json as one object of them.
func WriteRecord(w io.Writer, format string, text func() error, fields Object) error {
	switch format {
	case "json":
		return WriteJSON(w, fields)
	case "csv":
		cols := make([]string, len(fields))
		row := make([]any, len(fields))
		for i, f := range fields {
			cols[i], row[i] = f.Key, csvValue(f.Value)
		}
		return Write(w, "csv", cols, [][]any{row})
	}
	return text()
}

// csvValue is a value of a record in one CSV cell: a list joined by
// newlines, an object as JSON.
func csvValue(v any) any {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, "\n")
	case Object, []Object, map[string]any, map[string]string:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return v
}

// Stream writes rows one at a time, as they come, in an output format:
// for table, columns padded to the header's widths (a stream cannot align
// on rows not yet seen); for csv, flushed row by row; for json, an array
// of objects, closed by Close.
type Stream struct {
	w      io.Writer
	format string
	cols   []string
	widths []int
	csv    *csv.Writer
	rows   int
}

// NewStream starts a stream of rows with the given columns; widths
// are the least widths of the table's columns (nil: the headers').
func NewStream(w io.Writer, format string, cols []string, widths []int) (*Stream, error) {
	s := &Stream{w: w, format: format, cols: cols, widths: make([]int, len(cols))}
	for i, c := range cols {
		s.widths[i] = len(c)
		if i < len(widths) {
			s.widths[i] = max(s.widths[i], widths[i])
		}
	}
	switch format {
	case "csv":
		s.csv = csv.NewWriter(w)
		if err := s.csv.Write(cols); err != nil {
			return nil, err
		}
		s.csv.Flush()
		return s, s.csv.Error()
	case "json":
		return s, nil
	}
	row := make([]any, len(cols))
	for i, c := range cols {
		row[i] = c
	}
	return s, s.tableRow(row)
}

func (s *Stream) tableRow(row []any) error {
	var b strings.Builder
	for i, v := range row {
		c := cell(v, "NULL")
		if i == len(row)-1 {
			b.WriteString(c)
			break
		}
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", max(s.widths[i]-len(c), 0)+2))
	}
	b.WriteByte('\n')
	_, err := io.WriteString(s.w, b.String())
	return err
}

// Write writes one row.
func (s *Stream) Write(row []any) error {
	s.rows++
	switch s.format {
	case "csv":
		rec := make([]string, len(row))
		for i, v := range row {
			rec[i] = cell(csvValue(v), "")
		}
		if err := s.csv.Write(rec); err != nil {
			return err
		}
		s.csv.Flush()
		return s.csv.Error()
	case "json":
		b, err := json.Marshal(RowObject(s.cols, row))
		if err != nil {
			return err
		}
		sep := ",\n  "
		if s.rows == 1 {
			sep = "[\n  "
		}
		_, err = io.WriteString(s.w, sep+string(b))
		return err
	}
	return s.tableRow(row)
}

// Close ends the stream: the JSON array's closing bracket.
func (s *Stream) Close() error {
	if s.format != "json" {
		return nil
	}
	end := "\n]\n"
	if s.rows == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(s.w, end)
	return err
}
