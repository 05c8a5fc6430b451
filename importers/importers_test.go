package importers_test

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/importers"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const (
	easy          = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
	easySol       = "158679432462318795379524618623487159894251367517963824241896573936745281785132946"
	medium        = ".24..7...6..........368.415431..5...5......3279.....6.2.971.8...4..93...31...475."
	escargot      = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
	top           = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
	seventeen     = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
	exchange      = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."
	easterMonster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
)

// decoded is what a decoder made of a file.
type decoded struct {
	recs  []importers.Record
	errs  []error
	notes []string
}

func decodeFile(t *testing.T, path string, o importers.Options) (*importers.Format, decoded) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := importers.Default().Detect(path, b[:min(len(b), 64<<10)])
	if err != nil {
		t.Fatal(err)
	}
	o.File = filepath.Base(path)
	return f, decodeWith(f, b, o)
}

func decodeWith(f *importers.Format, b []byte, o importers.Options) decoded {
	var d decoded
	for rec, err := range f.Decode(bytes.NewReader(b), o) {
		switch {
		case err != nil:
			d.errs = append(d.errs, err)
		case rec.Note != "":
			d.notes = append(d.notes, rec.Note)
		default:
			d.recs = append(d.recs, rec)
		}
	}
	return d
}

func grids(recs []importers.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Grid.String()
	}
	return out
}

func TestDecode(t *testing.T) {
	tests := []struct {
		file   string
		opts   importers.Options
		format string
		grids  []string // the puzzles, in canonical form; nil: not checked
		lines  []int    // their lines; nil: not checked
		n      int      // number of puzzles when grids is nil
		errs   []string // the errors, in order, as text
		check  func(t *testing.T, d decoded)
	}{
		{file: "line/top.txt", format: "line", grids: []string{escargot, top, seventeen}, lines: []int{4, 5, 6},
			check: func(t *testing.T, d decoded) {
				r := d.recs[0]
				if r.Metadata["ED"] != "10.5/10.5/10.5" || r.Metadata["field1"] != "escargot" || r.Metadata["comment"] != "AI Escargot" {
					t.Errorf("metadata %v", r.Metadata)
				}
				if len(r.Ratings) != 3 || r.Ratings[0] != (importers.Rating{Rater: "se-er", Value: 10.5}) {
					t.Errorf("ratings %v", r.Ratings)
				}
				if d.recs[1].Metadata["field1"] != "1234" || d.recs[2].Label != "royle-1" {
					t.Errorf("records %+v", d.recs[1:])
				}
			}},
		{file: "line/mixed.txt", format: "line", grids: []string{easy, medium, top, seventeen}, lines: []int{1, 2, 3, 4}},
		{file: "line/blanks.txt", format: "line", grids: slices.Repeat([]string{easy}, 7)},
		{file: "line/header.sdm", format: "sdm", grids: []string{easy, medium}, lines: []int{2, 3},
			check: func(t *testing.T, d decoded) {
				if len(d.notes) != 1 || !strings.Contains(d.notes[0], "Puzzles of the week") {
					t.Errorf("notes %q", d.notes)
				}
			}},
		{file: "line/bad-80.sdm", format: "sdm", n: 3, errs: []string{"bad-80.sdm:3: 80 cells, want 81"}},
		{file: "line/unknown-symbol.txt", format: "line", n: 1, errs: []string{"unknown-symbol.txt:2: cell 11: 'Z' is not a symbol of 1-9"}},
		{file: "line/not-puzzles.txt", format: "line", n: 0,
			errs: []string{"not-puzzles.txt: no puzzle line in 2 lines of text; is it another format?"}},
		{file: "line/utf8-bom.txt", format: "line", grids: []string{easy, medium}},
		{file: "line/utf16le-bom.txt", format: "line", grids: []string{easy, medium}},
		{file: "line/utf16be.txt", format: "line", grids: []string{easy, medium}},
		{file: "line/hex16.txt", format: "line", n: 1, check: func(t *testing.T, d decoded) {
			want := readFirstGrid(t, "grid/hex16.txt")
			if got := d.recs[0].Grid.String(); got != want {
				t.Errorf("line hex16 %s, grid hex16 %s", got, want)
			}
		}},
		{file: "sdk/escargot.sdk", format: "sdk", grids: []string{escargot}, lines: []int{9},
			check: func(t *testing.T, d decoded) {
				m := d.recs[0].Metadata
				if m["author"] != "Arto Inkala" || m["level"] != "super-difficult" || m["url"] != "http://www.aisudoku.com/" || len(m) != 7 {
					t.Errorf("metadata %v", m)
				}
				if d.recs[0].Label != "escargot" {
					t.Errorf("label %q", d.recs[0].Label)
				}
			}},
		{file: "sdk/plain.sdk", format: "sdk", grids: []string{easy}},
		{file: "sdk/short.sdk", format: "sdk", n: 0, errs: []string{"short.sdk:2: grid ends after 8 rows at line 10, want 9 rows"}},
		{file: "ss/easy.ss", format: "ss", grids: []string{easy}, check: func(t *testing.T, d decoded) {
			if len(d.notes) != 1 || !strings.Contains(d.notes[0], "ignored") {
				t.Errorf("notes %q", d.notes)
			}
		}},
		{file: "ss/row8.ss", format: "ss", n: 0, errs: []string{"row8.ss:2: row 1 has 8 cells, want 9"}},
		{file: "grid/euler.txt", format: "grid", grids: []string{easy, medium}, lines: []int{2, 12},
			check: func(t *testing.T, d decoded) {
				if d.recs[0].Label != "Grid 01" || d.recs[1].Label != "Grid 02" {
					t.Errorf("labels %q %q", d.recs[0].Label, d.recs[1].Label)
				}
			}},
		{file: "grid/short.txt", format: "grid", grids: []string{easy}, errs: []string{"short.txt:12: grid ends after 7 rows at line 19, want 9 rows"}},
		{file: "grid/badrow.txt", format: "grid", grids: []string{medium}, errs: []string{"badrow.txt:2: row 1 has 8 cells, want 9"}},
		{file: "grid/nine-rows.csv", format: "grid", grids: []string{easy}},
		{file: "grid/hex16.txt", format: "grid", n: 1},
		{file: "grid/letters16.txt", format: "grid", n: 1, check: sameAs("grid/hex16.txt")},
		{file: "grid/numbers16.txt", format: "grid", n: 1, check: sameAs("grid/hex16.txt")},
		{file: "grid/zero-based16.txt", format: "grid", n: 1, check: sameAs("grid/hex16.txt")},
		{file: "grid/ambiguous16.txt", format: "grid", n: 0,
			errs: []string{"ambiguous16.txt:1: the symbols are ambiguous: the grids read as 0-F or 1-G alike; say which with --symbols 0-F or --symbols 1-G"}},
		{file: "grid/ambiguous16.txt", opts: importers.Options{Symbols: "0-F"}, format: "grid", n: 1},
		{file: "grid/letters25.txt", format: "grid", n: 1},
		{file: "grid/numbers25.txt", format: "grid", n: 1, check: sameAs("grid/letters25.txt")},
		// An id before the grid, a rating after it (sudoku-exchange's
		// puzzle bank): both kept, the number as a rating when named.
		{file: "line/exchange.txt", format: "line", grids: []string{exchange, easy, medium}, lines: []int{1, 2, 3},
			check: func(t *testing.T, d decoded) {
				if r := d.recs[0]; !maps.Equal(r.Metadata, map[string]string{"id": "0000183b305c", "field1": "1.2"}) || r.Ratings != nil {
					t.Errorf("first %+v", r)
				}
				if r := d.recs[2]; !maps.Equal(r.Metadata, map[string]string{"id": "m-2", "field1": "hard", "comment": "from the paper"}) {
					t.Errorf("third %+v", r)
				}
			}},
		{file: "line/exchange.txt", opts: importers.Options{RatingColumns: map[string]string{"field1": "exchange"}}, format: "line",
			grids: []string{exchange, easy, medium}, check: func(t *testing.T, d decoded) {
				if r := d.recs[1]; !maps.Equal(r.Metadata, map[string]string{"id": "e-1"}) || !slices.Equal(r.Ratings, []importers.Rating{{Rater: "exchange", Value: 2.5}}) {
					t.Errorf("second %+v", r)
				}
				if r := d.recs[2]; r.Metadata["field1"] != "hard" || r.Ratings != nil {
					t.Errorf("a word is no rating: %+v", r)
				}
			}},
		// The first lines of the bank itself, the rating named exchange.
		{file: "line/exchange-diabolical.txt", opts: importers.Options{RatingColumns: map[string]string{"field1": "exchange"}}, format: "line", n: 6,
			check: func(t *testing.T, d decoded) {
				r := d.recs[3]
				if r.Line != 4 || r.Grid.String() != "..6...2..9.......4243...896...591.....2.8.3..4..2.3..13.......7...9.7....1.4.8.2." ||
					!maps.Equal(r.Metadata, map[string]string{"id": "00035f2db993"}) || !slices.Equal(r.Ratings, []importers.Rating{{Rater: "exchange", Value: 8.2}}) {
					t.Errorf("fourth %+v", r)
				}
			}},
		{file: "csv/kaggle.csv", format: "csv", grids: []string{easy, medium}, lines: []int{2, 3},
			check: func(t *testing.T, d decoded) {
				if d.recs[0].Solution.String() != easySol {
					t.Errorf("solution %s", d.recs[0].Solution)
				}
			}},
		{file: "csv/kaggle-rated.csv", format: "csv", grids: []string{easy, medium},
			check: func(t *testing.T, d decoded) {
				r := d.recs[1]
				if len(r.Ratings) != 1 || r.Ratings[0] != (importers.Rating{Rater: "kaggle-difficulty", Value: 1.2}) {
					t.Errorf("ratings %v", r.Ratings)
				}
				if r.Metadata["id"] != "2" || r.Metadata["clues"] != "33" {
					t.Errorf("metadata %v", r.Metadata)
				}
			}},
		{file: "csv/forum.csv", format: "csv", grids: []string{escargot, top}, lines: []int{3, 4},
			check: func(t *testing.T, d decoded) {
				r := d.recs[0]
				want := []importers.Rating{{Rater: "se-er", Value: 10.5}, {Rater: "se-ep", Value: 10.5}, {Rater: "se-ed", Value: 10.5}}
				if r.Label != "escargot" || r.Metadata["Poster"] != "Arto" || r.Metadata["Solvable"] != "yes" || !slices.Equal(r.Ratings, want) {
					t.Errorf("record %+v", r)
				}
				if len(d.recs[1].Ratings) != 0 || d.recs[1].Label != "magic-1" {
					t.Errorf("empty ratings: %+v", d.recs[1])
				}
				if len(d.notes) != 1 || !strings.Contains(d.notes[0], "hardest sudokus") {
					t.Errorf("notes %q", d.notes)
				}
			}},
		{file: "csv/tab.tsv", format: "csv", grids: []string{easy, medium}, check: func(t *testing.T, d decoded) {
			if d.recs[0].Label != "easy-1" || d.recs[0].Metadata["level"] != "easy" {
				t.Errorf("record %+v", d.recs[0])
			}
		}},
		{file: "csv/semicolon.csv", format: "csv", grids: []string{easy, seventeen}},
		// The forum's #!sudoku header: options, then the columns' names in
		// order, the puzzle's among them; each rating under its own name.
		{file: "csv/forum-ratings.csv", format: "csv", grids: []string{easterMonster, seventeen, top}, lines: []int{3, 4, 5},
			check: func(t *testing.T, d decoded) {
				want := []importers.Rating{{Rater: "gsf-q1", Value: 99529}, {Rater: "gsf-q2", Value: 99493},
					{Rater: "se-er", Value: 11.6}, {Rater: "se-ep", Value: 11.5}, {Rater: "se-ed", Value: 11.3},
					{Rater: "suexrat9", Value: 7092}, {Rater: "suexratt", Value: 3944}}
				r := d.recs[0]
				if !slices.Equal(r.Ratings, want) {
					t.Errorf("ratings %v\nwant %v", r.Ratings, want)
				}
				if r.Label != "easter monster" || !maps.Equal(r.Metadata, map[string]string{"Poster": "JPF"}) {
					t.Errorf("label %q, metadata %v", r.Label, r.Metadata)
				}
				want = []importers.Rating{{Rater: "se-er", Value: 9.4}, {Rater: "se-ep", Value: 9}, {Rater: "se-ed", Value: 2.6}}
				if r := d.recs[2]; !slices.Equal(r.Ratings, want) || r.Label != "" || r.Metadata != nil {
					t.Errorf("third %+v", r)
				}
			}},
		// White-space separated fields, the puzzle in column 2, a label and
		// an option about solving.
		{file: "csv/forum-spaces.txt", format: "csv", grids: []string{escargot, top}, lines: []int{2, 3},
			check: func(t *testing.T, d decoded) {
				r := d.recs[1]
				want := []importers.Rating{{Rater: "se-er", Value: 9.4}, {Rater: "se-ep", Value: 9}, {Rater: "se-ed", Value: 2.6}}
				if !slices.Equal(r.Ratings, want) || r.Metadata["num"] != "2" {
					t.Errorf("second %+v", r)
				}
				if len(d.notes) != 2 || !strings.Contains(d.notes[0], `label "sample"`) || !strings.Contains(d.notes[1], "-q-YG is about solving") {
					t.Errorf("notes %q", d.notes)
				}
			}},
		// A #!sudoku file is the forum's whatever its extension, even when
		// its lines start with a grid as the line format's do.
		{file: "csv/forum-first.txt", format: "csv", grids: []string{escargot}, check: func(t *testing.T, d decoded) {
			if r := d.recs[0]; !maps.Equal(r.Metadata, map[string]string{"column2": "10.5/10.5/10.5", "column3": "escargot"}) {
				t.Errorf("record %+v", r)
			}
		}},
		// No header name says puzzle: the column of grids is the puzzle,
		// the column of their solutions the solution.
		{file: "csv/no-puzzle-column.csv", format: "csv", grids: []string{easy}, check: func(t *testing.T, d decoded) {
			if r := d.recs[0]; r.Metadata["id"] != "1" || r.Metadata["level"] != "easy" {
				t.Errorf("record %+v", r)
			}
		}},
		{file: "csv/unsolved-solved.csv", format: "csv", grids: []string{easy, medium}, check: func(t *testing.T, d decoded) {
			if r := d.recs[0]; r.Solution.String() != easySol || r.Metadata["source"] != "paper" || len(r.Metadata) != 1 {
				t.Errorf("record %+v", r)
			}
		}},
		{file: "csv/no-header.csv", format: "csv", grids: []string{easy, medium}, lines: []int{1, 2}, check: func(t *testing.T, d decoded) {
			if r := d.recs[0]; r.Solution.String() != easySol || r.Metadata["column3"] != "easy" || len(d.notes) != 0 {
				t.Errorf("record %+v, notes %q", r, d.notes)
			}
		}},
		{file: "csv/no-grid-column.csv", format: "csv", n: 0,
			errs: []string{"no-grid-column.csv:1: the header has no puzzle column and no column of puzzles (id,board_text,level; want one of"}},
		{file: "csv/no-grid-column.csv", opts: importers.Options{PuzzleColumn: "board"}, format: "csv", n: 0,
			errs: []string{`no-grid-column.csv:1: the header has no column "board" (--puzzle-column): id,board_text,level`}},
		{file: "csv/no-grid-column.csv", opts: importers.Options{PuzzleColumn: "board_text"}, format: "csv", grids: []string{easy},
			errs: []string{"no-grid-column.csv:2: 8 cells, want 16"}},
		{file: "csv/no-puzzle-column.csv", opts: importers.Options{PuzzleColumn: "board_text"}, format: "csv", grids: []string{easy}},
		{file: "json/strings.json", format: "json", grids: []string{easy, medium, seventeen}, lines: []int{2, 3, 4}},
		{file: "json/objects.json", format: "json", grids: []string{easy, medium}, lines: []int{2, 9},
			check: func(t *testing.T, d decoded) {
				a, b := d.recs[0], d.recs[1]
				if a.Label != "easy-1" || a.Solution.String() != easySol || a.Metadata["difficulty"] != "easy" || a.Metadata["rating"] != "1.5" {
					t.Errorf("first %+v", a)
				}
				if b.Metadata["id"] != "7" || b.Metadata["source"] != "paper" || len(b.Ratings) != 1 || b.Ratings[0].Rater != "se-er" {
					t.Errorf("second %+v", b)
				}
			}},
		{file: "json/board.json", format: "json", grids: []string{escargot}},
		{file: "json/board16.json", format: "json", n: 1, check: sameAs("grid/hex16.txt")},
		{file: "json/truncated.json", format: "json", grids: []string{easy}, errs: []string{"truncated.json:1: the JSON ends early (truncated?)"}},
		{file: "opensudoku/v1.opensudoku", format: "opensudoku", grids: []string{easy, medium}, lines: []int{8, 9},
			check: func(t *testing.T, d decoded) {
				r := d.recs[0]
				if r.Collection != "Easy puzzles" || r.Metadata["level"] != "easy" || r.Metadata["author"] != "Jane Doe" {
					t.Errorf("record %+v", r)
				}
			}},
		{file: "opensudoku/v2.opensudoku", format: "opensudoku", grids: []string{escargot, medium},
			check: func(t *testing.T, d decoded) {
				if d.recs[0].Collection != "Hard" || d.recs[1].Collection != "Medium" || d.recs[1].Metadata["time"] != "120" {
					t.Errorf("records %+v", d.recs)
				}
			}},
		{file: "opensudoku/truncated.xml", format: "opensudoku", grids: []string{escargot},
			errs: []string{"truncated.xml:6: the XML ends early (truncated?)"}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.opts.Symbols+tt.opts.PuzzleColumn+fmt.Sprint(tt.opts.RatingColumns), func(t *testing.T) {
			f, d := decodeFile(t, filepath.Join("testdata", tt.file), tt.opts)
			if f.Name != tt.format {
				t.Errorf("detected %s, want %s", f.Name, tt.format)
			}
			var errs []string
			for _, e := range d.errs {
				errs = append(errs, e.Error())
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors %q, want %q", errs, tt.errs)
			}
			for i := range errs {
				if !strings.HasPrefix(errs[i], tt.errs[i]) {
					t.Errorf("error %q, want %q", errs[i], tt.errs[i])
				}
			}
			if tt.grids != nil {
				if got := grids(d.recs); !slices.Equal(got, tt.grids) {
					t.Fatalf("grids\n%q\nwant\n%q", got, tt.grids)
				}
			} else if len(d.recs) != tt.n {
				t.Fatalf("%d puzzles, want %d", len(d.recs), tt.n)
			}
			if tt.lines != nil {
				var lines []int
				for _, r := range d.recs {
					lines = append(lines, r.Line)
				}
				if !slices.Equal(lines, tt.lines) {
					t.Errorf("lines %v, want %v", lines, tt.lines)
				}
			}
			for _, r := range d.recs {
				if err := r.Grid.Validate(); err != nil {
					t.Errorf("line %d: %v", r.Line, err)
				}
			}
			if tt.check != nil {
				tt.check(t, d)
			}
		})
	}
}

// readFirstGrid returns the first puzzle of a fixture, in canonical form.
func readFirstGrid(t *testing.T, file string) string {
	t.Helper()
	_, d := decodeFile(t, filepath.Join("testdata", file), importers.Options{})
	if len(d.recs) == 0 {
		t.Fatalf("%s: no puzzle (%v)", file, d.errs)
	}
	return d.recs[0].Grid.String()
}

// sameAs checks that the first puzzle is the first puzzle of another
// fixture.
func sameAs(file string) func(t *testing.T, d decoded) {
	return func(t *testing.T, d decoded) {
		if want, got := readFirstGrid(t, file), d.recs[0].Grid.String(); got != want {
			t.Errorf("grid\n%s\nwant (as in %s)\n%s", got, file, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := importers.Default()
	names := r.Names()
	if !slices.IsSorted(names) || len(names) != 10 {
		t.Errorf("names %v", names)
	}
	if _, err := r.Lookup("nope"); sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), "csv, grid, hodoku-lib, instance, json") {
		t.Errorf("Lookup(nope) = %v", err)
	}
	if _, err := importers.NewRegistry(*mustLookup(t, r, "csv"), *mustLookup(t, r, "csv")); err == nil {
		t.Error("duplicate format accepted")
	}
	if _, err := r.Detect("x.bin", []byte{0, 1, 2, 3}); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("Detect of binary = %v", err)
	}
	// Detection by content when the extension says nothing.
	for _, tt := range []struct{ file, head, want string }{
		{"puzzles", easy + "\n", "line"},
		{"puzzles.dat", "<?xml version=\"1.0\"?>\n<opensudoku>", "opensudoku"},
		{"puzzles.dat", "[\"" + easy + "\"]", "json"},
		{"puzzles.dat", "quizzes,solutions\n", "csv"},
		{"p.txt", "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n006708200\n002609500\n800203009\n005010300\n", "grid"},
		{"p.txt", "*-----------*\n|38.|...|5.6|\n", "ss"},
	} {
		if f, err := r.Detect(tt.file, []byte(tt.head)); err != nil || f.Name != tt.want {
			t.Errorf("Detect(%s, %.20q) = %v, %v; want %s", tt.file, tt.head, f, err, tt.want)
		}
	}
}

func mustLookup(t *testing.T, r *importers.Registry, name string) *importers.Format {
	f, err := r.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseSymbols(t *testing.T) {
	for _, tt := range []struct {
		spec, name string
		n          int
		err        bool
	}{
		{"0-F", "0-F", 16, false}, {"1-g", "1-G", 16, false}, {"A-P", "A-P", 16, false}, {"A-Y", "A-Y", 25, false},
		{"1-16", "1-16", 16, false}, {"0-24", "0-24", 25, false}, {"1-9", "1-9", 9, false},
		{"1-7", "", 0, true}, {"F-0", "", 0, true}, {"abc", "", 0, true}, {"1-Z", "", 0, true},
	} {
		s, err := importers.ParseSymbols(tt.spec)
		if tt.err {
			if err == nil {
				t.Errorf("ParseSymbols(%q): no error", tt.spec)
			}
			continue
		}
		if err != nil || s.Name != tt.name || s.N != tt.n {
			t.Errorf("ParseSymbols(%q) = %+v, %v", tt.spec, s, err)
		}
	}
}

// TestCellCountMessages gives lines whose cell count makes no grid: the
// error says how many cells were read, what they were, and the sizes near
// them; a square count whose side has no boxes (7x7) says so.
func TestCellCountMessages(t *testing.T) {
	line := mustLookup(t, importers.Default(), "line")
	tests := []struct{ cells, want string }{
		{strings.Repeat("1", 49), `x.txt:1: 49 cells, want 36 (6x6) or 64 (8x8) (a 7x7 grid has no boxes): read "1111111111111111111111111111111111111111..."`},
		{strings.Repeat(".", 80), `x.txt:1: 80 cells, want 81 (9x9): read "..........................................."`},
		{"1.3.5.7.9.1.3.5.7", `x.txt:1: 17 cells, want 16 (4x4): read "1.3.5.7.9.1.3.5.7"`},
		{strings.Repeat("0", 50), `x.txt:1: 50 cells, want 36 (6x6) or 64 (8x8)`},
	}
	for _, tt := range tests {
		d := decodeWith(line, []byte(tt.cells+"\n"), importers.Options{File: "x.txt"})
		if len(d.errs) != 1 || !strings.HasPrefix(d.errs[0].Error(), tt.want) {
			t.Errorf("%d cells: %v, want %q", len(tt.cells), d.errs, tt.want)
		}
	}
}

// TestCSVRatingNotNumber: a rating column's cell that is not a number
// (the forum database's row of x, an n/a) is kept as metadata, and a note
// per column says how many there were and where the first is, instead of
// the rating going missing without a word.
func TestCSVRatingNotNumber(t *testing.T) {
	f, err := importers.Default().Lookup("csv")
	if err != nil {
		t.Fatal(err)
	}
	body := "puzzle,ER,EP,note\n" + easy + ",x,7.1,a\n" + escargot + ",10.5,n/a,b\n" + seventeen + ",?,1.2,c\n"
	d := decodeWith(f, []byte(body), importers.Options{File: "x.csv"})
	if len(d.errs) > 0 || len(d.recs) != 3 {
		t.Fatalf("%d records, errors %v", len(d.recs), d.errs)
	}
	want := []string{
		`column ER (rater se-er): 2 cells not a number (the first "x", line 2) kept as metadata, not as a rating`,
		`column EP (rater se-ep): 1 cell not a number (the first "n/a", line 3) kept as metadata, not as a rating`,
	}
	if !slices.Equal(d.notes, want) {
		t.Errorf("notes %q, want %q", d.notes, want)
	}
	if got := d.recs[0]; got.Metadata["ER"] != "x" || len(got.Ratings) != 1 || got.Ratings[0] != (importers.Rating{Rater: "se-ep", Value: 7.1}) {
		t.Errorf("first row: metadata %q, ratings %v", got.Metadata, got.Ratings)
	}
}
