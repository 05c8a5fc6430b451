package raters_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/gridgen"
)

// TestRateTimeout gives each rater a 25x25 puzzle it cannot rate within a
// tiny timeout: Rate returns an error wrapping context.DeadlineExceeded,
// never a rating, and soon after the deadline. With no deadline the same
// puzzle is rated (for the backtrack rater, a puzzle it rates in some
// 100 ms; the one it cannot finish takes hours).
func TestRateTimeout(t *testing.T) {
	tests := []struct {
		rater    string
		opts     map[string]string
		puzzle   sudokulab.Grid
		timeout  time.Duration
		finishes bool
	}{
		// The exact solver's search tree of this one is far too big.
		{"backtrack", nil, gridgen.Pattern(5, 250, 1), 50 * time.Millisecond, false},
		// About 100 ms for 8 samples.
		{"backtrack", nil, gridgen.Pattern(5, 60, 1), 2 * time.Millisecond, true},
		// About 400 ms: colouring, chains, ALSs and forcing nets over 25
		// digits of ~560 empty cells; the finders check ctx.
		{"human", nil, gridgen.Pattern(5, 60, 1), 5 * time.Millisecond, true},
		{"givens", nil, gridgen.Pattern(5, 60, 1), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.rater, func(t *testing.T) {
			r := newRater(t, tt.rater, tt.opts)
			ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel()
			start := time.Now()
			rating, err := r.Rate(ctx, tt.puzzle)
			took := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("after %v: rating %+v, error %v; want context.DeadlineExceeded", took, rating, err)
			}
			if rating.Value != nil || rating.Details != "" {
				t.Errorf("a rating cut short comes with %+v", rating)
			}
			if late := took - tt.timeout; late > 500*time.Millisecond {
				t.Errorf("returned %v after the deadline", late)
			}
			t.Logf("%s: cut short after %v (timeout %v)", tt.rater, took, tt.timeout)
			if !tt.finishes {
				return
			}
			start = time.Now()
			rating, err = r.Rate(context.Background(), tt.puzzle)
			if err != nil || rating.Value == nil {
				t.Fatalf("without a deadline: %+v, %v", rating, err)
			}
			t.Logf("%s: rated %v in %v without a deadline", tt.rater, *rating.Value, time.Since(start))
		})
	}
}
