package cuckoo

import (
	"math"
	"math/rand/v2"

	"sudokulab/solvers/ac3"
)

// The geometric operators of Soto et al. 2014, section 4, on rows: each
// row of a nest is a permutation of 1..N that keeps the givens in place.
// They work for any N up to sudokulab.MaxN and allocate nothing.

// PMX writes into child the partially matched crossover of the rows p1 and
// p2 (section 4.1, Algorithm 2) with the segment lo..hi (0-based,
// inclusive): the segment is copied from p1; each value v of p2's segment
// that the child lacks is placed by following v's position in p2 to the
// value V of p1 there, then V's position in p2, until that position falls
// outside the segment; the remaining positions are copied from p2. Where
// both parents hold the same value (a given) the child holds it too. p1,
// p2 and child must have the same length and must not overlap.
func PMX(child, p1, p2 []uint8, lo, hi int) {
	var pos2 [33]int8 // pos2[v]: position of v in p2
	for k, v := range p2 {
		pos2[v] = int8(k)
	}
	var in ac3.Set // values already in child
	for k := range child {
		child[k] = 0
	}
	for k := lo; k <= hi; k++ {
		child[k] = p1[k]
		in |= ac3.Single(p1[k])
	}
	for k := lo; k <= hi; k++ {
		v := p2[k]
		if in.Has(v) {
			continue
		}
		pos := k
		for {
			pos = int(pos2[p1[pos]])
			if pos < lo || pos > hi {
				break
			}
		}
		child[pos] = v
		in |= ac3.Single(v)
	}
	for k := range child {
		if child[k] == 0 {
			child[k] = p2[k]
		}
	}
}

// MaskCounts returns how many entries of a mask of length n name each of
// the three parents for weights w (section 4.2, Example 2: "the weights
// represent the percentage of appearances of the given parent within the
// mask"): n*w/sum(w) rounded by largest remainder, so that the counts sum
// to n. For n = 9 and 0.55, 0.33, 0.12 they are 5, 3 and 1.
func MaskCounts(n int, w [3]float64) [3]int {
	total := w[0] + w[1] + w[2]
	var c [3]int
	var frac [3]float64
	sum := 0
	for k := range 3 {
		x := float64(n) * w[k] / total
		c[k] = int(math.Floor(x))
		frac[k] = x - float64(c[k])
		sum += c[k]
	}
	for ; sum < n; sum++ {
		best := 0
		for k := 1; k < 3; k++ {
			if frac[k] > frac[best] {
				best = k
			}
		}
		c[best]++
		frac[best] = -1
	}
	return c
}

// Mask fills mask with counts[k] entries k+1 for each parent k, in a
// uniformly random order.
func Mask(mask []uint8, counts [3]int, rng *rand.Rand) {
	i := 0
	for k, c := range counts {
		for range c {
			mask[i] = uint8(k + 1)
			i++
		}
	}
	for k := len(mask) - 1; k > 0; k-- {
		j := rng.IntN(k + 1)
		mask[k], mask[j] = mask[j], mask[k]
	}
}

// SortingCrossover writes into child the multiparental sorting crossover
// of rows p1, p2 and p3 under mask (section 4.2, Algorithms 3 and 4):
// scanning the mask, at position i the two parents not named by mask[i]
// swap the cell holding mask[i]'s parent's value at i into position i. The
// positions before i are never disturbed, so at the end the three parents
// are equal and are the child. The parents are not changed: the sorting
// works on child (a copy of p1) and work (length 2N, copies of p2 and p3).
func SortingCrossover(child, p1, p2, p3, mask, work []uint8) {
	n := len(child)
	rows := [3][]uint8{child, work[:n], work[n : 2*n]}
	copy(rows[0], p1)
	copy(rows[1], p2)
	copy(rows[2], p3)
	var pos [3][33]int8
	for r := range rows {
		for k, v := range rows[r] {
			pos[r][v] = int8(k)
		}
	}
	for i, m := range mask {
		target := rows[m-1][i]
		for r := range rows {
			row := rows[r]
			if row[i] == target {
				continue
			}
			j := int(pos[r][target])
			row[i], row[j] = row[j], row[i]
			pos[r][row[i]], pos[r][row[j]] = int8(i), int8(j)
		}
	}
}

// Mutate is the feasible geometric mutation (section 4.3, Algorithm 5): it
// swaps two cells of row that are both movable (not givens), drawn
// uniformly among such pairs; when dom is not nil, only among the pairs
// whose swap keeps both cells within their domains dom. It returns the
// positions swapped and false when no pair qualifies.
func Mutate(row []uint8, movable []bool, dom []ac3.Set, rng *rand.Rand) (int, int, bool) {
	ok := func(i, j int) bool {
		return movable[i] && movable[j] && (dom == nil || dom[i].Has(row[j]) && dom[j].Has(row[i]))
	}
	count := 0
	for i := range row {
		for j := i + 1; j < len(row); j++ {
			if ok(i, j) {
				count++
			}
		}
	}
	if count == 0 {
		return 0, 0, false
	}
	k := rng.IntN(count)
	for i := range row {
		for j := i + 1; j < len(row); j++ {
			if ok(i, j) {
				if k == 0 {
					row[i], row[j] = row[j], row[i]
					return i, j, true
				}
				k--
			}
		}
	}
	panic("unreachable")
}
