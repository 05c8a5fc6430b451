package db_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"sudokulab/db"
)

// TestExperimentTunings reads back a finished tuning as a report does, on
// every backend: its row with the best elite's name, its candidates with
// their configurations, its race steps with their tests; an experiment
// of no tuning has none.
func TestExperimentTunings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		puzzles := genPuzzles(t, d, 2)
		cfg := configs(t, d, 3)
		exp, err := db.EnsureExperiment(ctx, d, "tune-r", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.EnsureExperiment(ctx, d, "plain", ""); err != nil {
			t.Fatal(err)
		}
		tu := db.Tuning{Name: "tune-r", ExperimentID: exp, Solver: "s", TrainWhere: "id < 3", TestWhere: "id >= 3",
			Space: `{"param":{"i":"0..9"}}`, Objective: "effort", BudgetRuns: 40, Seed: 7, Budget: db.Budget{MaxEvaluations: 500}}
		if _, err := db.EnsureTuning(ctx, d, &tu); err != nil {
			t.Fatal(err)
		}
		for i, c := range cfg {
			if err := db.AddTuningCandidate(ctx, d, db.TuningCandidate{TuningID: tu.ID, Candidate: i + 1, Iteration: 1 + i/2, Parent: i / 2 * 2, ConfigID: c}); err != nil {
				t.Fatal(err)
			}
		}
		steps := []db.TuningStep{
			{Iteration: 1, Step: 1, Candidate: 1, PuzzleID: puzzles[0], Seed: 5, Cost: 10, MeanRank: 1, P: math.NaN(), Alive: true},
			{Iteration: 1, Step: 1, Candidate: 2, PuzzleID: puzzles[0], Seed: 5, Cost: 20, MeanRank: 2, P: math.NaN(), Alive: true},
			{Iteration: 1, Step: 2, Candidate: 1, PuzzleID: puzzles[1], Seed: 6, Cost: 15, MeanRank: 1, Test: "wilcoxon", P: 0.01, Alive: true},
			{Iteration: 1, Step: 2, Candidate: 2, PuzzleID: puzzles[1], Seed: 6, Cost: 30, MeanRank: 2, Test: "wilcoxon", P: 0.01, Alive: false},
			{Iteration: 2, Step: 1, Candidate: 1, PuzzleID: puzzles[1], Seed: 6, Cost: 15, MeanRank: 1.5, P: math.NaN(), Alive: true},
			{Iteration: 2, Step: 1, Candidate: 3, PuzzleID: puzzles[1], Seed: 6, Cost: 12, MeanRank: 1.5, P: math.NaN(), Alive: true},
		}
		if err := db.AddTuningSteps(ctx, d, tu.ID, steps); err != nil {
			t.Fatal(err)
		}
		if err := db.RenameConfig(ctx, d, cfg[2], "tune-r-elite-1"); err != nil {
			t.Fatal(err)
		}
		tu.RunsUsed, tu.Iterations, tu.StopReason, tu.BestConfigID = 5, 2, "the budget is spent", cfg[2]
		if err := db.FinishTuning(ctx, d, &tu, []int{3, 1}); err != nil {
			t.Fatal(err)
		}

		got, err := d.ExperimentTunings(ctx, "tune-r")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d tunings, want 1", len(got))
		}
		v := got[0]
		tu.State = "done"
		if v.Tuning != tu || v.BestConfig != "tune-r-elite-1" || v.StartedAt == "" || v.FinishedAt == "" {
			t.Errorf("tuning %+v, best %q, %q to %q; want %+v, best tune-r-elite-1, with its dates", v.Tuning, v.BestConfig, v.StartedAt, v.FinishedAt, tu)
		}
		wantCands := []db.TuningCandidateView{
			{Candidate: 1, Iteration: 1, EliteRank: 2, Config: "c0", Params: `{"i":0}`},
			{Candidate: 2, Iteration: 1, Config: "c1", Params: `{"i":1}`},
			{Candidate: 3, Iteration: 2, Parent: 2, EliteRank: 1, Config: "tune-r-elite-1", Params: `{"i":2}`},
		}
		if !reflect.DeepEqual(v.Candidates, wantCands) {
			t.Errorf("candidates %+v, want %+v", v.Candidates, wantCands)
		}
		if len(v.Steps) != len(steps) {
			t.Fatalf("%d steps, want %d", len(v.Steps), len(steps))
		}
		for i, s := range v.Steps {
			w := steps[i]
			if math.IsNaN(w.P) != math.IsNaN(s.P) || (!math.IsNaN(w.P) && s.P != w.P) {
				t.Errorf("step %d: p %v, want %v", i, s.P, w.P)
			}
			s.P, w.P = 0, 0
			if s != w {
				t.Errorf("step %d: %+v, want %+v", i, s, w)
			}
		}
		if none, err := d.ExperimentTunings(ctx, "plain"); err != nil || len(none) != 0 {
			t.Errorf("an experiment of no tuning: %+v, %v; want none", none, err)
		}
	})
}
