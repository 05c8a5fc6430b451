package tune_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/tune"
)

func TestParseRange(t *testing.T) {
	intSpec := sudokulab.ParamSpec{Name: "pop", Kind: sudokulab.ParamInt, Min: 1, Max: 1000}
	realSpec := sudokulab.ParamSpec{Name: "rate", Kind: sudokulab.ParamFloat, Min: 0, Max: 1}
	boolSpec := sudokulab.ParamSpec{Name: "on", Kind: sudokulab.ParamBool}
	choiceSpec := sudokulab.ParamSpec{Name: "mode", Kind: sudokulab.ParamChoice, Choices: []string{"full", "groups", "none"}}
	for _, c := range []struct {
		spec sudokulab.ParamSpec
		text string
		want tune.Param
		err  string
	}{
		{intSpec, "10..100", tune.Param{Name: "pop", Kind: tune.Int, Min: 10, Max: 100}, ""},
		{intSpec, "log:1..1000", tune.Param{Name: "pop", Kind: tune.Int, Min: 1, Max: 1000, Log: true}, ""},
		{realSpec, "0.1..0.9", tune.Param{Name: "rate", Kind: tune.Real, Min: 0.1, Max: 0.9}, ""},
		{boolSpec, "false|true", tune.Param{Name: "on", Kind: tune.Categorical, Choices: []string{"false", "true"}}, ""},
		{choiceSpec, "groups|full", tune.Param{Name: "mode", Kind: tune.Categorical, Choices: []string{"groups", "full"}}, ""},
		{intSpec, "1.5..10", tune.Param{}, "has a fraction"},
		{intSpec, "0..10", tune.Param{}, "leaves the declared 1..1000"},
		{intSpec, "10..10", tune.Param{}, "is empty"},
		{realSpec, "log:0..1", tune.Param{}, "positive minimum"},
		{realSpec, "1-2", tune.Param{}, "not a range"},
		{choiceSpec, "full|bogus", tune.Param{}, `"bogus" is not one of`},
		{choiceSpec, "full", tune.Param{}, "at least two"},
		{boolSpec, "log:true|false", tune.Param{}, "log: does not apply"},
	} {
		got, err := tune.ParseRange(c.spec, c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s=%s: error %v, want one saying %q", c.spec.Name, c.text, err, c.err)
			}
			continue
		}
		if err != nil || got.Name != c.want.Name || got.Kind != c.want.Kind || got.Min != c.want.Min || got.Max != c.want.Max ||
			got.Log != c.want.Log || strings.Join(got.Choices, "|") != strings.Join(c.want.Choices, "|") {
			t.Errorf("%s=%s: %+v, %v; want %+v", c.spec.Name, c.text, got, err, c.want)
		}
	}
}

// TestSpaceOf checks what is tuned without --param: every finite range,
// the wide positive one on the log scale, the infinite one left out, the
// fixed one out, and the defaults under a preset as the first candidate.
func TestSpaceOf(t *testing.T) {
	info := sudokulab.SolverInfo{Name: "s", Params: []sudokulab.ParamSpec{
		{Name: "evals", Kind: sudokulab.ParamInt, Default: int64(1000), Min: 1, Max: 1e9},
		{Name: "rate", Kind: sudokulab.ParamFloat, Default: 0.5, Min: 0, Max: 1},
		{Name: "limit", Kind: sudokulab.ParamFloat, Default: 1.0, Min: 0, Max: math.Inf(1)},
		{Name: "on", Kind: sudokulab.ParamBool, Default: true},
		{Name: "k", Kind: sudokulab.ParamInt, Default: int64(2), Min: 1, Max: 9},
	}}
	s, err := tune.SpaceOf(info, nil, map[string]string{"k": "3"}, map[string]string{"rate": "0.25"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Params {
		names = append(names, p.Name)
	}
	if strings.Join(names, " ") != "evals rate on" || !s.Params[0].Log || s.Params[1].Log {
		t.Errorf("tuned %v (%+v)", names, s.Params)
	}
	first := s.Initial[0]
	if first["evals"] != "1000" || first["rate"] != "0.25" || first["on"] != "true" || s.Fixed["k"] != "3" {
		t.Errorf("initial %v fixed %v", first, s.Fixed)
	}
	for _, c := range []struct {
		ranges, fixed map[string]string
		err           string
	}{
		{map[string]string{"nope": "1..2"}, nil, `no parameter "nope"`},
		{map[string]string{"k": "1..5"}, map[string]string{"k": "2"}, "both tuned"},
		{map[string]string{"limit": "0..inf"}, nil, "not finite"},
	} {
		if _, err := tune.SpaceOf(info, c.ranges, c.fixed, nil); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v %v: error %v, want %q", c.ranges, c.fixed, err, c.err)
		}
	}
}

// FuzzParseRange wants any text either refused or read into a range that
// keeps within the declaration: a non-empty finite interval (positive on
// the log scale, whole for an integer) or at least two distinct allowed
// choices.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"1..10", "log:1..1000", "0.5..0.9", "a|b", "full|groups|none", "log:a|b", "..", "1..", "inf..1", "1e308..1e309", "-0..0"} {
		f.Add(s)
	}
	specs := []sudokulab.ParamSpec{
		{Name: "n", Kind: sudokulab.ParamInt, Min: 1, Max: 1e9},
		{Name: "x", Kind: sudokulab.ParamFloat, Min: -1, Max: 1},
		{Name: "b", Kind: sudokulab.ParamBool},
		{Name: "c", Kind: sudokulab.ParamChoice, Choices: []string{"full", "groups", "none"}},
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, spec := range specs {
			p, err := tune.ParseRange(spec, text)
			if err != nil {
				continue
			}
			switch p.Kind {
			case tune.Categorical:
				seen := map[string]bool{}
				for _, c := range p.Choices {
					if seen[c] || (spec.Kind == sudokulab.ParamChoice && !slices.Contains(spec.Choices, c)) {
						t.Fatalf("%s=%q: choices %v", spec.Name, text, p.Choices)
					}
					seen[c] = true
				}
				if len(p.Choices) < 2 {
					t.Fatalf("%s=%q: choices %v", spec.Name, text, p.Choices)
				}
			default:
				if !(p.Min < p.Max) || p.Min < spec.Min || p.Max > spec.Max || math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) ||
					(p.Log && p.Min <= 0) || (p.Kind == tune.Int && (p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max))) {
					t.Fatalf("%s=%q: %+v", spec.Name, text, p)
				}
			}
		}
	})
}
