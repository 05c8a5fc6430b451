package ratepool_test

import (
	"context"
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
