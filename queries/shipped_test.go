package queries_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/queries"
	"sudokulab/runner"
	"sudokulab/solvers"
)

// populated returns a copy of lab.db.example with real runs of the exact
// solver and of a stochastic one (franco-tabu-table2, 300 iterations) on
// reseda-2012, recorded under two code versions, and two raters' ratings
// of every puzzle.
func populated(t *testing.T) *db.DB {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile("../lab.db.example")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	reg := solvers.Default()
	if err := runner.SyncPresets(ctx, d, reg); err != nil {
		t.Fatal(err)
	}
	plan := runner.Plan{Budget: sudokulab.Budget{MaxGenerations: 300}}
	if plan.Puzzles, err = db.ListPuzzles(ctx, d, "collection = 'reseda-2012'", 0); err != nil || len(plan.Puzzles) == 0 {
		t.Fatalf("puzzles: %d, %v", len(plan.Puzzles), err)
	}
	for _, name := range []string{"exact", "franco-tabu-table2"} {
		c, err := runner.LoadConfig(ctx, d, reg, name)
		if err != nil {
			t.Fatal(err)
		}
		plan.Configs = append(plan.Configs, c)
	}
	if plan.ExperimentID, err = db.EnsureExperiment(ctx, d, "queries-test", ""); err != nil {
		t.Fatal(err)
	}
	for i, version := range []string{"v1", "v2"} {
		plan.Seeds = []int64{int64(2*i + 1), int64(2*i + 2)}
		if _, err := runner.Execute(ctx, d, plan, runner.Options{Jobs: 2, Trace: runner.DefaultTrace, CodeVersion: version}); err != nil {
			t.Fatal(err)
		}
	}
	labels := []string{"easy", "medium", "hard"}
	for i, p := range plan.Puzzles {
		givens := float64(p.Givens.Givens())
		score := float64((i * 7) % 5)
		for _, r := range []sudokulab.Rating{
			{PuzzleID: p.ID, Rater: "givens", RaterVersion: "1", Value: &givens},
			{PuzzleID: p.ID, Rater: "human", RaterVersion: "1", Value: &score, Label: labels[i%len(labels)]},
		} {
			if err := db.UpsertRating(ctx, d, r); err != nil {
				t.Fatal(err)
			}
		}
		// Two puzzles that are the same up to symmetry.
		if err := db.SetSymmetryForm(ctx, d, p.ID, fmt.Sprintf("form-%d", min(i, 1))); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestQueriesRun runs every shipped query, with its defaults, on a
// populated copy of lab.db.example and checks its columns and that it
// returns rows.
func TestQueriesRun(t *testing.T) {
	d := populated(t)
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	// The columns of the queries this package defines; the reproduction
	// queries belong to the solvers' scripts and only have to run.
	want := map[string][]string{
		"collection-summary":    {"collection", "puzzles", "min_givens", "mean_givens", "max_givens", "with_solution", "unique_solution", "undetermined", "rated", "labels", "with_symmetry_form", "symmetry_duplicates"},
		"convergence":           {"config", "budget", "runs", "mean_best_cost", "min_best_cost", "q25_best_cost", "median_best_cost", "q75_best_cost", "max_best_cost"},
		"ecdf-fixed-budget":     {"config", "budget", "runs", "mean_best_cost", "solved_fraction"},
		"ecdf-fixed-target":     {"config", "budget", "runs", "reached", "fraction"},
		"hardest-puzzles":       {"hardness_rank", "puzzle_id", "puzzle", "givens", "configs", "configs_solving", "runs", "solved", "success_rate", "mean_success_rate", "mean_evaluations_solved"},
		"history":               {"config", "code_version", "runs", "solved", "success_rate", "success_change", "mean_evaluations_solved", "mean_seconds", "first_run", "last_run"},
		"rater-correlation":     {"rater_a", "rater_b", "puzzles", "spearman"},
		"rater-disagreement":    {"puzzle_id", "puzzle", "raters", "spread", "percentiles"},
		"success-by-collection": {"config", "collection", "runs", "solved", "success_rate", "effort_unit", "mean_effort_solved", "median_effort_solved", "mean_generations_solved", "median_generations_solved", "mean_seconds", "mean_cpu_seconds", "mean_prefilter_revisions", "ert_effort"},
		"success-by-rating":     {"config", "label", "level", "mean_rating", "runs", "solved", "success_rate", "effort_unit", "mean_effort_solved", "median_effort_solved", "mean_generations_solved", "median_generations_solved", "mean_seconds", "mean_cpu_seconds", "mean_prefilter_revisions", "ert_effort"},
	}
	for name := range want {
		if _, ok := queries.Find(qs, name); !ok {
			t.Errorf("query %s is not shipped", name)
		}
	}
	for _, q := range qs {
		t.Run(q.Name, func(t *testing.T) {
			sql, args, err := q.Bind(nil)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := d.ReadQuery(context.Background(), sql, args...)
			if err != nil {
				t.Fatal(err)
			}
			cols, ok := want[q.Name]
			if !ok {
				return
			}
			if fmt.Sprint(tab.Columns) != fmt.Sprint(cols) {
				t.Errorf("columns %v, want %v", tab.Columns, cols)
			}
			if len(tab.Rows) == 0 {
				t.Errorf("no rows")
			}
		})
	}
}

// exampleParams are the parameters the reproduction queries need to show
// the sample runs of lab.db.example rather than a reproduction experiment.
var exampleParams = map[string]map[string]string{
	"reproduce-nbcoin":      {"experiment": "NULL"},
	"reproduce-tabu-cuckoo": {"experiment": "example-samples"},
}

// TestQueriesOnExample runs every shipped query on lab.db.example itself, as
// a newcomer would on a fresh clone, and checks that each shows at least
// one row from the example's sample runs and ratings.
func TestQueriesOnExample(t *testing.T) {
	b, err := os.ReadFile("../lab.db.example")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := db.OpenOptions(context.Background(), path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		t.Run(q.Name, func(t *testing.T) {
			sql, args, err := q.Bind(exampleParams[q.Name])
			if err != nil {
				t.Fatal(err)
			}
			tab, err := d.ReadQuery(context.Background(), sql, args...)
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Columns) == 0 || len(tab.Rows) == 0 {
				t.Errorf("%d columns, %d rows on lab.db.example; want at least one of each", len(tab.Columns), len(tab.Rows))
			}
		})
	}
}
