package raters_test

import (
	"context"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/internal/cputime"
	"sudokulab/raters"
)

func TestSE(t *testing.T) {
	r := newRater(t, "se", nil)
	// top1465's first puzzle: serate (SE121 techniques) rates it 9.0/1.2/1.2
	// with Dynamic Contradiction Forcing Chains.
	g := sudokulab.MustParse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	a, err := r.Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if a.Value == nil || *a.Value != 9.0 || a.Label != "9.0/1.2/1.2" || a.Options != `{"time-limit":"0s"}` {
		t.Fatalf("rating %v %q %s", a.Value, a.Label, a.Options)
	}
	d := details(t, a)
	if d["er_technique"] != "Dynamic Contradiction Forcing Chains" || d["ep"] != 1.2 || d["ed"] != 1.2 ||
		d["steps"].(float64) != float64(len(d["path"].([]any))) {
		t.Errorf("details %s", a.Details)
	}
	// Other shapes have no SE rating, and say so.
	small := sudokulab.MustParse("1...\n..3.\n.4..\n...2")
	s, err := r.Rate(context.Background(), small)
	if err != nil || s.Value != nil || s.Label != "not 9x9" {
		t.Errorf("4x4: %v %q %v", s.Value, s.Label, err)
	}
}

func TestSETimeLimit(t *testing.T) {
	// A forum-hardest puzzle (serate 11.8/11.8/11.4) takes far longer than
	// the limit: the rating is stored as partial, with no value.
	r := newRater(t, "se", map[string]string{"time-limit": "50ms"})
	g := sudokulab.MustParse("2.......6.5..8..1...4...9...7.3.1......82.......7.5.3...9...4...8..1..5.6.......2")
	start, _ := cputime.Process()
	a, err := r.Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if a.Value != nil || a.Label != "partial" {
		t.Fatalf("cut-short rating: value %v label %q", a.Value, a.Label)
	}
	d := details(t, a)
	if d["partial"] != true || d["er_at_least"] == nil {
		t.Errorf("details %s", a.Details)
	}
	// In CPU time, which a loaded machine does not stretch.
	if end, _ := cputime.Process(); end-start > 5*time.Second {
		t.Errorf("a 50ms limit took %v of CPU", end-start)
	}
	in, _ := raters.Default().Lookup("se")
	if _, err := in.New(context.Background(), raters.Env{Options: map[string]string{"time-limit": "soon"}}); err == nil {
		t.Error("bad time-limit accepted")
	}
}
