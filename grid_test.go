package sudokulab_test

import (
	"errors"
	"strings"
	"testing"

	"sudokulab"
)

func TestShapeForN(t *testing.T) {
	tests := []struct {
		n       int
		want    sudokulab.Shape
		wantErr bool
	}{
		{4, sudokulab.Shape{BoxRows: 2, BoxCols: 2}, false},
		{6, sudokulab.Shape{BoxRows: 2, BoxCols: 3}, false},
		{8, sudokulab.Shape{BoxRows: 2, BoxCols: 4}, false},
		{9, sudokulab.Shape{BoxRows: 3, BoxCols: 3}, false},
		{12, sudokulab.Shape{BoxRows: 3, BoxCols: 4}, false},
		{16, sudokulab.Shape{BoxRows: 4, BoxCols: 4}, false},
		{25, sudokulab.Shape{BoxRows: 5, BoxCols: 5}, false},
		{7, sudokulab.Shape{}, true},
		{3, sudokulab.Shape{}, true},
		{36, sudokulab.Shape{}, true},
	}
	for _, tt := range tests {
		got, err := sudokulab.ShapeForN(tt.n)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ShapeForN(%d) = %v, %v; want %v, error %v", tt.n, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestGeometry(t *testing.T) {
	geo := sudokulab.GeometryOf(sudokulab.Shape{BoxRows: 2, BoxCols: 3})
	// Cell r4c5 (index 3*6+4 = 22) lies in the box of rows 3-4, columns 4-6:
	// the fourth box when boxes are numbered row by row.
	if geo.Row[22] != 3 || geo.Col[22] != 4 || geo.Box[22] != 3 {
		t.Errorf("cell 22: row %d col %d box %d, want 3 4 3", geo.Row[22], geo.Col[22], geo.Box[22])
	}
	if got := geo.CellName(22); got != "r4c5" {
		t.Errorf("CellName(22) = %q", got)
	}
	for i, p := range geo.Peers {
		// 5 in the row, 5 in the column, 2 more in the box.
		if len(p) != 12 {
			t.Fatalf("cell %d has %d peers, want 12", i, len(p))
		}
	}
	if got := len(geo.Units); got != 18 {
		t.Errorf("%d units, want 18", got)
	}
	wantBox := []int{15, 16, 17, 21, 22, 23}
	if got := geo.Units[12+3]; !equalInts(got, wantBox) {
		t.Errorf("box 4 cells %v, want %v", got, wantBox)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."

func TestParseRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, want string
		shape          sudokulab.Shape
	}{
		{"9x9 dots", escargot, escargot, sudokulab.Classic},
		{"9x9 zeros", strings.ReplaceAll(escargot, ".", "0"), escargot, sudokulab.Classic},
		{"9x9 mixed blanks", "1-**_7x9X" + escargot[9:], escargot, sudokulab.Classic},
		{"9x9 nine lines", multiline(escargot, 9), escargot, sudokulab.Classic},
		{"9x9 CRLF", strings.ReplaceAll(multiline(escargot, 9), "\n", "\r\n"), escargot, sudokulab.Classic},
		{"4x4", "1..4..1..1..4..1", "1..4..1..1..4..1", sudokulab.Shape{BoxRows: 2, BoxCols: 2}},
		{"6x6", strings.Repeat("123456", 6), strings.Repeat("123456", 6), sudokulab.Shape{BoxRows: 2, BoxCols: 3}},
		{"16x16 lower case", strings.Repeat("123456789abcdefg", 16), strings.Repeat("123456789ABCDEFG", 16), sudokulab.Shape{BoxRows: 4, BoxCols: 4}},
		{"25x25", strings.Repeat("123456789ABCDEFGHIJKLMNOP", 25), strings.Repeat("123456789ABCDEFGHIJKLMNOP", 25), sudokulab.Shape{BoxRows: 5, BoxCols: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := sudokulab.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if g.Shape != tt.shape {
				t.Errorf("shape %v, want %v", g.Shape, tt.shape)
			}
			if got := g.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			h, err := sudokulab.ParseShape(g.String(), g.Shape)
			if err != nil || !h.Equal(g) {
				t.Errorf("ParseShape(String()) = %v, %v; want the same grid", h, err)
			}
		})
	}
}

func multiline(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		b.WriteString(s[i : i+n])
		b.WriteString("\n")
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"80 cells", escargot[:80], "80 cells: not a square grid"},
		{"82 cells", escargot + "1", "82 cells: not a square grid"},
		{"prime side", strings.Repeat(".", 49), "side 7 is prime"},
		{"letter in 9x9", "A" + escargot[1:], `cell 1: symbol 'A' is value 10, above 9`},
		{"punctuation", escargot[:40] + "!" + escargot[41:], `cell 41: '!' is not a symbol (123456789) or blank`},
		{"non-ASCII", "é" + escargot[2:], "non-ASCII byte 0xc3"},
		{"empty", "", "0 cells"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sudokulab.Parse(tt.in)
			var pe *sudokulab.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := sudokulab.ParseShape(escargot, sudokulab.Shape{BoxRows: 2, BoxCols: 2}); err == nil || !strings.Contains(err.Error(), "81 cells, want 16") {
		t.Errorf("ParseShape with the wrong shape: %v", err)
	}
}

func TestPretty(t *testing.T) {
	g := sudokulab.MustParse("1..4..1..1..4..1")
	want := "" +
		"+-----+-----+\n" +
		"| 1 . | . 4 |\n" +
		"| . . | 1 . |\n" +
		"+-----+-----+\n" +
		"| . 1 | . . |\n" +
		"| 4 . | . 1 |\n" +
		"+-----+-----+\n"
	if got := g.Pretty(); got != want {
		t.Errorf("Pretty() =\n%s\nwant\n%s", got, want)
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// round-trips through the canonical form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{escargot, "1..4..1..1..4..1", multiline(escargot, 9), strings.Repeat("123456789abcdefg", 16), "", "12\n34"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := sudokulab.Parse(s)
		if err != nil {
			return
		}
		h, err := sudokulab.ParseShape(g.String(), g.Shape)
		if err != nil {
			t.Fatalf("canonical form %q does not parse: %v", g.String(), err)
		}
		if !h.Equal(g) {
			t.Fatalf("round trip changed the grid: %q -> %q", g, h)
		}
		_ = g.Validate()
		_ = g.Pretty()
	})
}

func TestUnitMasks(t *testing.T) {
	g := sudokulab.MustParse("1..4..1..1..4..1")
	geo := g.Geometry()
	masks := make([]uint32, 12)
	geo.UnitMasks(g.Cells, masks)
	// Row 1 holds 1 and 4; column 1 holds 1 and 4; box 1 (r1-2, c1-2) holds 1.
	if masks[0] != 0b1001 || masks[4] != 0b1001 || masks[8] != 0b0001 {
		t.Errorf("masks %04b", masks)
	}
	// r2c1 (cell 4) sees row 2 {1}, column 1 {1, 4} and box 1 {1}.
	if got := geo.Seen(masks, 4); got != 0b1001 {
		t.Errorf("Seen(r2c1) = %04b, want 1001", got)
	}
	if allocs := testing.AllocsPerRun(10, func() { geo.UnitMasks(g.Cells, masks) }); allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}
