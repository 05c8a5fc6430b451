//go:build goexperiment.simd && amd64

package triad

import (
	"math/bits"
	"simd/archsimd"
)

// simd reports whether this build uses vector instructions; see Available.
const simd = true

// cpuOK reports whether the processor has AVX2, which every operation
// below needs; AVX-512 BITALG, when present, counts bits in one instruction.
func cpuOK() bool { return archsimd.X86.AVX2() }

// clearUpper zeroes the upper halves of the vector registers (VZEROUPPER),
// so that the legacy SSE instructions of the Go code that runs next pay no
// penalty for them on Intel processors.
func clearUpper() { archsimd.ClearAVXUpperBits() }

// bitalg is whether VPOPCNTW is there.
var bitalg bool

// v16 is a 256-bit vector of sixteen 16-bit lanes.
type v16 struct{ v archsimd.Uint16x16 }

// v08 is eight 16-bit lanes, held in the low half of a 256-bit vector
// whose high half is zero. Go 1.26 moves, spills and reloads 128-bit
// vectors with legacy SSE instructions (MOVUPS; go.dev/issue/80835), and
// on Intel processors each of those, once 256-bit instructions have left
// the upper halves dirty, costs a false dependency and a merge: the
// engine ran 8x slower on an Emerald Rapids Xeon than with only 256-bit
// values, which the compiler moves with VEX instructions (VMOVDQU). Every
// operation below keeps the high half zero.
type v08 struct{ v archsimd.Uint16x16 }

func mk16(a [16]uint16) v16 { return v16{archsimd.LoadUint16x16(&a)} }
func mk08(a [8]uint16) v08 {
	var b [16]uint16
	copy(b[:8], a[:])
	return v08{archsimd.LoadUint16x16(&b)}
}

func all16(x uint16) v16 { return v16{archsimd.BroadcastUint16x16(x)} }
func all08(x uint16) v08 { return v08{archsimd.BroadcastUint16x16(x).And(lowHalf)} }

// join puts lo in lanes 0-7 and hi in lanes 8-15.
func join(lo, hi v08) v16 { return v16{lo.v.Select128FromPair(0, 2, hi.v)} }

// withHi puts lo in lanes 0-7 and the lanes 8-15 of x in lanes 8-15:
// join(lo, x.hi()) without moving x's high half across (the high half
// of lo is zero).
func withHi(lo v08, x v16) v16 { return v16{x.v.AndNot(lowHalf).Or(lo.v)} }

func (x v16) lo() v08 { return v08{x.v.And(lowHalf)} }
func (x v16) hi() v08 {
	var z archsimd.Uint16x16
	return v08{x.v.Select128FromPair(1, 2, z)}
}

func (x v16) and(y v16) v16    { return v16{x.v.And(y.v)} }
func (x v16) or(y v16) v16     { return v16{x.v.Or(y.v)} }
func (x v16) xor(y v16) v16    { return v16{x.v.Xor(y.v)} }
func (x v16) andNot(y v16) v16 { return v16{x.v.AndNot(y.v)} }

// Constants of popcounts' nibble lookup.
var nibbleCounts, low4 archsimd.Uint16x16

// popcounts counts the bits of each lane, whose high 7 bits are zero.
func (x v16) popcounts() v16 {
	if bitalg {
		return v16{x.v.OnesCount()}
	}
	c03 := nibbleCounts.AsUint8x32().PermuteOrZeroGrouped(x.v.And(low4).AsInt8x32()).AsUint16x16()
	c47 := nibbleCounts.AsUint8x32().PermuteOrZeroGrouped(x.v.ShiftAllRight(4).AsInt8x32()).AsUint16x16()
	return v16{c03.Add(c47).Add(x.v.ShiftAllRight(8))}
}

// andWhereEqual keeps the lanes of x where a and b are equal.
func andWhereEqual(x, a, b v16) v16 {
	return v16{x.v.And(a.v.Equal(b.v).ToInt16x16().AsUint16x16())}
}

// anyLess reports whether a lane of x is below the same lane of y (the
// lanes hold small values, so the signed comparison serves).
func (x v16) anyLess(y v16) bool {
	return !y.v.AsInt16x16().Greater(x.v.AsInt16x16()).ToInt16x16().IsZero()
}

func (x v16) intersects(y v16) bool { return !x.v.And(y.v).IsZero() }

// subsetOf reports whether every bit of x is in y.
func (x v16) subsetOf(y v16) bool { return x.v.AndNot(y.v).IsZero() }

// nonZero is 0xffff in the lanes of x that are not zero.
func (x v16) nonZero() v16 {
	return v16{x.v.AsInt16x16().Greater(archsimd.Int16x16{}).ToInt16x16().AsUint16x16()}
}

// shuffle is VPSHUFB: a byte shuffle within each 128-bit half.
func (x v16) shuffle(c v16) v16 {
	return v16{x.v.AsUint8x32().PermuteOrZeroGrouped(c.v.AsInt8x32()).AsUint16x16()}
}

// Controls of the rotations.
var (
	rotRows1Ctl, rotRows2Ctl archsimd.Int8x32
	rotColsCtl               archsimd.Uint32x8
	swapHalves               archsimd.Int8x32
	// lowHalf is 0xffff in lanes 0-7, 0 in lanes 8-15.
	lowHalf archsimd.Uint16x16
	// firstQuarter is all ones in the first 64 bits.
	firstQuarter archsimd.Uint64x4
)

// initVectors sets the constants above; it runs only on a processor with
// AVX2, since even loading a 256-bit vector needs AVX.
func initVectors() {
	bitalg = archsimd.X86.AVX512BITALG()
	nibbleCounts = archsimd.LoadInt8x32(&[32]int8{0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}).AsUint16x16()
	low4 = archsimd.BroadcastUint16x16(0x0f)
	rotRows1Ctl = archsimd.LoadInt8x32(&[32]int8{2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9})
	rotRows2Ctl = archsimd.LoadInt8x32(&[32]int8{4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11})
	rotColsCtl = archsimd.LoadUint32x8(&[8]uint32{2, 3, 4, 5, 6, 7, 0, 1})
	swapHalves = archsimd.LoadInt8x32(&[32]int8{8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
		8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7})
	firstQuarter = archsimd.LoadUint64x4(&[4]uint64{^uint64(0)})
	lowHalf = archsimd.LoadUint16x16(&[16]uint16{0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff})
}

// rotRows rotates the four lanes of each 64-bit row by one: lane i takes
// lane i+1.
func (x v16) rotRows() v16 {
	return v16{x.v.AsUint8x32().PermuteOrZeroGrouped(rotRows1Ctl).AsUint16x16()}
}

// rotRows2 rotates the lanes of each row by two.
func (x v16) rotRows2() v16 {
	return v16{x.v.AsUint8x32().PermuteOrZeroGrouped(rotRows2Ctl).AsUint16x16()}
}

// rotCols rotates the four rows by one: row q takes row q+1.
func (x v16) rotCols() v16 {
	return v16{x.v.AsUint32x8().Permute(rotColsCtl).AsUint16x16()}
}

// rotCols2 rotates the rows by two.
func (x v16) rotCols2() v16 { return v16{x.v.Select128FromPair(1, 0, x.v)} }

// store writes the sixteen lanes to a.
func (x v16) store(a *[16]uint16) { x.v.Store(a) }

// lanes returns the sixteen lanes.
func (x v16) lanes() (a [16]uint16) {
	x.v.Store(&a)
	return a
}

func (x v08) and(y v08) v08    { return v08{x.v.And(y.v)} }
func (x v08) or(y v08) v08     { return v08{x.v.Or(y.v)} }
func (x v08) xor(y v08) v08    { return v08{x.v.Xor(y.v)} }
func (x v08) andNot(y v08) v08 { return v08{x.v.AndNot(y.v)} }

func (x v08) intersects(y v08) bool { return !x.v.And(y.v).IsZero() }
func (x v08) isZero() bool          { return x.v.IsZero() }

// popcount counts the bits of all lanes.
func (x v08) popcount() int {
	q := x.v.AsUint64x4().GetLo()
	return bits.OnesCount64(q.GetElem(0)) + bits.OnesCount64(q.GetElem(1))
}

// shuffle is PSHUFB: a byte shuffle of the 16 bytes of the low half (the
// high half of c is zero, so it picks zeros from the zero high half of x).
func (x v08) shuffle(c v08) v08 {
	return v08{x.v.AsUint8x32().PermuteOrZeroGrouped(c.v.AsInt8x32()).AsUint16x16()}
}

// rotCols swaps the two 64-bit quarters of the low half.
func (x v08) rotCols() v08 {
	return v08{x.v.AsUint8x32().PermuteOrZeroGrouped(swapHalves).AsUint16x16()}
}

// lowBit keeps the lowest set bit of each lane.
func (x v08) lowBit() v08 {
	var z archsimd.Uint16x16
	return v08{x.v.And(z.Sub(x.v))}
}

// clearLowBit clears the lowest set bit of the 128-bit value: the lowest
// bit of each 64-bit quarter, then of the first quarter if it has one.
func (x v08) clearLowBit() v08 {
	var z archsimd.Uint64x4
	q := x.v.AsUint64x4()
	low := q.And(z.Sub(q))
	if first := low.And(firstQuarter); !first.IsZero() {
		low = first
	}
	return v08{x.v.Xor(low.AsUint16x16())}
}
