package ratepool_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

// TestLimits gives each rater its own default limit, or one limit to all,
// and refuses a rater the registry does not hold.
func TestLimits(t *testing.T) {
	reg := raters.Default()
	rs, err := reg.Make(context.Background(), raters.All, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	def, err := ratepool.DefaultLimits(reg, rs)
	if err != nil {
		t.Fatal(err)
	}
	same := ratepool.SameLimits(rs, 2*time.Second)
	if len(def) != len(rs) || len(same) != len(rs) {
		t.Fatalf("limits %v and %v for %d raters", def, same, len(rs))
	}
	if def["se"] != raters.SETimeout || def["human"] != raters.DefaultTimeout || same["se"] != 2*time.Second || same["human"] != 2*time.Second {
		t.Errorf("default limits %v, same limits %v", def, same)
	}
	if _, err := ratepool.DefaultLimits(raters.NewRegistry(raters.GivensInfo()), rs); sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
		t.Errorf("a rater the registry does not hold: %v, want not found", err)
	}
}

// TestEach rates one puzzle by each rater in turn: a rating that fails or
// is cut short is left out and said in the problems, in the raters'
// order; an ended context is the one error.
func TestEach(t *testing.T) {
	g := sudokulab.MustParse("123456789" + strings.Repeat(".", 72))
	p := sudokulab.Puzzle{ID: 7, Givens: g}
	rs := []raters.Rater{fake{name: "a"}, fake{name: "slow", block: true}, fake{name: "bad", failOn: 9}, fake{name: "b"}}
	limits := ratepool.Limits{"slow": time.Millisecond}
	ratings, rated, problems, err := ratepool.Each(context.Background(), rs, p, limits)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, false, true}; !slices.Equal(rated, want) {
		t.Errorf("rated %v, want %v", rated, want)
	}
	if ratings[0].Rater != "a" || ratings[0].Value == nil || *ratings[0].Value != 9 || ratings[3].Label != "odd" {
		t.Errorf("ratings %+v", ratings)
	}
	if want := []string{"slow: cut short by --timeout 1ms", "bad: no way"}; !slices.Equal(problems, want) {
		t.Errorf("problems %q, want %q", problems, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := ratepool.Each(ctx, rs, p, limits); !errors.Is(err, context.Canceled) {
		t.Errorf("Each with an ended context: %v, want context.Canceled", err)
	}
}

// TestCutShortPuzzles names the first puzzles cut short and counts the
// rest.
func TestCutShortPuzzles(t *testing.T) {
	tests := []struct {
		s    ratepool.Summary
		want string
	}{
		{ratepool.Summary{}, ""},
		{ratepool.Summary{CutShort: 1, CutShortIDs: []int64{4}}, "4"},
		{ratepool.Summary{CutShort: 3, CutShortIDs: []int64{4, 9, 12}}, "4, 9, 12"},
		{ratepool.Summary{CutShort: 5, CutShortIDs: []int64{4, 9}}, "4, 9 and 3 more"},
	}
	for _, tt := range tests {
		if got := tt.s.CutShortPuzzles(); got != tt.want {
			t.Errorf("%d cut short, %v named: %q, want %q", tt.s.CutShort, tt.s.CutShortIDs, got, tt.want)
		}
	}
}
