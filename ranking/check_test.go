package ranking_test

import (
	"math"
	"testing"

	"sudokulab"
	"sudokulab/ranking"
)

// TestCheckAlphaParK takes a significance level strictly between 0 and 1
// and a finite PAR-k penalty of at least 1, and refuses the rest.
func TestCheckAlphaParK(t *testing.T) {
	for _, a := range []float64{0.05, 1e-9, 0.999} {
		if err := ranking.CheckAlpha(a); err != nil {
			t.Errorf("CheckAlpha(%v): %v", a, err)
		}
	}
	for _, a := range []float64{0, 1, -0.1, 2, math.NaN(), math.Inf(1)} {
		if err := ranking.CheckAlpha(a); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("CheckAlpha(%v) = %v, want an invalid-input error", a, err)
		}
	}
	for _, k := range []float64{1, 10, 1e6} {
		if err := ranking.CheckParK(k); err != nil {
			t.Errorf("CheckParK(%v): %v", k, err)
		}
	}
	for _, k := range []float64{0, 0.5, -10, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := ranking.CheckParK(k); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("CheckParK(%v) = %v, want an invalid-input error", k, err)
		}
	}
	if err := ranking.CheckParK(0.5); err == nil || err.Error() != "--par-k 0.5: want a number of at least 1, such as 10" {
		t.Errorf("CheckParK(0.5) = %v", err)
	}
}
