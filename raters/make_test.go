package raters_test

import (
	"context"
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/raters"
)

// TestMake makes one rater with its options, and "all": every rater but
// those reading the database, which join when given options (and then
// want the database).
func TestMake(t *testing.T) {
	ctx := context.Background()
	reg := raters.Default()
	names := func(rs []raters.Rater) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name())
		}
		return out
	}
	tests := []struct {
		name string
		opts map[string]map[string]string
		want string // the raters' names, or the error's code
	}{
		{"backtrack", map[string]map[string]string{"backtrack": {"samples": "3"}}, "[backtrack]"},
		{raters.All, nil, "[backtrack givens human se]"},
		{raters.All, map[string]map[string]string{"human": {}}, "[backtrack givens human se]"},
		{raters.All, map[string]map[string]string{"empirical": {"config": "exact"}}, sudokulab.EINVALID}, // no database
		{"hodoku", nil, sudokulab.ENOTFOUND},
		{"human", map[string]map[string]string{"human": {"depth": "2"}}, sudokulab.EINVALID},
	}
	for _, tt := range tests {
		rs, err := reg.Make(ctx, tt.name, tt.opts, nil)
		got := sudokulab.ErrorCode(err)
		if err == nil {
			got = fmt.Sprint(names(rs))
		}
		if got != tt.want {
			t.Errorf("Make(%s, %v): %s (%v), want %s", tt.name, tt.opts, got, err, tt.want)
		}
	}
	rs, err := reg.Make(ctx, "backtrack", map[string]map[string]string{"backtrack": {"samples": "3"}}, nil)
	if err != nil || rs[0].Options() != `{"limit":2,"samples":3,"seed":1}` {
		t.Errorf("backtrack with samples=3: %v, %v", rs, err)
	}
}
