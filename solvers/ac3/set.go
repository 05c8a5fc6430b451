package ac3

import (
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Set is a set of symbols 1..N as a bitset: bit v-1 stands for symbol v.
// N is at most sudokulab.MaxN (32), so a Set fits in a uint32. The zero Set
// is empty.
type Set uint32

// Full returns the set of all symbols 1..n.
func Full(n int) Set { return Set(uint64(1)<<n - 1) }

// Single returns the set holding only v; Single(0) is empty.
func Single(v uint8) Set {
	if v == 0 {
		return 0
	}
	return 1 << (v - 1)
}

// Of returns the set of the given symbols, ignoring zeros.
func Of(vs ...uint8) Set {
	var s Set
	for _, v := range vs {
		s |= Single(v)
	}
	return s
}

// Has reports whether v is in s.
func (s Set) Has(v uint8) bool { return v != 0 && s&(1<<(v-1)) != 0 }

// Len returns the number of symbols in s.
func (s Set) Len() int { return bits.OnesCount32(uint32(s)) }

// Only returns the symbol of a one-symbol set and true, or 0 and false.
func (s Set) Only() (uint8, bool) {
	if s == 0 || s&(s-1) != 0 {
		return 0, false
	}
	return uint8(bits.TrailingZeros32(uint32(s)) + 1), true
}

// Min returns the smallest symbol of s, or 0 for the empty set.
func (s Set) Min() uint8 {
	if s == 0 {
		return 0
	}
	return uint8(bits.TrailingZeros32(uint32(s)) + 1)
}

// Nth returns the k-th smallest symbol of s, counting from 0, or 0 if s has
// no more than k symbols.
func (s Set) Nth(k int) uint8 {
	for ; k > 0 && s != 0; k-- {
		s &= s - 1
	}
	return s.Min()
}

// Draw returns a symbol of s drawn uniformly with rng, or 0 (drawing
// nothing from rng) when s is empty. A one-symbol set also draws nothing,
// so fixed cells do not disturb the random sequence.
func (s Set) Draw(rng *rand.Rand) uint8 {
	switch n := s.Len(); n {
	case 0:
		return 0
	case 1:
		return s.Min()
	default:
		return s.Nth(rng.IntN(n))
	}
}

// String writes s as "{1,4,9}".
func (s Set) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for first := true; s != 0; s &= s - 1 {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Itoa(int(s.Min())))
	}
	b.WriteByte('}')
	return b.String()
}
