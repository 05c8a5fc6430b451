package ratepool_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/raters"
	"sudokulab/raters/ratepool"
)

// TestTimeLimits gives every rater --timeout when it is given, 0 too,
// else each its own, and refuses a negative one.
func TestTimeLimits(t *testing.T) {
	reg := raters.Default()
	rs, err := reg.Make(context.Background(), raters.All, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		timeout   time.Duration
		given     bool
		se, human time.Duration
	}{
		{0, false, raters.SETimeout, raters.DefaultTimeout},
		{time.Minute, false, raters.SETimeout, raters.DefaultTimeout},
		{0, true, 0, 0},
		{time.Second, true, time.Second, time.Second},
	}
	for _, tt := range tests {
		l, err := ratepool.TimeLimits(reg, rs, tt.timeout, tt.given)
		if err != nil || l["se"] != tt.se || l["human"] != tt.human {
			t.Errorf("TimeLimits(%v, %v) = %v, %v; want se %v, human %v", tt.timeout, tt.given, l, err, tt.se, tt.human)
		}
	}
	if _, err := ratepool.TimeLimits(reg, rs, -time.Second, true); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("a negative timeout: %v, want EINVALID", err)
	}
}

// TestResultTable prints a row per rater, in the raters' order, with a
// NULL mean for a rater without values.
func TestResultTable(t *testing.T) {
	res := &ratepool.Result{ByRater: map[string]*ratepool.Summary{
		"a": {Rated: 2, Valued: 2, Sum: 3, Labels: ratepool.Histogram{"easy": 2}},
		"b": {Skipped: 4, CutShort: 1, Labels: ratepool.Histogram{}},
	}}
	tab := res.Table([]raters.Rater{fake{name: "b"}, fake{name: "a"}})
	got := fmt.Sprint(tab.Columns, tab.Rows)
	want := "[rater version options puzzles skipped cut_short mean_value labels] [[b 1 {} 0 4 1 <nil> ] [a 1 {} 2 0 0 1.5 easy:2]]"
	if got != want {
		t.Errorf("Table = %s\nwant    %s", got, want)
	}
}
