// Package sudokulab holds the domain of the Sudoku laboratory: grids of any
// box shape, their canonical text form, rule checking, the cost functions the
// solving papers use, and the user-facing error type. Storage, solvers,
// importers and the command line live in subpackages and build on it.
package sudokulab

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// MaxN is the largest side length a grid may have. Candidate sets are uint32
// bitsets and the text form has 32 symbols (1-9 then A-W), so 32 is the limit.
const MaxN = 32

// Shape is the box shape of a grid: boxes of BoxRows rows and BoxCols
// columns, so that the grid has N = BoxRows*BoxCols rows, columns, boxes and
// symbols. The classic puzzle is Shape{3, 3}.
type Shape struct {
	BoxRows int `db:"box_rows" json:"box_rows"`
	BoxCols int `db:"box_cols" json:"box_cols"`
}

// Classic is the 9x9 shape with 3x3 boxes.
var Classic = Shape{BoxRows: 3, BoxCols: 3}

// N returns the side length of the grid: rows, columns, boxes and symbols.
func (s Shape) N() int { return s.BoxRows * s.BoxCols }

// Cells returns the number of cells, N*N.
func (s Shape) Cells() int { return s.N() * s.N() }

// String returns the shape as "9x9 (3x3 boxes)".
func (s Shape) String() string {
	return fmt.Sprintf("%dx%d (%dx%d boxes)", s.N(), s.N(), s.BoxRows, s.BoxCols)
}

// Validate reports whether the shape is usable: both box sides at least 1,
// N at least 2 and at most MaxN.
func (s Shape) Validate() error {
	if s.BoxRows < 1 || s.BoxCols < 1 {
		return fmt.Errorf("box shape %dx%d: both sides must be at least 1", s.BoxRows, s.BoxCols)
	}
	if n := s.N(); n < 2 || n > MaxN {
		return fmt.Errorf("box shape %dx%d gives %dx%d grids; want a side from 2 to %d", s.BoxRows, s.BoxCols, n, n, MaxN)
	}
	return nil
}

// ShapeForN returns the default box shape for side length n: the most
// nearly square factorization with BoxRows <= BoxCols (4 -> 2x2, 6 -> 2x3,
// 8 -> 2x4, 9 -> 3x3, 12 -> 3x4, 16 -> 4x4, 25 -> 5x5). A prime n has no
// boxes worth the name and is rejected.
func ShapeForN(n int) (Shape, error) {
	if n < 4 || n > MaxN {
		return Shape{}, fmt.Errorf("side %d: want 4 to %d", n, MaxN)
	}
	best := 1
	for r := 2; r*r <= n; r++ {
		if n%r == 0 {
			best = r
		}
	}
	if best == 1 {
		return Shape{}, fmt.Errorf("side %d is prime: no box shape; give one explicitly", n)
	}
	return Shape{BoxRows: best, BoxCols: n / best}, nil
}

// Geometry holds the precomputed unit structure of a shape: which row,
// column and box each cell belongs to, the cells of each unit, and each
// cell's peers. It is shared and must not be modified.
type Geometry struct {
	Shape Shape
	N     int
	// Row, Col and Box give the unit index of each cell.
	Row, Col, Box []int
	// Units lists the cells of the 3N units: rows 0..N-1, columns N..2N-1,
	// boxes 2N..3N-1.
	Units [][]int
	// Peers lists, for each cell, the other cells sharing a row, column or
	// box with it, each once.
	Peers [][]int
}

var (
	geomMu    sync.Mutex
	geomCache = map[Shape]*Geometry{}
	// geomKnown holds the geometries made so far by box shape, read
	// without the lock: workers ask for one per puzzle.
	geomKnown [MaxN + 1][MaxN + 1]atomic.Pointer[Geometry]
)

// GeometryOf returns the shared Geometry of a valid shape. It panics on an
// invalid shape: callers validate shapes when grids are made.
func GeometryOf(s Shape) *Geometry {
	if s.BoxRows >= 1 && s.BoxRows <= MaxN && s.BoxCols >= 1 && s.BoxCols <= MaxN {
		if g := geomKnown[s.BoxRows][s.BoxCols].Load(); g != nil {
			return g
		}
	}
	geomMu.Lock()
	defer geomMu.Unlock()
	if g, ok := geomCache[s]; ok {
		return g
	}
	if err := s.Validate(); err != nil {
		panic("sudokulab: " + err.Error())
	}
	n := s.N()
	g := &Geometry{Shape: s, N: n,
		Row: make([]int, n*n), Col: make([]int, n*n), Box: make([]int, n*n),
		Units: make([][]int, 3*n), Peers: make([][]int, n*n)}
	for i := 0; i < n*n; i++ {
		r, c := i/n, i%n
		b := (r/s.BoxRows)*(n/s.BoxCols) + c/s.BoxCols
		g.Row[i], g.Col[i], g.Box[i] = r, c, b
		g.Units[r] = append(g.Units[r], i)
		g.Units[n+c] = append(g.Units[n+c], i)
		g.Units[2*n+b] = append(g.Units[2*n+b], i)
	}
	for i := 0; i < n*n; i++ {
		for j := 0; j < n*n; j++ {
			if i != j && (g.Row[i] == g.Row[j] || g.Col[i] == g.Col[j] || g.Box[i] == g.Box[j]) {
				g.Peers[i] = append(g.Peers[i], j)
			}
		}
	}
	geomCache[s] = g
	geomKnown[s.BoxRows][s.BoxCols].Store(g)
	return g
}

// CellName returns the conventional name of cell i, "r1c3" (1-based).
func (g *Geometry) CellName(i int) string {
	return fmt.Sprintf("r%dc%d", g.Row[i]+1, g.Col[i]+1)
}

// UnitName returns "row 3", "column 5" or "box 7" (1-based) for unit u.
func (g *Geometry) UnitName(u int) string {
	switch {
	case u < g.N:
		return fmt.Sprintf("row %d", u+1)
	case u < 2*g.N:
		return fmt.Sprintf("column %d", u-g.N+1)
	default:
		return fmt.Sprintf("box %d", u-2*g.N+1)
	}
}

// UnitMasks sets masks[u], for each of the 3N units in the order of Units,
// to the set of symbols the filled cells of unit u hold: bit v-1 for symbol
// v. masks must have 3N entries; cells are a grid's cells. It allocates
// nothing, for solvers that recompute it at every restart.
func (g *Geometry) UnitMasks(cells []uint8, masks []uint32) {
	n := g.N
	clear(masks[:3*n])
	for i, v := range cells {
		if v != 0 {
			bit := uint32(1) << (v - 1)
			masks[g.Row[i]] |= bit
			masks[n+g.Col[i]] |= bit
			masks[2*n+g.Box[i]] |= bit
		}
	}
}

// Seen returns the symbols held in the row, column or box of cell i,
// given masks filled by UnitMasks.
func (g *Geometry) Seen(masks []uint32, i int) uint32 {
	return masks[g.Row[i]] | masks[g.N+g.Col[i]] | masks[2*g.N+g.Box[i]]
}
