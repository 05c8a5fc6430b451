package generator_test

import (
	"testing"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/raters"
)

// TestParseRatingFilter reads the bounds of --rating as levels (labels or
// their numbers) when the rater has levels, else as values, and names
// the levels, in order, when a bound is neither.
func TestParseRatingFilter(t *testing.T) {
	levels := generator.HumanLevels()
	for _, tt := range []struct {
		bounds   string
		levels   map[string]int
		min, max float64
		err      string
	}{
		{"hard..extreme", levels, 3, 5, ""},
		{"Hard..", levels, 3, 1e308, ""},
		{"..2", levels, -1e308, 2, ""},
		{"unfair", levels, 4, 4, ""},
		{"1.5..2.5", nil, 1.5, 2.5, ""},
		{"..", levels, 0, 0, "give a range LOW..HIGH"},
		{"extreme..easy", levels, 0, 0, "the low end is above the high end"},
		{"tough..", levels, 0, 0, `"tough" is not a level of human (easy, medium, hard, unfair, extreme, beyond) nor a number`},
		{"tough..", nil, 0, 0, `"tough" is not a number (rater human has no levels in rating_levels; bound its value)`},
	} {
		f, err := generator.ParseRatingFilter(raters.Human{}, "human:"+tt.bounds, tt.bounds, tt.levels)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Errorf("%q: error %v, want EINVALID %q", tt.bounds, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.bounds, err)
			continue
		}
		if f.Min != tt.min || f.Max != tt.max || f.Spec != "human:"+tt.bounds || (f.Levels == nil) != (tt.levels == nil) {
			t.Errorf("%q: %+v, want %v..%v", tt.bounds, f, tt.min, tt.max)
		}
	}
}
