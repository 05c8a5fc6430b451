package importers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
)

func csvFormat() Format {
	return Format{
		Name: "csv",
		Description: "CSV or TSV with a header: quizzes,solutions; puzzle,solution; id,puzzle,solution,clues,difficulty; " +
			"the forum lists' #!sudoku header with ER, EP, ED ratings; other headers with --puzzle-column; extra columns kept as metadata",
		Extensions: []string{".csv", ".tsv"},
		Sniff:      sniffCSV,
		Decode:     decodeCSV,
		Encode:     encodeCSV,
	}
}

// puzzleColumns and solutionColumns are the header names (lower case)
// the CSV and JSON decoders take for the puzzle and its solution.
var (
	puzzleColumns   = []string{"puzzle", "puzzles", "quizzes", "quiz", "grid", "board", "sudoku", "givens_grid"}
	solutionColumns = []string{"solution", "solutions"}
)

// seColumns are the Sudoku Explainer rating columns of the forum lists.
var seColumns = map[string]string{"er": "se-er", "ep": "se-ep", "ed": "se-ed"}

// csvLayout is what the header says about the columns.
type csvLayout struct {
	puzzle, solution, label, collection int // -1: none
	raters                              map[int]string
	names                               []string
}

// headerLine is a candidate header: its line and fields.
type headerLine struct {
	line   int
	fields []string
	forum  bool // a #!sudoku header: the first column is the puzzle
	delim  rune
}

// splitHeader splits a header line on its delimiter.
func splitHeader(s string, delim rune) []string {
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = delim
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	f, err := r.Read()
	if err != nil {
		return strings.Split(s, string(delim))
	}
	return f
}

// delimiter guesses the field delimiter of a header line.
func delimiter(s string) rune {
	best, n := ',', 0
	for _, c := range []rune{',', ';', '\t'} {
		if k := strings.Count(s, string(c)); k > n {
			best, n = c, k
		}
	}
	return best
}

// layout finds the columns in a header; ok is false when it has no
// puzzle column.
func layout(h headerLine, o *Options) (csvLayout, bool) {
	l := csvLayout{puzzle: -1, solution: -1, label: -1, collection: -1, raters: map[int]string{}, names: h.fields}
	low := make([]string, len(h.fields))
	for i, f := range h.fields {
		low[i] = strings.ToLower(strings.TrimSpace(f))
	}
	find := func(names ...string) int {
		for _, n := range names {
			if i := slices.Index(low, strings.ToLower(n)); i >= 0 {
				return i
			}
		}
		return -1
	}
	switch {
	case o.PuzzleColumn != "":
		l.puzzle = find(o.PuzzleColumn)
	case h.forum:
		l.puzzle = 0
	default:
		l.puzzle = find(puzzleColumns...)
	}
	if o.SolutionColumn != "" {
		l.solution = find(o.SolutionColumn)
	} else {
		l.solution = find(solutionColumns...)
	}
	l.label = find("name", "label")
	l.collection = find("collection")
	for i, f := range low {
		if r, ok := seColumns[f]; ok {
			l.raters[i] = r
		}
		if r, ok := strings.CutPrefix(f, "rating:"); ok && r != "" {
			l.raters[i] = r
		}
	}
	if strings.Join(low, ",") == "id,puzzle,solution,clues,difficulty" {
		l.raters[4] = "kaggle-difficulty"
	}
	for col, rater := range o.RatingColumns {
		if i := find(col); i >= 0 {
			l.raters[i] = rater
		}
	}
	return l, l.puzzle >= 0
}

// findHeader reads the lines before the header, and the header: a
// #!sudoku line, or the first line with a puzzle column. It returns the
// header, the notes about the lines before it, and the number of lines
// read.
func findHeader(br *bufio.Reader, o *Options, z *symbolizer) (h headerLine, notes []string, lines int, err error) {
	var first *headerLine
	for lines < 50 {
		s, rerr := br.ReadString('\n')
		if s == "" && rerr != nil {
			break
		}
		lines++
		s = strings.TrimRight(s, "\r\n")
		t := strings.TrimSpace(s)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "#!sudoku"):
			rest := strings.TrimSpace(strings.TrimPrefix(t, "#!sudoku"))
			return headerLine{line: lines, fields: splitHeader(rest, delimiter(rest)), forum: true, delim: delimiter(rest)}, notes, lines, nil
		case t[0] == '#':
			if spec, ok := symbolsComment([]byte(t)); ok {
				z.setSymbols(spec)
			}
			continue
		}
		cand := headerLine{line: lines, fields: splitHeader(t, delimiter(t)), delim: delimiter(t)}
		if _, ok := layout(cand, o); ok {
			return cand, notes, lines, nil
		}
		if first == nil && len(cand.fields) > 1 {
			first = &cand
		}
		notes = append(notes, fmt.Sprintf("line %d: title %q", lines, clip(t, 80)))
		if rerr != nil {
			break
		}
	}
	want := "one of " + strings.Join(puzzleColumns, ", ")
	if o.PuzzleColumn != "" {
		want = strconv.Quote(o.PuzzleColumn)
	}
	if first != nil {
		return h, nil, lines, o.fatalf(first.line, "the header has no puzzle column (%s; want %s, or name it with --puzzle-column)",
			strings.Join(first.fields, ","), want)
	}
	return h, nil, lines, o.fatalf(0, "no header line with a puzzle column (want %s, or name it with --puzzle-column)", want)
}

func decodeCSV(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		z, err := newSymbolizer(&o, yield)
		if err != nil {
			yield(Record{}, err)
			return
		}
		br := bufio.NewReaderSize(textReader(r), 64<<10)
		h, notes, offset, err := findHeader(br, &o, z)
		if err != nil {
			z.push(pending{err: err})
			return
		}
		for _, n := range notes {
			if !z.push(pending{rec: Record{Note: n}}) {
				return
			}
		}
		l, _ := layout(h, &o)
		cr := csv.NewReader(br)
		cr.Comma = h.delim
		cr.FieldsPerRecord = -1
		cr.LazyQuotes = true
		cr.ReuseRecord = true
		cr.TrimLeadingSpace = true
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				var pe *csv.ParseError
				line := offset
				if errors.As(err, &pe) {
					line += pe.Line
				}
				z.push(pending{err: o.fatalf(line, "%v", err)})
				return
			}
			line, _ := cr.FieldPos(0)
			line += offset
			if blankRecord(rec) || strings.HasPrefix(strings.TrimSpace(rec[0]), "#") {
				continue
			}
			if !z.push(csvEntry(&o, l, rec, line)) {
				return
			}
		}
		z.finish()
	}
}

func blankRecord(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// csvEntry makes the entry of one CSV record.
func csvEntry(o *Options, l csvLayout, rec []string, line int) pending {
	p := pending{rec: Record{Line: line}}
	field := func(i int) string {
		if i < 0 || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	puzzle := field(l.puzzle)
	if puzzle == "" {
		p.err = o.errorf(line, "no puzzle in column %s", l.names[l.puzzle])
		return p
	}
	cells, err := gridText(o, line, puzzle)
	if err != nil {
		p.err = err
		return p
	}
	p.cells = cells
	if s := field(l.solution); s != "" {
		if p.sol, err = gridText(o, line, s); err != nil {
			p.err = err
			return p
		}
		p.hasSol = true
	}
	p.rec.Label = field(l.label)
	p.rec.Collection = field(l.collection)
	for i, v := range rec {
		v = strings.TrimSpace(v)
		if i == l.puzzle || i == l.solution || i == l.label || i == l.collection || v == "" {
			continue
		}
		if rater, ok := l.raters[i]; ok {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				p.rec.Ratings = append(p.rec.Ratings, Rating{Rater: rater, Value: x})
				continue
			}
		}
		name := fmt.Sprintf("column%d", i+1)
		if i < len(l.names) && strings.TrimSpace(l.names[i]) != "" {
			name = strings.TrimSpace(l.names[i])
		}
		p.rec.setMeta(name, v)
	}
	return p
}

// gridText reads a grid written as one string of cell characters (white
// space ignored).
func gridText(o *Options, line int, s string) (rawCells, error) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\r', '\n':
		default:
			if !isCellChar(c) {
				return rawCells{}, o.errorf(line, "%q is not a grid: %q is not a cell", clip(s, 30), c)
			}
			b = append(b, c)
		}
	}
	side := isqrt(len(b))
	if side*side != len(b) || !validSide(side) {
		return rawCells{}, o.errorf(line, "%d cells, want %d", len(b), nearestCells(len(b)))
	}
	return rawCells{chars: b}, nil
}

func sniffCSV(head []byte) int {
	lr := newLineReader(bytes.NewReader(head))
	o := Options{}
	for range 50 {
		raw, ok := lr.next()
		if !ok {
			return 0
		}
		t := strings.TrimSpace(string(raw))
		if strings.HasPrefix(t, "#!sudoku") {
			return 4
		}
		if t == "" || t[0] == '#' {
			continue
		}
		if _, ok := layout(headerLine{fields: splitHeader(t, delimiter(t))}, &o); ok && strings.ContainsAny(t, ",;\t") {
			return 4
		}
	}
	return 0
}

// encodeCSV writes a header and one row per puzzle: puzzle, solution,
// label, collection, a rating:RATER column per rater and a column per
// metadata field.
func encodeCSV(w io.Writer, recs []Record) error {
	raters, keys := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		for _, x := range r.Ratings {
			raters[x.Rater] = true
		}
		for k := range r.Metadata {
			keys[k] = true
		}
	}
	rs, ks := sortedKeys(raters), sortedKeys(keys)
	fixed := []string{"puzzle", "solution", "label", "collection"}
	ks = slices.DeleteFunc(ks, func(k string) bool {
		return slices.Contains(fixed, strings.ToLower(k)) || strings.HasPrefix(strings.ToLower(k), "rating:") ||
			slices.Contains(puzzleColumns, strings.ToLower(k))
	})
	if _, err := io.WriteString(w, symbolsHeader(recs)); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	header := slices.Clone(fixed)
	for _, r := range rs {
		header = append(header, "rating:"+r)
	}
	header = append(header, ks...)
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	for _, r := range recs {
		clear(row)
		row[0] = r.Grid.String()
		if r.Solution.Cells != nil {
			row[1] = r.Solution.String()
		}
		row[2], row[3] = r.Label, r.Collection
		for _, x := range r.Ratings {
			row[4+slices.Index(rs, x.Rater)] = strconv.FormatFloat(x.Value, 'g', -1, 64)
		}
		for i, k := range ks {
			row[4+len(rs)+i] = r.Metadata[k]
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
