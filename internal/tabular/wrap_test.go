package tabular_test

import (
	"testing"

	"sudokulab/internal/tabular"
)

func TestWrapList(t *testing.T) {
	for _, tc := range []struct {
		words  []string
		width  int
		indent string
		want   string
	}{
		{words: nil, width: 10, want: ""},
		{words: []string{"one"}, width: 10, indent: "  ", want: "  one\n"},
		{words: []string{"a", "b", "c"}, width: 80, indent: "  ", want: "  a, b, c\n"},
		// "  alpha," is 8 wide; with " beta," it would be 14, over 12.
		{words: []string{"alpha", "beta", "gamma"}, width: 12, indent: "  ", want: "  alpha,\n  beta,\n  gamma\n"},
		{words: []string{"ab", "cd", "ef", "gh"}, width: 8, indent: "", want: "ab, cd,\nef, gh\n"},
		// A word wider than width stands alone on its line.
		{words: []string{"x", "much-too-long", "y"}, width: 5, indent: "", want: "x,\nmuch-too-long,\ny\n"},
	} {
		if got := tabular.WrapList(tc.words, tc.width, tc.indent); got != tc.want {
			t.Errorf("WrapList(%q, %d, %q) = %q, want %q", tc.words, tc.width, tc.indent, got, tc.want)
		}
	}
}
