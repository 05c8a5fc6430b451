package importers_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokulab/importers"
)

func TestParseSudokuHeader(t *testing.T) {
	tests := []struct {
		line string
		want importers.SudokuHeader
		err  string
	}{
		{line: "#!sudoku -c1,PuzzleR,Label,Poster,q1,q2,ER,EP,ED,Sx9,Sxt",
			want: importers.SudokuHeader{Column: 1, Sep: ',', Names: []string{"PuzzleR", "Label", "Poster", "q1", "q2", "ER", "EP", "ED", "Sx9", "Sxt"}}},
		// gsf's own example: the puzzle in the fifth column.
		{line: "#!sudoku -c5,sym,num,clues,min,puz,author,seq",
			want: importers.SudokuHeader{Column: 5, Sep: ',', Names: []string{"sym", "num", "clues", "min", "puz", "author", "seq"}}},
		{line: "#!sudoku -c1", want: importers.SudokuHeader{Column: 1}},
		{line: "#!sudoku", want: importers.SudokuHeader{}},
		{line: "#!sudoku -c 2;a;b", want: importers.SudokuHeader{Column: 2, Sep: ';', Names: []string{"a", "b"}}},
		{line: "#!sudoku -c3\t", want: importers.SudokuHeader{Column: 3}},
		{line: `#!sudoku "-c2 num puz ER" -l 'hardest list' -q-YG -f %v`,
			want: importers.SudokuHeader{Column: 2, Names: []string{"num", "puz", "ER"}, Label: "hardest list", Ignored: []string{"-q-YG", "-f %v"}}},
		{line: "#!sudoku -c1|puzzle|rating ", want: importers.SudokuHeader{Column: 1, Sep: '|', Names: []string{"puzzle", "rating"}}},
		{line: "#!sudoku -x", want: importers.SudokuHeader{XML: "question"}},
		{line: "#!sudoku -xpuzzle -c1", want: importers.SudokuHeader{Column: 1, XML: "puzzle"}},
		{line: "#!sudoku -c", err: "want the puzzle's column number"},
		{line: "#!sudoku -cx,a", err: "want the puzzle's column number"},
		{line: "#!sudoku -c99999", err: "out of range"},
		{line: `#!sudoku -c1'"'a`, err: `'"' cannot separate fields`},
		{line: "#!sudoku puzzle,ER", err: `"puzzle,ER" is not an option`},
		{line: "#!sudoku -c1|puzzle| rating", err: `"rating" is not an option`},
		{line: "#!sudoku '-c1,a", err: "the quote ' is not closed"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			h, err := importers.ParseSudokuHeader(tt.line)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Column != tt.want.Column || h.Sep != tt.want.Sep || !slices.Equal(h.Names, tt.want.Names) ||
				h.Label != tt.want.Label || h.XML != tt.want.XML || !slices.Equal(h.Ignored, tt.want.Ignored) {
				t.Errorf("got %+v\nwant %+v", h, tt.want)
			}
		})
	}
}

// FuzzSudokuHeader holds the #!sudoku parser to its bounds, and to reading
// back the -c option it would be written as.
func FuzzSudokuHeader(f *testing.F) {
	for _, s := range []string{"#!sudoku -c1,PuzzleR,Label,Poster,q1,q2,ER,EP,ED,Sx9,Sxt", "-c5,sym,num,clues,min,puz,author,seq",
		`"-c2 a b" -lx -q-YG`, "-c 3;a;;b", "-x", "-c1|a|b -f %v", "'-c1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		h, err := importers.ParseSudokuHeader(line)
		if err != nil {
			return
		}
		if h.Column < 0 || h.Column > 1024 || len(h.Names) > 1024 {
			t.Fatalf("out of bounds: %+v", h)
		}
		if h.Sep == '"' || h.Sep == '\n' || h.Sep == '\r' {
			t.Fatalf("separator %q", h.Sep)
		}
		if h.Column == 0 || h.Sep == 0 || h.Sep == '\'' {
			return
		}
		for _, n := range h.Names {
			if strings.ContainsAny(n, "'\"") || strings.ContainsRune(n, h.Sep) || strings.TrimSpace(n) != n || strings.Contains(n, " ") {
				return
			}
		}
		s := "#!sudoku '-c" + strconv.Itoa(h.Column) + string(h.Sep) + strings.Join(h.Names, string(h.Sep)) + "'"
		back, err := importers.ParseSudokuHeader(s)
		if err != nil {
			t.Fatalf("%q (from %q): %v", s, line, err)
		}
		if back.Column != h.Column || back.Sep != h.Sep || !slices.Equal(back.Names, h.Names) && !(len(h.Names) == 0 && len(back.Names) == 0) {
			t.Fatalf("%q reads back as %+v, want %+v", s, back, h)
		}
	})
}
