package exact_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/solvers/exact"
)

func TestSolveWithin(t *testing.T) {
	unique := sudokulab.MustParse("1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..")
	empty := sudokulab.MustParse(strings.Repeat(".", 81))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name             string
		ctx              context.Context
		grid             sudokulab.Grid
		limit            int
		budget           time.Duration
		wantCount        int
		wantUndetermined bool
		wantErr          bool
	}{
		{name: "counted, no budget", ctx: context.Background(), grid: unique, limit: 2, wantCount: 1},
		{name: "counted within budget", ctx: context.Background(), grid: unique, limit: 2, budget: time.Hour, wantCount: 1},
		// The empty grid has about 6.7e21 solutions: no budget of a
		// millisecond counts a billion of them.
		{name: "budget runs out", ctx: context.Background(), grid: empty, limit: 1 << 30, budget: time.Millisecond, wantUndetermined: true, wantCount: -1},
		{name: "ctx ended", ctx: canceled, grid: empty, limit: 2, budget: time.Hour, wantErr: true, wantCount: -1},
	} {
		res, undetermined, err := exact.SolveWithin(tc.ctx, tc.grid, tc.limit, tc.budget)
		if (err != nil) != tc.wantErr || undetermined != tc.wantUndetermined || tc.wantCount >= 0 && res.Count != tc.wantCount {
			t.Errorf("%s: SolveWithin = count %d, undetermined %v, %v", tc.name, res.Count, undetermined, err)
		}
		if undetermined && res.Count >= tc.limit {
			t.Errorf("%s: undetermined with %d solutions found, the limit %d", tc.name, res.Count, tc.limit)
		}
	}
}
