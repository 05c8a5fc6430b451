package raters

import (
	"math/bits"
	"slices"
)

// Technique is one solving technique of the human rater, in increasing
// order of difficulty: the rater always uses the easiest one that makes
// progress.
type Technique int

// The techniques, easiest first.
const (
	FullHouse Technique = iota
	NakedSingle
	HiddenSingle
	Pointing
	Claiming
	NakedPair
	HiddenPair
	NakedTriple
	HiddenTriple
	XWing
	NakedQuad
	HiddenQuad
	Swordfish
	Jellyfish
	RemotePair
	UniqueRectangle1
	XYWing
	XYZWing
	WWing
	SimpleColouring
	XChain
	XYChain
	AIC
	ALSXZ
	ALSXYWing
	ForcingNet
	numTechniques
)

// techniqueInfo gives each technique's name, weight (its contribution to
// the score each time it is applied) and level, after HoDoKu's
// (src/sudoku/Options.java, DEFAULT_SOLVER_STEPS: NICE_LOOP 280 and
// ALS_XZ 300, ALS_XY_WING 320 unfair, FORCING_NET 700 extreme).
var techniqueInfo = [numTechniques]struct {
	name   string
	weight int
	level  Level
}{
	FullHouse:        {"full-house", 4, Easy},
	NakedSingle:      {"naked-single", 4, Easy},
	HiddenSingle:     {"hidden-single", 14, Easy},
	Pointing:         {"pointing", 50, Medium},
	Claiming:         {"claiming", 50, Medium},
	NakedPair:        {"naked-pair", 60, Medium},
	HiddenPair:       {"hidden-pair", 70, Medium},
	NakedTriple:      {"naked-triple", 80, Medium},
	HiddenTriple:     {"hidden-triple", 100, Medium},
	XWing:            {"x-wing", 140, Hard},
	NakedQuad:        {"naked-quad", 120, Hard},
	HiddenQuad:       {"hidden-quad", 150, Hard},
	Swordfish:        {"swordfish", 150, Hard},
	Jellyfish:        {"jellyfish", 160, Hard},
	RemotePair:       {"remote-pair", 110, Hard},
	UniqueRectangle1: {"unique-rectangle-1", 100, Hard},
	XYWing:           {"xy-wing", 160, Hard},
	XYZWing:          {"xyz-wing", 180, Hard},
	WWing:            {"w-wing", 150, Hard},
	SimpleColouring:  {"simple-colouring", 150, Hard},
	XChain:           {"x-chain", 260, Unfair},
	XYChain:          {"xy-chain", 260, Unfair},
	AIC:              {"aic", 280, Unfair},
	ALSXZ:            {"als-xz", 300, Unfair},
	ALSXYWing:        {"als-xy-wing", 320, Unfair},
	ForcingNet:       {"forcing-net", 700, Extreme},
}

// String returns the technique's name, such as "hidden-single".
func (t Technique) String() string { return techniqueInfo[t].name }

// Weight returns the technique's score weight.
func (t Technique) Weight() int { return techniqueInfo[t].weight }

// Level is a difficulty level, in the style people know.
type Level int

// The levels; Beyond is for puzzles the rater cannot solve with its
// techniques (it never guesses).
const (
	Easy Level = iota
	Medium
	Hard
	Unfair
	Extreme
	Beyond
)

var levelNames = [...]string{"easy", "medium", "hard", "unfair", "extreme", "beyond"}

// String returns the level's label.
func (l Level) String() string { return levelNames[l] }

// Number returns the level's number, 1 for easy up to 6 for beyond, as
// the table rating_levels numbers the human rater's labels.
func (l Level) Number() int { return int(l) + 1 }

// longChain is the number of links above which a chain counts as extreme.
const longChain = 8

// Level returns the step's level: its technique's, except that chains of
// more than 8 links are extreme.
func (s Step) Level() Level {
	if s.Links > longChain {
		return Extreme
	}
	return techniqueInfo[s.Technique].level
}

// finders maps each technique to the function that finds its first
// instance in a position.
var finders = [numTechniques]func(p *Position) (Step, bool){
	FullHouse:        findFullHouse,
	NakedSingle:      findNakedSingle,
	HiddenSingle:     findHiddenSingle,
	Pointing:         findPointing,
	Claiming:         findClaiming,
	NakedPair:        func(p *Position) (Step, bool) { return findNakedSubset(p, 2, NakedPair) },
	HiddenPair:       func(p *Position) (Step, bool) { return findHiddenSubset(p, 2, HiddenPair) },
	NakedTriple:      func(p *Position) (Step, bool) { return findNakedSubset(p, 3, NakedTriple) },
	HiddenTriple:     func(p *Position) (Step, bool) { return findHiddenSubset(p, 3, HiddenTriple) },
	XWing:            func(p *Position) (Step, bool) { return findFish(p, 2, XWing) },
	NakedQuad:        func(p *Position) (Step, bool) { return findNakedSubset(p, 4, NakedQuad) },
	HiddenQuad:       func(p *Position) (Step, bool) { return findHiddenSubset(p, 4, HiddenQuad) },
	Swordfish:        func(p *Position) (Step, bool) { return findFish(p, 3, Swordfish) },
	Jellyfish:        func(p *Position) (Step, bool) { return findFish(p, 4, Jellyfish) },
	RemotePair:       findRemotePair,
	UniqueRectangle1: findUniqueRectangle1,
	XYWing:           findXYWing,
	XYZWing:          findXYZWing,
	WWing:            findWWing,
	SimpleColouring:  findSimpleColouring,
	XChain:           findXChain,
	XYChain:          findXYChain,
	AIC:              findAIC,
	ALSXZ:            findALSXZ,
	ALSXYWing:        findALSXYWing,
	ForcingNet:       findForcingNet,
}

// Find returns the first instance of technique t in p, if there is one
// that places a digit or eliminates a candidate.
func (p *Position) Find(t Technique) (Step, bool) { return finders[t](p) }

func findFullHouse(p *Position) (Step, bool) {
	for _, cells := range p.geo.Units {
		empty, seen := -1, uint32(0)
		nEmpty := 0
		for _, c := range cells {
			if p.values[c] == 0 {
				empty = c
				nEmpty++
			} else {
				seen |= 1 << (p.values[c] - 1)
			}
		}
		if nEmpty == 1 {
			missing := ^seen & (uint32(1)<<p.n - 1)
			if bits.OnesCount32(missing) == 1 && p.cands[empty]&missing != 0 {
				return Step{Technique: FullHouse, Placements: []Candidate{{empty, bits.TrailingZeros32(missing) + 1}}}, true
			}
		}
	}
	return Step{}, false
}

func findNakedSingle(p *Position) (Step, bool) {
	for c, m := range p.cands {
		if p.values[c] == 0 && bits.OnesCount32(m) == 1 {
			return Step{Technique: NakedSingle, Placements: []Candidate{{c, bits.TrailingZeros32(m) + 1}}}, true
		}
	}
	return Step{}, false
}

func findHiddenSingle(p *Position) (Step, bool) {
	for u, cells := range p.geo.Units {
		for d := 1; d <= p.n; d++ {
			m := p.unitMask(u, d)
			if bits.OnesCount32(m) == 1 {
				return Step{Technique: HiddenSingle, Placements: []Candidate{{cells[bits.TrailingZeros32(m)], d}}}, true
			}
		}
	}
	return Step{}, false
}

// findLocked finds a digit whose candidates in a unit of the base kind
// (rows 0, columns 1, boxes 2) all lie in one unit of another kind, and
// eliminates it from the rest of that unit.
func findLocked(p *Position, t Technique, baseKinds []int, coverKinds []int) (Step, bool) {
	n := p.n
	g := p.geo
	unitOf := func(kind, c int) int {
		switch kind {
		case 0:
			return g.Row[c]
		case 1:
			return n + g.Col[c]
		}
		return 2*n + g.Box[c]
	}
	for _, bk := range baseKinds {
		for b := bk * n; b < (bk+1)*n; b++ {
			for d := 1; d <= n; d++ {
				m := p.unitMask(b, d)
				if bits.OnesCount32(m) < 2 {
					continue
				}
				var cells []int
				for mm := m; mm != 0; mm &= mm - 1 {
					cells = append(cells, g.Units[b][bits.TrailingZeros32(mm)])
				}
				for _, ck := range coverKinds {
					cover := unitOf(ck, cells[0])
					same := true
					for _, c := range cells[1:] {
						if unitOf(ck, c) != cover {
							same = false
							break
						}
					}
					if !same {
						continue
					}
					var el []Candidate
					for _, c := range g.Units[cover] {
						if unitOf(bk, c) != b && p.Has(c, d) {
							el = append(el, Candidate{c, d})
						}
					}
					if len(el) > 0 {
						return Step{Technique: t, Eliminations: el}, true
					}
				}
			}
		}
	}
	return Step{}, false
}

// findPointing: a digit's candidates in a box lie in one row or column.
func findPointing(p *Position) (Step, bool) { return findLocked(p, Pointing, []int{2}, []int{0, 1}) }

// findClaiming: a digit's candidates in a row or column lie in one box.
func findClaiming(p *Position) (Step, bool) { return findLocked(p, Claiming, []int{0, 1}, []int{2}) }

// combinations calls f with each k-subset of items (in lexicographic
// order) until f returns true.
func combinations(items []int, k int, f func([]int) bool) bool {
	pick := make([]int, 0, k)
	var rec func(start int) bool
	rec = func(start int) bool {
		if len(pick) == k {
			return f(pick)
		}
		for i := start; i <= len(items)-(k-len(pick)); i++ {
			pick = append(pick, items[i])
			if rec(i + 1) {
				return true
			}
			pick = pick[:len(pick)-1]
		}
		return false
	}
	return rec(0)
}

// findNakedSubset: k empty cells of a unit whose candidates together are k
// digits; those digits leave the unit's other cells.
func findNakedSubset(p *Position, k int, t Technique) (Step, bool) {
	var step Step
	for _, cells := range p.geo.Units {
		if p.stopped() {
			return Step{}, false
		}
		var empty []int
		for _, c := range cells {
			if n := bits.OnesCount32(p.cands[c]); p.values[c] == 0 && n >= 2 && n <= k {
				empty = append(empty, c)
			}
		}
		found := combinations(empty, k, func(pick []int) bool {
			var union uint32
			for _, c := range pick {
				union |= p.cands[c]
			}
			if bits.OnesCount32(union) != k {
				return false
			}
			var el []Candidate
			for _, c := range cells {
				if !slices.Contains(pick, c) {
					el = p.elimsFrom(el, c, union)
				}
			}
			if len(el) == 0 {
				return false
			}
			step = Step{Technique: t, Eliminations: el}
			return true
		})
		if found {
			return step, true
		}
	}
	return Step{}, false
}

// findHiddenSubset: k digits of a unit whose candidates together lie in k
// cells; those cells lose their other candidates.
func findHiddenSubset(p *Position, k int, t Technique) (Step, bool) {
	var step Step
	for u, cells := range p.geo.Units {
		if p.stopped() {
			return Step{}, false
		}
		var ds []int
		for d := 1; d <= p.n; d++ {
			if n := bits.OnesCount32(p.unitMask(u, d)); n >= 2 && n <= k {
				ds = append(ds, d)
			}
		}
		found := combinations(ds, k, func(pick []int) bool {
			var where, digs uint32
			for _, d := range pick {
				where |= p.unitMask(u, d)
				digs |= 1 << (d - 1)
			}
			if bits.OnesCount32(where) != k {
				return false
			}
			var el []Candidate
			for m := where; m != 0; m &= m - 1 {
				el = p.elimsFrom(el, cells[bits.TrailingZeros32(m)], ^digs)
			}
			if len(el) == 0 {
				return false
			}
			step = Step{Technique: t, Eliminations: el}
			return true
		})
		if found {
			return step, true
		}
	}
	return Step{}, false
}

// findFish: for a digit, k rows (columns) whose candidates lie in k
// columns (rows) together; the digit leaves those columns (rows) outside
// the k base lines. Basic fish only: X-wing (2), swordfish (3), jellyfish
// (4).
func findFish(p *Position, k int, t Technique) (Step, bool) {
	n := p.n
	var step Step
	for d := 1; d <= n; d++ {
		if p.stopped() {
			return Step{}, false
		}
		for _, base := range []int{0, n} { // rows, then columns
			cover := n - base // columns for row bases, rows for column bases
			var lines []int
			for u := base; u < base+n; u++ {
				if c := bits.OnesCount32(p.unitMask(u, d)); c >= 2 && c <= k {
					lines = append(lines, u)
				}
			}
			found := combinations(lines, k, func(pick []int) bool {
				var union uint32
				for _, u := range pick {
					union |= p.unitMask(u, d)
				}
				if bits.OnesCount32(union) != k {
					return false
				}
				var el []Candidate
				for m := union; m != 0; m &= m - 1 {
					cu := cover + bits.TrailingZeros32(m)
					for i, c := range p.geo.Units[cu] {
						if !slices.Contains(pick, base+i) && p.Has(c, d) {
							el = append(el, Candidate{c, d})
						}
					}
				}
				if len(el) == 0 {
					return false
				}
				step = Step{Technique: t, Eliminations: el}
				return true
			})
			if found {
				return step, true
			}
		}
	}
	return Step{}, false
}
