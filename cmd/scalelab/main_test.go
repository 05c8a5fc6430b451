package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"sudokulab/db"
	"sudokulab/solvers"
)

// TestBuildSmallLab grows lab.db.example to 300 puzzles and about 300
// runs from the paper puzzles, twice with one seed and once with another:
// every puzzle valid with its solution, every run recorded through the
// queue with its trajectory and valid (merge takes them all), and the same
// seed giving the same lab.
func TestBuildSmallLab(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	build1 := func(name string, seed uint64) *db.DB {
		t.Helper()
		o := options{db: filepath.Join(dir, name), from: "../../lab.db.example", seed: seed, puzzles: 300, runs: 300, rated: 5,
			lists: []string{"testdata/paper.txt"}}
		if err := build(ctx, o); err != nil {
			t.Fatal(err)
		}
		d, err := db.OpenOptions(ctx, o.db, db.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	a, b, c := build1("a.db", 1), build1("b.db", 1), build1("c.db", 2)
	size, err := db.CountLab(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if size.Puzzles != 300 || size.Runs < 318+200 {
		t.Errorf("lab of %d puzzles and %d runs, want 300 and 318 + about 300", size.Puzzles, size.Runs)
	}
	ps, err := db.ListPuzzles(ctx, a, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	forms := 0
	for _, p := range ps {
		if err := p.Check(); err != nil || !p.HasSolution() {
			t.Fatalf("puzzle %d %s: %v (solution %v)", p.ID, p.Givens, err, p.HasSolution())
		}
		if p.SymmetryForm != "" {
			forms++
		}
	}
	if forms < 300-11 { // lab.db.example's own have none
		t.Errorf("%d puzzles with a symmetry form", forms)
	}
	var points, unlinked, notDone int
	for _, q := range []struct {
		n   *int
		sql string
	}{
		{&points, `SELECT COUNT(*) FROM trajectory_points`},
		{&unlinked, `SELECT COUNT(*) FROM runs WHERE id NOT IN (SELECT run_id FROM experiment_runs)`},
		{&notDone, `SELECT COUNT(*) FROM work w JOIN runs r ON r.id = w.run_id WHERE w.state <> 'done'`},
	} {
		if err := a.QueryRowxContext(ctx, q.sql).Scan(q.n); err != nil {
			t.Fatal(err)
		}
	}
	if points < 5*int(size.Runs-318) || unlinked != 0 || notDone != 0 {
		t.Errorf("%d trajectory points for %d runs, %d runs in no experiment, %d done runs whose work is not", points, size.Runs-318, unlinked, notDone)
	}
	// Every run is one a solver could record: merge, which checks each
	// (a final grid keeping its puzzle's givens), takes all of them.
	m, err := db.Open(ctx, filepath.Join(dir, "merged.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rep, err := db.Merge(ctx, m, a, db.MergeOptions{Solvers: solvers.Default()})
	if err != nil {
		t.Fatalf("merge the built lab: %v", err)
	}
	if runs := rep.Count(db.MergeRuns); len(rep.Invalid) > 0 || runs.Added < size.Runs-318 {
		t.Errorf("merge the built lab: %d runs added of %d, invalid rows %v", runs.Added, size.Runs, rep.Invalid)
	}
	grids := func(d *db.DB) []string {
		ps, err := db.ListPuzzles(ctx, d, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range ps {
			out = append(out, p.Givens.String())
		}
		return out
	}
	if !slices.Equal(grids(a), grids(b)) {
		t.Error("two builds with seed 1 differ")
	}
	if slices.Equal(grids(a), grids(c)) {
		t.Error("seeds 1 and 2 give the same puzzles")
	}
}
