package db_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/pgtest"
	"sudokulab/runner"
	"sudokulab/solvers"
)

// mergeTables are the tables Merge writes, for counting rows.
var mergeTables = []string{"collections", "imports", "puzzles", "collection_puzzles", "configs", "experiments",
	"ratings", "puzzle_tags", "runs", "trajectory_points", "experiment_runs", "work"}

// mergeLab is a laboratory file to merge: its path and the plan it runs.
type mergeLab struct {
	path    string
	configs []runner.Config
	puzzles []sudokulab.Puzzle
	expID   int64
}

// mergeOpen opens the database file at path for writing, closed at cleanup.
func mergeOpen(t testing.TB, path string) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// mergeOpenRead opens the database file at path read-only, as a source.
func mergeOpenRead(t testing.TB, path string) *db.DB {
	t.Helper()
	d, err := db.OpenOptions(context.Background(), path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open %s read-only: %v", path, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// newMergeLab builds a laboratory file: five paper puzzles (with their
// solutions) in a collection with labels, an import record, ratings, tags
// (classic on puzzles 1 to 3, hard on 5), an experiment and two configurations of fast deterministic solvers (the
// exact solver, and tabu search bounded by evaluations), but no runs.
func newMergeLab(t testing.TB) mergeLab {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "base.db")
	d := mergeOpen(t, path)
	lab := mergeLab{path: path}
	col, err := db.EnsureCollection(ctx, d, "merge-test", "puzzles for the merge tests")
	if err != nil {
		t.Fatal(err)
	}
	im := &sudokulab.Import{FileName: "paper.csv", FileSHA256: strings.Repeat("cd", 32), Format: "csv", CollectionID: col}
	if _, err := db.InsertImport(ctx, d, im); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"reseda-easy", "reseda-medium", "sato-no1", "sato-no11", "sato-no27"} {
		pp := paperdata.MustGet(name)
		p := sudokulab.Puzzle{Givens: pp.Puzzle, Solution: pp.Solution, SolutionCount: intp(1)}
		if _, _, err := db.AddPuzzle(ctx, d, &p); err != nil {
			t.Fatal(err)
		}
		if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, Label: name,
			ImportID: im.ID, SourceLine: i + 2, Metadata: `{"paper":"` + pp.Paper + `"}`}); err != nil {
			t.Fatal(err)
		}
		v := float64(pp.Givens)
		if err := db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "givens", RaterVersion: "1", Value: &v}); err != nil {
			t.Fatal(err)
		}
		lab.puzzles = append(lab.puzzles, p)
	}
	if err := db.FinishImport(ctx, d, im); err != nil {
		t.Fatal(err)
	}
	for _, tag := range []struct {
		tag string
		ids []int64
	}{{"classic", []int64{1, 2, 3}}, {"hard", []int64{5}}} {
		if _, err := d.Tag(ctx, tag.tag, tag.ids); err != nil {
			t.Fatal(err)
		}
	}
	reg := solvers.Default()
	for _, c := range []struct {
		name, solver string
		set          map[string]string
	}{
		{"exact", "exact", nil},
		{"tabu-small", "franco-tabu", map[string]string{"tabu-list-size": "10"}},
	} {
		rc, _, err := runner.EnsureConfig(ctx, d, reg, c.name, c.solver, c.set, "merge test", false)
		if err != nil {
			t.Fatalf("config %s: %v", c.name, err)
		}
		lab.configs = append(lab.configs, rc)
	}
	if lab.expID, err = db.EnsureExperiment(ctx, d, "merge-exp", "the plan of the merge tests"); err != nil {
		t.Fatal(err)
	}
	return lab
}

// copyTo copies the laboratory file to a new file in dir and returns it.
func (l mergeLab) copyTo(t testing.TB, name string) mergeLab {
	t.Helper()
	d := mergeOpenRead(t, l.path)
	out := l
	out.path = filepath.Join(t.TempDir(), name)
	if _, err := d.ExecContext(context.Background(), `VACUUM INTO ?`, out.path); err != nil {
		t.Fatalf("copy %s: %v", l.path, err)
	}
	d.Close()
	return out
}

// plan is the lab's plan restricted to the seeds.
func (l mergeLab) plan(seeds ...int64) runner.Plan {
	return runner.Plan{Puzzles: l.puzzles, Configs: l.configs, Seeds: seeds,
		Budget: sudokulab.Budget{MaxEvaluations: 20_000}, ExperimentID: l.expID}
}

// enqueue queues the lab's plan for the seeds in d, a copy of the lab,
// without running it.
func (l mergeLab) enqueue(t testing.TB, d *db.DB, seeds ...int64) {
	t.Helper()
	spec := db.PlanSpec{ExperimentID: l.expID, ConfigIDs: []int64{l.configs[0].ID, l.configs[1].ID},
		Seeds: seeds, Budget: db.Budget{MaxEvaluations: 20_000}, Trace: runner.DefaultTrace.String()}
	for _, p := range l.puzzles {
		spec.PuzzleIDs = append(spec.PuzzleIDs, p.ID)
	}
	if _, err := db.Enqueue(context.Background(), d, spec, nil); err != nil {
		t.Fatal(err)
	}
}

// execute runs plans in the lab's file.
func (l mergeLab) execute(t testing.TB, plans ...runner.Plan) {
	t.Helper()
	d := mergeOpen(t, l.path)
	for _, p := range plans {
		if _, err := runner.Execute(context.Background(), d, p, runner.Options{Jobs: 2, Trace: runner.DefaultTrace}); err != nil {
			t.Fatalf("execute: %v", err)
		}
	}
	d.Close()
}

// mergeFiles merges the source files into the database dst, in order,
// and returns the reports.
func mergeFiles(t testing.TB, dst *db.DB, sources ...string) []db.MergeReport {
	t.Helper()
	var out []db.MergeReport
	for _, s := range sources {
		rep, err := db.Merge(context.Background(), dst, mergeOpenRead(t, s), db.MergeOptions{})
		if err != nil {
			t.Fatalf("merge %s: %v", s, err)
		}
		out = append(out, rep)
	}
	return out
}

// tableCounts counts the rows of every table Merge writes.
func tableCounts(t testing.TB, d *db.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range mergeTables {
		var n int
		if err := d.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM `+table); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

// runSnapshot describes every run by its identity in ids-free terms (the
// puzzle's grid, the configuration's name), with its outcome and its
// trajectory points, leaving out what differs between executions: times,
// host, code version and ids.
func runSnapshot(t testing.TB, d *db.DB) map[string]string {
	t.Helper()
	ctx := context.Background()
	keys := map[int64]string{}
	out := map[string]string{}
	rows, err := d.QueryxContext(ctx, `
		SELECT r.id, p.box_rows, p.box_cols, p.grid, c.name, r.seed, r.max_evaluations, r.max_generations, r.timeout_ms,
			r.status, r.evaluations, r.generations, r.restarts, r.best_cost, r.final_grid, r.error
		FROM runs r JOIN puzzles p ON p.id = r.puzzle_id JOIN configs c ON c.id = r.config_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		v, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("%v", v[1:9])
		keys[v[0].(int64)] = key
		out[key] = fmt.Sprintf("%v", v[9:])
	}
	rows.Close()
	rows, err = d.QueryxContext(ctx, `
		SELECT run_id, seq, generation, evaluations, best_cost, current_cost, restarts, convergence
		FROM trajectory_points ORDER BY run_id, seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		key := keys[v[0].(int64)]
		out[key] += fmt.Sprintf(" %v", v[1:])
	}
	return out
}

// workSnapshot describes the work queue in ids-free terms.
func workSnapshot(t testing.TB, d *db.DB) []string {
	t.Helper()
	var out []string
	rows, err := d.QueryxContext(context.Background(), `
		SELECT e.name, p.grid, c.name, w.seed, w.max_evaluations, w.state, r.seed, r.status
		FROM work w JOIN experiments e ON e.id = w.experiment_id JOIN puzzles p ON p.id = w.puzzle_id
		JOIN configs c ON c.id = w.config_id LEFT JOIN runs r ON r.id = w.run_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rows.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%v", v))
	}
	slices.Sort(out)
	return out
}

// sameRuns reports the differences between two run snapshots.
func sameRuns(t *testing.T, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d runs, want %d", len(got), len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("run %s is missing", k)
		} else if g != w {
			t.Errorf("run %s:\n got %s\nwant %s", k, g, w)
		}
	}
}

// TestMergeShardsEqualSingleRun runs one plan in one file and, sliced in
// three, in three copies of the same laboratory, merges the three into a
// fresh copy, and finds the same runs, outcomes, trajectories and work as
// the single run, whatever the order of the merges.
func TestMergeShardsEqualSingleRun(t *testing.T) {
	base := newMergeLab(t)
	single := base.copyTo(t, "single.db")
	single.execute(t, base.plan(1, 2, 3, 4, 5, 6))
	var shards []string
	for k := range int64(3) {
		s := base.copyTo(t, fmt.Sprintf("shard-%d.db", k+1))
		s.execute(t, base.plan(k+1, k+4))
		shards = append(shards, s.path)
	}
	want := runSnapshot(t, mergeOpenRead(t, single.path))
	wantWork := workSnapshot(t, mergeOpenRead(t, single.path))
	if len(want) != 5*2*6 {
		t.Fatalf("the single run recorded %d runs, want 60", len(want))
	}
	tests := []struct {
		name  string
		order []int
	}{
		{"in order", []int{0, 1, 2}},
		{"reversed", []int{2, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := mergeOpen(t, base.copyTo(t, "merged.db").path)
			var added int64
			for _, i := range tt.order {
				rep := mergeFiles(t, dst, shards[i])[0]
				if n := rep.ConflictCount(); n != 0 {
					t.Errorf("merge %s: %d conflicts: %+v", shards[i], n, rep.Conflicts)
				}
				added += rep.Count(db.MergeRuns).Added
			}
			if added != 60 {
				t.Errorf("%d runs added, want 60", added)
			}
			sameRuns(t, runSnapshot(t, dst), want)
			if got := workSnapshot(t, dst); !slices.Equal(got, wantWork) {
				t.Errorf("work differs:\n got %q\nwant %q", got, wantWork)
			}
			var linked int
			if err := dst.GetContext(context.Background(), &linked, `SELECT COUNT(*) FROM experiment_runs er
				JOIN experiments e ON e.id = er.experiment_id WHERE e.name = 'merge-exp'`); err != nil || linked != 60 {
				t.Errorf("%d runs linked to the experiment (%v), want 60", linked, err)
			}
		})
	}
}

// TestMergeTwiceChangesNothing merges sources twice: the second merge adds
// and updates nothing, and every table keeps its row count.
func TestMergeTwiceChangesNothing(t *testing.T) {
	base := newMergeLab(t)
	shard := base.copyTo(t, "shard.db")
	shard.execute(t, base.plan(1, 2))
	// A source unlike the destination: other puzzles, a collection and an
	// import the destination lacks, runs and work of another experiment.
	other := newMergeLab(t)
	{
		d := mergeOpen(t, other.path)
		p := fromSolution(t, 40)
		if _, _, err := db.AddPuzzle(context.Background(), d, p); err != nil {
			t.Fatal(err)
		}
		col, _ := db.EnsureCollection(context.Background(), d, "other", "")
		if err := db.AddMembership(context.Background(), d, sudokulab.Membership{CollectionID: col, PuzzleID: p.ID, Label: "p40"}); err != nil {
			t.Fatal(err)
		}
		d.Close()
		pl := other.plan(7)
		pl.Puzzles = append(pl.Puzzles, *p)
		other.execute(t, pl)
	}
	tests := []struct {
		name    string
		sources []string
	}{
		{"a shard of the same lab", []string{shard.path}},
		{"another lab", []string{other.path}},
		{"both", []string{shard.path, other.path}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := mergeOpen(t, base.copyTo(t, "dst.db").path)
			mergeFiles(t, dst, tt.sources...)
			first := tableCounts(t, dst)
			runs := runSnapshot(t, dst)
			for _, rep := range mergeFiles(t, dst, tt.sources...) {
				for _, c := range rep.Counts {
					if c.Added != 0 || c.Updated != 0 || c.Conflicts != 0 {
						t.Errorf("second merge of %s: %+v", rep.Source, c)
					}
				}
			}
			if second := tableCounts(t, dst); fmt.Sprint(second) != fmt.Sprint(first) {
				t.Errorf("row counts after the second merge %v, after the first %v", second, first)
			}
			sameRuns(t, runSnapshot(t, dst), runs)
		})
	}
}

// TestMergeAddsAnotherLab merges a laboratory the destination knows
// nothing of into an empty database: everything arrives, in the same
// order, with its provenance.
func TestMergeAddsAnotherLab(t *testing.T) {
	ctx := context.Background()
	src := newMergeLab(t)
	src.execute(t, src.plan(1))
	dst := mergeOpen(t, filepath.Join(t.TempDir(), "empty.db"))
	rep := mergeFiles(t, dst, src.path)[0]
	want := tableCounts(t, mergeOpenRead(t, src.path))
	if got := tableCounts(t, dst); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("row counts %v, want those of the source %v", got, want)
	}
	if c := rep.Count(db.MergeRuns); c.Added != 10 || c.Existing != 0 {
		t.Errorf("runs %+v, want 10 added", c)
	}
	sameRuns(t, runSnapshot(t, dst), runSnapshot(t, mergeOpenRead(t, src.path)))
	var labels []string
	if err := dst.SelectContext(ctx, &labels, `SELECT cp.label FROM collection_puzzles cp
		JOIN imports i ON i.id = cp.import_id AND i.file_name = 'paper.csv' ORDER BY cp.position`); err != nil {
		t.Fatal(err)
	}
	if want := []string{"reseda-easy", "reseda-medium", "sato-no1", "sato-no11", "sato-no27"}; !slices.Equal(labels, want) {
		t.Errorf("memberships %q, want %q with their import", labels, want)
	}
}

// TestMergeConflicts changes a copy in ways that contradict the
// destination: each is reported, and the destination keeps its values.
func TestMergeConflicts(t *testing.T) {
	ctx := context.Background()
	base := newMergeLab(t)
	base.execute(t, base.plan(1))
	// Valid settings of franco-tabu, other than those of tabu-small.
	info, err := solvers.Default().Lookup("franco-tabu")
	if err != nil {
		t.Fatal(err)
	}
	params, err := info.Resolve(map[string]string{"tabu-list-size": "11"})
	if err != nil {
		t.Fatal(err)
	}
	otherTabu := params.Canonical()
	tests := []struct {
		name string
		// change is SQL run on the source before the merge.
		change []string
		kind   string
		// identity and differs are parts of the conflict reported.
		identity, differs string
		// kept is a query on the destination giving the value it keeps.
		kept, want string
		// skipped counts the runs left out.
		skipped int64
	}{
		{
			name: "run",
			// The first solved run: which run gets id 1 depends on which
			// worker records first.
			change:   []string{`UPDATE runs SET evaluations = evaluations + 7, status = 'unsolved' WHERE id = (SELECT MIN(id) FROM runs WHERE status = 'solved')`},
			kind:     db.MergeRuns,
			identity: " (configuration ",
			differs:  "status solved here, unsolved in the source",
			kept:     `SELECT status || ' ' || evaluations FROM runs WHERE id = (SELECT MIN(id) FROM runs WHERE status = 'solved')`,
		},
		{
			name:     "rating",
			change:   []string{`UPDATE ratings SET value = 99, label = 'hard' WHERE puzzle_id = 2`},
			kind:     db.MergeRatings,
			identity: "rating of puzzle 2 by givens",
			differs:  `99 in the source; label NULL here, "hard" in the source`,
			kept:     `SELECT value FROM ratings WHERE puzzle_id = 2`,
		},
		{
			name:     "label",
			change:   []string{`UPDATE collection_puzzles SET label = 'renamed' WHERE puzzle_id = 3`},
			kind:     db.MergeMemberships,
			identity: "puzzle 3 in collection 1",
			differs:  `label "sato-no1" here, "renamed" in the source`,
			kept:     `SELECT label FROM collection_puzzles WHERE puzzle_id = 3`,
		},
		{
			name:     "puzzle solution count",
			change:   []string{`UPDATE puzzles SET solution_count = 2 WHERE id = 4`},
			kind:     db.MergePuzzles,
			identity: "puzzle 4 (3x3 boxes)",
			differs:  "solution count 1 here, 2 in the source",
			kept:     `SELECT solution_count FROM puzzles WHERE id = 4`,
		},
		{
			name: "configuration name with other settings",
			change: []string{fmt.Sprintf(`UPDATE configs SET params = '%s', params_hash = '%s' WHERE name = 'tabu-small'`,
				otherTabu, sudokulab.ConfigParamsHash("franco-tabu", otherTabu))},
			kind:     db.MergeConfigs,
			identity: "configuration tabu-small",
			differs:  `settings franco-tabu {`,
			kept:     `SELECT solver FROM configs WHERE name = 'tabu-small'`,
			skipped:  5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dstLab := base.copyTo(t, "dst.db")
			src := base.copyTo(t, "src.db")
			{
				d := mergeOpen(t, src.path)
				for _, q := range tt.change {
					if _, err := d.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				d.Close()
			}
			dst := mergeOpen(t, dstLab.path)
			var before string
			if err := dst.GetContext(ctx, &before, tt.kept); err != nil {
				t.Fatal(err)
			}
			rep := mergeFiles(t, dst, src.path)[0]
			if n := rep.ConflictCount(); n != 1 || len(rep.Conflicts) != 1 {
				t.Fatalf("%d conflicts %+v, want 1", n, rep.Conflicts)
			}
			c := rep.Conflicts[0]
			if c.Kind != tt.kind || !strings.Contains(c.Identity, tt.identity) || !strings.Contains(c.Differs, tt.differs) {
				t.Errorf("conflict %+v, want kind %s, identity with %q, differences with %q", c, tt.kind, tt.identity, tt.differs)
			}
			var after string
			if err := dst.GetContext(ctx, &after, tt.kept); err != nil {
				t.Fatal(err)
			}
			if after != before {
				t.Errorf("the destination's value went from %q to %q", before, after)
			}
			if got := rep.Count(db.MergeRuns).Skipped; got != tt.skipped {
				t.Errorf("%d runs skipped, want %d", got, tt.skipped)
			}
		})
	}
}

// TestMergeFillsAndProgresses merges into a destination that knows less:
// a puzzle gains its symmetry form, an empty label and description are
// filled in, and work pending here and done in the source becomes done.
func TestMergeFillsAndProgresses(t *testing.T) {
	ctx := context.Background()
	base := newMergeLab(t)
	dstLab := base.copyTo(t, "dst.db")
	src := base.copyTo(t, "src.db")
	src.execute(t, base.plan(1))
	{
		d := mergeOpen(t, src.path)
		for _, q := range []string{
			`UPDATE puzzles SET symmetry_form = 'form-1' WHERE id = 1`,
			`UPDATE experiments SET description = 'described' WHERE name = 'merge-exp'`,
		} {
			if _, err := d.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		d.Close()
	}
	dst := mergeOpen(t, dstLab.path)
	if _, err := dst.ExecContext(ctx, `UPDATE experiments SET description = '' WHERE name = 'merge-exp'`); err != nil {
		t.Fatal(err)
	}
	base.enqueue(t, dst, 1) // the same plan queued here, not run
	rep := mergeFiles(t, dst, src.path)[0]
	if n := rep.ConflictCount(); n != 0 {
		t.Errorf("conflicts %+v", rep.Conflicts)
	}
	tests := []struct {
		kind    string
		updated int64
		query   string
		want    string
	}{
		{db.MergePuzzles, 1, `SELECT symmetry_form FROM puzzles WHERE id = 1`, "form-1"},
		{db.MergeExperiments, 1, `SELECT description FROM experiments WHERE name = 'merge-exp'`, "described"},
		{db.MergeWork, 10, `SELECT COUNT(*) FROM work w JOIN runs r ON r.id = w.run_id
			WHERE w.state = 'done' AND r.seed = w.seed AND r.puzzle_id = w.puzzle_id AND r.config_id = w.config_id`, "10"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			if got := rep.Count(tt.kind).Updated; got != tt.updated {
				t.Errorf("%d updated, want %d (%+v)", got, tt.updated, rep.Count(tt.kind))
			}
			var got string
			if err := dst.GetContext(ctx, &got, tt.query); err != nil || got != tt.want {
				t.Errorf("%s = %q (%v), want %q", tt.query, got, err, tt.want)
			}
		})
	}
}

// TestMergeResumes interrupts a merge after its first page of runs and
// merges again: the result is that of one merge.
func TestMergeResumes(t *testing.T) {
	base := newMergeLab(t)
	src := base.copyTo(t, "src.db")
	src.execute(t, base.plan(1, 2))
	dst := mergeOpen(t, base.copyTo(t, "dst.db").path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := db.Merge(ctx, dst, mergeOpenRead(t, src.path), db.MergeOptions{Batch: 3, Progress: func(kind string, done int64) {
		if kind == db.MergeRuns {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted merge: %v, want context.Canceled", err)
	}
	if n := tableCounts(t, dst)["runs"]; n != 3 {
		t.Errorf("%d runs after the first page, want 3", n)
	}
	rep := mergeFiles(t, dst, src.path)[0]
	if c := rep.Count(db.MergeRuns); c.Added != 17 || c.Existing != 3 {
		t.Errorf("resumed merge: runs %+v, want 17 added and 3 already there", c)
	}
	sameRuns(t, runSnapshot(t, dst), runSnapshot(t, mergeOpenRead(t, src.path)))
}

// TestMergeRefusesItself refuses to merge a database into itself, under
// any name.
func TestMergeRefusesItself(t *testing.T) {
	base := newMergeLab(t)
	dst := mergeOpen(t, base.path)
	tests := []struct{ name, path string }{
		{"same path", base.path},
		{"other spelling", filepath.Join(filepath.Dir(base.path), ".", filepath.Base(base.path))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.Merge(context.Background(), dst, mergeOpenRead(t, tt.path), db.MergeOptions{})
			wantCode(t, err, sudokulab.EINVALID)
		})
	}
	if !db.SameDatabase("postgres://a:pw@host/lab", "postgres://b@host:5432/lab") || db.SameDatabase("postgres://host/lab", "postgres://host/lab2") {
		t.Error("SameDatabase on URLs")
	}
}

// TestMergeIntoPostgres merges SQLite files into a PostgreSQL database:
// the same rows arrive, and merging again changes nothing.
func TestMergeIntoPostgres(t *testing.T) {
	ctx := context.Background()
	base := newMergeLab(t)
	var shards []string
	for k := range int64(2) {
		s := base.copyTo(t, fmt.Sprintf("shard-%d.db", k+1))
		s.execute(t, base.plan(k+1))
		shards = append(shards, s.path)
	}
	// The reference: both shards merged into a SQLite copy.
	ref := mergeOpen(t, base.copyTo(t, "ref.db").path)
	mergeFiles(t, ref, shards...)

	pg, err := db.Open(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	sources := append([]string{base.path}, shards...)
	mergeFiles(t, pg, sources...)
	want := tableCounts(t, ref)
	if got := tableCounts(t, pg); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("PostgreSQL row counts %v, SQLite %v", got, want)
	}
	sameRuns(t, runSnapshot(t, pg), runSnapshot(t, ref))
	if got, want := workSnapshot(t, pg), workSnapshot(t, ref); !slices.Equal(got, want) {
		t.Errorf("work differs:\n got %q\nwant %q", got, want)
	}
	for _, rep := range mergeFiles(t, pg, sources...) {
		for _, c := range rep.Counts {
			if c.Added != 0 || c.Updated != 0 || c.Conflicts != 0 {
				t.Errorf("second merge of %s into PostgreSQL: %+v", rep.Source, c)
			}
		}
	}
	if got := tableCounts(t, pg); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("PostgreSQL row counts after merging again %v, want %v", got, want)
	}
	// The merged runs are usable: the store reads them back.
	var id int64
	if err := pg.GetContext(ctx, &id, `SELECT MIN(id) FROM runs`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetRun(ctx, pg, id); err != nil {
		t.Errorf("GetRun: %v", err)
	}
}

// TestMergeCountStatus merges a puzzle whose count is undetermined into a
// lab without it, then a lab where it is counted: the status and effort
// come along, and the count fills in the undetermined one.
func TestMergeCountStatus(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	grid := paperdata.MustGet("ai-escargot").Puzzle
	undetermined := filepath.Join(dir, "undetermined.db")
	src := mergeOpen(t, undetermined)
	p := sudokulab.Puzzle{Givens: grid, CountStatus: sudokulab.CountUndetermined, CountSeconds: 0.05}
	if _, _, err := db.AddPuzzle(ctx, src, &p); err != nil {
		t.Fatal(err)
	}
	counted := filepath.Join(dir, "counted.db")
	src2 := mergeOpen(t, counted)
	one := 1
	p2 := sudokulab.Puzzle{Givens: grid, SolutionCount: &one, Solution: paperdata.MustGet("ai-escargot").Solution, CountSeconds: 0.3}
	if _, _, err := db.AddPuzzle(ctx, src2, &p2); err != nil {
		t.Fatal(err)
	}
	src.Close()
	src2.Close()
	dst := mergeOpen(t, filepath.Join(dir, "dst.db"))
	status := func() string {
		var s string
		if err := dst.GetContext(ctx, &s, `SELECT COALESCE(count_status, 'NULL') || ' ' || COALESCE(CAST(solution_count AS TEXT), 'NULL') FROM puzzles`); err != nil {
			t.Fatal(err)
		}
		return s
	}
	mergeFiles(t, dst, undetermined)
	if got := status(); got != "undetermined NULL" {
		t.Errorf("after merging the undetermined lab: %q, want undetermined NULL", got)
	}
	mergeFiles(t, dst, counted)
	if got := status(); got != "counted 1" {
		t.Errorf("after merging the counted lab: %q, want counted 1", got)
	}
}

// TestMergeFrozenAndImportedRatings merges a lab whose collection is
// frozen and whose ratings and a tag came from its import file: the
// destination gets the frozen collection whole and the ratings and tag
// with their import. A
// collection frozen in the destination gains no puzzle from a merge.
func TestMergeFrozenAndImportedRatings(t *testing.T) {
	base := newMergeLab(t)
	src := base.copyTo(t, "src.db")
	spoil(t, src.path, []string{`UPDATE collections SET frozen = 1`,
		`UPDATE ratings SET import_id = 1, rater = 'file:se-er', rater_version = 'imported' WHERE puzzle_id <= 2`,
		`UPDATE puzzle_tags SET import_id = 1 WHERE puzzle_id = 5`})
	frozenDst := base.copyTo(t, "frozen.db")
	spoil(t, frozenDst.path, []string{`UPDATE collections SET frozen = 1`, `DELETE FROM collection_puzzles WHERE puzzle_id = 5`})
	forEachBackend(t, func(t *testing.T, b backend) {
		dst := b.open(t)
		mergeFiles(t, dst, src.path)
		for _, tt := range []struct {
			query string
			want  int
		}{
			{`SELECT COUNT(*) FROM collections WHERE name = 'merge-test' AND frozen = 1`, 1},
			{`SELECT COUNT(*) FROM collection_puzzles`, 5},
			{`SELECT COUNT(*) FROM ratings r JOIN imports i ON i.id = r.import_id
				WHERE i.file_name = 'paper.csv' AND r.rater = 'file:se-er'`, 2},
			{`SELECT COUNT(*) FROM ratings WHERE import_id IS NULL`, 3},
			{`SELECT COUNT(*) FROM puzzle_tags t JOIN imports i ON i.id = t.import_id
				WHERE i.file_name = 'paper.csv' AND t.tag = 'hard'`, 1},
			{`SELECT COUNT(*) FROM puzzle_tags WHERE import_id IS NULL`, 3},
		} {
			if got := countOf(t, dst, tt.query); got != tt.want {
				t.Errorf("%s = %d, want %d", tt.query, got, tt.want)
			}
		}
	})
	dst := mergeOpen(t, frozenDst.path)
	rep := mergeFiles(t, dst, base.path)[0]
	if c := rep.Count(db.MergeMemberships); c.Conflicts != 1 || c.Added != 0 ||
		len(rep.Conflicts) != 1 || !strings.Contains(rep.Conflicts[0].Differs, "frozen here") {
		t.Errorf("memberships %+v, conflicts %+v: want the frozen collection's missing puzzle refused", c, rep.Conflicts)
	}
	if n := countOf(t, dst, `SELECT COUNT(*) FROM collection_puzzles WHERE puzzle_id = 5`); n != 0 {
		t.Errorf("the frozen collection gained puzzle 5 (%d)", n)
	}
}
