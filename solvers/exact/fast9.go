package exact

import "sudokulab"

// The 9x9 engine (lc9) keeps, for each digit, the board of the cells where
// the digit may still go, and the board of the cells not yet fixed. A board is
// 81 bits in two words: bands 0 and 1 (rows 0-5) in the first word, band 2
// (rows 6-8) in the second, cell r*9+c at bit (r%6)*9+c of word r/6. A
// fixed cell stays on the board of its digit only. Naked singles come from
// counting the boards bit-parallel, hidden singles from the boards masked to
// units, the branching cell from the counts.

// board is a set of cells of the 9x9 grid.
type board [2]uint64

// state9 is the search state: where each digit may go and what is open.
type state9 struct {
	p     [9]board
	open  board
	fixed [9]uint32 // per digit, the units where it is fixed
}

const allUnits9 = 1<<27 - 1

var (
	cellWord9  [81]uint8     // word of a cell
	cellBit9   [81]uint64    // bit of a cell in its word
	peers9     [81]board     // the 20 peers of each cell
	units9     [32]board     // rows, columns, boxes; padded for bounds-check elimination
	cellUnits9 [81]uint32    // the three units of each cell, as unit bits
	wordUnits9 [2][64]uint32 // cellUnits9 by word and bit
	wordCell9  = [2]int{0, 54}
)

func init() {
	geo := sudokulab.GeometryOf(sudokulab.Classic)
	for c := 0; c < 81; c++ {
		cellWord9[c] = uint8(c / 54)
		cellBit9[c] = 1 << (c % 54)
		for _, p := range geo.Peers[c] {
			peers9[c][p/54] |= 1 << (p % 54)
		}
		cellUnits9[c] = 1<<geo.Row[c] | 1<<(9+geo.Col[c]) | 1<<(18+geo.Box[c])
		wordUnits9[c/54][c%54] = cellUnits9[c]
	}
	for u, cells := range geo.Units {
		for _, c := range cells {
			units9[u][c/54] |= 1 << (c % 54)
		}
	}
}

// Constants of touchedUnits: the even and odd rows of a word, and the multiplier that gathers bits 9k
// (k < 6) into bits 54+k (the products of distinct bits are distinct bits,
// so nothing carries).
const (
	evenRows   = 0x1FF * (1 | 1<<18 | 1<<36)
	oddRows    = 0x1FF * (1<<9 | 1<<27 | 1<<45)
	gatherRows = 1<<54 | 1<<46 | 1<<38 | 1<<30 | 1<<22 | 1<<14
)

// touchedUnits returns the units, as unit bits, that hold a cell of the
// board (b0, b1). It has no branches: it runs for every fixed cell.
func touchedUnits(b0, b1 uint64) uint32 {
	// Columns: fold the rows onto the first.
	t := b0 | b0>>27 | b1
	t |= t>>9 | t>>18
	cols := uint32(t) & 0x1FF
	// Rows: adding 0x1FF to a row carries into the bit above it when the
	// row is not empty. Even and odd rows are added apart so that every
	// carry lands in a zero; then the carry bits are gathered.
	e0 := b0&evenRows + evenRows
	o0 := b0&oddRows + oddRows
	c0 := (e0&(evenRows<<1)&^evenRows | o0&(oddRows<<1)&^oddRows) >> 9
	e1 := b1&(evenRows&(1<<27-1)) + evenRows&(1<<27-1)
	o1 := b1&(oddRows&(1<<27-1)) + oddRows&(1<<27-1)
	c1 := (e1&(evenRows<<1)&^evenRows | o1&(oddRows<<1)&^oddRows) >> 9
	rows := uint32((c0*gatherRows)>>54&63 | (c1*gatherRows)>>54<<6&(7<<6))
	// Boxes: fold each band onto its first row, then the three columns
	// of each box onto its first.
	g0 := b0 | b0>>9 | b0>>18
	g0 = (g0 | g0>>1 | g0>>2) & (0x49 | 0x49<<27)
	g1 := b1 | b1>>9 | b1>>18
	g1 = (g1 | g1>>1 | g1>>2) & 0x49
	boxes := uint32((g0|g0>>2|g0>>4)&7 | (g0>>27|g0>>29|g0>>31)&7<<3 | (g1|g1>>2|g1>>4)&7<<6)
	return rows | cols<<9 | boxes<<18
}
