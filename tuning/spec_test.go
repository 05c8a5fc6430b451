package tuning_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/runner"
	"sudokulab/tune"
	"sudokulab/tuning"
)

// TestSpecCheck refuses what tune's flags may not say, in their words.
func TestSpecCheck(t *testing.T) {
	ok := tuning.Spec{Solver: "tabu", Train: "id <= 20", Budget: 100, Lease: runner.DefaultLease}
	tests := []struct {
		name string
		edit func(*tuning.Spec, *tuning.Options)
		want string // "" for no error
	}{
		{"ok", func(*tuning.Spec, *tuning.Options) {}, ""},
		{"every run left to workers", func(_ *tuning.Spec, o *tuning.Options) { o.Runner.Jobs = 0 }, ""},
		{"no solver", func(s *tuning.Spec, _ *tuning.Options) { s.Solver = "" }, "--solver NAME"},
		{"blank training set", func(s *tuning.Spec, _ *tuning.Options) { s.Train = "  " }, "--train WHERE"},
		{"no budget", func(s *tuning.Spec, _ *tuning.Options) { s.Budget = 0 }, "--budget 0"},
		{"negative jobs", func(_ *tuning.Spec, o *tuning.Options) { o.Runner.Jobs = -1 }, "--jobs -1"},
		{"short lease", func(s *tuning.Spec, _ *tuning.Options) { s.Lease = time.Second }, "--lease 1s: want at least 3s"},
		{"the first error of two", func(s *tuning.Spec, o *tuning.Options) { s.Budget, o.Runner.Jobs = 0, -1 }, "--budget 0"},
	}
	for _, tt := range tests {
		s, o := ok, tuning.Options{Runner: runner.Options{Jobs: 2}}
		tt.edit(&s, &o)
		err := s.Check(o)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tt.name, err)
		case tt.want != "" && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an EINVALID error with %q", tt.name, err, tt.want)
		}
	}
}

func TestStepText(t *testing.T) {
	if _, ok := tuning.StepText(tune.Step{Iteration: 1, Number: 2}); ok {
		t.Error("an untested step has a text")
	}
	s := tune.Step{Iteration: 1, Number: 5, Test: "friedman", P: 0.01234, Entries: []tune.Entry{{Alive: true}, {}, {Alive: true}}}
	if got, ok := tuning.StepText(s); !ok || got != "iteration 1 step 5: friedman p = 0.0123, 2 of 3 candidates alive" {
		t.Errorf("StepText = %q, %v", got, ok)
	}
}

func TestEliteTable(t *testing.T) {
	r := tuning.Report{Elites: []string{"t-elite-1", "t-elite-2"},
		Settings: []map[string]string{{"tenure": "7", "alpha": "0.5"}, {"tenure": "9", "alpha": "0.25"}}}
	tab := r.EliteTable()
	if got := fmt.Sprint(tab.Columns, tab.Rows); got != "[rank config alpha tenure] [[1 t-elite-1 0.5 7] [2 t-elite-2 0.25 9]]" {
		t.Errorf("EliteTable = %s", got)
	}
}
