package sudokulab_test

import (
	"strings"
	"testing"

	"sudokulab"
)

// TestCanonicalParamsStable checks that canonical text is stable:
// canonicalizing it again, or encoding the same map with encoding/json
// (Params.Canonical), gives the same text.
func TestCanonicalParamsStable(t *testing.T) {
	for _, in := range []string{`{"b":[1,{"z":1,"y":2.50}],"a":"<&>"}`, `{}`, ``, `{"n":1e3}`} {
		once, err := sudokulab.CanonicalParams(in)
		if err != nil {
			t.Fatal(err)
		}
		twice, _ := sudokulab.CanonicalParams(once)
		if once != twice {
			t.Errorf("CanonicalParams(%s) = %s, then %s", in, once, twice)
		}
	}
	params := sudokulab.Params{"x": "<a>", "p": int64(100), "f": 0.25}
	if got, _ := sudokulab.CanonicalParams(`{"x":"<a>","p":100,"f":0.25}`); got != params.Canonical() {
		t.Errorf("CanonicalParams and Params.Canonical differ: %s vs %s", got, params.Canonical())
	}
}

// TestPresetSets writes a preset's settings as --set values, sorted.
func TestPresetSets(t *testing.T) {
	tests := []struct {
		set  map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{"samples": "64"}, "samples=64"},
		{map[string]string{"zones": "3x3", "alpha": "0.5", "best": "1=2"}, "alpha=0.5 best=1=2 zones=3x3"},
	}
	for _, tt := range tests {
		if got := strings.Join(sudokulab.Preset{Name: "p", Set: tt.set}.Sets(), " "); got != tt.want {
			t.Errorf("Sets of %v = %q, want %q", tt.set, got, tt.want)
		}
	}
}
