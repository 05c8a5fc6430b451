package importers_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/importers"
)

// The first example of reglib-1.3.txt's header, as the puzzle (givens) and
// the digits placed on it.
const (
	hodokuExample1       = "6....3..7....4..6..54867..........1.162.8.749.3..........42193..1..7....4..6....5"
	hodokuExample1Placed = "....5.4.......25..2.....391.4..96......3.5.......14.5.............5....4.2..3.17."
)

func TestHodokuDecode(t *testing.T) {
	tests := []struct {
		file, format string // format: "" to detect it
		detected     string
		n            int
		errs         []string
		check        func(t *testing.T, d decoded)
	}{
		{file: "examples.txt", detected: "hodoku-lib", n: 7, check: func(t *testing.T, d decoded) {
			r := d.recs[0]
			if r.Line != 4 || r.Grid.String() != hodokuExample1 {
				t.Errorf("line %d grid %s, want 4 %s", r.Line, r.Grid, hodokuExample1)
			}
			want := map[string]string{"technique": "0003", "technique_name": "Naked Single", "candidates": "8",
				"placed": hodokuExample1Placed, "placements": "829"}
			if !maps.Equal(r.Metadata, want) {
				t.Errorf("metadata %v, want %v", r.Metadata, want)
			}
			if m := d.recs[1].Metadata; m["technique_name"] != "Uniqueness Test 4" || m["eliminations"] != "364 365" ||
				!strings.HasPrefix(m["deleted_candidates"], "224 524 225 ") {
				t.Errorf("example 2: %v", m)
			}
			// Six colons: no extra field, as in exemplars-1.0.txt.
			if m := d.recs[2].Metadata; m["eliminations"] != "174" || m["technique_name"] != "Uniqueness Test 5" || len(m) != 6 {
				t.Errorf("uniqueness 5: %v", m)
			}
			if m := d.recs[3].Metadata; m["technique"] != "03111" || m["technique_name"] != "Siamese Finned Swordfish" {
				t.Errorf("siamese: %v", m)
			}
			if m := d.recs[4].Metadata; m["technique"] != "0610-x" || m["technique_name"] != "Bivalue Universal Grave + 1" || m["candidates"] != "" {
				t.Errorf("fail case: %v", m)
			}
			if m := d.recs[5].Metadata; m["extra"] != "12" || m["technique_name"] != "Grouped AIC" {
				t.Errorf("chain: %v", m)
			}
			if r := d.recs[6]; r.Grid.String() != easy || len(r.Metadata) != 0 {
				t.Errorf("no step: %s %v", r.Grid, r.Metadata)
			}
		}},
		{file: "mixed.txt", detected: "line", n: 3, check: func(t *testing.T, d decoded) {
			if got := []int{d.recs[0].Line, d.recs[1].Line, d.recs[2].Line}; !slices.Equal(got, []int{2, 4, 5}) {
				t.Errorf("lines %v", got)
			}
			if d.recs[0].Metadata["field1"] != "" || d.recs[0].Metadata["comment"] != "s u4(3) s" {
				t.Errorf("puzzle line metadata %v", d.recs[0].Metadata)
			}
			if m := d.recs[1].Metadata; m["technique"] != "0604" || m["candidates"] != "1" || m["eliminations"] != "174" {
				t.Errorf("library line metadata %v", m)
			}
		}},
		{file: "bad.txt", format: "hodoku-lib", n: 1, errs: []string{
			"bad.txt:3: givens: 80 cells, want 81",
			"bad.txt:4: givens: cell 80: '+' must come before a digit 1-9",
			"bad.txt:5: givens: cell 80: 'a' is not a digit, '.' or '+'",
			`bad.txt:6: deleted candidates: "1032" is not a candidate <digit><row><column> such as 132 (r3c2<>1)`,
			"bad.txt:7: a HoDoKu library line has 6 or 7 fields, each after a colon (:technique:candidates:givens:deleted:eliminations:placements:extra), this has 5",
			`bad.txt:8: technique "03 11": want a library code such as 0604`,
			`bad.txt:9: technique "0003-a": the variant after '-' is a number or x`,
			`bad.txt:10: candidates "80": want digits 1-9`,
			`bad.txt:11: not a HoDoKu library line (:technique:candidates:givens:...): "6...534.7....4256.254867391.4..96.1.1623..."; --format line reads`,
		}},
		// The line format reads both kinds of line; a colon line with
		// another number of colons is not taken for a library line.
		{file: "bad.txt", detected: "line", n: 2, errs: []string{
			"bad.txt:3: givens: 80 cells, want 81",
			"bad.txt:4: givens: cell 80: '+' must come before a digit 1-9",
			"bad.txt:5: givens: cell 80: 'a' is not a digit, '.' or '+'",
			`bad.txt:6: deleted candidates: "1032" is not a candidate`,
			`bad.txt:7: not a puzzle: ":0003:8:6...+53+4.7....4+2+56.+254867+3+..."`,
			`bad.txt:8: technique "03 11"`,
			`bad.txt:9: technique "0003-a"`,
			`bad.txt:10: candidates "80"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.format, func(t *testing.T) {
			path := filepath.Join("testdata", "hodoku", tt.file)
			var (
				f *importers.Format
				d decoded
			)
			if tt.format == "" {
				f, d = decodeFile(t, path, importers.Options{})
				if f.Name != tt.detected {
					t.Errorf("detected %s, want %s", f.Name, tt.detected)
				}
			} else {
				f = mustLookup(t, importers.Default(), tt.format)
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				d = decodeWith(f, b, importers.Options{File: tt.file})
			}
			if len(d.recs) != tt.n {
				t.Errorf("%d puzzles, want %d", len(d.recs), tt.n)
			}
			var errs []string
			for _, e := range d.errs {
				errs = append(errs, e.Error())
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(tt.errs, "\n"))
			}
			for i := range errs {
				if !strings.HasPrefix(errs[i], tt.errs[i]) {
					t.Errorf("error\n%s\nwant\n%s", errs[i], tt.errs[i])
				}
			}
			if tt.check != nil && len(d.recs) == tt.n {
				tt.check(t, d)
			}
		})
	}
}

// TestHodokuFiles reads the files HoDoKu ships completely, and checks what
// the fields mean: the placed digits, eliminations, placements and deleted
// candidates all lie where the format says they do.
func TestHodokuFiles(t *testing.T) {
	tests := []struct {
		file, format string
		entries      int // puzzles read
		distinct     int // distinct puzzles (givens)
		library      int // of them from library lines
		placed       int // library lines with placed digits
		fail         int // fail cases (-x)
	}{
		{file: "reglib-1.3.txt", format: "hodoku-lib", entries: 1112, distinct: 983, library: 1112, placed: 1019, fail: 4},
		{file: "reglib-1.4.txt", format: "hodoku-lib", entries: 1112, distinct: 983, library: 1112, placed: 1019, fail: 4},
		{file: "exemplars-1.0.txt", format: "line", entries: 670, distinct: 668, library: 1, placed: 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, d := decodeFile(t, filepath.Join("testdata", "hodoku", tt.file), importers.Options{})
			if f.Name != tt.format {
				t.Errorf("detected %s, want %s", f.Name, tt.format)
			}
			if len(d.errs) > 0 {
				t.Fatalf("%d errors, the first %v", len(d.errs), d.errs[0])
			}
			distinct := map[string]bool{}
			library, placed, fail := 0, 0, 0
			for _, r := range d.recs {
				distinct[r.Grid.String()] = true
				m := r.Metadata
				if m["technique"] == "" {
					continue
				}
				library++
				if _, ok := importers.HodokuTechniqueName(m["technique"]); !ok || m["technique_name"] == "" {
					t.Errorf("line %d: technique %q has no name", r.Line, m["technique"])
				}
				if strings.HasSuffix(m["technique"], "-x") {
					fail++
				}
				pos := r.Grid.Clone()
				if p := m["placed"]; p != "" {
					placed++
					for i := range 81 {
						if p[i] != '.' {
							pos.Cells[i] = p[i] - '0'
						}
					}
				}
				if err := pos.Validate(); err != nil {
					t.Errorf("line %d: the position breaks the rules: %v", r.Line, err)
				}
				// Candidates are <digit><row><column> of empty cells.
				for _, key := range []string{"deleted_candidates", "eliminations", "placements"} {
					for _, c := range strings.Fields(m[key]) {
						if cell := int(c[1]-'1')*9 + int(c[2]-'1'); pos.Cells[cell] != 0 {
							t.Errorf("line %d: %s %s on a filled cell", r.Line, key, c)
						}
					}
				}
				if m["eliminations"] != "" && m["placements"] != "" {
					t.Errorf("line %d: eliminations and placements", r.Line)
				}
			}
			got := []int{len(d.recs), len(distinct), library, placed, fail}
			if want := []int{tt.entries, tt.distinct, tt.library, tt.placed, tt.fail}; !slices.Equal(got, want) {
				t.Errorf("entries, distinct, library lines, with placed digits, fail cases = %v, want %v", got, want)
			}
		})
	}
}

// libraryLines returns the library lines of a file, as HoDoKu writes them:
// trimmed, with the seventh colon of a line without the extra field.
func libraryLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		s := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(s, ":") {
			continue
		}
		if strings.Count(s, ":") == 6 {
			s += ":"
		}
		out = append(out, s)
	}
	return out
}

// TestHodokuRoundTrip encodes what was decoded: the library lines come out
// as they went in, and decode to the same puzzles and metadata.
func TestHodokuRoundTrip(t *testing.T) {
	f := mustLookup(t, importers.Default(), "hodoku-lib")
	for _, file := range []string{"reglib-1.3.txt", "reglib-1.4.txt", "examples.txt"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata", "hodoku", file)
			_, d := decodeFile(t, path, importers.Options{})
			if len(d.errs) > 0 {
				t.Fatal(d.errs)
			}
			var b bytes.Buffer
			if err := f.Encode(&b, d.recs); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			want := libraryLines(t, path)
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("line %d:\n%s\nwant\n%s", i+1, got[i], want[i])
					}
				}
				t.Fatalf("%d lines, want %d", len(got), len(want))
			}
			again := decodeWith(f, b.Bytes(), importers.Options{File: "again"})
			if len(again.errs) > 0 || len(again.recs) != len(d.recs) {
				t.Fatalf("%d records, errors %v", len(again.recs), again.errs)
			}
			for i, r := range again.recs {
				if !r.Grid.Equal(d.recs[i].Grid) || !maps.Equal(r.Metadata, d.recs[i].Metadata) {
					t.Fatalf("record %d: %s %v, want %s %v", i, r.Grid, r.Metadata, d.recs[i].Grid, d.recs[i].Metadata)
				}
			}
		})
	}
}

func TestHodokuEncodeErrors(t *testing.T) {
	g := sudokulab.MustParse(hodokuExample1)
	g16, err := sudokulab.Parse(readFirstGrid(t, "grid/hex16.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f := mustLookup(t, importers.Default(), "hodoku-lib")
	for _, tt := range []struct {
		name string
		rec  importers.Record
		want string
	}{
		{"16x16", importers.Record{Grid: g16, Label: "big"}, "hodoku-lib: puzzle 1 (big): a 16x16 grid; the HoDoKu library format holds 9x9 grids only"},
		{"technique", importers.Record{Grid: g, Metadata: map[string]string{"technique": "XY Wing"}}, `metadata technique "XY Wing"`},
		{"candidates", importers.Record{Grid: g, Metadata: map[string]string{"technique": "0800", "candidates": "0"}}, `metadata candidates "0"`},
		{"placed short", importers.Record{Grid: g, Metadata: map[string]string{"placed": "12"}}, "metadata placed: 2 cells, want 81"},
		{"placed on a given", importers.Record{Grid: g, Metadata: map[string]string{"placed": "1" + strings.Repeat(".", 80)}},
			"metadata placed: cell 1 is placed and given"},
		{"eliminations", importers.Record{Grid: g, Metadata: map[string]string{"eliminations": "r1c1"}}, `metadata eliminations: "r1c1"`},
		{"extra", importers.Record{Grid: g, Metadata: map[string]string{"extra": "a:b"}}, "metadata extra"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := f.Encode(&bytes.Buffer{}, []importers.Record{tt.rec})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestHodokuGolden decodes the small fixtures into golden files: one JSON
// object per puzzle or error.
func TestHodokuGolden(t *testing.T) {
	for _, file := range []string{"examples.txt", "mixed.txt", "bad.txt"} {
		t.Run(file, func(t *testing.T) {
			_, d := decodeFile(t, filepath.Join("testdata", "hodoku", file), importers.Options{})
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			for _, r := range d.recs {
				if err := enc.Encode(map[string]any{"line": r.Line, "grid": r.Grid.String(), "metadata": r.Metadata}); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range d.errs {
				if err := enc.Encode(map[string]any{"error": e.Error()}); err != nil {
					t.Fatal(err)
				}
			}
			golden(t, "hodoku-"+strings.TrimSuffix(file, ".txt")+".json", b.Bytes())
		})
	}
}

func TestHodokuDetect(t *testing.T) {
	r := importers.Default()
	lib := ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:\n"
	for _, tt := range []struct{ file, head, want string }{
		{"reglib.txt", "# HoDoKu\n" + lib + lib, "hodoku-lib"},
		{"reglib", lib, "hodoku-lib"},
		{"reglib.dat", lib, "hodoku-lib"},
		// A last line cut short by the end of the head does not count.
		{"reglib.txt", lib + lib[:40], "hodoku-lib"},
		// Puzzle lines first: a mixed file, read by the line format.
		{"exemplars.txt", easy + "\n" + lib, "line"},
		{"exemplars.txt", lib + easy + "\n", "line"},
	} {
		if f, err := r.Detect(tt.file, []byte(tt.head)); err != nil || f.Name != tt.want {
			t.Errorf("Detect(%s, %.30q) = %v, %v; want %s", tt.file, tt.head, f, err, tt.want)
		}
	}
}

func TestHodokuTechniqueName(t *testing.T) {
	for _, tt := range []struct {
		code, name string
		ok         bool
	}{
		{"0604", "Uniqueness Test 5", true},
		{"0604-1", "Uniqueness Test 5", true},
		{"0610-x", "Bivalue Universal Grave + 1", true},
		{"03111", "Siamese Finned Swordfish", true},
		{"0903", "Almost Locked Set Chain", true},
		{"1304", "Forcing Net Verity", true},
		{"0001", "", false},
		{"xxxx", "", false},
		{"06041", "", false},
	} {
		if name, ok := importers.HodokuTechniqueName(tt.code); name != tt.name || ok != tt.ok {
			t.Errorf("HodokuTechniqueName(%q) = %q, %v; want %q, %v", tt.code, name, ok, tt.name, tt.ok)
		}
	}
}

// FuzzHodoku decodes any input as HoDoKu library lines and as puzzle lines
// (which accept library lines): every record is a well-formed grid, and a
// library record encodes and decodes to the same puzzle and metadata.
func FuzzHodoku(f *testing.F) {
	seed(f, "hodoku/examples.txt", "hodoku/mixed.txt", "hodoku/bad.txt", "golden/encode.hodoku-lib")
	format, err := importers.Default().Lookup("hodoku-lib")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, "hodoku-lib", data, importers.Options{})
		fuzzDecode(t, "line", data, importers.Options{})
		for rec, err := range format.Decode(bytes.NewReader(data), importers.Options{}) {
			if err != nil {
				continue
			}
			if rec.Grid.N() != 9 {
				t.Fatalf("line %d: a %dx%d grid", rec.Line, rec.Grid.N(), rec.Grid.N())
			}
			var b bytes.Buffer
			if err := format.Encode(&b, []importers.Record{rec}); err != nil {
				t.Fatalf("encode %v: %v", rec, err)
			}
			d := decodeWith(format, b.Bytes(), importers.Options{})
			if len(d.errs) > 0 || len(d.recs) != 1 || !d.recs[0].Grid.Equal(rec.Grid) || !maps.Equal(d.recs[0].Metadata, rec.Metadata) {
				t.Fatalf("%s re-decoded %+v, errors %v; want %s %v", b.Bytes(), d.recs, d.errs, rec.Grid, rec.Metadata)
			}
		}
	})
}
