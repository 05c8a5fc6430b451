package raters_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/cputime"
	"sudokulab/internal/gridgen"
)

// TestRateTimeout gives each rater a 25x25 puzzle it cannot rate within a
// tiny timeout: Rate returns an error wrapping context.DeadlineExceeded,
// never a rating, and soon after the deadline. The timeouts are budgets of
// CPU time (cputime.WithBudget) and "soon" is counted in CPU time too, so
// a loaded machine can neither let a rater finish within its timeout nor
// make it late. With no deadline the same
// puzzle is rated (for the backtrack rater, a puzzle it rates in some
// 100 ms; the one it cannot finish takes hours).
func TestRateTimeout(t *testing.T) {
	tests := []struct {
		name     string
		rater    string
		opts     map[string]string
		puzzle   sudokulab.Grid
		timeout  time.Duration
		finishes bool
	}{
		// The exact solver's search tree of this one is far too big.
		{"backtrack-hours", "backtrack", nil, gridgen.Pattern(5, 250, 1), 50 * time.Millisecond, false},
		// About 100 ms for 8 samples.
		{"backtrack", "backtrack", nil, gridgen.Pattern(5, 60, 1), 2 * time.Millisecond, true},
		// About 400 ms: colouring, chains, ALSs and forcing nets over 25
		// digits of ~560 empty cells; the finders check ctx.
		{"human", "human", nil, gridgen.Pattern(5, 60, 1), 5 * time.Millisecond, true},
		{"givens", "givens", nil, gridgen.Pattern(5, 60, 1), 0, true},
	}
	for _, tt := range tests {
		r := newRater(t, tt.rater, tt.opts)
		t.Run(tt.name+"/deadline", func(t *testing.T) {
			ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			defer cancel()
			start, _ := cputime.Process()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = cputime.WithBudget(context.Background(), tt.timeout)
				defer cancel()
			}
			rating, err := r.Rate(ctx, tt.puzzle)
			end, _ := cputime.Process()
			took := end - start
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("after %v of CPU: rating %+v, error %v; want context.DeadlineExceeded", took, rating, err)
			}
			if rating.Value != nil || rating.Details != "" {
				t.Errorf("a rating cut short comes with %+v", rating)
			}
			if late := took - tt.timeout; late > 500*time.Millisecond {
				t.Errorf("returned after %v more CPU than the timeout", late)
			}
			t.Logf("%s: cut short after %v of CPU (timeout %v)", tt.rater, took, tt.timeout)
		})
		if !tt.finishes {
			continue
		}
		t.Run(tt.name+"/unbounded", func(t *testing.T) {
			wall := time.Now()
			rating, err := r.Rate(context.Background(), tt.puzzle)
			if err != nil || rating.Value == nil {
				t.Fatalf("without a deadline: %+v, %v", rating, err)
			}
			t.Logf("%s: rated %v in %v without a deadline", tt.rater, *rating.Value, time.Since(wall))
		})
	}
}
