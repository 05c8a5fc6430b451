//go:build !(goexperiment.simd && amd64)

package triad

import "math/bits"

// simd reports whether this build uses vector instructions; see Available.
const simd = false

// cpuOK is whether the processor runs the vector build; the portable build
// runs everywhere.
func cpuOK() bool { return true }

// clearUpper has nothing to do: the portable build leaves no vector state.
func clearUpper() {}

// initVectors has nothing to do: the portable build has no vector
// constants.
func initVectors() {}

// v16 is sixteen 16-bit lanes, the portable twin of a 256-bit vector. Its
// methods mean exactly what the vector build's do, lane by lane, so that
// the engine gives the same results, decisions included, in both builds.
type v16 [16]uint16

// v08 is eight 16-bit lanes, the portable twin of a 128-bit vector.
type v08 [8]uint16

func mk16(a [16]uint16) v16 { return v16(a) }
func mk08(a [8]uint16) v08  { return v08(a) }

func all16(x uint16) (r v16) {
	for i := range r {
		r[i] = x
	}
	return r
}

func all08(x uint16) (r v08) {
	for i := range r {
		r[i] = x
	}
	return r
}

// join puts lo in lanes 0-7 and hi in lanes 8-15.
func join(lo, hi v08) (r v16) {
	copy(r[:8], lo[:])
	copy(r[8:], hi[:])
	return r
}

// withHi puts lo in lanes 0-7 and the lanes 8-15 of x in lanes 8-15:
// join(lo, x.hi()).
func withHi(lo v08, x v16) (r v16) {
	copy(r[:8], lo[:])
	copy(r[8:], x[8:])
	return r
}

func (x v16) lo() (r v08) { copy(r[:], x[:8]); return r }
func (x v16) hi() (r v08) { copy(r[:], x[8:]); return r }

func (x v16) and(y v16) (r v16) {
	for i := range r {
		r[i] = x[i] & y[i]
	}
	return r
}

func (x v16) or(y v16) (r v16) {
	for i := range r {
		r[i] = x[i] | y[i]
	}
	return r
}

func (x v16) xor(y v16) (r v16) {
	for i := range r {
		r[i] = x[i] ^ y[i]
	}
	return r
}

// andNot is x &^ y.
func (x v16) andNot(y v16) (r v16) {
	for i := range r {
		r[i] = x[i] &^ y[i]
	}
	return r
}

// popcounts counts the bits of each lane.
func (x v16) popcounts() (r v16) {
	for i := range r {
		r[i] = uint16(bits.OnesCount16(x[i]))
	}
	return r
}

// andWhereEqual keeps the lanes of x where a and b are equal.
func andWhereEqual(x, a, b v16) (r v16) {
	for i := range r {
		if a[i] == b[i] {
			r[i] = x[i]
		}
	}
	return r
}

// anyLess reports whether a lane of x is below the same lane of y.
func (x v16) anyLess(y v16) bool {
	for i := range x {
		if x[i] < y[i] {
			return true
		}
	}
	return false
}

func (x v16) intersects(y v16) bool {
	for i := range x {
		if x[i]&y[i] != 0 {
			return true
		}
	}
	return false
}

// subsetOf reports whether every bit of x is in y.
func (x v16) subsetOf(y v16) bool {
	for i := range x {
		if x[i]&^y[i] != 0 {
			return false
		}
	}
	return true
}

// nonZero is 0xffff in the lanes of x that are not zero.
func (x v16) nonZero() (r v16) {
	for i := range r {
		if x[i] != 0 {
			r[i] = 0xffff
		}
	}
	return r
}

// shuffle is a byte shuffle within each 128-bit half (VPSHUFB): each
// control byte picks a byte of its own half by its low four bits, or zero
// when its high bit is set.
func (x v16) shuffle(c v16) (r v16) {
	for k := range r {
		g := k / 8 * 8
		r[k] = uint16(pickByte(x[g:g+8], byte(c[k]))) | uint16(pickByte(x[g:g+8], byte(c[k]>>8)))<<8
	}
	return r
}

// pickByte is byte c&15 of the eight lanes, or zero when c's high bit is set.
func pickByte(lanes []uint16, c byte) byte {
	if c&0x80 != 0 {
		return 0
	}
	return byte(lanes[c&15/2] >> (8 * (c & 1)))
}

// rotRows rotates the four lanes of each 64-bit row by one: lane i takes
// lane i+1.
func (x v16) rotRows() (r v16) {
	for k := range r {
		r[k] = x[k&^3|(k+1)&3]
	}
	return r
}

// rotRows2 rotates the lanes of each row by two.
func (x v16) rotRows2() (r v16) {
	for k := range r {
		r[k] = x[k&^3|(k+2)&3]
	}
	return r
}

// rotCols rotates the four rows by one: row q takes row q+1.
func (x v16) rotCols() (r v16) {
	for k := range r {
		r[k] = x[(k+4)&15]
	}
	return r
}

// rotCols2 rotates the rows by two.
func (x v16) rotCols2() (r v16) {
	for k := range r {
		r[k] = x[(k+8)&15]
	}
	return r
}

// lanes returns the sixteen lanes.
func (x v16) lanes() [16]uint16 { return x }

// store writes the sixteen lanes to a.
func (x v16) store(a *[16]uint16) { *a = x }

func (x v08) and(y v08) (r v08) {
	for i := range r {
		r[i] = x[i] & y[i]
	}
	return r
}

func (x v08) or(y v08) (r v08) {
	for i := range r {
		r[i] = x[i] | y[i]
	}
	return r
}

func (x v08) xor(y v08) (r v08) {
	for i := range r {
		r[i] = x[i] ^ y[i]
	}
	return r
}

func (x v08) andNot(y v08) (r v08) {
	for i := range r {
		r[i] = x[i] &^ y[i]
	}
	return r
}

func (x v08) intersects(y v08) bool {
	for i := range x {
		if x[i]&y[i] != 0 {
			return true
		}
	}
	return false
}

func (x v08) isZero() bool { return x == v08{} }

// popcount counts the bits of all lanes.
func (x v08) popcount() int {
	n := 0
	for _, l := range x {
		n += bits.OnesCount16(l)
	}
	return n
}

// shuffle is a byte shuffle of the 16 bytes (PSHUFB).
func (x v08) shuffle(c v08) (r v08) {
	for k := range r {
		r[k] = uint16(pickByte(x[:], byte(c[k]))) | uint16(pickByte(x[:], byte(c[k]>>8)))<<8
	}
	return r
}

// rotCols swaps the two 64-bit halves.
func (x v08) rotCols() (r v08) {
	for k := range r {
		r[k] = x[(k+4)&7]
	}
	return r
}

// lowBit keeps the lowest set bit of each lane.
func (x v08) lowBit() (r v08) {
	for i := range r {
		r[i] = x[i] & -x[i]
	}
	return r
}

// clearLowBit clears the lowest set bit of the 128-bit value.
func (x v08) clearLowBit() v08 {
	for i := range x {
		if x[i] != 0 {
			x[i] &= x[i] - 1
			return x
		}
	}
	return x
}
