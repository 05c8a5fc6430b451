package generator

import (
	"sudokulab"
	"sudokulab/symmetry"
)

// Stored returns the generated puzzle as the lab stores it: counted, with
// its one solution and, for a 9x9 grid, its symmetry form by canon.
func (p Puzzle) Stored(canon *symmetry.Canonicalizer) (*sudokulab.Puzzle, error) {
	one := 1
	pz := &sudokulab.Puzzle{Givens: p.Givens, Solution: p.Solution, SolutionCount: &one, CountStatus: sudokulab.CountCounted}
	if p.Givens.Shape == sudokulab.Classic {
		form, err := canon.Form(p.Givens)
		if err != nil {
			return nil, err
		}
		pz.SymmetryForm = form
	}
	return pz, nil
}
