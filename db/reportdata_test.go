package db_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestReportData reads what a report reads of an experiment with four runs
// on every backend: its row, runs, dates, puzzles, memberships,
// configurations and the hosts that made its runs, and nothing of an
// experiment that does not exist.
func TestReportData(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		puzzle, config, exp := runFixture(t, d)
		ids := addRuns(t, d, puzzle.ID, config, exp, sudokulab.StatusSolved, sudokulab.StatusUnsolved, sudokulab.StatusSolved, sudokulab.StatusError)
		for _, id := range ids { // as run links what it records
			if _, err := d.ExecContext(ctx, d.Rebind(`INSERT INTO experiment_runs (experiment_id, run_id) VALUES (?, ?)`), exp, id); err != nil {
				t.Fatal(err)
			}
		}

		if h, ok, err := d.ExperimentHead(ctx, "exp"); err != nil || !ok || h.Name != "exp" || h.Description != "a test" || h.Created == "" {
			t.Errorf("ExperimentHead(exp) = %+v, %v, %v", h, ok, err)
		}
		if h, ok, err := d.ExperimentHead(ctx, "nosuch"); err != nil || ok {
			t.Errorf("ExperimentHead(nosuch) = %+v, %v, %v; want not found", h, ok, err)
		}
		runs, err := d.ExperimentRuns(ctx, "exp")
		if err != nil || len(runs) != 4 {
			t.Fatalf("ExperimentRuns = %+v, %v; want 4 runs", runs, err)
		}
		solved := 0
		for _, r := range runs {
			if r.Config != "ga" || r.Solver != "ga" || r.Puzzle != puzzle.ID || r.MaxGenerations != 100 || r.Wall != 0.5*float64(r.Seed) {
				t.Errorf("run %+v", r)
			}
			if r.Solved != (r.Status == string(sudokulab.StatusSolved)) {
				t.Errorf("run %d: status %s, solved %v", r.ID, r.Status, r.Solved)
			}
			if r.Solved {
				solved++
			}
		}
		if solved != 2 {
			t.Errorf("%d runs solved, want 2", solved)
		}
		if planned, pending, err := d.ExperimentWork(ctx, "exp"); err != nil || planned != 0 || pending != 0 {
			t.Errorf("ExperimentWork = %d, %d, %v; want nothing planned", planned, pending, err)
		}
		if first, last, err := d.ExperimentDates(ctx, "exp"); err != nil || first == "" || last == "" {
			t.Errorf("ExperimentDates = %q, %q, %v", first, last, err)
		}
		if ps, err := d.ExperimentPuzzles(ctx, "exp"); err != nil || len(ps) != 1 || ps[0].ID != puzzle.ID || ps[0].Size != 9 || ps[0].Givens != int64(puzzle.Givens.Givens()) {
			t.Errorf("ExperimentPuzzles = %+v, %v", ps, err)
		}
		if ms, err := d.ExperimentMemberships(ctx, "exp"); err != nil || len(ms) != 1 || !ms[0].InNone || ms[0].Puzzle != puzzle.ID {
			t.Errorf("ExperimentMemberships = %+v, %v; want the puzzle in no collection", ms, err)
		}
		if cs, err := d.ExperimentConfigs(ctx, "exp"); err != nil || len(cs) != 1 || cs[0].Name != "ga" || cs[0].Params != `{"pop":10}` || cs[0].Preset {
			t.Errorf("ExperimentConfigs = %+v, %v", cs, err)
		}
		hosts, err := d.ExperimentOrigins(ctx, "exp", db.ByHost)
		if err != nil || len(hosts) != 2 || hosts[0].Value != "h0" || hosts[0].Runs != 2 || hosts[1].Value != "h1" || hosts[1].Runs != 2 {
			t.Errorf("ExperimentOrigins(host) = %+v, %v; want h0 and h1, 2 runs each", hosts, err)
		}
		if _, err := d.ExperimentOrigins(ctx, "exp", "status"); err == nil {
			t.Error("ExperimentOrigins(status): no error, want one (only code_version and host)")
		}
		if runs, err := d.ExperimentRuns(ctx, "nosuch"); err != nil || len(runs) != 0 {
			t.Errorf("ExperimentRuns(nosuch) = %+v, %v; want none", runs, err)
		}
	})
}
