package importers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"sudokulab"
)

func csvFormat() Format {
	return Format{
		Name: "csv",
		Description: "CSV or TSV, with a header or without: quizzes,solutions; puzzle,solution; id,puzzle,solution,clues,difficulty; " +
			"other names, the puzzle and solution columns then found by their content or named with --puzzle-column; " +
			"the forum lists' #!sudoku -cN header (the puzzle in column N, then the columns' names; also white-space separated) " +
			"with ER, EP, ED, q1, q2, Sx9, Sxt ratings; extra columns kept as metadata",
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

// seColumns are the Sudoku Explainer rating columns of the forum lists,
// stored as ratings in any CSV.
var seColumns = map[string]string{"er": "se-er", "ep": "se-ep", "ed": "se-ed"}

// forumRatingColumns are the further rating columns of the forum lists
// (#!sudoku files), where these names have this meaning: gsf's q1 and q2
// ratings, and dukuso's suexrat9 and suexratt.
var forumRatingColumns = map[string]string{"q1": "gsf-q1", "q2": "gsf-q2", "sx9": "suexrat9", "sxt": "suexratt"}

// csvLayout is what the header says about the columns.
type csvLayout struct {
	puzzle, solution, label, collection int // -1: none
	tags                                int // -1: none
	raters                              map[int]string
	labels                              map[int]string // rating-label:RATER columns
	names                               []string
}

// headerLine is the header of a CSV file and what else was learnt about
// its columns.
type headerLine struct {
	line   int      // 0 for a file without a header line
	fields []string // the columns' names; nil when the file has none
	forum  *sudokuHeader
	delim  rune // 0: runs of white space
	// puzzleCol and solutionCol are the columns found by their content,
	// counting from 1; 0 means none.
	puzzleCol, solutionCol int
	// firstRow is the line read for the header that is the first row of
	// data, in a file without a header.
	firstRow string
}

// splitFields splits a line into fields: CSV fields with delimiter delim,
// or white-space separated words for delim 0.
func splitFields(s string, delim rune) []string {
	if delim == 0 {
		return strings.Fields(s)
	}
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

// layout finds the columns of a header; ok is false when it has no
// puzzle column.
func layout(h headerLine, o *Options) (csvLayout, bool) {
	l := csvLayout{puzzle: -1, solution: -1, label: -1, collection: -1, tags: -1, raters: map[int]string{}, labels: map[int]string{}, names: h.fields}
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
	case h.forum != nil:
		l.puzzle = max(h.forum.Column-1, 0)
	default:
		l.puzzle = find(puzzleColumns...)
	}
	if l.puzzle < 0 && o.PuzzleColumn == "" {
		l.puzzle = h.puzzleCol - 1
	}
	if o.SolutionColumn != "" {
		l.solution = find(o.SolutionColumn)
	} else if l.solution = find(solutionColumns...); l.solution < 0 {
		l.solution = h.solutionCol - 1
	}
	l.label = find("name", "label")
	l.collection = find("collection")
	l.tags = find("tags")
	for i, f := range low {
		if r, ok := seColumns[f]; ok {
			l.raters[i] = r
		}
		if r, ok := forumRatingColumns[f]; ok && h.forum != nil {
			l.raters[i] = r
		}
		if r, ok := strings.CutPrefix(f, "rating:"); ok && r != "" {
			l.raters[i] = strings.TrimSpace(h.fields[i])[len("rating:"):] // rater names keep their case
		}
		if r, ok := strings.CutPrefix(f, ratingLabelPrefix); ok && r != "" {
			l.labels[i] = strings.TrimSpace(h.fields[i])[len(ratingLabelPrefix):]
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
	for _, i := range []*int{&l.solution, &l.label, &l.collection, &l.tags} {
		if *i == l.puzzle {
			*i = -1
		}
	}
	return l, l.puzzle >= 0
}

// findHeader reads the lines before the header, and the header: a
// #!sudoku line, the first line with a puzzle column, or the first line
// whose column of the lines after it holds grids only (a header line with
// other names, or the first row of a file without a header). It returns
// the header, the notes about the lines before it, and the number of lines
// read.
func findHeader(br *bufio.Reader, o *Options, z *symbolizer) (h headerLine, notes []string, lines int, err error) {
	var (
		first  *headerLine
		widths []int // the field counts of the lines that were not headers
	)
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
			fh, err := parseSudokuHeader(t)
			if err != nil {
				return h, nil, lines, o.fatalf(lines, "%v", err)
			}
			if fh.XML != "" {
				return h, nil, lines, o.fatalf(lines, "#!sudoku -x%s: puzzles tagged as XML are not read; "+
					"give them one per line (see sudokulab formats)", fh.XML)
			}
			h = headerLine{line: lines, fields: fh.Names, forum: &fh, delim: fh.Sep}
			if fh.Label != "" {
				notes = append(notes, fmt.Sprintf("line %d: #!sudoku label %q", lines, clip(fh.Label, 80)))
			}
			for _, opt := range fh.Ignored {
				notes = append(notes, fmt.Sprintf("line %d: #!sudoku option %s is about solving, not reading: ignored", lines, clip(opt, 40)))
			}
			h.solutionCol = contentSolution(h, sampleRows(br, h.delim), o)
			return h, notes, lines, nil
		case t[0] == '#':
			if spec, ok := symbolsComment([]byte(t)); ok {
				z.setSymbols(spec)
			}
			continue
		}
		cand := headerLine{line: lines, fields: splitFields(t, delimiter(t)), delim: delimiter(t)}
		if _, ok := layout(cand, o); ok {
			cand.solutionCol = contentSolution(cand, sampleRows(br, cand.delim), o)
			return cand, notes, lines, nil
		}
		// A column of grids says where the puzzle is, unless an earlier
		// line of as many fields was not a header (then these are rows).
		if o.PuzzleColumn == "" && len(cand.fields) > 1 && !slices.Contains(widths, len(cand.fields)) {
			rows := sampleRows(br, cand.delim)
			if p := contentPuzzle(cand.fields, rows); p >= 0 {
				if _, ok := gridChars(cand.fields[p]); ok {
					// No header: the line is the first row.
					cand.fields, cand.line = nil, 0
					rows = append([][]string{splitFields(t, cand.delim)}, rows...)
					cand.firstRow = t
					cand.puzzleCol = p + 1
					cand.solutionCol = contentSolution(cand, rows, o)
					return cand, notes, lines - 1, nil
				}
				cand.puzzleCol = p + 1
				cand.solutionCol = contentSolution(cand, rows, o)
				return cand, notes, lines, nil
			}
		}
		if first == nil && len(cand.fields) > 1 {
			first = &cand
		}
		widths = append(widths, len(cand.fields))
		notes = append(notes, fmt.Sprintf("line %d: title %q", lines, clip(t, 80)))
		if rerr != nil {
			break
		}
	}
	switch {
	case o.PuzzleColumn != "" && first != nil:
		return h, nil, lines, o.fatalf(first.line, "the header has no column %q (--puzzle-column): %s", o.PuzzleColumn, strings.Join(first.fields, ","))
	case o.PuzzleColumn != "":
		return h, nil, lines, o.fatalf(0, "no header line with a column %q (--puzzle-column)", o.PuzzleColumn)
	case first != nil:
		return h, nil, lines, o.fatalf(first.line, "the header has no puzzle column and no column of puzzles (%s; want one of %s, or name it with --puzzle-column)",
			strings.Join(first.fields, ","), strings.Join(puzzleColumns, ", "))
	}
	return h, nil, lines, o.fatalf(0, "no header line with a puzzle column and no column of puzzles (want one of %s, or name it with --puzzle-column)",
		strings.Join(puzzleColumns, ", "))
}

// sampleRows returns the first rows of data br holds, without consuming
// them: up to 32 rows of the lines buffered, split with delim, skipping
// blank and comment lines and stopping at a #! line.
func sampleRows(br *bufio.Reader, delim rune) [][]string {
	b, err := br.Peek(br.Size())
	if err == nil {
		// The buffer is full: leave out the line it cuts.
		b = b[:bytes.LastIndexAny(b, "\r\n")+1]
	}
	return sampleLines(firstLines(b, 256), delim)
}

// firstLines returns up to n first lines of b.
func firstLines(b []byte, n int) []string {
	var lines []string
	lr := newLineReader(bytes.NewReader(b))
	for len(lines) < n {
		raw, ok := lr.next()
		if !ok {
			break
		}
		lines = append(lines, string(raw))
	}
	return lines
}

// sampleLines returns up to 32 rows of lines, split with delim, skipping
// blank and comment lines and stopping at a #! line.
func sampleLines(lines []string, delim rune) [][]string {
	var rows [][]string
	for _, line := range lines {
		if len(rows) == 32 {
			break
		}
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "#!"):
			return rows
		case t == "" || t[0] == '#':
			continue
		}
		rows = append(rows, splitFields(t, delim))
	}
	return rows
}

// gridChars returns the cells of s, a grid written as one string of
// cell characters (white space ignored), when it is one: a square number
// of cells of a known grid size, in a symbol set of that size.
func gridChars(s string) ([]byte, bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case !isCellChar(c):
			return nil, false
		default:
			b = append(b, c)
		}
	}
	side := isqrt(len(b))
	if len(b) < 16 || side*side != len(b) || !validSide(side) {
		return nil, false
	}
	var buf [sudokulab.MaxN * sudokulab.MaxN]uint8
	for _, c := range candidates(side, false) {
		if c.decode(rawCells{chars: b}, buf[:len(b)]) < 0 {
			return b, true
		}
	}
	return nil, false
}

// contentPuzzle returns the column of rows whose every value is a grid
// (and that has a name in fields, when fields are given), or -1: the
// first such column with a blank cell, else the first such column.
func contentPuzzle(fields []string, rows [][]string) int {
	if len(rows) == 0 {
		return -1
	}
	width := len(rows[0])
	if fields != nil && len(fields) != width {
		return -1 // a title line, not the header of these rows
	}
	found := -1
	for col := range width {
		blanks := false
		grids := allRows(rows, func(row []string) bool {
			b, ok := gridChars(field(row, col))
			blanks = blanks || ok && hasBlank(b)
			return ok
		})
		switch {
		case grids && blanks:
			return col
		case grids && found < 0:
			found = col
		}
	}
	return found
}

// hasBlank reports whether a grid of characters has an empty cell.
func hasBlank(cells []byte) bool {
	var buf [sudokulab.MaxN * sudokulab.MaxN]uint8
	for _, c := range candidates(isqrt(len(cells)), false) {
		if c.decode(rawCells{chars: cells}, buf[:len(cells)]) < 0 {
			return slices.Contains(buf[:len(cells)], 0)
		}
	}
	return false
}

// allRows reports whether ok holds for every row.
func allRows(rows [][]string, ok func(row []string) bool) bool {
	for _, row := range rows {
		if !ok(row) {
			return false
		}
	}
	return true
}

// field returns the trimmed value of column i of a row, or "".
func field(row []string, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return strings.TrimSpace(row[i])
}

// solves reports whether sol is a complete grid that agrees with the
// givens of puzzle, both written in the same characters.
func solves(puzzle, sol string) bool {
	p, ok := gridChars(puzzle)
	if !ok {
		return false
	}
	s, ok := gridChars(sol)
	if !ok || len(s) != len(p) {
		return false
	}
	var pv, sv [sudokulab.MaxN * sudokulab.MaxN]uint8
	for _, c := range candidates(isqrt(len(p)), false) {
		if c.decode(rawCells{chars: p}, pv[:len(p)]) >= 0 || c.decode(rawCells{chars: s}, sv[:len(s)]) >= 0 {
			continue
		}
		agree := true
		for i := range len(p) {
			if sv[i] == 0 || pv[i] != 0 && pv[i] != sv[i] {
				agree = false
				break
			}
		}
		if agree {
			return true
		}
	}
	return false
}

// contentSolution returns the column of rows (other than the puzzle's),
// counting from 1, whose every value is a complete grid agreeing with the
// puzzle's givens, when the header names no solution column and
// --solution-column is not given; else 0.
func contentSolution(h headerLine, rows [][]string, o *Options) int {
	l, ok := layout(h, o)
	if !ok || l.solution >= 0 || o.SolutionColumn != "" || len(rows) == 0 {
		return 0
	}
	for col := range len(rows[0]) {
		if col == l.puzzle {
			continue
		}
		if allRows(rows, func(row []string) bool { return solves(field(row, l.puzzle), field(row, col)) }) {
			return col + 1
		}
	}
	return 0
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
		unrated := map[int]*unratedCells{}
		var src io.Reader = br
		if h.firstRow != "" {
			src = io.MultiReader(strings.NewReader(h.firstRow+"\n"), br)
		}
		for rec, err := range csvRows(src, h.delim, &o, offset) {
			if err != nil {
				z.push(pending{err: err})
				return
			}
			if blankRecord(rec.fields) || strings.HasPrefix(strings.TrimSpace(rec.fields[0]), "#") {
				continue
			}
			if !z.push(csvEntry(&o, l, rec.fields, rec.line, unrated)) {
				return
			}
		}
		for _, col := range slices.Sorted(maps.Keys(unrated)) {
			u, cells := unrated[col], "cells"
			if u.count == 1 {
				cells = "cell"
			}
			if !z.push(pending{rec: Record{Note: fmt.Sprintf("column %s (rater %s): %d %s not a number (the first %q, line %d) kept as metadata, not as a rating",
				l.columnName(col), l.raters[col], u.count, cells, clip(u.first, 20), u.line)}}) {
				return
			}
		}
		z.finish()
	}
}

// csvRow is a row of a CSV file and the line it starts on.
type csvRow struct {
	fields []string
	line   int
}

// csvRows reads the rows of r: CSV records with delimiter delim, or lines
// of white-space separated fields for delim 0. Lines are counted from
// offset+1. A row's fields are valid until the next row.
func csvRows(r io.Reader, delim rune, o *Options, offset int) iter.Seq2[csvRow, error] {
	return func(yield func(csvRow, error) bool) {
		if delim == 0 {
			lr := newLineReader(r)
			for {
				raw, ok := lr.next()
				if !ok {
					break
				}
				if !yield(csvRow{fields: strings.Fields(string(raw)), line: offset + lr.line}, nil) {
					return
				}
			}
			if err := lr.err(o); err != nil {
				yield(csvRow{}, o.fatalf(offset+lr.line+1, "%v", err.(*DecodeError).Reason))
			}
			return
		}
		cr := csv.NewReader(r)
		cr.Comma = delim
		cr.FieldsPerRecord = -1
		cr.LazyQuotes = true
		cr.ReuseRecord = true
		cr.TrimLeadingSpace = true
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *csv.ParseError
				line := offset
				if errors.As(err, &pe) {
					line += pe.Line
				}
				yield(csvRow{}, o.fatalf(line, "%v", err))
				return
			}
			line, _ := cr.FieldPos(0)
			if !yield(csvRow{fields: rec, line: offset + line}, nil) {
				return
			}
		}
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

// columnName returns the name of column i (counting from 0): its name in
// the header, or columnN (counting from 1).
func (l csvLayout) columnName(i int) string {
	if i < len(l.names) && strings.TrimSpace(l.names[i]) != "" {
		return strings.TrimSpace(l.names[i])
	}
	return fmt.Sprintf("column%d", i+1)
}

// unratedCells counts the cells of a rating column that are not numbers
// (an x, a word), which are kept as metadata and said in a note.
type unratedCells struct {
	count, line int
	first       string
}

// csvEntry makes the entry of one CSV record, counting in unrated the
// cells of rating columns that are not numbers.
func csvEntry(o *Options, l csvLayout, rec []string, line int, unrated map[int]*unratedCells) pending {
	p := pending{rec: Record{Line: line}}
	puzzle := field(rec, l.puzzle)
	if puzzle == "" {
		p.err = o.errorf(line, "no puzzle in column %s", l.columnName(l.puzzle))
		return p
	}
	cells, err := gridText(o, line, puzzle)
	if err != nil {
		p.err = err
		return p
	}
	p.cells = cells
	if s := field(rec, l.solution); s != "" {
		if p.sol, err = gridText(o, line, s); err != nil {
			p.err = err
			return p
		}
		p.hasSol = true
	}
	p.rec.Label = field(rec, l.label)
	p.rec.Collection = field(rec, l.collection)
	for i, v := range rec {
		v = strings.TrimSpace(v)
		if i == l.puzzle || i == l.solution || i == l.label || i == l.collection || v == "" {
			continue
		}
		if i == l.tags {
			if tags, ok := tagList([]byte(v)); ok {
				p.rec.Tags = tags
				continue
			}
		}
		if rater, ok := l.labels[i]; ok {
			p.rec.setRatingLabel(rater, v)
			continue
		}
		if rater, ok := l.raters[i]; ok {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				p.rec.Ratings = append(p.rec.Ratings, Rating{Rater: rater, Value: x})
				continue
			}
			if unrated[i] == nil {
				unrated[i] = &unratedCells{line: line, first: v}
			}
			unrated[i].count++
		}
		p.rec.setMeta(l.columnName(i), v)
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
	if why := badCells(len(b), string(b)); why != "" {
		return rawCells{}, o.errorf(line, "%s", why)
	}
	return rawCells{chars: b}, nil
}

func sniffCSV(head []byte) int {
	lines := firstLines(head, 100)
	o := Options{}
	for i, raw := range lines[:min(len(lines), 50)] {
		t := strings.TrimSpace(raw)
		if strings.HasPrefix(t, "#!sudoku") {
			return 5 // the forum lists' own marker, whatever the extension
		}
		if t == "" || t[0] == '#' || !strings.ContainsAny(t, ",;\t") {
			continue
		}
		h := headerLine{fields: splitFields(t, delimiter(t)), delim: delimiter(t)}
		if _, ok := layout(h, &o); ok {
			return 4
		}
		rows := sampleLines(lines[i+1:], h.delim)
		if contentPuzzle(h.fields, rows) >= 0 || contentPuzzle(nil, append([][]string{h.fields}, rows...)) >= 0 {
			return 4
		}
	}
	return 0
}

// csvMetaColumn reports whether a column named name after the columns of
// header is read as metadata, header's first four columns keeping their
// puzzle, solution, label and collection.
func csvMetaColumn(header []string, name string) bool {
	l, _ := layout(headerLine{line: 1, fields: append(slices.Clone(header), name)}, &Options{})
	return l.puzzle == 0 && l.solution == 1 && l.label == 2 && l.collection == 3
}

// ratingLabelPrefix starts the name of a CSV column of rating labels: the
// labels of the rater it names, whose numbers are in rating:RATER.
const ratingLabelPrefix = "rating-label:"

// setRatingLabel gives the record's rating by rater the label, adding a
// rating without a number when the record has none by rater.
func (r *Record) setRatingLabel(rater, label string) {
	for i := range r.Ratings {
		if r.Ratings[i].Rater == rater {
			r.Ratings[i].Label = label
			return
		}
	}
	r.Ratings = append(r.Ratings, Rating{Rater: rater, Value: math.NaN(), Label: label})
}

// encodeCSV writes a header and one row per puzzle: puzzle, solution,
// label, collection, a rating:RATER column per rater (empty where a
// rating has no number) and a rating-label:RATER column per rater with
// labels, a tags column (a JSON array of strings) when a puzzle has tags,
// and a column per metadata field.
func encodeCSV(w io.Writer, recs []Record) error {
	raters, labelled, keys := map[string]bool{}, map[string]bool{}, map[string]bool{}
	tagged := false
	for _, r := range recs {
		tagged = tagged || len(r.Tags) > 0
		for _, x := range r.Ratings {
			raters[x.Rater] = true
			labelled[x.Rater] = labelled[x.Rater] || x.Label != ""
		}
		for k := range r.Metadata {
			keys[k] = true
		}
	}
	rs := sortedKeys(raters)
	header := []string{"puzzle", "solution", "label", "collection"}
	for _, r := range rs {
		header = append(header, "rating:"+r)
	}
	labelCol := map[string]int{}
	for _, r := range rs {
		if labelled[r] {
			labelCol[r] = len(header)
			header = append(header, ratingLabelPrefix+r)
		}
	}
	tags := -1
	if tagged {
		tags = len(header)
		header = append(header, "tags")
	}
	// A metadata field named as a rating or the tags column shares it (its
	// value goes in the rows without that rating or tags); another gets a column of its own
	// where that reads back as metadata, not as the puzzle, solution,
	// label or collection.
	column := map[string]int{}
	for _, k := range sortedKeys(keys) {
		if i := slices.Index(header, k); i >= 4 {
			column[k] = i
		} else if i < 0 && csvMetaColumn(header, k) {
			column[k] = len(header)
			header = append(header, k)
		}
	}
	if _, err := io.WriteString(w, symbolsHeader(recs)); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
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
		for k, v := range r.Metadata {
			if i, ok := column[k]; ok {
				row[i] = v
			}
		}
		for _, x := range r.Ratings {
			if x.HasValue() {
				row[4+slices.Index(rs, x.Rater)] = strconv.FormatFloat(x.Value, 'g', -1, 64)
			}
			if x.Label != "" {
				row[labelCol[x.Rater]] = x.Label
			}
		}
		if tags >= 0 && len(r.Tags) > 0 {
			row[tags] = tagText(r.Tags)
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
