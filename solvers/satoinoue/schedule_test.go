package satoinoue_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/internal/paperdata"
	"sudokulab/solvers/satoinoue"
	"sudokulab/solvers/solvertest"
)

// TestRestartSchedules checks parameter restart-schedule on AI Escargot
// with a small population: fixed (the default) is the restart rule as it
// was, seed for seed; with luby and geometric every attempt lasts at least
// its patience (unit times 1, 1, 2, 1, 1, 2, 4, ... or 1, 2, 4, ...), so
// they restart less often than fixed; and the conformance suite passes.
func TestRestartSchedules(t *testing.T) {
	info := satoinoue.Info()
	p := paperdata.MustGet("ai-escargot").Puzzle
	base := map[string]string{"restart": "4", "population": "20"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for a, b := range base {
			m[a] = b
		}
		return m
	}
	if a, b := solvertest.Digest(t, info, base, "ai-escargot", 200, 5), solvertest.Digest(t, info, with("restart-schedule", "fixed"), "ai-escargot", 200, 5); a != b {
		t.Errorf("restart-schedule=fixed changed the run:\n%s\n%s", b, a)
	}
	starts := func(set map[string]string) []int64 {
		s := solvertest.New(t, info, set)
		var out []int64
		var last int64
		_, err := s.Solve(context.Background(), p, sudokulab.Budget{MaxGenerations: 600}, sudokulab.NewRand(5),
			sudokulab.ObserverFunc(func(st sudokulab.Step) {
				if st.Restarts > last {
					out = append(out, st.Generation)
					last = st.Restarts
				}
			}))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fixed := starts(base)
	for _, tc := range []struct {
		schedule string
		patience []int64 // of attempts 2, 3, ...
	}{
		{"luby", []int64{4, 8, 4, 4, 8, 16, 4, 4, 8, 4, 4, 8, 16, 32}},
		{"geometric", []int64{8, 16, 32, 64, 128}},
	} {
		got := starts(with("restart-schedule", tc.schedule))
		if len(got) < 3 || len(got) >= len(fixed) {
			t.Errorf("%s: %d restarts (fixed: %d), want at least 3 and fewer than fixed", tc.schedule, len(got), len(fixed))
		}
		for a := 1; a < len(got) && a <= len(tc.patience); a++ {
			// The restart takes one generation; the attempt then needs
			// its patience without improving.
			if gap := got[a] - got[a-1]; gap < tc.patience[a-1] {
				t.Errorf("%s: attempt %d lasted %d generations, want at least %d", tc.schedule, a+1, gap, tc.patience[a-1])
			}
		}
	}
	solvertest.Run(t, info, solvertest.Options{Params: map[string]string{"restart": "20", "restart-schedule": "luby"}, Easy: []string{"sato-no1"}, Seeds: 2})
}

// TestRestartScheduleSettings checks that New refuses an unknown schedule
// and a factor below 1.
func TestRestartScheduleSettings(t *testing.T) {
	for _, s := range []satoinoue.Settings{
		{Restart: 10, RestartSchedule: "fibonacci"},
		{Restart: 10, RestartSchedule: "geometric", RestartFactor: 0.5},
	} {
		if _, err := satoinoue.New(s); err == nil {
			t.Errorf("New(%+v) accepted", s)
		}
	}
	if _, err := satoinoue.New(satoinoue.Settings{Restart: 10, RestartSchedule: "luby"}); err != nil {
		t.Error(err)
	}
}
