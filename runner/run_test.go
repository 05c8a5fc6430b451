package runner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
)

// TestPlanNameKeepsStoredNames checks the names of experiments that
// sudokulab run made before the plan name moved into the runner (the
// values of the old cmd/sudokulab planName): a command repeated on an
// existing database must resume its experiment, not start another.
func TestPlanNameKeepsStoredNames(t *testing.T) {
	tests := []struct {
		spec db.PlanSpec
		want string
	}{
		{db.PlanSpec{Where: "collection = 'reseda-2012'", ConfigIDs: []int64{1}, FirstSeed: 1, SeedCount: 2}, "run-2b9f05160040"},
		{db.PlanSpec{Where: "(givens < 30\n) AND (id IN (1, 3)\n)", Limit: 4, ConfigIDs: []int64{3, 1}, FirstSeed: 7, SeedCount: 10,
			Budget: db.Budget{MaxEvaluations: 100, MaxGenerations: 20, TimeoutMS: 5000}, Shard: 2, Shards: 3}, "run-01c6e00253db"},
		{db.PlanSpec{ConfigIDs: []int64{1}, FirstSeed: 1, SeedCount: 1}, "run-15f0c9784b05"},
		// What the work queue does not key on leaves the name alone.
		{db.PlanSpec{ConfigIDs: []int64{1}, FirstSeed: 1, SeedCount: 1, Trace: "none", ExperimentID: 9}, "run-15f0c9784b05"},
	}
	for _, tc := range tests {
		if got := runner.PlanName(tc.spec); got != tc.want {
			t.Errorf("PlanName(%+v) = %s, want %s", tc.spec, got, tc.want)
		}
	}
	// A plan given by its puzzles and seeds is named apart from one given
	// by a predicate and a count of seeds.
	byCount := db.PlanSpec{ConfigIDs: []int64{1}, FirstSeed: 1, SeedCount: 1}
	names := map[string]bool{runner.PlanName(byCount): true}
	for _, s := range []db.PlanSpec{
		{ConfigIDs: []int64{1}, PuzzleIDs: []int64{1}},
		{ConfigIDs: []int64{1}, PuzzleIDs: []int64{2}},
		{ConfigIDs: []int64{1}, PuzzleIDs: []int64{1}, Seeds: []int64{1}},
		{ConfigIDs: []int64{1}, PuzzleIDs: []int64{1}, Seeds: []int64{2}},
	} {
		n := runner.PlanName(s)
		if names[n] {
			t.Errorf("PlanName(%+v) = %s, the name of another plan", s, n)
		}
		names[n] = true
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		k, n int
		ok   bool
	}{
		{"", 0, 0, true},
		{"1/1", 1, 1, true},
		{"3/8", 3, 8, true},
		{" 2 / 5 ", 2, 5, true},
		{"0/3", 0, 0, false},
		{"4/3", 0, 0, false},
		{"1/0", 0, 0, false},
		{"-1/3", 0, 0, false},
		{"3", 0, 0, false},
		{"a/b", 0, 0, false},
		{"1/2/3", 0, 0, false},
	}
	for _, tc := range tests {
		k, n, err := runner.ParseShard(tc.in)
		if tc.ok != (err == nil) || k != tc.k || n != tc.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d (ok %v)", tc.in, k, n, err, tc.k, tc.n, tc.ok)
		}
		if err != nil && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), "--shard")) {
			t.Errorf("ParseShard(%q): %v, want an EINVALID error naming --shard", tc.in, err)
		}
	}
}

// FuzzParseShard checks that a shard read is one of the plan's slices
// and reads back the same from its canonical form.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"", "1/1", "3/8", " 2 / 5 ", "4/3", "x/1", "1//2", "+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, n, err := runner.ParseShard(s)
		switch {
		case err != nil:
			if sudokulab.ErrorCode(err) != sudokulab.EINVALID || k != 0 || n != 0 {
				t.Fatalf("ParseShard(%q) = %d, %d, %v; want 0, 0 and an EINVALID error", s, k, n, err)
			}
		case s == "":
			if k != 0 || n != 0 {
				t.Fatalf(`ParseShard("") = %d, %d; want the whole plan`, k, n)
			}
		case k < 1 || k > n:
			t.Fatalf("ParseShard(%q) = %d/%d: not a slice", s, k, n)
		default:
			k2, n2, err := runner.ParseShard(fmt.Sprintf("%d/%d", k, n))
			if err != nil || k2 != k || n2 != n {
				t.Fatalf("ParseShard(%d/%d) = %d, %d, %v", k, n, k2, n2, err)
			}
		}
	})
}

func TestSpecCheck(t *testing.T) {
	plan := runner.Spec{Configs: []string{"exact"}, FirstSeed: 1, Seeds: 1}
	with := func(f func(*runner.Spec)) runner.Spec {
		s := plan
		f(&s)
		return s
	}
	tests := []struct {
		name string
		spec runner.Spec
		want string // "" when the spec is fine
	}{
		{"a plan", plan, ""},
		{"a solver", runner.Spec{Solver: "exact", Params: map[string]string{"x": "1"}, Seeds: 2}, ""},
		{"queued work", runner.Spec{Queued: true, Experiment: "e"}, ""},
		{"queued with a plan", runner.Spec{Queued: true, Configs: []string{"exact"}}, "plans nothing"},
		{"nothing to run", runner.Spec{Seeds: 1}, "say what to run"},
		{"settings without a solver", with(func(s *runner.Spec) { s.Params = map[string]string{"x": "1"} }), "--set needs --solver"},
		{"no seeds", with(func(s *runner.Spec) { s.Seeds = 0 }), "--runs 0"},
		{"seeds past the largest", with(func(s *runner.Spec) { s.FirstSeed, s.Seeds = 1<<63-2, 3 }), "the last seed would pass"},
		{"last seed the largest", with(func(s *runner.Spec) { s.FirstSeed, s.Seeds = 1<<63-3, 3 }), ""},
		{"negative budget", with(func(s *runner.Spec) { s.Budget.MaxGenerations = -1 }), "cannot be negative"},
		{"negative timeout", with(func(s *runner.Spec) { s.Timeout = -time.Second }), "cannot be negative"},
		{"short lease", with(func(s *runner.Spec) { s.Lease = time.Second }), "--lease 1s"},
		{"short lease, queued", runner.Spec{Queued: true, Lease: time.Second}, "--lease 1s"},
	}
	for _, tc := range tests {
		err := tc.spec.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || sudokulab.ErrorCode(err) != sudokulab.EINVALID):
			t.Errorf("%s: %v, want an EINVALID error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestRunSpec follows a plan given as a command gives it through Run:
// its experiment named after it, resumed when repeated, linked into
// another experiment, enqueued for workers and done by one.
func TestRunSpec(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	reg := testRegistry()
	ps := addPuzzles(t, d, "reseda-easy", "sato-no1", "ai-escargot")
	cid, err := db.EnsureCollection(ctx, d, "two", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps[:2] {
		if err := db.AddMembership(ctx, d, sudokulab.Membership{CollectionID: cid, PuzzleID: p.ID}); err != nil {
			t.Fatal(err)
		}
	}
	ex := exactConfig(t, d)
	var begun []runner.Summary
	opts := runner.Options{Jobs: 2, Begin: func(s runner.Summary) { begun = append(begun, s) }}
	run := func(s runner.Spec) runner.Summary {
		t.Helper()
		begun = nil
		sum, err := runner.Run(ctx, d, reg, s, opts)
		if err != nil {
			t.Fatalf("Run(%+v): %v", s, err)
		}
		if len(begun) != 1 {
			t.Fatalf("Run(%+v): Begin called %d times", s, len(begun))
		}
		return sum
	}
	spec := runner.Spec{Collection: "two", Configs: []string{"exact"}, FirstSeed: 1, Seeds: 2, Trace: runner.DefaultTrace}

	sum := run(spec)
	want := runner.PlanName(db.PlanSpec{Where: "collection = 'two'", ConfigIDs: []int64{ex.ID}, FirstSeed: 1, SeedCount: 2})
	if sum.Experiment != want || begun[0].Experiment != want || begun[0].Puzzles != 2 || begun[0].Planned != 4 || begun[0].Total != 4 {
		t.Errorf("Begin heard %+v; want 2 puzzles, 4 runs in experiment %s", begun[0], want)
	}
	if sum.Recorded != 4 || sum.Skipped != 0 || len(sum.Held) != 1 || sum.Held[0].Runs != 4 || sum.Held[0].Solved != 4 {
		t.Errorf("first run: %+v, want 4 recorded and held", sum)
	}
	if sum := run(spec); sum.Experiment != want || sum.Recorded != 0 || sum.Skipped != 4 {
		t.Errorf("repeated: %+v, want the 4 runs found in %s", sum, want)
	}

	// Another experiment links what is recorded and does the rest.
	more := spec
	more.Experiment, more.Seeds = "more", 3
	sum = run(more)
	if sum.Recorded != 2 || sum.Skipped != 4 || sum.Enqueued.Linked != 4 || sum.Held[0].Runs != 6 || sum.Held[0].Linked != 4 {
		t.Errorf("another experiment: %+v, want 2 recorded, 4 linked, 6 held", sum)
	}

	// A shard plans its slice: the first of 3 of 6 runs.
	shard := more
	shard.Experiment, shard.Shard, shard.Shards = "shard", 1, 3
	if sum := run(shard); begun[0].Planned != 6 || sum.Total != 2 || sum.Recorded != 0 || sum.Skipped != 2 {
		t.Errorf("shard 1/3: %+v, Begin heard %+v; want 2 of 6 runs, linked", sum, begun[0])
	}

	// Enqueued for workers, then done by one.
	queue := spec
	queue.Experiment, queue.Where, queue.Collection, queue.EnqueueOnly = "queue", "givens > 0", "", true
	sum = run(queue)
	if sum.Recorded != 0 || sum.Enqueued.Planned != 6 || sum.Enqueued.Linked != 4 || sum.Left.Pending != 2 {
		t.Errorf("enqueue only: %+v, want 6 planned, 4 linked, 2 pending", sum)
	}
	sum = run(runner.Spec{Queued: true, Experiment: "queue"})
	if sum.Recorded != 2 || begun[0].Worker == "" || begun[0].Total != 2 || len(sum.Configs) != 1 || sum.Configs[0].Runs != 2 {
		t.Errorf("worker: %+v, Begin heard %+v; want the 2 pending runs done", sum, begun[0])
	}

	for _, tc := range []struct {
		name string
		spec runner.Spec
		code string
		msg  string
	}{
		{"no such collection", runner.Spec{Collection: "nosuch", Configs: []string{"exact"}, Seeds: 1}, sudokulab.ENOTFOUND, "nosuch"},
		{"no such configuration", runner.Spec{Configs: []string{"nosuch"}, Seeds: 1}, sudokulab.ENOTFOUND, "nosuch"},
		{"no puzzle", runner.Spec{Where: "id < 0", Configs: []string{"exact"}, Seeds: 1}, sudokulab.EINVALID, "no puzzle matches"},
		{"bad predicate", runner.Spec{Where: "givens <", Configs: []string{"exact"}, Seeds: 1}, sudokulab.EINVALID, "predicate"},
		{"bad spec", runner.Spec{Configs: []string{"exact"}}, sudokulab.EINVALID, "--runs 0"},
	} {
		_, err := runner.Run(ctx, d, reg, tc.spec, opts)
		if sudokulab.ErrorCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %s saying %q", tc.name, err, tc.code, tc.msg)
		}
	}
}
