package importers

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"sudokulab"
)

// The HoDoKu library format is the one-line form HoDoKu (Bernhard
// Hobiger's Sudoku solver, hodoku.sourceforge.net, GPL-3.0) uses for its
// regression test libraries reglib-1.3.txt and reglib-1.4.txt, writes to
// the clipboard as "library format", and reads wherever it reads a puzzle.
// A line is
//
//	:<technique>:<candidates>:<givens>:<deleted candidates>:<eliminations>:<placements>:<extra>
//
// as documented in the header of reglib-1.3.txt and read by HoDoKu 2.2's
// Sudoku2.setSudoku (src/sudoku/Sudoku2.java: a one-line string with 6 or
// 7 colons is a library line; split at the colons, part 3 is the grid,
// part 4 the deleted candidates) and RegressionTester.test
// (src/sudoku/RegressionTester.java: part 1 is the technique with an
// optional variant). A line with 6 colons lacks the extra field. Its
// fields:
//
//   - technique: the library code of a solving technique (SolutionType.java,
//     such as 0604 for Uniqueness Test 5), optionally followed by a variant,
//     "-1", "-2" ..., or "-x" for a fail case (the technique must not be
//     found). A fish code followed by 1 (03111) is the siamese form of the
//     fish (SolutionType.getTypeFromLibraryType). HoDoKu writes 0000 with
//     candidates x for a position without a step (Sudoku2.getSudoku).
//   - candidates: the digits the technique is about (the digit placed by a
//     single, the digits eliminated by a chain, the digits used otherwise).
//   - givens: 81 cells, a digit 1-9 or '.' or '0' for an empty cell; a '+'
//     before a digit marks a digit placed while solving, not a given.
//   - deleted candidates: candidates removed from the position after the
//     digits are placed, each written <digit><row><column> (132 is
//     r3c2<>1), separated by blanks; with the grid it makes the pencil
//     marks of the position.
//   - eliminations and placements: what the technique eliminates or
//     places in that position, in the same notation.
//   - extra: more about the step; for chains and loops, their length in
//     inferences.
//
// The puzzle imported is the givens; everything else is kept as the
// record's metadata (see libraryLine).

// Metadata keys of a HoDoKu library line.
const (
	hodokuTechnique     = "technique"
	hodokuTechniqueName = "technique_name"
	hodokuCandidates    = "candidates"
	hodokuPlaced        = "placed"
	hodokuDeleted       = "deleted_candidates"
	hodokuEliminations  = "eliminations"
	hodokuPlacements    = "placements"
	hodokuExtra         = "extra"
)

// hodokuTechniques maps HoDoKu's library codes to its English names of the
// techniques, from the SolutionType enum (src/sudoku/SolutionType.java) and
// its names in src/intl/SolutionType.properties of HoDoKu 2.2.
var hodokuTechniques = map[string]string{
	"0000": "Full House",
	"0002": "Hidden Single",
	"0003": "Naked Single",
	"0100": "Locked Candidates Type 1 (Pointing)",
	"0101": "Locked Candidates Type 2 (Claiming)",
	"0110": "Locked Pair",
	"0111": "Locked Triple",
	"0200": "Naked Pair",
	"0201": "Naked Triple",
	"0202": "Naked Quadruple",
	"0210": "Hidden Pair",
	"0211": "Hidden Triple",
	"0212": "Hidden Quadruple",
	"0300": "X-Wing",
	"0301": "Swordfish",
	"0302": "Jellyfish",
	"0303": "Squirmbag",
	"0304": "Whale",
	"0305": "Leviathan",
	"0310": "Finned X-Wing",
	"0311": "Finned Swordfish",
	"0312": "Finned Jellyfish",
	"0313": "Finned Squirmbag",
	"0314": "Finned Whale",
	"0315": "Finned Leviathan",
	"0320": "Sashimi X-Wing",
	"0321": "Sashimi Swordfish",
	"0322": "Sashimi Jellyfish",
	"0323": "Sashimi Squirmbag",
	"0324": "Sashimi Whale",
	"0325": "Sashimi Leviathan",
	"0330": "Franken X-Wing",
	"0331": "Franken Swordfish",
	"0332": "Franken Jellyfish",
	"0333": "Franken Squirmbag",
	"0334": "Franken Whale",
	"0335": "Franken Leviathan",
	"0340": "Finned Franken X-Wing",
	"0341": "Finned Franken Swordfish",
	"0342": "Finned Franken Jellyfish",
	"0343": "Finned Franken Squirmbag",
	"0344": "Finned Franken Whale",
	"0345": "Finned Franken Leviathan",
	"0350": "Mutant X-Wing",
	"0351": "Mutant Swordfish",
	"0352": "Mutant Jellyfish",
	"0353": "Mutant Squirmbag",
	"0354": "Mutant Whale",
	"0355": "Mutant Leviathan",
	"0360": "Finned Mutant X-Wing",
	"0361": "Finned Mutant Swordfish",
	"0362": "Finned Mutant Jellyfish",
	"0363": "Finned Mutant Squirmbag",
	"0364": "Finned Mutant Whale",
	"0365": "Finned Mutant Leviathan",
	"0371": "Kraken Fish Type 1",
	"0372": "Kraken Fish Type 2",
	"0400": "Skyscraper",
	"0401": "2-String Kite",
	"0402": "Empty Rectangle",
	"0403": "Turbot Fish",
	"0404": "Dual 2-String Kite",
	"0405": "Dual Empty Rectangle",
	"0500": "Simple Colors Trap",
	"0501": "Simple Colors Wrap",
	"0502": "Multi Colors 1",
	"0503": "Multi Colors 2",
	"0600": "Uniqueness Test 1",
	"0601": "Uniqueness Test 2",
	"0602": "Uniqueness Test 3",
	"0603": "Uniqueness Test 4",
	"0604": "Uniqueness Test 5",
	"0605": "Uniqueness Test 6",
	"0606": "Hidden Rectangle",
	"0607": "Avoidable Rectangle Type 1",
	"0608": "Avoidable Rectangle Type 2",
	"0610": "Bivalue Universal Grave + 1",
	"0701": "X-Chain",
	"0702": "XY-Chain",
	"0703": "Remote Pair",
	"0706": "Continuous Nice Loop",
	"0707": "Discontinuous Nice Loop",
	"0708": "AIC",
	"0709": "Grouped Continuous Nice Loop",
	"0710": "Grouped Discontinuous Nice Loop",
	"0711": "Grouped AIC",
	"0800": "XY-Wing",
	"0801": "XYZ-Wing",
	"0803": "W-Wing",
	"0901": "Almost Locked Set XZ-Rule",
	"0902": "Almost Locked Set XY-Wing",
	"0903": "Almost Locked Set Chain",
	"0904": "Death Blossom",
	"1101": "Sue de Coq",
	"1201": "Template Set",
	"1202": "Template Delete",
	"1301": "Forcing Chain Contradiction",
	"1302": "Forcing Chain Verity",
	"1303": "Forcing Net Contradiction",
	"1304": "Forcing Net Verity",
}

func hodokuFormat() Format {
	return Format{
		Name: "hodoku-lib",
		Description: "HoDoKu's library format (reglib-1.4.txt): :technique:candidates:givens:deleted:eliminations:placements:extra " +
			"per line, '+' before a placed digit; the givens are the puzzle, the rest is kept as metadata",
		// HoDoKu's files are .txt, which the line format claims: when
		// nothing in a .txt file fits, the line decoder says why.
		// Library files are told by their content.
		Extensions: nil,
		Sniff:      sniffHodoku,
		Decode:     decodeHodoku,
		Encode:     encodeHodoku,
	}
}

// HodokuTechniqueName returns HoDoKu's English name of the technique a
// library line's technique field names (such as "0604-1" or "03111"), and
// false for a code HoDoKu does not define. A variant suffix is ignored; a
// fish code followed by 1 is the siamese form of the fish.
func HodokuTechniqueName(technique string) (string, bool) {
	code, _, _ := strings.Cut(technique, "-")
	if name, ok := hodokuTechniques[code]; ok {
		return name, true
	}
	if base, ok := strings.CutSuffix(code, "1"); ok && strings.HasPrefix(base, "03") {
		if name, ok := hodokuTechniques[base]; ok {
			return "Siamese " + name, true
		}
	}
	return "", false
}

// isLibraryLine reports whether a trimmed, non-comment line is meant as a
// HoDoKu library line: it starts with a colon, which no other one-line
// puzzle notation does.
func isLibraryLine(s []byte) bool { return len(s) > 0 && s[0] == ':' }

// looksLibraryLine reports whether a line of a file of puzzle lines is a
// HoDoKu library line: it starts with a colon and has 6 or 7 of them, the
// test of Sudoku2.setSudoku.
func looksLibraryLine(s []byte) bool {
	n := bytes.Count(s, []byte(":"))
	return isLibraryLine(s) && (n == 6 || n == 7)
}

// libraryLine reads a HoDoKu library line (trimmed). It returns the givens
// as 81 cell characters ('.' for empty), the metadata, and the reason the
// line cannot be read, or "".
func libraryLine(s []byte) (cells []byte, meta map[string]string, reason string) {
	fields := strings.Split(string(s), ":")
	// Sudoku2.setSudoku: 6 or 7 colons; with 6 the extra field is missing.
	if n := len(fields) - 1; n != 6 && n != 7 {
		return nil, nil, fmt.Sprintf("a HoDoKu library line has 6 or 7 fields, each after a colon "+
			"(:technique:candidates:givens:deleted:eliminations:placements:extra), this has %d", n)
	}
	if fields[0] != "" {
		return nil, nil, "a HoDoKu library line starts with ':'"
	}
	technique, cands, givens := fields[1], fields[2], fields[3]
	if r := checkTechnique(technique); r != "" {
		return nil, nil, r
	}
	if r := checkCandidateDigits(cands); r != "" {
		return nil, nil, r
	}
	cells, placed, r := libraryGrid(givens)
	if r != "" {
		return nil, nil, r
	}
	meta = map[string]string{}
	if technique != "0000" || cands != "x" {
		meta[hodokuTechnique] = technique
		if name, ok := HodokuTechniqueName(technique); ok {
			meta[hodokuTechniqueName] = name
		}
		if cands != "" {
			meta[hodokuCandidates] = cands
		}
	}
	if placed != nil {
		meta[hodokuPlaced] = string(placed)
	}
	for i, key := range []string{hodokuDeleted, hodokuEliminations, hodokuPlacements} {
		list, r := candidateList(key, fields[4+i])
		if r != "" {
			return nil, nil, r
		}
		if list != "" {
			meta[key] = list
		}
	}
	if len(fields) == 8 && strings.TrimSpace(fields[7]) != "" {
		meta[hodokuExtra] = strings.TrimSpace(fields[7])
	}
	return cells, meta, ""
}

// checkTechnique checks a technique field: a code of letters and digits,
// optionally with a variant -N or -x.
func checkTechnique(t string) string {
	code, variant, dash := strings.Cut(t, "-")
	if code == "" || !isAlnum(code) {
		return fmt.Sprintf("technique %q: want a library code such as 0604, optionally with a variant (0604-1, 0604-x)", clip(t, 20))
	}
	if dash && variant != "x" && !isDigits([]byte(variant)) {
		return fmt.Sprintf("technique %q: the variant after '-' is a number or x", clip(t, 20))
	}
	return ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// checkCandidateDigits checks the candidates field: digits 1-9, or x.
func checkCandidateDigits(s string) string {
	if s == "x" {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '1' || s[i] > '9' {
			return fmt.Sprintf("candidates %q: want digits 1-9", clip(s, 20))
		}
	}
	return ""
}

// libraryGrid reads the givens field: the givens as 81 cell characters
// ('.' for empty), and the placed digits ('+' before them) as 81
// characters, or nil when there are none.
func libraryGrid(s string) (cells, placed []byte, reason string) {
	cells = make([]byte, 0, 81)
	var plus []int
	for i := 0; i < len(s); i++ {
		c := s[i]
		n := len(cells) + 1
		switch {
		case c == '+':
			if i+1 >= len(s) || s[i+1] < '1' || s[i+1] > '9' {
				return nil, nil, fmt.Sprintf("givens: cell %d: '+' must come before a digit 1-9", n)
			}
			plus = append(plus, len(cells))
			cells = append(cells, s[i+1])
			i++
		case c >= '1' && c <= '9':
			cells = append(cells, c)
		case c == '.' || c == '0':
			cells = append(cells, '.')
		default:
			return nil, nil, fmt.Sprintf("givens: cell %d: %s is not a digit, '.' or '+'", n, strconv.QuoteRune(rune(c)))
		}
	}
	if len(cells) != 81 {
		return nil, nil, fmt.Sprintf("givens: %d cells, want 81", len(cells))
	}
	if len(plus) > 0 {
		placed = bytes.Repeat([]byte{'.'}, 81)
		for _, i := range plus {
			placed[i], cells[i] = cells[i], '.'
		}
	}
	return cells, placed, ""
}

// candidateList checks a list of candidates <digit><row><column>
// separated by blanks and returns it with single blanks.
func candidateList(key, s string) (string, string) {
	f := strings.Fields(s)
	for _, c := range f {
		if len(c) != 3 || !inDigits(c, '1', '9') {
			return "", fmt.Sprintf("%s: %q is not a candidate <digit><row><column> such as 132 (r3c2<>1)",
				strings.ReplaceAll(key, "_", " "), clip(c, 12))
		}
	}
	return strings.Join(f, " "), ""
}

func inDigits(s string, lo, hi byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < lo || s[i] > hi {
			return false
		}
	}
	return true
}

// decodeHodoku reads a file of HoDoKu library lines; # comments and blank
// lines are skipped (as RegressionTester does). Other lines are errors:
// files mixing puzzle lines and library lines are read by the line format.
func decodeHodoku(r io.Reader, o Options) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		lr := newLineReader(textReader(r))
		for {
			raw, ok := lr.next()
			if !ok {
				break
			}
			s := bytes.TrimSpace(raw)
			if len(s) == 0 || s[0] == '#' {
				continue
			}
			var (
				rec Record
				err error
			)
			switch {
			case !isLibraryLine(s):
				err = o.errorf(lr.line, "not a HoDoKu library line (:technique:candidates:givens:...): %q; "+
					"--format line reads files mixing puzzle lines and library lines", clip(string(s), 40))
			default:
				rec, err = libraryRecord(s, lr.line, &o)
			}
			if !yield(rec, err) {
				return
			}
		}
		if err := lr.err(&o); err != nil {
			yield(Record{}, err)
		}
	}
}

// libraryRecord makes the record of a library line.
func libraryRecord(s []byte, line int, o *Options) (Record, error) {
	cells, meta, reason := libraryLine(s)
	if reason != "" {
		return Record{}, o.errorf(line, "%s", reason)
	}
	g, err := sudokulab.Parse(string(cells))
	if err != nil {
		return Record{}, o.errorf(line, "givens: %v", err)
	}
	return Record{Line: line, Grid: g, Metadata: meta}, nil
}

// sniffHodoku looks at the first entries of a file: 3 when they are all
// library lines, 1 when some are (a mixed file, which the line format
// reads), 0 when none is. A last line cut short by the end of head is not
// looked at.
func sniffHodoku(head []byte) int {
	lines := bytes.FieldsFunc(head, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) > 1 && !bytes.HasSuffix(head, []byte("\n")) && !bytes.HasSuffix(head, []byte("\r")) {
		lines = lines[:len(lines)-1]
	}
	lib, other := 0, 0
	for _, l := range lines {
		s := bytes.TrimSpace(l)
		if len(s) == 0 || s[0] == '#' {
			continue
		}
		if _, _, reason := libraryLine(s); isLibraryLine(s) && reason == "" {
			lib++
		} else {
			other++
		}
		if lib+other == 40 {
			break
		}
	}
	switch {
	case lib > 0 && other == 0:
		return 3
	case lib > 0:
		return 1
	}
	return 0
}

// encodeHodoku writes one library line per puzzle, as HoDoKu writes them
// (Sudoku2.getSudoku with ClipboardMode.LIBRARY): the record's technique,
// candidates, placed digits, deleted candidates, eliminations, placements
// and extra from its metadata (the keys the decoder fills), or ":0000:x:"
// and the givens alone for a puzzle without them. Only 9x9 grids fit the
// format. Labels, other metadata, ratings and solutions are not written.
func encodeHodoku(w io.Writer, recs []Record) error {
	var b bytes.Buffer
	for i, r := range recs {
		line, err := libraryText(r)
		if err != nil {
			name := r.Label
			if name == "" {
				name = r.Grid.String()
			}
			return fmt.Errorf("hodoku-lib: puzzle %d (%s): %w", i+1, clip(name, 40), err)
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if b.Len() > 64<<10 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// libraryText returns the library line of a record.
func libraryText(r Record) (string, error) {
	if r.Grid.N() != 9 || len(r.Grid.Cells) != 81 {
		return "", fmt.Errorf("a %dx%d grid; the HoDoKu library format holds 9x9 grids only", r.Grid.N(), r.Grid.N())
	}
	m := r.Metadata
	technique, cands := m[hodokuTechnique], m[hodokuCandidates]
	if technique == "" {
		technique = "0000"
		if cands == "" {
			cands = "x"
		}
	}
	if reason := checkTechnique(technique); reason != "" {
		return "", fmt.Errorf("metadata %s", reason)
	}
	if reason := checkCandidateDigits(cands); reason != "" {
		return "", fmt.Errorf("metadata %s", reason)
	}
	var placed []byte
	if p, ok := m[hodokuPlaced]; ok {
		if len(p) != 81 {
			return "", fmt.Errorf("metadata placed: %d cells, want 81", len(p))
		}
		placed = []byte(p)
	}
	var b strings.Builder
	b.WriteString(":" + technique + ":" + cands + ":")
	for i, v := range r.Grid.Cells {
		var p byte = '.'
		if placed != nil {
			p = placed[i]
		}
		switch {
		case p >= '1' && p <= '9' && v != 0:
			return "", fmt.Errorf("metadata placed: cell %d is placed and given", i+1)
		case p >= '1' && p <= '9':
			b.WriteByte('+')
			b.WriteByte(p)
		case p != '.' && p != '0':
			return "", fmt.Errorf("metadata placed: cell %d: %s is not a digit or '.'", i+1, strconv.QuoteRune(rune(p)))
		case v == 0:
			b.WriteByte('.')
		default:
			b.WriteByte(sudokulab.Symbols[v-1])
		}
	}
	for _, key := range []string{hodokuDeleted, hodokuEliminations, hodokuPlacements} {
		list, reason := candidateList(key, m[key])
		if reason != "" {
			return "", fmt.Errorf("metadata %s", reason)
		}
		b.WriteString(":" + list)
	}
	extra := m[hodokuExtra]
	if strings.ContainsAny(extra, ":\r\n") {
		return "", fmt.Errorf("metadata extra %q: a field holds no colon or line break", clip(extra, 20))
	}
	b.WriteString(":" + extra)
	return b.String(), nil
}
