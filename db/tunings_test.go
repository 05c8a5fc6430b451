package db_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestTunings stores a tuning, its candidates and race steps, resumes it,
// refuses it under other settings, finishes it and reads its runs back,
// on every backend.
func TestTunings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		puzzles := genPuzzles(t, d, 3)
		cfg := configs(t, d, 2)
		exp, err := db.EnsureExperiment(ctx, d, "tune-x", "")
		if err != nil {
			t.Fatal(err)
		}
		tu := db.Tuning{Name: "tune-x", ExperimentID: exp, Solver: "s", TrainWhere: "id < 3", Space: `{"param":{"i":"0..9"}}`,
			Objective: "effort", BudgetRuns: 100, Seed: 7, Budget: db.Budget{MaxEvaluations: 500}}
		first := tu
		if resumed, err := db.EnsureTuning(ctx, d, &first); err != nil || resumed || first.ID == 0 || first.State != "racing" {
			t.Fatalf("new tuning: resumed %v, %+v, %v", resumed, first, err)
		}
		again := tu
		if resumed, err := db.EnsureTuning(ctx, d, &again); err != nil || !resumed || again.ID != first.ID {
			t.Fatalf("same tuning again: resumed %v, id %d (want %d), %v", resumed, again.ID, first.ID, err)
		}
		other := tu
		other.Seed = 8
		_, err = db.EnsureTuning(ctx, d, &other)
		wantCode(t, err, sudokulab.ECONFLICT)

		for range 2 { // a resumed tuning stores its rows again
			for i, c := range cfg {
				if err := db.AddTuningCandidate(ctx, d, db.TuningCandidate{TuningID: first.ID, Candidate: i + 1, Iteration: 1, Parent: i, ConfigID: c}); err != nil {
					t.Fatal(err)
				}
			}
			err := db.AddTuningSteps(ctx, d, first.ID, []db.TuningStep{
				{Iteration: 1, Step: 1, Candidate: 1, PuzzleID: puzzles[0], Seed: 5, Cost: 10, MeanRank: 1, P: math.NaN(), Alive: true},
				{Iteration: 1, Step: 1, Candidate: 2, PuzzleID: puzzles[0], Seed: 5, Cost: 20, MeanRank: 2, P: math.NaN(), Alive: true},
				{Iteration: 1, Step: 2, Candidate: 2, PuzzleID: puzzles[1], Seed: 6, Cost: 30, MeanRank: 2, Test: "wilcoxon", P: 0.01, Alive: false},
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tuning_candidates WHERE parent IS NULL`); n != 1 {
			t.Errorf("%d candidates without parent, want 1", n)
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tuning_steps WHERE tuning_id = ?`, first.ID); n != 3 {
			t.Errorf("%d step rows, want 3", n)
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tuning_steps WHERE test = 'wilcoxon' AND p_value = 0.01 AND alive = 0`); n != 1 {
			t.Errorf("%d eliminations, want 1", n)
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tuning_steps WHERE test IS NULL AND p_value IS NULL`); n != 2 {
			t.Errorf("%d steps without test, want 2", n)
		}

		if err := db.RenameConfig(ctx, d, cfg[0], "tune-x-elite-1"); err != nil {
			t.Fatal(err)
		}
		wantCode(t, db.RenameConfig(ctx, d, cfg[1], "tune-x-elite-1"), sudokulab.ECONFLICT)
		first.RunsUsed, first.Iterations, first.StopReason, first.BestConfigID = 99, 3, "the budget is spent", cfg[0]
		if err := db.FinishTuning(ctx, d, &first, []int{1}); err != nil {
			t.Fatal(err)
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tunings t JOIN configs c ON c.id = t.best_config_id
			WHERE t.state = 'done' AND t.runs_used = 99 AND c.name = 'tune-x-elite-1' AND t.finished_at IS NOT NULL`); n != 1 {
			t.Errorf("the finished tuning is not as stored")
		}
		if n := countOf(t, d, `SELECT COUNT(*) FROM tuning_candidates WHERE elite_rank = 1 AND candidate = 1`); n != 1 {
			t.Errorf("elite rank not stored")
		}
		steps, elites, err := db.TuningRace(ctx, d, "tune-x")
		if err != nil || len(steps) != 3 || len(elites) != 1 || elites[0] != 1 || steps[2].Alive || steps[2].Test != "wilcoxon" || steps[2].P != 0.01 || !math.IsNaN(steps[0].P) {
			t.Errorf("TuningRace: %+v %v %v", steps, elites, err)
		}
		_, _, err = db.TuningRace(ctx, d, "tune-nope")
		wantCode(t, err, sudokulab.ENOTFOUND)
		done := tu
		if resumed, err := db.EnsureTuning(ctx, d, &done); err != nil || !resumed || done.State != "done" || done.BestConfigID != cfg[0] || done.RunsUsed != 99 {
			t.Errorf("finished tuning read back: %+v, %v", done, err)
		}

		cpu := 0.25
		for i, c := range cfg {
			r := sudokulab.Run{PuzzleID: puzzles[0], ConfigID: c, Seed: 5, MaxEvaluations: 500, Status: sudokulab.StatusSolved,
				Evaluations: int64(100 * (i + 1)), BestCost: new(int), CPUSeconds: &cpu, FinalGrid: sudokulab.MustParse(classicSolution)}
			if i == 1 {
				r.Status, r.BestCost, r.FinalGrid = sudokulab.StatusUnsolved, intp(3), sudokulab.Grid{}
			}
			if _, err := db.InsertRun(ctx, d, &r, nil); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.RunOutcomes(ctx, d, puzzles[0], 5, db.Budget{MaxEvaluations: 500}, cfg)
		if err != nil || len(got) != 2 {
			t.Fatalf("RunOutcomes: %v, %v", got, err)
		}
		for _, o := range got {
			want := db.RunOutcome{ConfigID: cfg[0], Status: "solved", Effort: 100, EffortUnit: "evaluations"}
			if o.ConfigID == cfg[1] {
				want = db.RunOutcome{ConfigID: cfg[1], Status: "unsolved", Effort: 200, EffortUnit: "evaluations"}
			}
			if o.ConfigID != want.ConfigID || o.Status != want.Status || o.Effort != want.Effort || o.EffortUnit != want.EffortUnit || o.CPUSeconds == nil || *o.CPUSeconds != cpu {
				t.Errorf("outcome %+v, want %+v with 0.25 cpu seconds", o, want)
			}
		}
		if got, err := db.RunOutcomes(ctx, d, puzzles[0], 5, db.Budget{MaxEvaluations: 600}, cfg); err != nil || len(got) != 0 {
			t.Errorf("another budget: %v, %v", got, err)
		}
		if ids, err := db.SelectedPuzzles(ctx, d, fmt.Sprint("id = ", puzzles[1]), 0); err != nil || len(ids) != 1 || ids[0] != puzzles[1] {
			t.Errorf("SelectedPuzzles: %v, %v", ids, err)
		}
	})
}
