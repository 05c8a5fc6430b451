package raters_test

import (
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/raters"
)

// TestRefuseDBRaters refuses, for rating files, a rater that reads the
// database, named by --rater or by an option, and nothing else.
func TestRefuseDBRaters(t *testing.T) {
	reg := raters.Default()
	tests := []struct {
		rater string
		opts  []string
		bad   bool
	}{
		{"human", nil, false},
		{"all", []string{"backtrack.samples=16"}, false},
		{"empirical", nil, true},
		{"all", []string{"empirical.config=exact"}, true},
	}
	for _, tt := range tests {
		err := reg.RefuseDBRaters(tt.rater, tt.opts)
		if tt.bad != (sudokulab.ErrorCode(err) == sudokulab.EINVALID) || (!tt.bad && err != nil) {
			t.Errorf("RefuseDBRaters(%q, %q) = %v, want refused %v", tt.rater, tt.opts, err, tt.bad)
		}
		if tt.bad && !strings.Contains(err.Error(), "rater empirical reads the database") {
			t.Errorf("RefuseDBRaters(%q, %q) = %v: names no rater", tt.rater, tt.opts, err)
		}
	}
}

// TestTimeLimitsText lists every rater with its limit, without zero
// units.
func TestTimeLimitsText(t *testing.T) {
	got := raters.Default().TimeLimitsText()
	for _, want := range []string{"se 5m", "human 30s"} {
		if !strings.Contains(got, want) {
			t.Errorf("TimeLimitsText = %q, want %q in it", got, want)
		}
	}
	if strings.Contains(got, "m0s") {
		t.Errorf("TimeLimitsText = %q: zero units", got)
	}
}
