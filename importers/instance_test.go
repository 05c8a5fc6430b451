package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/importers"
)

// instanceFixtures are the instance files of testdata, in the exact layout
// of the benchmark files (CRLF, a tab after every value).
var instanceFixtures = []struct {
	file  string
	shape sudokulab.Shape
}{
	{"instance-9x9.instance", sudokulab.Classic},
	{"instance-16x16.instance", sudokulab.Shape{BoxRows: 4, BoxCols: 4}},
	{"instance-25x25.instance", sudokulab.Shape{BoxRows: 5, BoxCols: 5}},
}

// TestInstanceGolden decodes each fixture (detected by content, whatever
// its name) and encodes it again: the same bytes.
func TestInstanceGolden(t *testing.T) {
	for _, tt := range instanceFixtures {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := importers.Default().Detect("inst.txt", b)
			if err != nil || f.Name != "instance" {
				t.Fatalf("detected %v (%v), want instance", f, err)
			}
			d := decodeWith(f, b, importers.Options{File: "dir/" + tt.file})
			if len(d.errs) > 0 || len(d.notes) > 0 || len(d.recs) != 1 {
				t.Fatalf("records %d, errors %v, notes %q", len(d.recs), d.errs, d.notes)
			}
			r := d.recs[0]
			if r.Grid.Shape != tt.shape || r.Line != 3 || r.Label != strings.TrimSuffix(tt.file, ".instance") {
				t.Errorf("shape %v, line %d, label %q", r.Grid.Shape, r.Line, r.Label)
			}
			if err := r.Grid.Validate(); err != nil {
				t.Error(err)
			}
			var out bytes.Buffer
			if err := f.Encode(&out, d.recs); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), b) {
				t.Errorf("encoded\n%q\nwant\n%q", out.Bytes(), b)
			}
		})
	}
	// The 9x9 fixture is the easy puzzle.
	if got := readFirstGrid(t, "instance-9x9.instance"); got != easy {
		t.Errorf("9x9 fixture %s, want %s", got, easy)
	}
}

// TestInstanceLenient reads what the reference reader reads: LF endings,
// spaces, no trailing tab, blank lines, a BOM.
func TestInstanceLenient(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "instance-9x9.instance"))
	if err != nil {
		t.Fatal(err)
	}
	f := mustLookup(t, importers.Default(), "instance")
	for name, in := range map[string]string{
		"lf":     strings.ReplaceAll(string(b), "\r\n", "\n"),
		"spaces": strings.ReplaceAll(strings.ReplaceAll(string(b), "\t\r\n", "\n"), "\t", " "),
		"blank":  "\n" + strings.ReplaceAll(string(b), "1\r\n", "1\r\n\r\n") + "\r\n\r\n",
		"bom":    "\xEF\xBB\xBF" + string(b),
		"no-eol": strings.TrimSuffix(string(b), "\t\r\n"),
	} {
		d := decodeWith(f, []byte(in), importers.Options{})
		if len(d.errs) > 0 || len(d.recs) != 1 || d.recs[0].Grid.String() != easy {
			t.Errorf("%s: %d records, errors %v", name, len(d.recs), d.errs)
		}
		if det, err := importers.Default().Detect("x", []byte(in)); err != nil || det.Name != "instance" {
			t.Errorf("%s: detected %v (%v)", name, det, err)
		}
	}
}

func TestInstanceErrors(t *testing.T) {
	row9 := "-1\t2\t3\t4\t5\t6\t7\t8\t9\t\r\n"
	rows := func(k int) string { return strings.Repeat(row9, k) }
	f := mustLookup(t, importers.Default(), "instance")
	for _, tt := range []struct {
		name, in string
		grids    int
		err      string // the one error
		fatal    bool
	}{
		{"empty", "", 0, "f.txt: no grid found", true},
		{"header only", "3\r\n", 0, "f.txt: no grid found", true},
		{"no rows", "3\r\n1\r\n", 0, "f.txt:3: no grid found after the box order: want 9 rows", false},
		{"not an order", "x\r\n1\r\n" + rows(9), 0, `f.txt:1: first line "x" is not a box order`, true},
		{"order 1", "1\r\n1\r\n" + "-1\r\n", 0, "f.txt:1: box order 1: want 2 to 5 (4x4 to 25x25 grids)", true},
		{"order 6", "6\r\n1\r\n", 0, "f.txt:1: box order 6: want 2 to 5", true},
		{"second line", "3\r\n2\r\n" + rows(9), 0, `f.txt:2: second line "2", want 1`, true},
		{"short row", "3\r\n1\r\n" + rows(3) + "1\t2\r\n" + rows(5), 0, "f.txt:6: row 4 has 2 values, want 9", false},
		{"long row", "3\r\n1\r\n" + rows(8) + "1\t2\t3\t4\t5\t6\t7\t8\t9\t1\r\n", 0, "f.txt:11: row 9 has 10 values, want 9", false},
		{"zero", "3\r\n1\r\n" + "0" + rows(9)[2:], 0, "f.txt:3: row 1, column 1: value 0 out of range: want 1 to 9, or -1 for a blank", false},
		{"ten", "3\r\n1\r\n" + rows(1) + "10\t2\t3\t4\t5\t6\t7\t8\t9\r\n" + rows(7), 0, "f.txt:4: row 2, column 1: value 10 out of range", false},
		{"letter", "3\r\n1\r\n" + rows(2) + "-1\tA\t3\t4\t5\t6\t7\t8\t9\r\n" + rows(6), 0, `f.txt:5: row 3, column 2: "A" is not a number`, false},
		{"too few rows", "3\r\n1\r\n" + rows(8), 0, "f.txt:11: grid ends after 8 rows, want 9", false},
		{"trailing", "3\r\n1\r\n" + rows(9) + "\r\n3\r\n", 1, `f.txt:13: "3" after the grid: an instance file holds one puzzle`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := decodeWith(f, []byte(tt.in), importers.Options{File: "f.txt"})
			if len(d.recs) != tt.grids || len(d.errs) != 1 {
				t.Fatalf("%d records, errors %v; want %d records and one error", len(d.recs), d.errs, tt.grids)
			}
			de, ok := d.errs[0].(*importers.DecodeError)
			if !ok || !strings.HasPrefix(de.Error(), tt.err) || de.Fatal != tt.fatal {
				t.Errorf("error %v (fatal %v), want %q (fatal %v)", d.errs[0], ok && de.Fatal, tt.err, tt.fatal)
			}
		})
	}
}

func TestInstanceEncodeErrors(t *testing.T) {
	f := mustLookup(t, importers.Default(), "instance")
	g6, err := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	if err != nil {
		t.Fatal(err)
	}
	g4, err := sudokulab.NewGrid(sudokulab.Shape{BoxRows: 2, BoxCols: 2})
	if err != nil {
		t.Fatal(err)
	}
	one := importers.Record{Grid: sudokulab.MustParse(easy)}
	for _, tt := range []struct {
		name string
		recs []importers.Record
		want string
	}{
		{"6x6", []importers.Record{{Grid: g6}}, "instance: only grids with square boxes"},
		{"two", []importers.Record{one, one}, "instance: a file holds one puzzle, not 2"},
		{"none", nil, "instance: a file holds one puzzle, not 0"},
	} {
		if err := f.Encode(&bytes.Buffer{}, tt.recs); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// 4x4 (order 2) round trips.
	g4.Cells[0], g4.Cells[5] = 1, 3
	var b bytes.Buffer
	if err := f.Encode(&b, []importers.Record{{Grid: g4}}); err != nil {
		t.Fatal(err)
	}
	if want := "2\r\n1\r\n1\t-1\t-1\t-1\t\r\n-1\t3\t-1\t-1\t\r\n-1\t-1\t-1\t-1\t\r\n-1\t-1\t-1\t-1\t\r\n"; b.String() != want {
		t.Errorf("4x4: %q, want %q", b.String(), want)
	}
	if d := decodeWith(f, b.Bytes(), importers.Options{}); len(d.recs) != 1 || !d.recs[0].Grid.Equal(g4) {
		t.Errorf("4x4 decoded %+v", d)
	}
}

// TestInstanceDetection checks that instance files are told from the other
// formats, and the other formats' fixtures from instance files.
func TestInstanceDetection(t *testing.T) {
	r := importers.Default()
	for _, tt := range []struct{ file, head, want string }{
		{"inst9x9_45_0.txt", "3\r\n1\r\n-1\t2\t3\t4\t5\t6\t7\t8\t9\t\r\n", "instance"},
		// The head ends inside a row.
		{"inst.txt", "4\n1\n" + strings.Repeat("-1\t", 16) + "\n" + strings.Repeat("16\t", 7), "instance"},
		// A count line before a puzzle line, not a row of numbers.
		{"p", "3\n1\n" + easy + "\n", "line"},
		// Not 1 on the second line.
		{"p.txt", "3\n2\n-1\t2\t3\t4\t5\t6\t7\t8\t9\n", "line"},
	} {
		if f, err := r.Detect(tt.file, []byte(tt.head)); err != nil || f.Name != tt.want {
			t.Errorf("Detect(%s, %.30q) = %v, %v; want %s", tt.file, tt.head, f, err, tt.want)
		}
	}
	// No fixture of another format is taken for an instance file.
	paths, err := filepath.Glob(filepath.Join("testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if strings.HasPrefix(p, filepath.Join("testdata", "fuzz")) {
			continue // the fuzz corpus, not fixtures
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := r.Detect(p, b); err == nil && f.Name == "instance" && !strings.HasSuffix(p, ".instance") {
			t.Errorf("%s detected as instance", p)
		}
	}
}

func FuzzInstance(f *testing.F) {
	seed(f, "instance-*", "golden/encode.instance")
	f.Add([]byte("2\n1\n1 -1 -1 -1\n-1 3 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 4\n"))
	format, err := importers.Default().Lookup("instance")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, "instance", data, importers.Options{})
		// Whatever decodes encodes, and decodes to the same grid.
		for rec, err := range format.Decode(bytes.NewReader(data), importers.Options{}) {
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if err := format.Encode(&b, []importers.Record{rec}); err != nil {
				t.Fatalf("encode %s: %v", rec.Grid.Shape, err)
			}
			d := decodeWith(format, b.Bytes(), importers.Options{})
			if len(d.errs) > 0 || len(d.recs) != 1 || !d.recs[0].Grid.Equal(rec.Grid) {
				t.Fatalf("re-decoded %+v, errors %v; want %s", d.recs, d.errs, rec.Grid)
			}
			if f, err := importers.Default().Detect("x", b.Bytes()); err != nil || f.Name != "instance" {
				t.Fatalf("encoded grid detected as %v (%v)", f, err)
			}
		}
	})
}
