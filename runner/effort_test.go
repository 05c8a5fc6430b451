package runner_test

import (
	"context"
	"testing"

	"sudokulab"
	"sudokulab/runner"
	"sudokulab/solvers"
	"sudokulab/solvers/restartsearch"
)

// TestEffortUnits runs every registered solver through the engine and
// checks that each run reports its work in the documented units: the exact
// solver in nodes and guesses with no evaluations, every stochastic solver
// at least one evaluation (the starting grid's) and no nodes, the prefilter
// in its own column (never folded into evaluations, never zero when it
// ran), and CPU time for every run.
func TestEffortUnits(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	puzzles := addPuzzles(t, d, "reseda-easy", "ai-escargot")
	var configs []runner.Config
	prefiltered := map[string]bool{} // configuration name: filters before the search
	for _, info := range solvers.Default().All() {
		c := addConfig(t, d, info, info.Name, nil)
		configs = append(configs, c)
		if _, ok := info.Param("prefilter"); ok {
			prefiltered[c.Name] = c.Params.String("prefilter") != "none"
			configs = append(configs, addConfig(t, d, info, info.Name+"-gac", map[string]string{"prefilter": "gac"}))
			prefiltered[info.Name+"-gac"] = true
		}
	}
	plan := runner.Plan{Puzzles: puzzles, Configs: configs, Seeds: []int64{1}, Budget: sudokulab.Budget{MaxGenerations: 20}}
	if _, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	rows, err := d.QueryxContext(ctx, `SELECT config, solver, grid, status, evaluations, prefilter_revisions, nodes, guesses,
		effort, effort_unit, cpu_seconds FROM run_results ORDER BY config, puzzle_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n, prefilterSolved := 0, 0
	for rows.Next() {
		var (
			config, solver, grid, status, unit string
			evals                              int64
			prefilter, nodes, guesses, effort  *int64
			cpu                                *float64
		)
		if err := rows.Scan(&config, &solver, &grid, &status, &evals, &prefilter, &nodes, &guesses, &effort, &unit, &cpu); err != nil {
			t.Fatal(err)
		}
		n++
		where := config + " on " + grid[:12] + "…"
		if status == "error" {
			t.Errorf("%s: status error", where)
			continue
		}
		if cpu == nil || *cpu < 0 {
			t.Errorf("%s: cpu_seconds %v, want a measured time", where, cpu)
		}
		if solver == "exact" || solver == restartsearch.Name {
			// Tree searches: one root per try (the exact search makes one).
			tries := int64(1)
			if solver == restartsearch.Name && nodes != nil && guesses != nil {
				tries = *nodes - *guesses
			}
			if evals != 0 || nodes == nil || *nodes < 1 || guesses == nil || tries < 1 || *guesses != *nodes-tries || prefilter != nil {
				t.Errorf("%s: evaluations %d, nodes %v, guesses %v, prefilter %v; want 0, nodes = guesses + tries, no prefilter", where, evals, nodes, guesses, prefilter)
			}
			if unit != "nodes" || effort == nil || *effort != *nodes {
				t.Errorf("%s: effort %v %s, want the nodes", where, effort, unit)
			}
			continue
		}
		if evals < 1 || nodes != nil || guesses != nil {
			t.Errorf("%s: evaluations %d, nodes %v, guesses %v; want at least 1 evaluation and no nodes", where, evals, nodes, guesses)
		}
		if unit != "evaluations" || effort == nil || *effort != evals {
			t.Errorf("%s: effort %v %s, want the evaluations", where, effort, unit)
		}
		withPrefilter := prefiltered[config]
		switch {
		case withPrefilter && (prefilter == nil || *prefilter <= 0):
			t.Errorf("%s: prefilter_revisions %v, want the filtering's work", where, prefilter)
		case !withPrefilter && prefilter != nil:
			t.Errorf("%s: prefilter_revisions %v without a prefilter", where, *prefilter)
		}
		if withPrefilter && status == "solved" && evals == 1 {
			prefilterSolved++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != plan.Total() {
		t.Fatalf("%d runs, want %d", n, plan.Total())
	}
	// GAC alone solves reseda-easy, so each prefiltered solver solves it
	// with the one evaluation of its starting grid.
	if prefilterSolved == 0 {
		t.Error("no run was solved by the prefilter alone; want the prefiltered solvers on reseda-easy")
	}
}
