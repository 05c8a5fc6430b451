package raters_test

import (
	"context"
	"fmt"
	"strings"
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

// TestParseOptions splits --option settings by rater: a bare key is the
// named rater's, RATER.KEY the rater's named, and a setting for no rater,
// an unknown one or another one than --rater names is refused.
func TestParseOptions(t *testing.T) {
	reg := raters.Default()
	tests := []struct {
		rater string
		kvs   []string
		want  string // the options, or the error's code and message
	}{
		{"backtrack", nil, "map[]"},
		{"backtrack", []string{"samples=3", "seed=7"}, "map[backtrack:map[samples:3 seed:7]]"},
		{"backtrack", []string{"backtrack.samples=3", "samples=4"}, "map[backtrack:map[samples:4]]"},
		{"backtrack", []string{"samples="}, "map[backtrack:map[samples:]]"},
		{"backtrack", []string{"samples=a=b"}, "map[backtrack:map[samples:a=b]]"},
		{raters.All, []string{"backtrack.samples=3", "empirical.config=exact"}, "map[backtrack:map[samples:3] empirical:map[config:exact]]"},
		{"backtrack", []string{"samples"}, `invalid: --option "samples": want KEY=VALUE`},
		{"backtrack", []string{" =3"}, `invalid: --option " =3": want KEY=VALUE`},
		{raters.All, []string{"samples=3"}, `invalid: --option "samples=3": with --rater all, name the rater: RATER.samples=3`},
		{"backtrack", []string{"human.depth=2"}, `invalid: --option "human.depth=2": is for rater human, not backtrack`},
		{"backtrack", []string{"hodoku.x=1"}, `not_found: --option "hodoku.x=1": unknown rater "hodoku" (known: backtrack, empirical, givens, human, se)`},
	}
	for _, tt := range tests {
		got, err := reg.ParseOptions(tt.rater, tt.kvs)
		s := fmt.Sprint(got)
		if err != nil {
			s = sudokulab.ErrorCode(err) + ": " + err.Error()
		}
		if s != tt.want {
			t.Errorf("ParseOptions(%q, %q) = %s, want %s", tt.rater, tt.kvs, s, tt.want)
		}
	}
}

// FuzzParseOptions holds ParseOptions to a result or an error, never a
// panic, and to options that give back each setting's value.
func FuzzParseOptions(f *testing.F) {
	f.Add("backtrack", "samples=3")
	f.Add(raters.All, "human.x=1")
	f.Add("se", "=")
	reg := raters.Default()
	f.Fuzz(func(t *testing.T, rater, kv string) {
		got, err := reg.ParseOptions(rater, []string{kv})
		if err != nil {
			return
		}
		key, value, _ := strings.Cut(kv, "=")
		name := rater
		if n, k, ok := strings.Cut(key, "."); ok {
			name, key = n, k
		}
		if v, ok := got[name][key]; !ok || v != value || len(got) != 1 {
			t.Errorf("ParseOptions(%q, %q) = %v: want %s's %q = %q", rater, kv, got, name, key, value)
		}
	})
}
