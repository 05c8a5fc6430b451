package runner_test

import (
	"context"
	"path/filepath"
	"testing"

	"sudokulab/runner"
)

// TestRunOtherPlanQueuedAtTheEnd queues another process's plan into the
// experiment just as the first plan's work runs out, as two irace target
// runners in one experiment do: Run does that work too and succeeds,
// where it used to fail saying the workers had stopped with runs waiting.
func TestRunOtherPlanQueuedAtTheEnd(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	d := openDB(t, path)
	reg := testRegistry()
	addPuzzles(t, d, "reseda-easy", "sato-no1")
	exactConfig(t, d)
	other := openDB(t, path)
	queued := false
	defer runner.SetAfterWork(func() {
		if queued {
			return
		}
		queued = true
		spec := runner.Spec{Experiment: "shared", Configs: []string{"exact"}, FirstSeed: 10, Seeds: 2, EnqueueOnly: true}
		if _, err := runner.Run(ctx, other, reg, spec, runner.Options{}); err != nil {
			t.Errorf("queue the other plan: %v", err)
		}
	})()
	sum, err := runner.Run(ctx, d, reg, runner.Spec{Experiment: "shared", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 3}, runner.Options{Jobs: 1})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !queued {
		t.Fatal("the other plan was never queued")
	}
	if sum.Recorded != 10 || !sum.Left.Done() || len(sum.Held) != 1 || sum.Held[0].Runs != 10 {
		t.Errorf("Run: recorded %d, left %+v, held %+v; want its plan's 6 runs and the other's 4 recorded and held, nothing left", sum.Recorded, sum.Left, sum.Held)
	}
	if n := countRuns(t, d); n != 10 {
		t.Errorf("%d runs stored, want 10", n)
	}
}
