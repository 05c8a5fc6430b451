package restart_test

import (
	"testing"

	"sudokulab/solvers/internal/restart"
)

// lubyPublished is the start of the sequence as Luby, Sinclair and
// Zuckerman (1993, section 3) give it, "1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1,
// 1, 2, 4, 8, 1, ...", continued by its definition (OEIS A182105) to the
// 63rd term.
var lubyPublished = []int64{
	1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8,
	1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16,
	1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8,
	1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16, 32,
}

func TestLubyTerm(t *testing.T) {
	for i, want := range lubyPublished {
		if got := restart.LubyTerm(int64(i + 1)); got != want {
			t.Errorf("LubyTerm(%d) = %d, want %d", i+1, got, want)
		}
	}
	// The first 2^k - 1 terms sum to k 2^(k-1), and term 2^k - 1 is
	// 2^(k-1), far out too.
	for k := int64(1); k <= 20; k++ {
		end := int64(1)<<k - 1
		if got := restart.LubyTerm(end); got != int64(1)<<(k-1) {
			t.Fatalf("LubyTerm(2^%d - 1) = %d, want %d", k, got, int64(1)<<(k-1))
		}
		if k > 16 {
			continue
		}
		sum := int64(0)
		for i := int64(1); i <= end; i++ {
			sum += restart.LubyTerm(i)
		}
		if want := k << (k - 1); sum != want {
			t.Errorf("sum of the first 2^%d - 1 terms = %d, want %d", k, sum, want)
		}
	}
	if got := restart.LubyTerm(1 << 61); got < 1 {
		t.Errorf("LubyTerm(2^61) = %d", got)
	}
}

func TestPatience(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    restart.Schedule
		want []int64 // attempts 1, 2, ...
	}{
		{"never", restart.Schedule{Kind: restart.Luby, Unit: 0}, []int64{0, 0, 0}},
		{"fixed", restart.Schedule{Kind: restart.Fixed, Unit: 300}, []int64{300, 300, 300, 300}},
		{"luby", restart.Schedule{Kind: restart.Luby, Unit: 100}, []int64{100, 100, 200, 100, 100, 200, 400, 100}},
		{"geometric", restart.Schedule{Kind: restart.Geometric, Unit: 100, Factor: 2}, []int64{100, 200, 400, 800, 1600}},
		{"geometric-1.5", restart.Schedule{Kind: restart.Geometric, Unit: 10, Factor: 1.5}, []int64{10, 15, 23, 34}},
		{"geometric-1", restart.Schedule{Kind: restart.Geometric, Unit: 7, Factor: 1}, []int64{7, 7, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for a, want := range tc.want {
				if got := tc.s.Patience(int64(a + 1)); got != want {
					t.Errorf("%v: attempt %d: patience %d, want %d", tc.s, a+1, got, want)
				}
			}
		})
	}
	// No overflow, however many restarts.
	g := restart.Schedule{Kind: restart.Geometric, Unit: 1 << 40, Factor: 100}
	if p := g.Patience(1000); p <= 0 || p < g.Patience(10) {
		t.Errorf("geometric patience after 1000 attempts: %d", p)
	}
}
