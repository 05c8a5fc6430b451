package importers

import (
	"fmt"
	"strconv"
	"strings"

	"sudokulab"
)

// alphabet orders the symbol characters for ranges such as "0-F" or "A-P".
const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// charBlanks are the characters that are always empty cells; '0', 'x' and
// 'X' are too unless the symbol set makes them values.
const charBlanks = ".-*_"

// SymbolSet says how the cells of a file are written: a range of
// characters (each cell one character) or of numbers (cells separated).
type SymbolSet struct {
	// Name is the set as --symbols takes it: "1-9", "0-F", "A-P", "1-16".
	Name string
	// N is the number of values, the side of the grids.
	N       int
	numeric bool
	lo      int       // the number written for value 1 (numeric sets)
	val     [256]int8 // character sets: -1 not a cell, 0 empty, else the value
}

// ParseSymbols reads a symbol set written "FIRST-LAST": two characters of
// 0-9A-Z for cells written one character each (value 1 is FIRST; the
// letters may be in either case), or two numbers for cells written as
// separated numbers ("1-16", "0-15"). Cells not in the set may be empty
// cells: ". - * _" always, "0" and "x" when they are not values, and for
// numbers "-1" and "0" when it is not a value, or nothing at all.
func ParseSymbols(spec string) (*SymbolSet, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(spec), "-")
	bad := func(why string) error {
		return sudokulab.Errorf(sudokulab.EINVALID, "--symbols %q: %s (want FIRST-LAST, such as 1-9, 0-F, 1-G, A-P, A-Y or 1-16)", spec, why)
	}
	if !ok {
		return nil, bad("no range")
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 == nil && err2 == nil && (len(a) > 1 || len(b) > 1 || hi > 9) {
		if lo < 0 || hi < lo {
			return nil, bad("not a range of numbers")
		}
		if _, err := sudokulab.ShapeForN(hi - lo + 1); err != nil {
			return nil, bad(err.Error())
		}
		return numSet(lo, hi-lo+1), nil
	}
	ia, ib := strings.Index(alphabet, strings.ToUpper(a)), strings.Index(alphabet, strings.ToUpper(b))
	if len(a) != 1 || len(b) != 1 || ia < 0 || ib < ia {
		return nil, bad("not a range of characters")
	}
	if _, err := sudokulab.ShapeForN(ib - ia + 1); err != nil {
		return nil, bad(err.Error())
	}
	return charSet(alphabet[ia], alphabet[ib]), nil
}

// charSet returns the character set from..to of alphabet.
func charSet(from, to byte) *SymbolSet {
	i, j := strings.IndexByte(alphabet, from), strings.IndexByte(alphabet, to)
	s := &SymbolSet{Name: string(from) + "-" + string(to), N: j - i + 1}
	for c := range s.val {
		s.val[c] = -1
	}
	for _, c := range []byte(charBlanks + "0xX") {
		s.val[c] = 0
	}
	for k := i; k <= j; k++ {
		c := alphabet[k]
		s.val[c] = int8(k - i + 1)
		if c >= 'A' && c <= 'Z' {
			s.val[c+'a'-'A'] = int8(k - i + 1)
		}
	}
	return s
}

// numSet returns the set of the n numbers from lo.
func numSet(lo, n int) *SymbolSet {
	return &SymbolSet{Name: fmt.Sprintf("%d-%d", lo, lo+n-1), N: n, numeric: true, lo: lo}
}

// candidates returns the symbol sets detection chooses from for grids of
// side n written in characters or numbers.
func candidates(n int, numeric bool) []*SymbolSet {
	if !validSide(n) {
		return nil
	}
	if numeric {
		return []*SymbolSet{numSet(1, n), numSet(0, n)}
	}
	switch n {
	case 16:
		return []*SymbolSet{charSet('0', 'F'), charSet('1', 'G'), charSet('A', 'P')}
	case 25:
		return []*SymbolSet{charSet('1', 'P'), charSet('A', 'Y')}
	}
	return []*SymbolSet{charSet('1', sudokulab.Symbols[n-1])}
}

// rawCells are the cells of a grid as written: one character each, or one
// token each for numbers.
type rawCells struct {
	chars   []byte
	toks    []string
	numeric bool
}

func (c rawCells) len() int {
	if c.numeric {
		return len(c.toks)
	}
	return len(c.chars)
}

// decode writes the values of c to dst and returns the index of the first
// cell that is not in the set, or -1.
func (s *SymbolSet) decode(c rawCells, dst []uint8) int {
	if c.numeric != s.numeric {
		return 0
	}
	if !s.numeric {
		for i, ch := range c.chars {
			v := s.val[ch]
			if v < 0 {
				return i
			}
			dst[i] = uint8(v)
		}
		return -1
	}
	for i, t := range c.toks {
		v, ok := s.token(t)
		if !ok {
			return i
		}
		dst[i] = uint8(v)
	}
	return -1
}

// token returns the value of a number cell.
func (s *SymbolSet) token(t string) (int, bool) {
	switch t {
	case "", ".", "-", "*", "_", "x", "X":
		return 0, true
	}
	n, err := strconv.Atoi(t)
	switch {
	case err != nil:
		return 0, false
	case n >= s.lo && n < s.lo+s.N:
		return n - s.lo + 1, true
	case n == -1 || n == 0:
		return 0, true
	}
	return 0, false
}

// blankKinds returns the set of characters or tokens c writes empty cells
// with, as a bit set, for the Sudopedia rule that a file uses one.
func (s *SymbolSet) blankKinds(c rawCells) uint64 {
	var bits uint64
	if !s.numeric {
		for _, ch := range c.chars {
			if s.val[ch] == 0 {
				bits |= 1 << (ch & 63)
			}
		}
		return bits
	}
	for _, t := range c.toks {
		if v, ok := s.token(t); ok && v == 0 {
			switch t {
			case "":
				bits |= 1
			case "0":
				bits |= 2
			case "-1":
				bits |= 4
			default:
				bits |= 8
			}
		}
	}
	return bits
}

// cellText shows cell i of c in an error message.
func (c rawCells) cellText(i int) string {
	if c.numeric {
		return strconv.Quote(c.toks[i])
	}
	return strconv.QuoteRune(rune(c.chars[i]))
}

// pending is a decoded entry waiting for the file's symbol set.
type pending struct {
	rec        Record
	err        error
	cells, sol rawCells
	hasSol     bool
	box        sudokulab.Shape // zero: the default shape of the size
}

// symbolizer turns raw cells into grids with the file's symbol set: the
// one given, or the one detected. Detection keeps the sets that can read
// every grid so far; while several can, entries wait (in order) until one
// is left, at most maxPending of them, and then the set that reads them
// with one kind of empty cell and without broken rules is chosen. Several
// still fitting is an error asking for --symbols.
type symbolizer struct {
	o     *Options
	fixed *SymbolSet
	// byComment is set when fixed comes from a "# symbols:" comment,
	// which only speaks of grids of its size.
	byComment bool
	states    map[symKey]*symState
	buf       []pending
	yield     func(Record, error) bool
	done      bool // the consumer stopped or a fatal error was yielded
}

type symKey struct {
	n       int
	numeric bool
}

type symState struct {
	cands   []*SymbolSet
	decided *SymbolSet
}

// maxPending bounds the entries held back while the symbol set is open.
const maxPending = 2000

func newSymbolizer(o *Options, yield func(Record, error) bool) (*symbolizer, error) {
	z := &symbolizer{o: o, yield: yield, states: map[symKey]*symState{}}
	if o.Symbols != "" {
		s, err := ParseSymbols(o.Symbols)
		if err != nil {
			return nil, err
		}
		z.fixed = s
	}
	return z, nil
}

// push adds an entry; it returns false when decoding should stop.
func (z *symbolizer) push(p pending) bool {
	if z.done {
		return false
	}
	if p.err == nil && p.rec.Note == "" {
		z.narrow(&p)
	}
	z.buf = append(z.buf, p)
	z.flush()
	if len(z.buf) > maxPending {
		z.decide(z.state(z.buf[0]))
		z.flush()
	}
	return !z.done
}

// finish decides every open symbol set and emits what is left.
func (z *symbolizer) finish() bool {
	for len(z.buf) > 0 && !z.done {
		z.decide(z.state(z.buf[0]))
		z.flush()
	}
	return !z.done
}

func (z *symbolizer) state(p pending) *symState {
	if p.err != nil || p.rec.Note != "" {
		return nil
	}
	k := symKey{isqrt(p.cells.len()), p.cells.numeric}
	st := z.states[k]
	if st == nil {
		st = &symState{}
		switch {
		case z.fixed != nil && (z.fixed.N == k.n || !z.byComment):
			st.decided = z.fixed
		default:
			st.cands = candidates(k.n, k.numeric)
			if len(st.cands) == 1 {
				st.decided = st.cands[0]
			}
		}
		z.states[k] = st
	}
	return st
}

// narrow drops the candidate sets that cannot read p; if none can, p
// becomes an error.
func (z *symbolizer) narrow(p *pending) {
	if n := p.cells.len(); n != isqrt(n)*isqrt(n) || n > sudokulab.MaxN*sudokulab.MaxN {
		p.err = z.o.errorf(p.rec.Line, "%d cells: not a grid size", n)
		return
	}
	st := z.state(*p)
	if st.decided != nil {
		return
	}
	var keep []*SymbolSet
	for _, s := range st.cands {
		if fits(s, p) {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		if len(st.cands) == 0 {
			p.err = z.o.errorf(p.rec.Line, "%d cells: not a grid size", p.cells.len())
			return
		}
		p.err = z.unknown(p, st.cands)
		return
	}
	st.cands = keep
	if len(keep) == 1 {
		st.decided = keep[0]
	}
}

func fits(s *SymbolSet, p *pending) bool {
	var buf [sudokulab.MaxN * sudokulab.MaxN]uint8
	if s.decode(p.cells, buf[:p.cells.len()]) >= 0 {
		return false
	}
	return !p.hasSol || p.sol.len() != p.cells.len() || s.decode(p.sol, buf[:p.sol.len()]) < 0
}

// unknown describes the first cell of p that none of sets reads.
func (z *symbolizer) unknown(p *pending, sets []*SymbolSet) error {
	var buf [sudokulab.MaxN * sudokulab.MaxN]uint8
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = s.Name
	}
	what, c := "cell", p.cells
	i := sets[0].decode(c, buf[:c.len()])
	if i < 0 && p.hasSol {
		what, c = "solution cell", p.sol
		i = sets[0].decode(c, buf[:c.len()])
	}
	if i < 0 {
		i = 0
	}
	return z.o.errorf(p.rec.Line, "%s %d: %s is not a symbol of %s", what, i+1, c.cellText(i), strings.Join(names, " or "))
}

// decide chooses the symbol set of st among its candidates, using the
// entries waiting: the set whose reading breaks the rules least (the
// fewest pairs of cells in conflict), then the one with the fewest kinds of
// blank cells. (Conflicts come first: a 16x16 puzzle written in numbers
// with 0 for blanks and no 16 among its givens also reads as 0-15, with
// every blank a 1.)
func (z *symbolizer) decide(st *symState) {
	if st == nil || st.decided != nil {
		return
	}
	type score struct{ blanks, conflicts int }
	scores := make([]score, len(st.cands))
	var cells [sudokulab.MaxN * sudokulab.MaxN]uint8
	for i, s := range st.cands {
		var kinds uint64
		for _, p := range z.buf {
			if z.state(p) != st {
				continue
			}
			kinds |= s.blankKinds(p.cells)
			g := z.grid(s, p.cells, p.box, cells[:0])
			if g.Cells != nil {
				scores[i].conflicts += len(g.Conflicts())
			}
		}
		for ; kinds != 0; kinds &= kinds - 1 {
			scores[i].blanks++
		}
	}
	best := []int{0}
	for i := 1; i < len(scores); i++ {
		a, b := scores[i], scores[best[0]]
		switch {
		case a.conflicts < b.conflicts || (a.conflicts == b.conflicts && a.blanks < b.blanks):
			best = []int{i}
		case a == b:
			best = append(best, i)
		}
	}
	if len(best) == 1 {
		st.decided = st.cands[best[0]]
		return
	}
	var names, flags []string
	for _, i := range best {
		names = append(names, st.cands[i].Name)
		flags = append(flags, "--symbols "+st.cands[i].Name)
	}
	line := 0
	for _, p := range z.buf {
		if z.state(p) == st {
			line = p.rec.Line
			break
		}
	}
	z.emit(Record{}, z.o.fatalf(line, "the symbols are ambiguous: the grids read as %s alike; say which with %s",
		strings.Join(names, " or "), strings.Join(flags, " or ")))
}

// grid decodes cells with s into a grid of the shape box (zero: the
// default for the size), using buf for the cells when it has room.
func (z *symbolizer) grid(s *SymbolSet, c rawCells, box sudokulab.Shape, buf []uint8) sudokulab.Grid {
	n := c.len()
	if n != s.N*s.N {
		return sudokulab.Grid{}
	}
	if box == (sudokulab.Shape{}) {
		var err error
		if box, err = sudokulab.ShapeForN(s.N); err != nil {
			return sudokulab.Grid{}
		}
	}
	cells := buf
	if cap(cells) < n {
		cells = make([]uint8, n)
	}
	cells = cells[:n]
	if s.decode(c, cells) >= 0 {
		return sudokulab.Grid{}
	}
	return sudokulab.Grid{Shape: box, Cells: cells}
}

// flush emits the waiting entries from the front while their symbol sets
// are known.
func (z *symbolizer) flush() {
	for len(z.buf) > 0 && !z.done {
		p := z.buf[0]
		st := z.state(p)
		if st != nil && st.decided == nil {
			return
		}
		z.buf[0] = pending{}
		z.buf = z.buf[1:]
		if st == nil {
			z.emit(p.rec, p.err)
			continue
		}
		z.emit(z.convert(st.decided, p))
	}
	if len(z.buf) == 0 {
		z.buf = z.buf[:0:0]
	}
}

// convert makes the record of p with the symbol set s.
func (z *symbolizer) convert(s *SymbolSet, p pending) (Record, error) {
	rec := p.rec
	if n := p.cells.len(); n != s.N*s.N {
		return rec, z.o.errorf(rec.Line, "%d cells, want %d for the symbols %s", n, s.N*s.N, s.Name)
	}
	rec.Grid = z.grid(s, p.cells, p.box, nil)
	if rec.Grid.Cells == nil {
		return rec, z.unknown(&p, []*SymbolSet{s})
	}
	if p.hasSol {
		if n := p.sol.len(); n != len(rec.Grid.Cells) {
			return rec, z.o.errorf(rec.Line, "solution has %d cells, want %d", n, len(rec.Grid.Cells))
		}
		rec.Solution = z.grid(s, p.sol, p.box, nil)
		if rec.Solution.Cells == nil {
			return rec, z.unknown(&p, []*SymbolSet{s})
		}
	}
	return rec, nil
}

func (z *symbolizer) emit(rec Record, err error) {
	if z.done {
		return
	}
	if !z.yield(rec, err) {
		z.done = true
	}
	var de *DecodeError
	if err != nil && asDecodeError(err, &de) && de.Fatal {
		z.done = true
	}
}

// symbolsComment reads a "# symbols: 0-F" comment, which sets the symbol
// set of the rest of the file when --symbols is not given.
func symbolsComment(line []byte) (string, bool) {
	s := strings.TrimSpace(strings.TrimLeft(string(line), "#"))
	rest, ok := strings.CutPrefix(strings.ToLower(s), "symbols")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
	if strings.Count(rest, "-") < 1 || strings.ContainsAny(rest, " \t") {
		return "", false
	}
	return strings.ToUpper(rest), true
}

func isSymbolsComment(line string) bool {
	_, ok := symbolsComment([]byte(line))
	return ok
}

// setSymbols applies a "# symbols:" comment if no set is fixed yet.
func (z *symbolizer) setSymbols(spec string) {
	if z.fixed != nil || len(z.states) > 0 {
		return
	}
	if s, err := ParseSymbols(spec); err == nil {
		z.fixed, z.byComment = s, true
	}
}
