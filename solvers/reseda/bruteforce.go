package reseda

import (
	"sudokulab"
	"sudokulab/solvers/ac3"
)

// MaxBlockPermutations bounds the admissible permutations of the top-left
// box the brute-force hybrid (section 5.2) enumerates; a puzzle with more
// is refused.
const MaxBlockPermutations = 1 << 20

// blockPermutations holds the admissible permutations of a box: fillings
// of its free cells with its missing symbols that break no rule with the
// givens. Permutation j fills cells[i] with perms[j*len(cells)+i].
type blockPermutations struct {
	cells []int
	perms []uint8
}

// count returns the number of permutations.
func (b *blockPermutations) count() int {
	if len(b.cells) == 0 {
		return 1
	}
	return len(b.perms) / len(b.cells)
}

// apply writes permutation j into the cells of g.
func (b *blockPermutations) apply(g []uint8, j int) {
	k := len(b.cells)
	for i, c := range b.cells {
		g[c] = b.perms[j*k+i]
	}
}

// admissiblePermutations enumerates, in lexicographic order (cells row by
// row, symbols ascending), the fillings of box's free cells with distinct
// symbols that no given of the cell's row, column or box holds: the
// "permutations that met the basic constraints" of section 5.2. It returns
// nil when there is none (the puzzle has no solution), and an EINVALID
// error when there are more than MaxBlockPermutations.
//
// With domains d (nil for none), each cell also keeps to its domain.
func admissiblePermutations(puzzle sudokulab.Grid, box int, d *ac3.Domains) (*blockPermutations, error) {
	geo := puzzle.Geometry()
	n := geo.N
	masks := make([]uint32, 3*n)
	geo.UnitMasks(puzzle.Cells, masks)
	bp := &blockPermutations{}
	var allowed []uint32
	for _, i := range geo.Units[2*n+box] {
		if puzzle.Cells[i] == 0 {
			bp.cells = append(bp.cells, i)
			a := ^geo.Seen(masks, i)
			if d != nil {
				a &= uint32(d.Domain(i))
			}
			allowed = append(allowed, a)
		}
	}
	k := len(bp.cells)
	if k == 0 {
		return bp, nil
	}
	cur := make([]uint8, k)
	var tooMany bool
	var rec func(d int, used uint32)
	rec = func(d int, used uint32) {
		if tooMany {
			return
		}
		if d == k {
			if len(bp.perms)/k >= MaxBlockPermutations {
				tooMany = true
				return
			}
			bp.perms = append(bp.perms, cur...)
			return
		}
		for v := range n {
			bit := uint32(1) << v
			if allowed[d]&bit != 0 && used&bit == 0 {
				cur[d] = uint8(v + 1)
				rec(d+1, used|bit)
			}
		}
	}
	rec(0, 0)
	if tooMany {
		return nil, sudokulab.Errorf(sudokulab.EINVALID, "reseda: the top-left box has more than %d admissible permutations; brute force is for boxes with few", MaxBlockPermutations)
	}
	if len(bp.perms) == 0 {
		return nil, nil // the puzzle has no solution: nothing to fix
	}
	return bp, nil
}
