package tabular_test

import (
	"bytes"
	"testing"
	"time"

	"sudokulab/internal/tabular"
)

var (
	cols = []string{"id", "name", "mean", "meta", "at"}
	rows = [][]any{
		{int64(1), "a,b", 13.200000000000017, `{"k": [1, 2]}`, time.Date(2025, 3, 1, 12, 0, 0, 0, time.FixedZone("x", 3600))},
		{int64(22), []byte("bytes"), nil, "[oops", nil},
	}
)

// TestWrite writes one result set in the three formats: tables and CSV
// at the precision of a float64, JSON in full, with stored JSON documents
// as objects and the columns' order kept.
func TestWrite(t *testing.T) {
	for _, tt := range []struct{ format, want string }{
		{"table", "id  name   mean  meta           at\n" +
			"1   a,b    13.2  {\"k\": [1, 2]}  2025-03-01T11:00:00Z\n" +
			"22  bytes  NULL  [oops          NULL\n"},
		{"csv", "id,name,mean,meta,at\n" +
			"1,\"a,b\",13.2,\"{\"\"k\"\": [1, 2]}\",2025-03-01T11:00:00Z\n" +
			"22,bytes,,[oops,\n"},
		{"json", "[\n" +
			"  {\"id\": 1, \"name\": \"a,b\", \"mean\": 13.200000000000017, \"meta\": {\"k\":[1,2]}, \"at\": \"2025-03-01T11:00:00Z\"},\n" +
			"  {\"id\": 22, \"name\": \"bytes\", \"mean\": null, \"meta\": \"[oops\", \"at\": null}\n" +
			"]\n"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			var b bytes.Buffer
			if err := tabular.Write(&b, tt.format, cols, rows); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestStream writes rows one at a time: the table padded to the header's
// widths (or wider ones given), CSV row by row, JSON as one array, and
// an empty JSON stream as an empty array.
func TestStream(t *testing.T) {
	for _, tt := range []struct {
		format string
		rows   [][]any
		want   string
	}{
		{"table", rows[:1], "id  name  mean  meta           at\n" +
			"1   a,b   13.2  {\"k\": [1, 2]}  2025-03-01T11:00:00Z\n"},
		{"csv", [][]any{{int64(1), []string{"x", "y"}, 0.5, tabular.Object{{"k", 1}}, nil}},
			"id,name,mean,meta,at\n1,\"x\ny\",0.5,\"{\"\"k\"\":1}\",\n"},
		{"json", rows[1:], "[\n  {\"id\":22,\"name\":\"bytes\",\"mean\":null,\"meta\":\"[oops\",\"at\":null}\n]\n"},
		{"json", nil, "[]\n"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			var b bytes.Buffer
			s, err := tabular.NewStream(&b, tt.format, cols, []int{0, 0, 0, 13})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.rows {
				if err := s.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}

// TestWriteRecord prints a command's record as text, as one CSV row, or
// as one JSON object with its keys in order.
func TestWriteRecord(t *testing.T) {
	fields := tabular.Object{{"added", "c"}, {"puzzles", 3}, {"names", []string{"a", "b"}}}
	for _, tt := range []struct{ format, want string }{
		{"table", "text\n"},
		{"csv", "added,puzzles,names\nc,3,\"a\nb\"\n"},
		{"json", "{\n  \"added\": \"c\",\n  \"puzzles\": 3,\n  \"names\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"},
	} {
		var b bytes.Buffer
		err := tabular.WriteRecord(&b, tt.format, func() error { b.WriteString("text\n"); return nil }, fields)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s: got %q, want %q", tt.format, b.String(), tt.want)
		}
	}
}
