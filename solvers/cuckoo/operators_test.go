package cuckoo_test

import (
	"fmt"
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/solvers/ac3"
	"sudokulab/solvers/cuckoo"
)

func row(s string) []uint8 {
	r := make([]uint8, len(s))
	for i := range s {
		r[i] = s[i] - '0'
	}
	return r
}

func str(r []uint8) string {
	b := make([]byte, len(r))
	for i, v := range r {
		b[i] = '0' + v
	}
	return string(b)
}

func isPermutation(r []uint8) bool { return ac3.Of(r...) == ac3.Full(len(r)) }

// TestPMXExample1 is the paper's Example 1 (section 4.1). The extracted
// text lost the rows but kept every step: with the segment at indices 4 to
// 8 (1-based), "4" is the first value of Parent2's segment missing from the
// child, at index 5 of Parent2; V = Parent1[5] = 6, at index 7 of Parent2
// (inside the segment); then V = Parent1[7] = 5, at index 6 of Parent2
// (inside); then V = Parent1[6] = 2, at index 3 of Parent2 (outside), so
// the child gets 4 at index 3. Next "7" (index 8 of Parent2) gives V =
// Parent1[8] = 1, at index 2 of Parent2 (outside): the child gets 7 at
// index 2. This pins Parent2 = ? 1 2 3 4 5 6 7 ? and Parent1 = ? ? ? 3 6 2
// 5 1 ?, the classic PMX tutorial example (Parent1 = 8 4 7 3 6 2 5 1 9 0,
// Parent2 = 0 1 2 3 4 5 6 7 8 9) on nine digits: we take Parent1 = 8 4 7 3
// 6 2 5 1 9 and both completions of Parent2's ends.
func TestPMXExample1(t *testing.T) {
	tests := []struct {
		p1, p2, want string
	}{
		{"847362519", "912345678", "974362518"},
		{"847362519", "812345679", "874362519"},
	}
	for _, tt := range tests {
		child := make([]uint8, 9)
		cuckoo.PMX(child, row(tt.p1), row(tt.p2), 3, 7)
		if got := str(child); got != tt.want {
			t.Errorf("PMX(%s, %s, 4..8) = %s, want %s", tt.p1, tt.p2, got, tt.want)
		}
	}
}

// TestPMXProperties: on random rows sharing givens the child is a
// permutation, holds Parent1's segment, and keeps every given.
func TestPMXProperties(t *testing.T) {
	rng := sudokulab.NewRand(1)
	given := []bool{false, false, true, false, false, true, false, false, false}
	base := row("123456789")
	for range 2000 {
		p1, p2 := slices.Clone(base), slices.Clone(base)
		shuffleFree(p1, given, rng.IntN)
		shuffleFree(p2, given, rng.IntN)
		lo, hi := rng.IntN(9), rng.IntN(9)
		if lo > hi {
			lo, hi = hi, lo
		}
		child := make([]uint8, 9)
		cuckoo.PMX(child, p1, p2, lo, hi)
		if !isPermutation(child) || !slices.Equal(child[lo:hi+1], p1[lo:hi+1]) {
			t.Fatalf("PMX(%s, %s, %d..%d) = %s", str(p1), str(p2), lo, hi, str(child))
		}
		for k, g := range given {
			if g && child[k] != base[k] {
				t.Fatalf("PMX moved the given at %d: %s", k, str(child))
			}
		}
	}
}

func shuffleFree(r []uint8, fixed []bool, intn func(int) int) {
	var idx []int
	for k, f := range fixed {
		if !f {
			idx = append(idx, k)
		}
	}
	for k := len(idx) - 1; k > 0; k-- {
		j := intn(k + 1)
		r[idx[k]], r[idx[j]] = r[idx[j]], r[idx[k]]
	}
}

func TestMaskCounts(t *testing.T) {
	tests := []struct {
		n    int
		w    [3]float64
		want [3]int
	}{
		{9, [3]float64{0.55, 0.33, 0.12}, [3]int{5, 3, 1}}, // Example 2
		{4, [3]float64{0.55, 0.33, 0.12}, [3]int{2, 1, 1}},
		{16, [3]float64{0.55, 0.33, 0.12}, [3]int{9, 5, 2}},
		{9, [3]float64{1, 0, 0}, [3]int{9, 0, 0}},
		{9, [3]float64{1, 1, 1}, [3]int{3, 3, 3}},
	}
	for _, tt := range tests {
		if got := cuckoo.MaskCounts(tt.n, tt.w); got != tt.want {
			t.Errorf("MaskCounts(%d, %v) = %v, want %v", tt.n, tt.w, got, tt.want)
		}
	}
	mask := make([]uint8, 9)
	cuckoo.Mask(mask, [3]int{5, 3, 1}, sudokulab.NewRand(2))
	var c [4]int
	for _, m := range mask {
		c[m]++
	}
	if c != [4]int{0, 5, 3, 1} {
		t.Errorf("mask %v has counts %v", mask, c)
	}
}

// TestSortingCrossoverExample2 is the paper's Example 2 (section 4.2). The
// text kept the weights (0.55, 0.33, 0.12: Parent1 five times in the mask,
// Parent2 three times, Parent3 once), that the mask starts with 3 and then
// 1, that Parent3 starts with 4, and the child, 4 8 2 3 6 7 9 5 1; the
// parents and the rest of the mask were lost. We chose parents and a mask
// with those properties and traced Algorithm 3 by hand:
//
//	mask 3 1 1 2 1 2 1 1 2
//	P1 1 8 2 3 6 7 9 5 4   P2 8 4 2 3 7 6 9 1 5   P3 4 1 8 2 3 6 7 9 5
//	i=1 (P3: 4): P1 swaps positions 1,9 -> 4 8 2 3 6 7 9 5 1; P2 swaps 1,2 -> 4 8 2 3 7 6 9 1 5
//	i=2 (P1: 8): P3 swaps 2,3 -> 4 8 1 2 3 6 7 9 5
//	i=3 (P1: 2): P3 swaps 3,4 -> 4 8 2 1 3 6 7 9 5
//	i=4 (P2: 3): P3 swaps 4,5 -> 4 8 2 3 1 6 7 9 5
//	i=5 (P1: 6): P2 swaps 5,6 -> 4 8 2 3 6 7 9 1 5; P3 swaps 5,6 -> 4 8 2 3 6 1 7 9 5
//	i=6 (P2: 7): P3 swaps 6,7 -> 4 8 2 3 6 7 1 9 5
//	i=7 (P1: 9): P3 swaps 7,8 -> 4 8 2 3 6 7 9 1 5
//	i=8 (P1: 5): P2 and P3 swap 8,9 -> 4 8 2 3 6 7 9 5 1
//	i=9 (P2: 1): all equal: the child 4 8 2 3 6 7 9 5 1.
func TestSortingCrossoverExample2(t *testing.T) {
	p1, p2, p3 := row("182367954"), row("842376915"), row("418236795")
	mask := row("311212112")
	child, work := make([]uint8, 9), make([]uint8, 18)
	cuckoo.SortingCrossover(child, p1, p2, p3, mask, work)
	if got := str(child); got != "482367951" {
		t.Errorf("child %s, want 482367951", got)
	}
	if str(p1) != "182367954" || str(p2) != "842376915" || str(p3) != "418236795" {
		t.Errorf("parents changed: %s %s %s", str(p1), str(p2), str(p3))
	}
}

// TestSortingCrossoverProperties: the child is a permutation that keeps
// the givens; the first free position takes the value of the parent the
// mask names; a mask naming one parent only copies it.
func TestSortingCrossoverProperties(t *testing.T) {
	rng := sudokulab.NewRand(3)
	given := []bool{true, false, false, false, true, false, false, false, false}
	base := row("123456789")
	child, work, mask := make([]uint8, 9), make([]uint8, 18), make([]uint8, 9)
	for range 2000 {
		ps := [3][]uint8{slices.Clone(base), slices.Clone(base), slices.Clone(base)}
		for _, p := range ps {
			shuffleFree(p, given, rng.IntN)
		}
		cuckoo.Mask(mask, cuckoo.MaskCounts(9, [3]float64{0.55, 0.33, 0.12}), rng)
		cuckoo.SortingCrossover(child, ps[0], ps[1], ps[2], mask, work)
		if !isPermutation(child) || child[0] != 1 || child[4] != 5 {
			t.Fatalf("child %s of %s %s %s mask %s", str(child), str(ps[0]), str(ps[1]), str(ps[2]), str(mask))
		}
		// Position 1 is a given, so nothing is swapped there and position
		// 2 takes the value of the parent the mask names.
		if want := ps[mask[1]-1][1]; child[1] != want {
			t.Fatalf("position 2: child %s, parent %d has %d", str(child), mask[1], want)
		}
		for k := range 3 {
			for i := range mask {
				mask[i] = uint8(k + 1)
			}
			cuckoo.SortingCrossover(child, ps[0], ps[1], ps[2], mask, work)
			if !slices.Equal(child, ps[k]) {
				t.Fatalf("mask of parent %d: child %s, parent %s", k+1, str(child), str(ps[k]))
			}
		}
	}
}

// TestMutateExample3 is the paper's Example 3 (section 4.3): the fourth
// cell of the row holds the given 3, so a mutation may swap any two other
// cells and never the fourth. The rows themselves were lost; we take the
// given row . . . 3 . . . . . and the candidate 1 2 4 3 5 6 7 8 9.
func TestMutateExample3(t *testing.T) {
	given := row("000300000")
	movable := make([]bool, 9)
	for k, g := range given {
		movable[k] = g == 0
	}
	rng := sudokulab.NewRand(4)
	pairs := map[[2]int]int{}
	for range 28 * 400 {
		r := row("124356789")
		i, j, ok := cuckoo.Mutate(r, movable, nil, rng)
		if !ok || i == 3 || j == 3 || r[3] != 3 || !isPermutation(r) {
			t.Fatalf("mutation (%d, %d, %v) gave %s", i, j, ok, str(r))
		}
		want := row("124356789")
		want[i], want[j] = want[j], want[i]
		if !slices.Equal(r, want) {
			t.Fatalf("mutation (%d, %d) gave %s", i, j, str(r))
		}
		pairs[[2]int{i, j}]++
	}
	// All 28 pairs of the eight free cells, each about 400 times.
	if len(pairs) != 28 {
		t.Errorf("%d pairs drawn, want 28", len(pairs))
	}
	for p, c := range pairs {
		if c < 300 || c > 500 {
			t.Errorf("pair %v drawn %d times", p, c)
		}
	}
	// Allowed: cells 1 and 2 (1-based) -> 2 1 4 3 ...; forbidden: any pair
	// with cell 4, which no draw made. With domains, only swaps that keep
	// both cells in their domains: here cell 1 may hold {1,2} and cell 2
	// {1,2}, the others only their value, so the one allowed swap is (1, 2).
	dom := []ac3.Set{ac3.Of(1, 2), ac3.Of(1, 2), ac3.Of(4), ac3.Of(3), ac3.Of(5), ac3.Of(6), ac3.Of(7), ac3.Of(8), ac3.Of(9)}
	r := row("124356789")
	if i, j, ok := cuckoo.Mutate(r, movable, dom, rng); !ok || i != 0 || j != 1 || str(r) != "214356789" {
		t.Errorf("mutation within domains: (%d, %d, %v) %s", i, j, ok, str(r))
	}
	dom[0] = ac3.Of(1)
	if _, _, ok := cuckoo.Mutate(row("124356789"), movable, dom, rng); ok {
		t.Errorf("a mutation leaving the domains was made")
	}
}

func ExamplePMX() {
	child := make([]uint8, 9)
	cuckoo.PMX(child, []uint8{8, 4, 7, 3, 6, 2, 5, 1, 9}, []uint8{9, 1, 2, 3, 4, 5, 6, 7, 8}, 3, 7)
	fmt.Println(child)
	// Output: [9 7 4 3 6 2 5 1 8]
}
