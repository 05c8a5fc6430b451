package db_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/solvers"
)

// doneWithoutRun counts the work items done without their run.
const doneWithoutRun = `SELECT COUNT(*) FROM work WHERE state = 'done' AND run_id IS NULL`

// spoilRun copies the executed lab to a source whose run id holds a final
// grid that changes a given of its puzzle, a run merge refuses.
func spoilRun(t *testing.T, lab mergeLab, name string, id int64) mergeLab {
	t.Helper()
	out := lab.copyTo(t, name)
	var grid, solution string
	d := mergeOpenRead(t, out.path)
	if err := d.QueryRowxContext(context.Background(), `SELECT p.grid, p.solution FROM runs r
		JOIN puzzles p ON p.id = r.puzzle_id WHERE r.id = ?`, id).Scan(&grid, &solution); err != nil {
		t.Fatal(err)
	}
	d.Close()
	g, err := sudokulab.Parse(grid)
	if err != nil {
		t.Fatal(err)
	}
	final, err := sudokulab.Parse(solution)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range g.Cells {
		if v != 0 {
			final.Cells[i] = v%9 + 1
			break
		}
	}
	spoil(t, out.path, []string{fmt.Sprintf(`UPDATE runs SET final_grid = '%s' WHERE id = %d`, final, id)})
	return out
}

// TestMergeSkipsTheWorkOfInvalidRuns merges a source with a run merge
// refuses, and its done work item, with SkipInvalid: the item is left out
// with its run (or stays pending where the destination queued it), and
// the destination's queue never says done for a run it lacks. Merging the
// corrected source then brings the run and its item, linked; and an item
// an earlier merge left done without its run gains it.
func TestMergeSkipsTheWorkOfInvalidRuns(t *testing.T) {
	ctx := context.Background()
	planned := newMergeLab(t)
	base := planned.copyTo(t, "base.db")
	base.execute(t, base.plan(1))
	spoiled := spoilRun(t, base, "spoiled.db", 2)
	d := mergeOpen(t, planned.path)
	planned.enqueue(t, d, 1) // the same plan queued, not run
	d.Close()
	want := workSnapshot(t, mergeOpenRead(t, base.path))
	if len(want) != 10 {
		t.Fatalf("the lab's queue holds %d items, want 10", len(want))
	}
	merge := func(t *testing.T, dst *db.DB, src string) db.MergeReport {
		t.Helper()
		rep, err := db.Merge(ctx, dst, mergeOpenRead(t, src), db.MergeOptions{Solvers: solvers.Default(), SkipInvalid: true})
		if err != nil {
			t.Fatalf("merge %s: %v", src, err)
		}
		if n := countOf(t, dst, doneWithoutRun); n != 0 {
			t.Errorf("after merging %s, %d items done without their run", src, n)
		}
		return rep
	}
	wantWork := func(t *testing.T, rep db.MergeReport, want db.MergeCount) {
		t.Helper()
		want.Kind = db.MergeWork
		if got := rep.Count(db.MergeWork); got != want {
			t.Errorf("work counted %+v, want %+v", got, want)
		}
	}
	forEachBackend(t, func(t *testing.T, b backend) {
		runScenarios(t, b, []scenario{
			{"left out with its run", func(t *testing.T, dst *db.DB) {
				rep := merge(t, dst, spoiled.path)
				if c := rep.Count(db.MergeRuns); c.Invalid != 1 || c.Added != 9 {
					t.Errorf("runs counted %+v, want 9 added, 1 invalid", c)
				}
				wantWork(t, rep, db.MergeCount{Added: 9, Skipped: 1})
				if n := countOf(t, dst, `SELECT COUNT(*) FROM work`); n != 9 {
					t.Errorf("%d work items, want 9", n)
				}
				rep = merge(t, dst, base.path)
				if c := rep.Count(db.MergeRuns); c.Added != 1 || c.Existing != 9 {
					t.Errorf("runs of the corrected source counted %+v, want 1 added, 9 existing", c)
				}
				wantWork(t, rep, db.MergeCount{Added: 1, Existing: 9})
				if got := workSnapshot(t, dst); !slices.Equal(got, want) {
					t.Errorf("work differs:\n got %q\nwant %q", got, want)
				}
			}},
			{"pending here stays pending", func(t *testing.T, dst *db.DB) {
				merge(t, dst, planned.path)
				rep := merge(t, dst, spoiled.path)
				wantWork(t, rep, db.MergeCount{Updated: 9, Skipped: 1})
				if n := countOf(t, dst, `SELECT COUNT(*) FROM work WHERE state = 'pending' AND run_id IS NULL`); n != 1 {
					t.Errorf("%d items pending, want 1", n)
				}
				rep = merge(t, dst, base.path)
				wantWork(t, rep, db.MergeCount{Updated: 1, Existing: 9})
				if got := workSnapshot(t, dst); !slices.Equal(got, want) {
					t.Errorf("work differs:\n got %q\nwant %q", got, want)
				}
			}},
			{"done without its run gains it", func(t *testing.T, dst *db.DB) {
				merge(t, dst, base.path)
				// What merges before the fix left: the item done, its run absent.
				for _, q := range []string{
					`UPDATE work SET run_id = NULL WHERE run_id = (SELECT MIN(id) FROM runs)`,
					`DELETE FROM trajectory_points WHERE run_id = (SELECT MIN(id) FROM runs)`,
					`DELETE FROM experiment_runs WHERE run_id = (SELECT MIN(id) FROM runs)`,
					`DELETE FROM runs WHERE id = (SELECT MIN(id) FROM runs)`,
				} {
					if _, err := dst.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				if n := countOf(t, dst, doneWithoutRun); n != 1 {
					t.Fatalf("%d items done without their run, want 1", n)
				}
				rep, err := db.Merge(ctx, dst, mergeOpenRead(t, planned.path), db.MergeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(rep.Notes, func(n string) bool {
					return strings.HasPrefix(n, "1 work item of the destination is done without its run")
				}) {
					t.Errorf("notes %q, want one on the item done without its run", rep.Notes)
				}
				rep, err = db.Merge(ctx, dst, mergeOpenRead(t, base.path), db.MergeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				wantWork(t, rep, db.MergeCount{Updated: 1, Existing: 9})
				if len(rep.Notes) != 0 {
					t.Errorf("notes %q, want none", rep.Notes)
				}
				if n := countOf(t, dst, doneWithoutRun); n != 0 {
					t.Errorf("%d items done without their run, want 0", n)
				}
				if got := workSnapshot(t, dst); !slices.Equal(got, want) {
					t.Errorf("work differs:\n got %q\nwant %q", got, want)
				}
			}},
		})
	})
}
