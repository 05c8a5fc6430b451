package raters_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/raters"
	"sudokulab/solvers/exact"
)

func newRater(t *testing.T, name string, opts map[string]string) raters.Rater {
	t.Helper()
	in, err := raters.Default().Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := in.New(context.Background(), raters.Env{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func details(t *testing.T, r sudokulab.Rating) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Details), &m); err != nil {
		t.Fatalf("details %q: %v", r.Details, err)
	}
	return m
}

func TestRegistry(t *testing.T) {
	reg := raters.Default()
	if got, want := reg.Names(), []string{"backtrack", "empirical", "givens", "human", "se"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	_, err := reg.Lookup("sudoku-explainer")
	var e *sudokulab.Error
	if !errors.As(err, &e) || e.Code != sudokulab.ENOTFOUND {
		t.Errorf("unknown rater: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a duplicate name does not panic")
		}
	}()
	raters.NewRegistry(raters.GivensInfo(), raters.GivensInfo())
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		rater string
		opts  map[string]string
	}{
		{"givens", map[string]string{"x": "1"}},
		{"human", map[string]string{"level": "easy"}},
		{"backtrack", map[string]string{"samples": "0"}},
		{"backtrack", map[string]string{"samples": "many"}},
		{"backtrack", map[string]string{"limit": "3"}},
		{"empirical", nil}, // config is required
		{"empirical", map[string]string{"config": "x"}}, // no database
	}
	for _, tt := range tests {
		in, _ := raters.Default().Lookup(tt.rater)
		_, err := in.New(context.Background(), raters.Env{Options: tt.opts})
		var e *sudokulab.Error
		if !errors.As(err, &e) || e.Code != sudokulab.EINVALID {
			t.Errorf("%s %v: error %v, want EINVALID", tt.rater, tt.opts, err)
		}
	}
}

func TestGivens(t *testing.T) {
	// Row 1 full, one given in r2c1, nothing else: rows 3..9 have none.
	g := sudokulab.MustParse("123456789" + "4........" + "........." + "........." + "........." + "........." + "........." + "........." + ".........")
	r, err := newRater(t, "givens", nil).Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rater != "givens" || r.RaterVersion != "1" || r.Options != "{}" || r.Value == nil || *r.Value != 10 || r.Label != "" {
		t.Errorf("rating %+v", r)
	}
	if want := `{"min_box":0,"min_col":1,"min_row":0,"min_unit":0}`; r.Details != want {
		t.Errorf("details %s, want %s", r.Details, want)
	}
}

func TestTransformIsEquivalent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range paperdata.All() {
		src := p.Puzzle
		want, _ := exact.Solve(context.Background(), src, 2)
		dst := src.Clone()
		for range 5 {
			raters.Transform(dst, src, rng)
			if dst.Givens() != src.Givens() {
				t.Fatalf("%s: %d givens, want %d", p.Name, dst.Givens(), src.Givens())
			}
			got, err := exact.Solve(context.Background(), dst, 2)
			if err != nil || got.Count != want.Count {
				t.Fatalf("%s: transformed form has %d solutions (%v), want %d", p.Name, got.Count, err, want.Count)
			}
		}
	}
}

func TestBacktrack(t *testing.T) {
	g := paperdata.MustGet("sato-no27").Puzzle
	r := newRater(t, "backtrack", map[string]string{"samples": "6", "seed": "7"})
	a, err := r.Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.Rate(context.Background(), g)
	if a.Details != b.Details || *a.Value != *b.Value {
		t.Errorf("not deterministic: %s vs %s", a.Details, b.Details)
	}
	if a.Options != `{"limit":2,"samples":6,"seed":7}` {
		t.Errorf("options %s", a.Options)
	}
	d := details(t, a)
	guesses := d["guesses"].(map[string]any)
	if d["samples"] != 6.0 || d["solutions"] != 1.0 || guesses["mean"] != *a.Value ||
		guesses["min"].(float64) > *a.Value || guesses["max"].(float64) < *a.Value {
		t.Errorf("details %s, value %v", a.Details, *a.Value)
	}
	// A puzzle that singles solve needs no guess in any form.
	easy := sudokulab.MustParse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
	e, _ := r.Rate(context.Background(), easy)
	if *e.Value != 0 {
		t.Errorf("easy puzzle: %v guesses", *e.Value)
	}
}

func TestHumanLevels(t *testing.T) {
	tests := []struct {
		name, grid, label, hardest string
	}{
		{"singles", "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", "easy", "naked-single"},
		// The first of top1465: stalls without forcing nets.
		{"forcing net", "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........", "extreme", "forcing-net"},
		// Two solutions: logic stalls.
		{"not unique", "........." + "........." + "........." + "........." + "........." + "........." + "........." + "........." + "123456789", "beyond", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newRater(t, "human", nil).Rate(context.Background(), sudokulab.MustParse(tt.grid))
			if err != nil {
				t.Fatal(err)
			}
			d := details(t, r)
			if r.Label != tt.label || (tt.hardest != "" && d["hardest"] != tt.hardest) {
				t.Errorf("label %q, details %s; want %q, hardest %q", r.Label, r.Details, tt.label, tt.hardest)
			}
		})
	}
}

// TestHumanValue checks that the value is HumanValue of the level and the
// score (the sum of the step weights), and that the details carry them.
func TestHumanValue(t *testing.T) {
	g := paperdata.MustGet("sato-no27").Puzzle
	tr, err := raters.SolveLogically(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	level := raters.Easy
	for _, s := range tr.Steps {
		sum += s.Technique.Weight()
		level = max(level, s.Level())
	}
	r, _ := newRater(t, "human", nil).Rate(context.Background(), g)
	d := details(t, r)
	if d["score"] != float64(sum) || d["level"] != float64(level.Number()) || r.Label != level.String() {
		t.Errorf("label %s, details %s; want score %d, level %d (%s)", r.Label, r.Details, sum, level.Number(), level)
	}
	if want := raters.HumanValue(level, sum, 0); *r.Value != want {
		t.Errorf("value %v, want %v", *r.Value, want)
	}
	if r.RaterVersion != "4" {
		t.Errorf("version %s, want 4", r.RaterVersion)
	}
}

// TestHumanValueOrdersLevels checks that every value of a level is above
// every value of the level below, whatever the scores, and that within a
// level the value grows with the score (and, beyond, with the guesses left
// after the stall).
func TestHumanValueOrdersLevels(t *testing.T) {
	tests := []struct {
		name         string
		lower, upper float64
	}{
		{"easy below medium", raters.HumanValue(raters.Easy, 1<<30, 0), raters.HumanValue(raters.Medium, 0, 0)},
		{"medium below hard", raters.HumanValue(raters.Medium, 1<<30, 0), raters.HumanValue(raters.Hard, 0, 0)},
		{"hard below unfair", raters.HumanValue(raters.Hard, 1<<30, 0), raters.HumanValue(raters.Unfair, 0, 0)},
		{"unfair below extreme", raters.HumanValue(raters.Unfair, 1<<30, 0), raters.HumanValue(raters.Extreme, 0, 0)},
		{"extreme below beyond", raters.HumanValue(raters.Extreme, 1<<30, 0), raters.HumanValue(raters.Beyond, 0, 0)},
		{"more work within a level", raters.HumanValue(raters.Hard, 1000, 0), raters.HumanValue(raters.Hard, 1001, 0)},
		{"more guesses beyond", raters.HumanValue(raters.Beyond, 1<<30, 40), raters.HumanValue(raters.Beyond, 0, 41)},
		{"beyond below 7000", raters.HumanValue(raters.Beyond, 1<<30, 1e12), 7000},
	}
	for _, tt := range tests {
		if !(tt.lower < tt.upper) {
			t.Errorf("%s: %v is not below %v", tt.name, tt.lower, tt.upper)
		}
	}
	if v := raters.HumanValue(raters.Unfair, 2000, 0); v != 4500 {
		t.Errorf("unfair with score 2000: %v, want 4500 (the middle of the band)", v)
	}
}

func TestStepLevel(t *testing.T) {
	tests := []struct {
		step raters.Step
		want raters.Level
	}{
		{raters.Step{Technique: raters.HiddenSingle}, raters.Easy},
		{raters.Step{Technique: raters.Claiming}, raters.Medium},
		{raters.Step{Technique: raters.Jellyfish}, raters.Hard},
		{raters.Step{Technique: raters.XChain, Links: 8}, raters.Unfair},
		{raters.Step{Technique: raters.XYChain, Links: 9}, raters.Extreme},
		{raters.Step{Technique: raters.AIC, Links: 5}, raters.Unfair},
		{raters.Step{Technique: raters.AIC, Links: 11}, raters.Extreme},
		{raters.Step{Technique: raters.ALSXZ}, raters.Unfair},
		{raters.Step{Technique: raters.ALSXYWing}, raters.Unfair},
		{raters.Step{Technique: raters.ForcingNet}, raters.Extreme},
	}
	for _, tt := range tests {
		if got := tt.step.Level(); got != tt.want {
			t.Errorf("%s with %d links: level %s, want %s", tt.step.Technique, tt.step.Links, got, tt.want)
		}
	}
}
