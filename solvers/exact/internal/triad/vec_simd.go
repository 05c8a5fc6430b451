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

// bitalg is whether VPOPCNTW is there.
var bitalg bool

// v16 is a 256-bit vector of sixteen 16-bit lanes.
type v16 struct{ v archsimd.Uint16x16 }

// v08 is a 128-bit vector of eight 16-bit lanes.
type v08 struct{ v archsimd.Uint16x8 }

func mk16(a [16]uint16) v16 { return v16{archsimd.LoadUint16x16(&a)} }
func mk08(a [8]uint16) v08  { return v08{archsimd.LoadUint16x8(&a)} }

func all16(x uint16) v16 { return v16{archsimd.BroadcastUint16x16(x)} }
func all08(x uint16) v08 { return v08{archsimd.BroadcastUint16x8(x)} }

// join puts lo in lanes 0-7 and hi in lanes 8-15.
func join(lo, hi v08) v16 {
	var z archsimd.Uint16x16
	return v16{z.SetLo(lo.v).SetHi(hi.v)}
}

func (x v16) lo() v08 { return v08{x.v.GetLo()} }
func (x v16) hi() v08 { return v08{x.v.GetHi()} }

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
	swapHalves               archsimd.Int8x16
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
	swapHalves = archsimd.LoadInt8x16(&[16]int8{8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7})
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
	q := x.v.AsUint64x2()
	return bits.OnesCount64(q.GetElem(0)) + bits.OnesCount64(q.GetElem(1))
}

// shuffle is PSHUFB: a byte shuffle of the 16 bytes.
func (x v08) shuffle(c v08) v08 {
	return v08{x.v.AsUint8x16().PermuteOrZero(c.v.AsInt8x16()).AsUint16x8()}
}

// rotCols swaps the two 64-bit halves.
func (x v08) rotCols() v08 {
	return v08{x.v.AsUint8x16().PermuteOrZero(swapHalves).AsUint16x8()}
}

// lowBit keeps the lowest set bit of each lane.
func (x v08) lowBit() v08 {
	var z archsimd.Uint16x8
	return v08{x.v.And(z.Sub(x.v))}
}

// clearLowBit clears the lowest set bit of the 128-bit value.
func (x v08) clearLowBit() v08 {
	q := x.v.AsUint64x2()
	if lo := q.GetElem(0); lo != 0 {
		return v08{q.SetElem(0, lo&(lo-1)).AsUint16x8()}
	}
	hi := q.GetElem(1)
	return v08{q.SetElem(1, hi&(hi-1)).AsUint16x8()}
}
