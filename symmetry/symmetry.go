// Package symmetry computes the symmetry-canonical form of 9x9 Sudoku
// puzzles: the smallest text form over every validity-preserving
// transformation, so that two puzzles are equivalent exactly when their
// forms are equal.
//
// The transformations are transposition, permutations of the three bands
// and of the three stacks, permutations of the rows within each band and of
// the columns within each stack, and relabelling of the digits: 2 x 6^8 x 9!
// of them in all. The form is the smallest of the 81-character canonical
// text forms (sudokulab.Grid.String) that they produce, compared as strings,
// where '.' (an empty cell) sorts before the digits; it is the "minlex"
// form of the puzzle with blanks as zeros. The digits of a form are always
// relabelled in order of first appearance, so the first given is a 1.
//
// The search proceeds row by row and keeps only the partial
// transformations that give the smallest prefix so far. Columns that have
// been empty in every row placed so far stay interchangeable (a group)
// instead of being branched on, which keeps the search small on sparse
// puzzles; a Canonicalizer reuses its buffers, so computing a form does
// not allocate beyond the result.
package symmetry

import (
	"fmt"
	"math/rand/v2"

	"sudokulab"
)

// Form returns the symmetry-canonical form of a 9x9 grid. Any other shape
// is an error. The grid's givens need not be valid: the form is defined
// for any 9x9 grid.
func Form(g sudokulab.Grid) (string, error) {
	var c Canonicalizer
	return c.Form(g)
}

// Canonicalizer computes symmetry-canonical forms, keeping its buffers
// between calls. The zero Canonicalizer is ready to use; it must not be
// used by several goroutines at once.
type Canonicalizer struct {
	g         [2][81]int8 // the grid and its transpose, digits 0-9
	cur, next []cand
	best      [9]int8
	haveBest  bool
	form      [81]byte
	// tries lists the lines the candidates of a level can place next.
	tries []attempt
	// ties collects the runs of interchangeable choices of one expansion.
	ties []tie
}

// cand is a partial transformation: the orientation, the input rows chosen
// for the output rows so far, and the column order as far as it is fixed.
type cand struct {
	t         int8
	band      int8   // input band of the current output band
	bandsUsed uint8  // bit b: input band b is placed
	rowsUsed  uint16 // bit r: input row r is placed
	// stackSeq lists the input stacks in output order; stackBrk has bit p
	// set when output stack p starts a group of stacks still
	// interchangeable (empty in every row so far).
	stackSeq [3]int8
	stackBrk uint8
	// colSeq lists, for each input stack, its input columns (0-8) in output
	// order; colBrk marks the starts of the groups, as stackBrk does.
	colSeq [3][3]int8
	colBrk [3]uint8
	// label maps a digit to its label so far (0: not seen); next is the
	// next label to give.
	label [10]int8
	next  int8
}

// attempt is input line r of band b placed next by candidate i, whose
// row would start with lz empty cells.
type attempt struct {
	i    int32
	r, b int8
	lz   int8
}

// leadingEmpty returns how many empty cells the smallest row that
// candidate c can make of input line r starts with. Empty cells go first
// in every group of interchangeable columns, and of a group of
// interchangeable stacks (all empty so far) those whose segments start
// with the most empty cells go first; only where the cells are empty does
// the count depend, not on the digits' labels.
func (z *Canonicalizer) leadingEmpty(c *cand, r int8) int8 {
	row := z.g[c.t][9*int(r) : 9*int(r)+9]
	n := int8(0)
	for a := int8(0); a < 3; {
		e := a + 1
		for e < 3 && c.stackBrk&(1<<e) == 0 {
			e++
		}
		// The stacks of the group: wholly empty ones go first, then the
		// one whose segment starts with the most empty cells.
		most := int8(-1)
		for p := a; p < e; p++ {
			if k := stackLeadingEmpty(row, c.colSeq[c.stackSeq[p]], c.colBrk[c.stackSeq[p]]); k == 3 {
				n += 3
			} else {
				most = max(most, k)
			}
		}
		if most >= 0 {
			return n + most
		}
		a = e
	}
	return n
}

// stackLeadingEmpty returns how many empty cells the smallest segment of
// a stack starts with, its columns in order seq with groups starting at
// the bits of brk.
func stackLeadingEmpty(row []int8, seq [3]int8, brk uint8) int8 {
	n := int8(0)
	for a := int8(0); a < 3; {
		e := a + 1
		for e < 3 && brk&(1<<e) == 0 {
			e++
		}
		for i := a; i < e; i++ {
			if row[seq[i]] == 0 {
				n++
			}
		}
		if n < e {
			return n
		}
		a = e
	}
	return n
}

// tie is a run of n entries of seq, starting at from, whose order the
// search must branch on: columns holding digits not seen before, or stacks
// whose rows so far are equal and hold such digits.
type tie struct {
	stack bool // a run of stackSeq; else a run of colSeq[s]
	s     int8
	from  int8
	n     int8
}

// Form returns the symmetry-canonical form of a 9x9 grid; see the package
// documentation.
func (z *Canonicalizer) Form(g sudokulab.Grid) (string, error) {
	if g.Shape != sudokulab.Classic || len(g.Cells) != 81 {
		return "", fmt.Errorf("symmetry form: %s grid with %d cells; only 9x9 grids have one", g.Shape, len(g.Cells))
	}
	var cells [81]uint8
	for i, v := range g.Cells {
		if v > 9 {
			return "", fmt.Errorf("symmetry form: cell %d holds %d, above 9", i+1, v)
		}
		cells[i] = v
	}
	f := z.Cells(&cells)
	return string(f[:]), nil
}

// Cells returns the form of a 9x9 grid given as 81 cells (0 empty, 1-9),
// in canonical text form. The result is valid until the next call.
func (z *Canonicalizer) Cells(cells *[81]uint8) *[81]byte {
	for i, v := range cells {
		z.g[0][i] = int8(v)
		z.g[1][(i%9)*9+i/9] = int8(v)
	}
	z.cur = z.cur[:0]
	for t := range int8(2) {
		c := cand{t: t, band: -1, stackSeq: [3]int8{0, 1, 2}, stackBrk: 1, next: 1}
		for s := range 3 {
			c.colSeq[s] = [3]int8{int8(3 * s), int8(3*s + 1), int8(3*s + 2)}
			c.colBrk[s] = 1
		}
		z.cur = append(z.cur, c)
	}
	// The first row: every column and stack is still free, so the best
	// row a line gives depends only on how many givens each of its stacks
	// holds. Only the lines whose row is the smallest are expanded.
	var firstRows [2][9]uint16
	best := uint16(0xffff)
	for t := range 2 {
		for r := range 9 {
			m := firstRowMask(z.g[t][9*r : 9*r+9])
			firstRows[t][r] = m
			best = min(best, m)
		}
	}
	for level := range 9 {
		z.next = z.next[:0]
		z.haveBest = false
		if level == 0 {
			for i := range z.cur {
				c := &z.cur[i]
				for r := range int8(9) {
					if firstRows[c.t][r] == best {
						z.expand(c, r, r/3)
					}
				}
			}
		} else {
			// The lines each candidate can place next, and the empty
			// cells their rows would start with: a row with fewer is
			// worse than one with more, whatever follows, so only those
			// with the most are expanded.
			z.tries = z.tries[:0]
			most := int8(-1)
			try := func(i int, r, b int8) {
				lz := z.leadingEmpty(&z.cur[i], r)
				if lz >= most {
					most = lz
					z.tries = append(z.tries, attempt{i: int32(i), r: r, b: b, lz: lz})
				}
			}
			for i := range z.cur {
				c := &z.cur[i]
				if level%3 == 0 {
					for b := range int8(3) {
						if c.bandsUsed&(1<<b) != 0 {
							continue
						}
						for r := 3 * b; r < 3*b+3; r++ {
							try(i, r, b)
						}
					}
					continue
				}
				for r := 3 * c.band; r < 3*c.band+3; r++ {
					if c.rowsUsed&(1<<r) == 0 {
						try(i, r, c.band)
					}
				}
			}
			for _, a := range z.tries {
				if a.lz == most {
					z.expand(&z.cur[a.i], a.r, a.b)
				}
			}
		}
		for j, v := range z.best {
			z.form[9*level+j] = labelChar(v)
		}
		z.cur, z.next = z.next, z.cur
	}
	return &z.form
}

// firstRowMask returns where the smallest first row a line can give holds
// givens, a bit per column with column 1 the highest: its stacks ordered
// by the number of givens in them, fewest first, and in each stack the
// empty cells first. Of two lines, the one with the smaller mask gives the
// smaller first row; equal masks give equal first rows (every digit is
// new, so the givens are labelled 1, 2, 3 ... in order).
func firstRowMask(row []int8) uint16 {
	var n [3]int
	for i, d := range row {
		if d != 0 {
			n[i/3]++
		}
	}
	if n[0] > n[1] {
		n[0], n[1] = n[1], n[0]
	}
	if n[1] > n[2] {
		n[1], n[2] = n[2], n[1]
	}
	if n[0] > n[1] {
		n[0], n[1] = n[1], n[0]
	}
	var m uint16
	for _, k := range n {
		m = m<<3 | (1<<k - 1)
	}
	return m
}

func labelChar(v int8) byte {
	if v == 0 {
		return sudokulab.Blank
	}
	return '0' + byte(v)
}

// keyNew is the sort key of a digit not labelled yet: above every label.
const keyNew = 10

// expand places input row r (of input band b) as the next output row of
// candidate c, in every way that gives the smallest row, and adds the
// results to z.next when they are no worse than the best row so far.
func (z *Canonicalizer) expand(c *cand, r int8, b int8) {
	row := z.g[c.t][9*int(r) : 9*int(r)+9]
	var key [9]int8
	for col, d := range row {
		switch {
		case d == 0:
		case c.label[d] != 0:
			key[col] = c.label[d]
		default:
			key[col] = keyNew
		}
	}
	n := *c
	n.rowsUsed |= 1 << r
	n.bandsUsed |= 1 << b
	n.band = b
	z.ties = z.ties[:0]

	// Within each stack, sort every group of columns by key: empty cells
	// first (they stay a group), then labelled digits by label, then new
	// digits, whose order is a branch.
	var seg [3][3]int8
	for s := range int8(3) {
		seq, brk := &n.colSeq[s], n.colBrk[s]
		newBrk := uint8(0)
		for a := int8(0); a < 3; {
			e := a + 1
			for e < 3 && brk&(1<<e) == 0 {
				e++
			}
			for i := a + 1; i < e; i++ {
				for j := i; j > a && key[seq[j]] < key[seq[j-1]]; j-- {
					seq[j], seq[j-1] = seq[j-1], seq[j]
				}
			}
			newBrk |= 1 << a
			for i := a + 1; i < e; i++ {
				if k := key[seq[i]]; k != 0 || k != key[seq[i-1]] {
					newBrk |= 1 << i
				}
			}
			// A run of new digits is a branch.
			i := a
			for i < e && key[seq[i]] != keyNew {
				i++
			}
			if e-i >= 2 {
				z.ties = append(z.ties, tie{s: s, from: i, n: e - i})
			}
			a = e
		}
		n.colBrk[s] = newBrk
		for q := range 3 {
			seg[s][q] = key[seq[q]]
		}
	}
	// Sort every group of stacks by their segments of the row.
	less := func(x, y int8) bool {
		for q := range 3 {
			if seg[x][q] != seg[y][q] {
				return seg[x][q] < seg[y][q]
			}
		}
		return false
	}
	seq, brk := &n.stackSeq, n.stackBrk
	newBrk := uint8(0)
	for a := int8(0); a < 3; {
		e := a + 1
		for e < 3 && brk&(1<<e) == 0 {
			e++
		}
		for i := a + 1; i < e; i++ {
			for j := i; j > a && less(seq[j], seq[j-1]); j-- {
				seq[j], seq[j-1] = seq[j-1], seq[j]
			}
		}
		newBrk |= 1 << a
		for i := a + 1; i < e; {
			x, y := seq[i-1], seq[i]
			if less(x, y) || seg[x] != [3]int8{} {
				newBrk |= 1 << i
			}
			// Equal segments holding new digits: their order is a branch.
			if seg[x] == seg[y] && seg[x] != [3]int8{} {
				j := i + 1
				for j < e && seg[seq[j]] == seg[x] {
					newBrk |= 1 << j
					j++
				}
				z.ties = append(z.ties, tie{stack: true, from: i - 1, n: j - i + 1})
				i = j
				continue
			}
			i++
		}
		a = e
	}
	n.stackBrk = newBrk
	z.branch(&n, row, 0)
}

// branch enumerates the orders of the ties from index k on and emits each
// resulting candidate.
func (z *Canonicalizer) branch(n *cand, row []int8, k int) {
	if k == len(z.ties) {
		z.emit(n, row)
		return
	}
	t := z.ties[k]
	var run []int8
	if t.stack {
		run = n.stackSeq[t.from : t.from+t.n]
	} else {
		run = n.colSeq[t.s][t.from : t.from+t.n]
	}
	// Every order of the run, then the run as it was.
	var orig [3]int8
	copy(orig[:], run)
	for _, p := range perms[t.n] {
		for i, j := range p {
			run[i] = orig[j]
		}
		z.branch(n, row, k+1)
	}
	copy(run, orig[:t.n])
}

// perms lists the permutations of 2 and 3 entries.
var perms = [4][][]int8{
	2: {{0, 1}, {1, 0}},
	3: {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// emit labels the row as candidate n orders it and keeps n if the row is
// no worse than the best one of this level.
func (z *Canonicalizer) emit(n *cand, row []int8) {
	var out [9]int8
	label, next := n.label, n.next
	better := !z.haveBest
	for p := range 3 {
		s := n.stackSeq[p]
		for q := range 3 {
			d := row[n.colSeq[s][q]]
			v := int8(0)
			if d != 0 {
				if label[d] == 0 {
					label[d] = next
					next++
				}
				v = label[d]
			}
			i := 3*p + q
			out[i] = v
			if !better {
				if v > z.best[i] {
					return
				}
				if v < z.best[i] {
					better = true
				}
			}
		}
	}
	if better {
		z.best = out
		z.haveBest = true
		z.next = z.next[:0]
	}
	c := *n
	c.label, c.next = label, next
	z.next = append(z.next, c)
}

// Transform is one validity-preserving transformation of a 9x9 grid: the
// cell at output row i and column j comes from input row Rows[i] and column
// Cols[j] of the input (of its transpose when Transpose is set), with its
// digit d replaced by Relabel[d].
type Transform struct {
	Transpose  bool
	Rows, Cols [9]int
	Relabel    [10]uint8
}

// Identity returns the transformation that changes nothing.
func Identity() Transform {
	var t Transform
	for i := range 9 {
		t.Rows[i], t.Cols[i] = i, i
	}
	for d := range 10 {
		t.Relabel[d] = uint8(d)
	}
	return t
}

// Random returns a transformation drawn uniformly at random from r.
func Random(r *rand.Rand) Transform {
	t := Transform{Transpose: r.IntN(2) == 1}
	lines := func(out *[9]int) {
		bands := r.Perm(3)
		for b, ib := range bands {
			rows := r.Perm(3)
			for i, ir := range rows {
				out[3*b+i] = 3*ib + ir
			}
		}
	}
	lines(&t.Rows)
	lines(&t.Cols)
	for i, d := range r.Perm(9) {
		t.Relabel[i+1] = uint8(d + 1)
	}
	return t
}

// Apply returns the transformed grid. g must be 9x9.
func (t Transform) Apply(g sudokulab.Grid) sudokulab.Grid {
	out := sudokulab.Grid{Shape: g.Shape, Cells: make([]uint8, len(g.Cells))}
	for i := range 9 {
		for j := range 9 {
			r, c := t.Rows[i], t.Cols[j]
			if t.Transpose {
				r, c = c, r
			}
			out.Cells[9*i+j] = t.Relabel[g.Cells[9*r+c]]
		}
	}
	return out
}
