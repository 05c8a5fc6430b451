package raters_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/raters"
)

// cell returns the index of the cell in row r, column c (1-based).
func cell(r, c int) int { return (r-1)*9 + c - 1 }

func row(r int) []int {
	var out []int
	for c := 1; c <= 9; c++ {
		out = append(out, cell(r, c))
	}
	return out
}

func col(c int) []int {
	var out []int
	for r := 1; r <= 9; r++ {
		out = append(out, cell(r, c))
	}
	return out
}

func box(b int) []int {
	r0, c0 := (b-1)/3*3+1, (b-1)%3*3+1
	var out []int
	for r := r0; r < r0+3; r++ {
		for c := c0; c < c0+3; c++ {
			out = append(out, cell(r, c))
		}
	}
	return out
}

// blank is the position of the empty 9x9 grid: every digit a candidate
// everywhere.
func blank() *raters.Position {
	return raters.NewPosition(sudokulab.MustParse(strings.Repeat(".", 81)))
}

// only removes digit d from cells, except from the cells in keep.
func only(p *raters.Position, cells []int, d int, keep ...int) {
	for _, c := range cells {
		if !slices.Contains(keep, c) {
			p.Remove(c, d)
		}
	}
}

// cands returns the candidates (c, d) for each digit d of ds.
func cands(c int, ds ...int) []raters.Candidate {
	var out []raters.Candidate
	for _, d := range ds {
		out = append(out, raters.Candidate{Cell: c, Digit: d})
	}
	return out
}

// digit returns the candidates (c, d) for each cell c of cells.
func digit(d int, cells ...int) []raters.Candidate {
	var out []raters.Candidate
	for _, c := range cells {
		out = append(out, raters.Candidate{Cell: c, Digit: d})
	}
	return out
}

func join(parts ...[]raters.Candidate) []raters.Candidate { return slices.Concat(parts...) }

func sorted(cs []raters.Candidate) []raters.Candidate {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b raters.Candidate) int {
		return cmp.Or(cmp.Compare(a.Cell, b.Cell), cmp.Compare(a.Digit, b.Digit))
	})
	return cs
}

func keep(p *raters.Position, c int, ds ...int) { p.Keep(c, ds...) }

func TestTechniques(t *testing.T) {
	tests := []struct {
		name   string
		tech   raters.Technique
		pos    func() *raters.Position
		place  []raters.Candidate
		elim   []raters.Candidate
		absent bool // the technique must find nothing
	}{
		{name: "full house", tech: raters.FullHouse,
			pos: func() *raters.Position {
				return raters.NewPosition(sudokulab.MustParse("12345678." + strings.Repeat(".", 72)))
			},
			place: cands(cell(1, 9), 9)},
		{name: "no full house", tech: raters.FullHouse, absent: true,
			pos: func() *raters.Position {
				return raters.NewPosition(sudokulab.MustParse("1234567.." + strings.Repeat(".", 72)))
			}},
		{name: "naked single", tech: raters.NakedSingle,
			pos:   func() *raters.Position { p := blank(); keep(p, cell(5, 5), 7); return p },
			place: cands(cell(5, 5), 7)},
		{name: "no naked single", tech: raters.NakedSingle, absent: true, pos: blank},
		{name: "hidden single", tech: raters.HiddenSingle,
			pos:   func() *raters.Position { p := blank(); only(p, row(2), 4, cell(2, 6)); return p },
			place: cands(cell(2, 6), 4)},
		{name: "no hidden single", tech: raters.HiddenSingle, absent: true,
			pos: func() *raters.Position { p := blank(); only(p, row(2), 4, cell(2, 6), cell(2, 7)); return p }},
		{name: "pointing", tech: raters.Pointing,
			pos: func() *raters.Position {
				p := blank()
				only(p, box(1), 5, cell(1, 1), cell(1, 2), cell(1, 3))
				return p
			},
			elim: digit(5, cell(1, 4), cell(1, 5), cell(1, 6), cell(1, 7), cell(1, 8), cell(1, 9))},
		{name: "no pointing", tech: raters.Pointing, absent: true,
			pos: func() *raters.Position { p := blank(); only(p, box(1), 5, cell(1, 1), cell(2, 2)); return p }},
		{name: "claiming", tech: raters.Claiming,
			pos:  func() *raters.Position { p := blank(); only(p, row(1), 5, cell(1, 1), cell(1, 3)); return p },
			elim: digit(5, cell(2, 1), cell(2, 2), cell(2, 3), cell(3, 1), cell(3, 2), cell(3, 3))},
		{name: "no claiming", tech: raters.Claiming, absent: true,
			pos: func() *raters.Position { p := blank(); only(p, row(1), 5, cell(1, 1), cell(1, 4)); return p }},
		{name: "naked pair", tech: raters.NakedPair,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 1, 2)
				return p
			},
			elim: join(cands(cell(1, 2), 1, 2), cands(cell(1, 3), 1, 2), cands(cell(1, 4), 1, 2), cands(cell(1, 6), 1, 2),
				cands(cell(1, 7), 1, 2), cands(cell(1, 8), 1, 2), cands(cell(1, 9), 1, 2))},
		{name: "no naked pair", tech: raters.NakedPair, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 1, 3)
				return p
			}},
		{name: "hidden pair", tech: raters.HiddenPair,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 2), cell(1, 8))
				only(p, row(1), 2, cell(1, 2), cell(1, 8))
				return p
			},
			elim: join(cands(cell(1, 2), 3, 4, 5, 6, 7, 8, 9), cands(cell(1, 8), 3, 4, 5, 6, 7, 8, 9))},
		{name: "no hidden pair", tech: raters.HiddenPair, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 2), cell(1, 8))
				only(p, row(1), 2, cell(1, 2), cell(1, 9))
				return p
			}},
		{name: "naked triple", tech: raters.NakedTriple,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(2, 4), 1, 2)
				keep(p, cell(5, 4), 2, 3)
				keep(p, cell(9, 4), 1, 3)
				return p
			},
			elim: join(cands(cell(1, 4), 1, 2, 3), cands(cell(3, 4), 1, 2, 3), cands(cell(4, 4), 1, 2, 3),
				cands(cell(6, 4), 1, 2, 3), cands(cell(7, 4), 1, 2, 3), cands(cell(8, 4), 1, 2, 3))},
		{name: "no naked triple", tech: raters.NakedTriple, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(2, 4), 1, 2)
				keep(p, cell(5, 4), 2, 3)
				keep(p, cell(9, 4), 1, 4)
				return p
			}},
		{name: "hidden triple", tech: raters.HiddenTriple,
			pos: func() *raters.Position {
				p := blank()
				for d := 1; d <= 3; d++ {
					only(p, box(5), d, cell(4, 4), cell(5, 5), cell(6, 6))
				}
				return p
			},
			elim: join(cands(cell(4, 4), 4, 5, 6, 7, 8, 9), cands(cell(5, 5), 4, 5, 6, 7, 8, 9), cands(cell(6, 6), 4, 5, 6, 7, 8, 9))},
		{name: "no hidden triple", tech: raters.HiddenTriple, absent: true,
			pos: func() *raters.Position {
				p := blank()
				for d := 1; d <= 3; d++ {
					only(p, box(5), d, cell(4, 4), cell(5, 5), cell(6, 6), cell(4, 6))
				}
				return p
			}},
		{name: "naked quad", tech: raters.NakedQuad,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 2), 2, 3)
				keep(p, cell(1, 3), 3, 4)
				keep(p, cell(1, 4), 1, 4)
				return p
			},
			elim: join(cands(cell(1, 5), 1, 2, 3, 4), cands(cell(1, 6), 1, 2, 3, 4), cands(cell(1, 7), 1, 2, 3, 4),
				cands(cell(1, 8), 1, 2, 3, 4), cands(cell(1, 9), 1, 2, 3, 4))},
		{name: "no naked quad", tech: raters.NakedQuad, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 2), 2, 3)
				keep(p, cell(1, 3), 3, 4)
				keep(p, cell(1, 4), 1, 5)
				return p
			}},
		{name: "hidden quad", tech: raters.HiddenQuad,
			pos: func() *raters.Position {
				p := blank()
				for d := 1; d <= 4; d++ {
					only(p, row(9), d, cell(9, 1), cell(9, 3), cell(9, 5), cell(9, 7))
				}
				return p
			},
			elim: join(cands(cell(9, 1), 5, 6, 7, 8, 9), cands(cell(9, 3), 5, 6, 7, 8, 9),
				cands(cell(9, 5), 5, 6, 7, 8, 9), cands(cell(9, 7), 5, 6, 7, 8, 9))},
		{name: "no hidden quad", tech: raters.HiddenQuad, absent: true,
			pos: func() *raters.Position {
				p := blank()
				for d := 1; d <= 4; d++ {
					only(p, row(9), d, cell(9, 1), cell(9, 3), cell(9, 5), cell(9, 7), cell(9, d+4))
				}
				return p
			}},
		{name: "x-wing", tech: raters.XWing,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 2), cell(1, 7))
				only(p, row(5), 1, cell(5, 2), cell(5, 7))
				return p
			},
			elim: digit(1, cell(2, 2), cell(3, 2), cell(4, 2), cell(6, 2), cell(7, 2), cell(8, 2), cell(9, 2),
				cell(2, 7), cell(3, 7), cell(4, 7), cell(6, 7), cell(7, 7), cell(8, 7), cell(9, 7))},
		{name: "no x-wing", tech: raters.XWing, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 2), cell(1, 7))
				only(p, row(5), 1, cell(5, 2), cell(5, 7), cell(5, 8))
				return p
			}},
		{name: "swordfish", tech: raters.Swordfish,
			pos: func() *raters.Position {
				p := blank()
				only(p, col(1), 3, cell(2, 1), cell(5, 1))
				only(p, col(4), 3, cell(5, 4), cell(9, 4))
				only(p, col(8), 3, cell(2, 8), cell(9, 8))
				return p
			},
			elim: digit(3, cell(2, 2), cell(2, 3), cell(2, 5), cell(2, 6), cell(2, 7), cell(2, 9),
				cell(5, 2), cell(5, 3), cell(5, 5), cell(5, 6), cell(5, 7), cell(5, 9),
				cell(9, 2), cell(9, 3), cell(9, 5), cell(9, 6), cell(9, 7), cell(9, 9))},
		{name: "no swordfish", tech: raters.Swordfish, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, col(1), 3, cell(2, 1), cell(5, 1))
				only(p, col(4), 3, cell(5, 4), cell(9, 4))
				only(p, col(8), 3, cell(2, 8), cell(8, 8))
				return p
			}},
		{name: "jellyfish", tech: raters.Jellyfish,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 9, cell(1, 1), cell(1, 2))
				only(p, row(3), 9, cell(3, 2), cell(3, 3))
				only(p, row(5), 9, cell(5, 3), cell(5, 4))
				only(p, row(7), 9, cell(7, 1), cell(7, 4))
				return p
			},
			elim: join(digit(9, cell(2, 1), cell(2, 2), cell(2, 3), cell(2, 4)), digit(9, cell(4, 1), cell(4, 2), cell(4, 3), cell(4, 4)),
				digit(9, cell(6, 1), cell(6, 2), cell(6, 3), cell(6, 4)), digit(9, cell(8, 1), cell(8, 2), cell(8, 3), cell(8, 4)),
				digit(9, cell(9, 1), cell(9, 2), cell(9, 3), cell(9, 4)))},
		{name: "no jellyfish", tech: raters.Jellyfish, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 9, cell(1, 1), cell(1, 2))
				only(p, row(3), 9, cell(3, 2), cell(3, 3))
				only(p, row(5), 9, cell(5, 3), cell(5, 4))
				only(p, row(7), 9, cell(7, 1), cell(7, 5))
				return p
			}},
		{name: "remote pair", tech: raters.RemotePair,
			pos: func() *raters.Position {
				p := blank()
				for _, c := range []int{cell(1, 1), cell(1, 5), cell(5, 5), cell(5, 9)} {
					keep(p, c, 1, 2)
				}
				return p
			},
			elim: join(cands(cell(1, 9), 1, 2), cands(cell(5, 1), 1, 2))},
		{name: "no remote pair", tech: raters.RemotePair, absent: true,
			pos: func() *raters.Position {
				p := blank()
				for _, c := range []int{cell(1, 1), cell(1, 5), cell(5, 5)} {
					keep(p, c, 1, 2)
				}
				keep(p, cell(5, 9), 1, 3)
				return p
			}},
		{name: "unique rectangle 1", tech: raters.UniqueRectangle1,
			pos: func() *raters.Position {
				p := blank()
				for _, c := range []int{cell(1, 1), cell(1, 2), cell(4, 1)} {
					keep(p, c, 1, 2)
				}
				keep(p, cell(4, 2), 1, 2, 5)
				return p
			},
			elim: cands(cell(4, 2), 1, 2)},
		{name: "no unique rectangle in four boxes", tech: raters.UniqueRectangle1, absent: true,
			pos: func() *raters.Position {
				p := blank()
				for _, c := range []int{cell(1, 1), cell(1, 4), cell(4, 1)} {
					keep(p, c, 1, 2)
				}
				keep(p, cell(4, 4), 1, 2, 5)
				return p
			}},
		{name: "no unique rectangle on a given", tech: raters.UniqueRectangle1, absent: true,
			pos: func() *raters.Position {
				// r1c2 is a given 3; the other corners are {1,2} and r4c2 {1,2,5}.
				p := raters.NewPosition(sudokulab.MustParse(".3" + strings.Repeat(".", 79)))
				for _, c := range []int{cell(1, 1), cell(4, 1)} {
					keep(p, c, 1, 2)
				}
				keep(p, cell(4, 2), 1, 2, 5)
				return p
			}},
		{name: "xy-wing", tech: raters.XYWing,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 1, 3)
				keep(p, cell(5, 1), 2, 3)
				return p
			},
			elim: cands(cell(5, 5), 3)},
		{name: "no xy-wing", tech: raters.XYWing, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 1, 3)
				keep(p, cell(5, 1), 2, 4)
				return p
			}},
		{name: "xyz-wing", tech: raters.XYZWing,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2, 3)
				keep(p, cell(1, 5), 1, 3)
				keep(p, cell(2, 2), 2, 3)
				return p
			},
			elim: join(cands(cell(1, 2), 3), cands(cell(1, 3), 3))},
		{name: "no xyz-wing", tech: raters.XYZWing, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2, 3)
				keep(p, cell(1, 5), 1, 3)
				keep(p, cell(2, 2), 2, 4)
				return p
			}},
		{name: "w-wing", tech: raters.WWing,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(5, 5), 1, 2)
				only(p, row(9), 1, cell(9, 1), cell(9, 5))
				return p
			},
			elim: join(cands(cell(1, 5), 2), cands(cell(5, 1), 2))},
		{name: "no w-wing", tech: raters.WWing, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(5, 5), 1, 2)
				only(p, row(9), 1, cell(9, 1), cell(9, 5), cell(9, 9))
				return p
			}},
		{name: "simple colouring wrap", tech: raters.SimpleColouring,
			pos: func() *raters.Position {
				// r1c1 = r1c5 - r5c5 = r4c4 - r4c1: r1c1, r5c5 and r4c1 have one
				// colour, and r1c1 sees r4c1.
				p := blank()
				only(p, row(1), 1, cell(1, 1), cell(1, 5))
				only(p, col(5), 1, cell(1, 5), cell(5, 5))
				only(p, box(5), 1, cell(5, 5), cell(4, 4))
				only(p, row(4), 1, cell(4, 4), cell(4, 1))
				return p
			},
			elim: digit(1, cell(1, 1), cell(4, 1), cell(5, 5))},
		{name: "simple colouring trap", tech: raters.SimpleColouring,
			pos: func() *raters.Position {
				// r1c1 = r1c5 = r2c6 = r2c2: r1c1 and r2c2 have different
				// colours; r3c1..r3c3 see both.
				p := blank()
				only(p, row(1), 1, cell(1, 1), cell(1, 5))
				only(p, box(2), 1, cell(1, 5), cell(2, 6))
				only(p, row(2), 1, cell(2, 6), cell(2, 2))
				return p
			},
			elim: digit(1, cell(3, 1), cell(3, 2), cell(3, 3))},
		{name: "no simple colouring", tech: raters.SimpleColouring, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 1), cell(1, 5))
				only(p, col(5), 1, cell(1, 5), cell(5, 5))
				return p
			}},
		{name: "x-chain", tech: raters.XChain,
			pos: func() *raters.Position {
				// r1c1 = r1c5 - r5c5 = r6c6: r6c1 sees both ends.
				p := blank()
				only(p, row(1), 1, cell(1, 1), cell(1, 5))
				only(p, box(5), 1, cell(5, 5), cell(6, 6))
				return p
			},
			elim: digit(1, cell(6, 1))},
		{name: "no x-chain", tech: raters.XChain, absent: true,
			pos: func() *raters.Position {
				p := blank()
				only(p, row(1), 1, cell(1, 1), cell(1, 5))
				only(p, box(5), 1, cell(5, 5), cell(6, 6), cell(4, 4))
				return p
			}},
		{name: "xy-chain", tech: raters.XYChain,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 2, 3)
				keep(p, cell(5, 5), 3, 4)
				keep(p, cell(5, 9), 4, 1)
				return p
			},
			elim: join(cands(cell(1, 9), 1), cands(cell(5, 1), 1))},
		{name: "no xy-chain", tech: raters.XYChain, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 5), 2, 3)
				keep(p, cell(5, 5), 3, 4)
				keep(p, cell(5, 9), 4, 5)
				return p
			}},
		{name: "aic", tech: raters.AIC,
			pos: func() *raters.Position {
				// (r1c1,1) = (r1c1,2) - (r1c5,2) = (r4c5,2) - (r4c5,3) = (r4c1,3):
				// r1c1 is 1 or r4c1 is 3, and r4c1 sees r1c1: r4c1 is not 1.
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				only(p, row(1), 2, cell(1, 1), cell(1, 5))
				only(p, col(5), 2, cell(1, 5), cell(4, 5))
				only(p, row(4), 3, cell(4, 1), cell(4, 5))
				return p
			},
			elim: cands(cell(4, 1), 1)},
		{name: "no aic", tech: raters.AIC, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				only(p, row(1), 2, cell(1, 1), cell(1, 5))
				return p
			}},
		{name: "als-xz", tech: raters.ALSXZ,
			pos: func() *raters.Position {
				// A = r1c1 {1,2}, B = r5c1 {1,3} + r5c2 {2,3}; x = 1 (r1c1 sees
				// r5c1), z = 2: 2 leaves the cells that see r1c1 and r5c2.
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(5, 1), 1, 3)
				keep(p, cell(5, 2), 2, 3)
				return p
			},
			elim: digit(2, cell(1, 2), cell(2, 2), cell(3, 2), cell(4, 1), cell(6, 1))},
		{name: "no als-xz", tech: raters.ALSXZ, absent: true,
			pos: func() *raters.Position {
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(5, 5), 1, 3)
				return p
			}},
		{name: "als-xy-wing", tech: raters.ALSXYWing,
			pos: func() *raters.Position {
				// A = r1c1 {1,4}, B = r9c9 {2,4}, C = r1c9 + r2c9 {1,2,3} (two cells
				// of column 9 holding 1, 2, 3): x = 1 joins A and C (r1c1 sees the
				// 1 of C, r1c9), y = 2 joins B and C (r9c9 sees both cells of C);
				// 4 leaves the cells that see r1c1 and r9c9: r1c9 (in C, holding
				// no 4) and r9c1.
				p := blank()
				keep(p, cell(1, 1), 1, 4)
				keep(p, cell(9, 9), 2, 4)
				keep(p, cell(1, 9), 1, 2)
				keep(p, cell(2, 9), 2, 3)
				return p
			},
			elim: cands(cell(9, 1), 4)},
		{name: "forcing net", tech: raters.ForcingNet,
			pos: func() *raters.Position {
				// r1c3 = 1 leaves r1c1 and r1c2 both 2.
				p := blank()
				keep(p, cell(1, 1), 1, 2)
				keep(p, cell(1, 2), 1, 2)
				keep(p, cell(1, 3), 1, 2, 3)
				return p
			},
			elim: cands(cell(1, 3), 1)},
		{name: "no forcing net", tech: raters.ForcingNet, absent: true, pos: blank},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := tt.pos().Find(tt.tech)
			if tt.absent {
				if ok {
					t.Fatalf("found %+v, want nothing", s)
				}
				return
			}
			if !ok {
				t.Fatal("found nothing")
			}
			if s.Technique != tt.tech {
				t.Errorf("technique %s, want %s", s.Technique, tt.tech)
			}
			if got, want := sorted(s.Placements), sorted(tt.place); !slices.Equal(got, want) {
				t.Errorf("placements %v, want %v", got, want)
			}
			if got, want := sorted(s.Eliminations), sorted(tt.elim); !slices.Equal(got, want) {
				t.Errorf("eliminations %v, want %v", got, want)
			}
		})
	}
}
