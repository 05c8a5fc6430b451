//go:build goexperiment.simd && amd64

package triad

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestVectorOps holds each vector operation against its meaning computed
// lane by lane on random operands, popcounts in both of its forms.
func TestVectorOps(t *testing.T) {
	if !cpuOK() {
		t.Skip("no AVX2 here")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rand16 := func() (a [16]uint16) {
		for i := range a {
			a[i] = uint16(rng.IntN(512))
			if rng.IntN(4) == 0 {
				a[i] = 0
			}
		}
		return a
	}
	rand8 := func() (a [8]uint16) {
		for i := range a {
			a[i] = uint16(rng.IntN(512))
		}
		return a
	}
	ctl16 := func() (a [16]uint16) {
		for i := range a {
			k := uint16(rng.IntN(8))
			a[i] = (2*k+1)<<8 | 2*k
			if rng.IntN(5) == 0 {
				a[i] = 0xffff
			}
		}
		return a
	}
	saved := bitalg
	defer func() { bitalg = saved }()
	for n := 0; n < 2000; n++ {
		a, b := rand16(), rand16()
		x, y := mk16(a), mk16(b)
		for _, ba := range []bool{false, saved} {
			bitalg = ba
			got := x.popcounts().lanes()
			for i := range a {
				if int(got[i]) != bits.OnesCount16(a[i]) {
					t.Fatalf("popcounts (bitalg %v) of %v = %v", ba, a, got)
				}
			}
		}
		c := ctl16()
		sh := x.shuffle(mk16(c)).lanes()
		rr, rr2, rc, rc2 := x.rotRows().lanes(), x.rotRows2().lanes(), x.rotCols().lanes(), x.rotCols2().lanes()
		nz, eq := x.nonZero().lanes(), andWhereEqual(y, x, y).lanes()
		less, inter, sub := false, false, true
		for k := range a {
			g := k / 8 * 8
			want := uint16(0)
			if c[k] != 0xffff {
				want = a[g+int(c[k]&15)/2]
			}
			if sh[k] != want {
				t.Fatalf("shuffle of %v by %v = %v", a, c, sh)
			}
			if rr[k] != a[k&^3|(k+1)&3] || rr2[k] != a[k&^3|(k+2)&3] || rc[k] != a[(k+4)&15] || rc2[k] != a[(k+8)&15] {
				t.Fatalf("rotations of %v: %v %v %v %v", a, rr, rr2, rc, rc2)
			}
			if (nz[k] == 0xffff) != (a[k] != 0) || (nz[k] != 0 && nz[k] != 0xffff) {
				t.Fatalf("nonZero of %v = %v", a, nz)
			}
			if w := map[bool]uint16{true: b[k], false: 0}[a[k] == b[k]]; eq[k] != w {
				t.Fatalf("andWhereEqual %v %v = %v", a, b, eq)
			}
			less = less || a[k] < b[k]
			inter = inter || a[k]&b[k] != 0
			sub = sub && a[k]&^b[k] == 0
		}
		if x.anyLess(y) != less || x.intersects(y) != inter || x.subsetOf(y) != sub {
			t.Fatalf("anyLess/intersects/subsetOf of %v, %v", a, b)
		}
		if got, want := withHi(y.lo(), x).lanes(), join(y.lo(), x.hi()).lanes(); got != want {
			t.Fatalf("withHi(%v, %v) = %v, want %v", b, a, got, want)
		}
		if got := join(x.lo(), y.hi()).lanes(); [8]uint16(got[:8]) != [8]uint16(a[:8]) || [8]uint16(got[8:]) != [8]uint16(b[8:]) {
			t.Fatalf("join lo/hi: %v", got)
		}

		p, q := rand8(), rand8()
		u := mk08(p)
		pc := 0
		for i := range p {
			pc += bits.OnesCount16(p[i])
		}
		if u.popcount() != pc {
			t.Fatalf("popcount of %v = %d", p, u.popcount())
		}
		lb, sw := u.lowBit(), u.rotCols()
		for i := range p {
			if lane(lb, i) != p[i]&-p[i] || lane(sw, i) != p[(i+4)&7] {
				t.Fatalf("lowBit/rotCols of %v", p)
			}
		}
		want := p
		for i := range want {
			if want[i] != 0 {
				want[i] &= want[i] - 1
				break
			}
		}
		cl := u.clearLowBit()
		for i := range p {
			if lane(cl, i) != want[i] {
				t.Fatalf("clearLowBit of %v", p)
			}
		}
		// The high half of a v08 stays zero through every operation, so
		// that isZero, intersects and popcount see the eight lanes only.
		for _, r := range []v08{u, lb, sw, cl, x.lo(), x.hi(), all08(uint16(p[0])), u.or(mk08(q)), u.shuffle(mk08(q)),
			horizontalTriads(x), u.xor(mk08(q)), u.andNot(mk08(q)), u.and(mk08(q))} {
			var w [16]uint16
			r.v.Store(&w)
			if [8]uint16(w[8:]) != ([8]uint16{}) {
				t.Fatalf("v08 result with a nonzero high half: %v (operands %v, %v, %v)", w, p, q, a)
			}
		}
		if lo, hi := x.lo(), x.hi(); func() bool {
			for i := range 8 {
				if lane(lo, i) != a[i] || lane(hi, i) != a[8+i] {
					return true
				}
			}
			return false
		}() {
			t.Fatalf("lo/hi of %v", a)
		}
		inter8 := false
		for i := range p {
			inter8 = inter8 || p[i]&q[i] != 0
		}
		if u.intersects(mk08(q)) != inter8 || u.and(mk08(q)).isZero() == inter8 {
			t.Fatalf("intersects/isZero of %v, %v", p, q)
		}
	}
}

// lane returns lane i of x.
func lane(x v08, i int) uint16 {
	var a [16]uint16
	x.v.Store(&a)
	return a[i]
}
