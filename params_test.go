package sudokulab_test

import (
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
