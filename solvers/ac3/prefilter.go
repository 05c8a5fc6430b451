package ac3

import (
	"errors"
	"math/rand/v2"

	"sudokulab"
)

// The values of the prefilter parameter.
const (
	// None filters nothing: givens alone, every symbol elsewhere.
	None = "none"
	// AC3 is Prune: arc consistency on the binary constraints, the
	// prefiltering phase of Soto et al. 2014.
	AC3 = "ac3"
	// GAC is PruneGAC: generalized arc consistency on each all-different.
	GAC = "gac"
)

// Choices lists the values of the prefilter parameter.
var Choices = []string{None, AC3, GAC}

// ParamName is the name every solver gives its prefilter parameter.
const ParamName = "prefilter"

// Param returns the declaration of a solver's prefilter parameter, with the
// default the solver's paper uses (None for papers without a prefilter)
// and the section of that paper (or of Soto et al.) it cites.
func Param(def, section string) sudokulab.ParamSpec {
	return sudokulab.ParamSpec{
		Name: ParamName, Kind: sudokulab.ParamChoice, Default: def, Choices: Choices,
		Doc:     "domain filtering before the search; initialization and moves then draw only from the pruned domains: none, ac3 (arc consistency, Soto et al. 2014 §5) or gac (generalized arc consistency on each all-different)",
		Section: section,
	}
}

// ForSolver is Apply as the stochastic solvers use it: when the prefilter
// proves the puzzle has no solution it returns Unfiltered(puzzle) with
// infeasible true, so that the solver can still return a filled grid (and
// the status unsolved) instead of failing; its Revisions are still the
// filtering's. Other errors are returned.
func ForSolver(prefilter string, puzzle sudokulab.Grid) (d *Domains, infeasible bool, err error) {
	d, _, err = Apply(prefilter, puzzle)
	switch {
	case errors.Is(err, ErrNoSolution):
		u := Unfiltered(puzzle)
		u.revisions = d.revisions // the work that proved it
		return u, true, nil
	case err != nil:
		return nil, false, err
	}
	return d, false, nil
}

// Apply filters puzzle with the named prefilter (None, AC3 or GAC) and
// returns the domains. With None it returns Unfiltered(puzzle) and never
// fails. An unknown name is an EINVALID error; a wipe-out is a
// *WipeoutError (errors.Is ErrNoSolution), with the domains at the wipe-out.
func Apply(prefilter string, puzzle sudokulab.Grid) (*Domains, Stats, error) {
	switch prefilter {
	case None, "":
		d := Unfiltered(puzzle)
		return d, d.Stats(), nil
	case AC3:
		return Prune(puzzle)
	case GAC:
		return PruneGAC(puzzle)
	}
	return nil, Stats{}, sudokulab.Errorf(sudokulab.EINVALID, "unknown prefilter %q (want none, ac3 or gac)", prefilter)
}

// FillUnit fills the cells of unit u (rows 0..N-1, columns N..2N-1, boxes
// 2N..3N-1) that are not givens with the symbols the unit's givens lack, as
// a random permutation that puts every cell within its domain, and reports
// whether it could. Cells fixed by filtering thus get their value.
//
// When every free cell's domain holds every symbol left (always so with
// prefilter none) the result is a uniformly random permutation. Otherwise
// it draws the cells in order of increasing domain size (ties in random
// order), each a uniformly drawn value of its domain not yet used, and
// backtracks on a dead end: random, but not exactly uniform over all valid
// permutations. If the backtracking takes too long it falls back
// to a matching, and if the domains admit no permutation at all (the puzzle
// then has no solution) it fills the rest ignoring the domains and returns
// false. It allocates nothing.
func (d *Domains) FillUnit(cells []uint8, u int, rng *rand.Rand) bool {
	var avail Set = Full(d.n)
	d.free = d.free[:0]
	for _, c := range d.geo.Units[u] {
		if g := d.given[c]; g != 0 {
			avail &^= Single(g)
			cells[c] = g
		} else {
			d.free = append(d.free, c)
		}
	}
	m := len(d.free)
	if m == 0 {
		return true
	}
	// Fast path: when every free cell may take every symbol left, a
	// uniformly shuffled list of those symbols is the answer.
	if avail.Len() == m {
		full := true
		for _, c := range d.free {
			if d.sets[c]&avail != avail {
				full = false
				break
			}
		}
		if full {
			k := 0
			for rest := avail; rest != 0; rest &= rest - 1 {
				d.val[k] = rest.Min()
				k++
			}
			for k := m - 1; k > 0; k-- {
				j := rng.IntN(k + 1)
				d.val[k], d.val[j] = d.val[j], d.val[k]
			}
			for k, c := range d.free {
				cells[c] = d.val[k]
			}
			return true
		}
	}
	// Random order, then stable insertion sort by domain size.
	for k := range m {
		d.order[k] = d.free[k]
	}
	for k := m - 1; k > 0; k-- {
		j := rng.IntN(k + 1)
		d.order[k], d.order[j] = d.order[j], d.order[k]
	}
	for k := 1; k < m; k++ {
		c := d.order[k]
		l := d.sets[c].Len()
		j := k
		for ; j > 0 && d.sets[d.order[j-1]].Len() > l; j-- {
			d.order[j] = d.order[j-1]
		}
		d.order[j] = c
	}
	d.budget = 64 * m
	if d.place(0, m, avail, rng) {
		for k := range m {
			cells[d.order[k]] = d.val[k]
		}
		return true
	}
	return d.match(cells, m, avail, rng)
}

// place assigns d.order[k:m] values from avail, backtracking, within the
// node budget.
func (d *Domains) place(k, m int, avail Set, rng *rand.Rand) bool {
	if k == m {
		return true
	}
	if d.budget--; d.budget < 0 {
		return false
	}
	cand := d.sets[d.order[k]] & avail
	for cand != 0 {
		v := cand.Draw(rng)
		cand &^= Single(v)
		d.val[k] = v
		if d.place(k+1, m, avail&^Single(v), rng) {
			return true
		}
		if d.budget < 0 {
			return false
		}
	}
	return false
}

// match is FillUnit's fallback: a maximum matching of the free cells
// (taken in the random order) to the available symbols within their
// domains; cells left over get the left-over symbols. It reports whether
// every cell was matched within its domain.
func (d *Domains) match(cells []uint8, m int, avail Set, rng *rand.Rand) bool {
	for v := range d.owner {
		d.owner[v] = -1
	}
	for k := range m {
		d.val[k] = 0
		d.cand[k] = d.sets[d.order[k]] & avail
	}
	ok := true
	for k := range m {
		var seen Set
		if !d.augment(k, &seen) {
			ok = false
		}
	}
	left := avail
	for k := range m {
		left &^= Single(d.val[k])
	}
	for k := range m {
		if d.val[k] == 0 {
			if left == 0 { // givens repeat a symbol: nothing valid is left
				left = Full(d.n)
			}
			d.val[k] = left.Draw(rng)
			left &^= Single(d.val[k])
		}
		cells[d.order[k]] = d.val[k]
	}
	return ok
}

func (d *Domains) augment(k int, seen *Set) bool {
	for rest := d.cand[k] &^ *seen; rest != 0; rest &= rest - 1 {
		v := rest.Min()
		*seen |= Single(v)
		if d.owner[v] < 0 || d.augment(d.owner[v], seen) {
			d.val[k], d.owner[v] = v, k
			return true
		}
	}
	return false
}
