package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exampleDB returns a fresh copy of lab.db.example (the papers' puzzles
// and the presets) without its sample runs and ratings, so that tests count
// only what they record.
func exampleDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lab.db")
	if _, errOut, code := run(t, "--db", path, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errOut)
	}
	for _, table := range []string{"trajectory_points", "runs", "experiments", "ratings"} {
		if _, errOut, code := run(t, "--db", path, "sql", "--write", "DELETE FROM "+table); code != 0 {
			t.Fatalf("empty %s: exit %d: %s", table, code, errOut)
		}
	}
	return path
}

func TestRunRecordsAndResumes(t *testing.T) {
	dbPath := exampleDB(t)
	out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "3", "--experiment", "e1")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "4 puzzles matched; 1 configurations (exact) x 3 seeds: 12 runs") {
		t.Errorf("stderr does not announce the plan: %q", errOut)
	}
	if want := "config,runs,linked,solved,success,mean_effort_solved,effort_unit,mean_generations_solved,errors\nexact,12,0,12,100.0%,"; !strings.HasPrefix(out, want) {
		t.Errorf("summary %q, want prefix %q", out, want)
	}
	// The exact solver counts nodes, not evaluations: its effort is never 0.
	if fields := strings.Split(strings.SplitN(out, "\n", 3)[1], ","); len(fields) < 7 || fields[6] != "nodes" || fields[5] == "0.0" {
		t.Errorf("summary row %q: want a non-zero effort in nodes", strings.SplitN(out, "\n", 3)[1])
	}
	// The same command again does nothing; more seeds do only the new ones.
	_, errOut, _ = run(t, "--db", dbPath, "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "3", "--experiment", "e1")
	if !strings.Contains(errOut, "recorded 0 runs; 12 were recorded before") {
		t.Errorf("second run: %q", errOut)
	}
	_, errOut, _ = run(t, "--db", dbPath, "run", "--collection", "reseda-2012", "--config", "exact", "--runs", "5", "--experiment", "e1")
	if !strings.Contains(errOut, "recorded 8 runs; 12 were recorded before") {
		t.Errorf("more seeds: %q", errOut)
	}
	// A smaller plan in the same experiment counts only its own runs as
	// recorded before, not the experiment's.
	_, errOut, _ = run(t, "--db", dbPath, "run", "--collection", "reseda-2012", "--config", "exact", "--runs", "2", "--limit", "1", "--experiment", "e1")
	if !strings.Contains(errOut, "2 runs already recorded, 0 to do") || !strings.Contains(errOut, "recorded 0 runs; 2 were recorded before") {
		t.Errorf("a smaller plan in the experiment: %q", errOut)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql",
		"SELECT count(*) AS runs, count(DISTINCT puzzle_id || '/' || seed) AS distinct_runs, min(seed) AS lo, max(seed) AS hi, "+
			"sum(CASE WHEN final_grid = p.solution THEN 1 ELSE 0 END) AS correct FROM runs r JOIN puzzles p ON p.id = r.puzzle_id")
	if out != "runs,distinct_runs,lo,hi,correct\n20,20,1,5,20\n" {
		t.Errorf("recorded runs: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM trajectory_points t WHERE t.run_id = r.id)")
	if out != "count(*)\n0\n" {
		t.Errorf("runs without a trajectory: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "experiments", "list")
	if !strings.HasPrefix(out, "name,configs,puzzles,planned,runs,solved,first_run,last_run,description\ne1,1,4,20,20,20,") {
		t.Errorf("experiments list: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "experiments", "show", "e1")
	if !strings.Contains(out, "exact   exact   0        0        0       0          20    4        20    20") {
		t.Errorf("experiments show: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "runs", "list", "--runs-where", "seed = 5", "--where", "id = 1")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.Contains(lines[1], ",e1,exact,1,5,solved,") {
		t.Errorf("runs list: %q", out)
	}
	out, _, code = run(t, "--db", dbPath, "runs", "show", "1")
	for _, want := range []string{"run 1: configuration exact on puzzle", "status solved, best cost 0", "final grid:", "trajectory (1 points):"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("runs show lacks %q (exit %d):\n%s", want, code, out)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dbPath := exampleDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"nothing to run", []string{"run", "--collection", "reseda-2012"}, exitInvalid, "--config NAME or --solver NAME"},
		{"unknown solver", []string{"run", "--collection", "reseda-2012", "--solver", "nope"}, exitInvalid, `unknown solver "nope" (known: acs, exact`},
		{"unknown config", []string{"run", "--collection", "reseda-2012", "--config", "nope"}, exitNotFound, `no configuration called "nope"`},
		{"unknown parameter", []string{"run", "--collection", "reseda-2012", "--solver", "exact", "--set", "alpha=1"}, exitInvalid, "has no parameters"},
		{"bad set", []string{"run", "--collection", "reseda-2012", "--solver", "exact", "--set", "alpha"}, exitInvalid, `--set "alpha": want name=value`},
		{"bad predicate", []string{"run", "--where", "givens <", "--solver", "exact"}, exitInvalid, "syntax error"},
		{"no match", []string{"run", "--where", "givens > 81", "--solver", "exact"}, exitInvalid, "no puzzle matches"},
		{"no collection", []string{"run", "--collection", "none", "--solver", "exact"}, exitNotFound, `no collection "none"`},
		{"bad trace", []string{"run", "--collection", "reseda-2012", "--solver", "exact", "--trace", "often"}, exitInvalid, `unknown part "often"`},
		{"bad runs", []string{"run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "0"}, exitInvalid, "--runs 0"},
		{"seeds past the largest", []string{"run", "--collection", "reseda-2012", "--solver", "exact", "--seed", "9223372036854775807", "--runs", "3"}, exitInvalid, "the last seed would pass the largest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	out, _, _ := run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT count(*) FROM runs")
	if out != "count(*)\n0\n" {
		t.Errorf("failed commands recorded runs: %q", out)
	}
}

func TestSolversAndConfigs(t *testing.T) {
	dbPath := exampleDB(t)
	out, _, code := run(t, "solvers")
	if code != 0 || !strings.Contains(out, "exact: constraint propagation") || !strings.Contains(out, "preset exact:") {
		t.Errorf("solvers: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, "--db", dbPath, "-O", "csv", "configs", "list")
	if !strings.HasPrefix(out, "name,solver,preset,runs,solved,params,description\n") || !strings.Contains(out, "\nexact,exact,1,0,0,{},") {
		t.Errorf("configs list: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "configs", "add", "mine", "--solver", "exact")
	if !strings.Contains(out, "these settings are stored as configuration exact") {
		t.Errorf("configs add with preset settings: %q", out)
	}
	out, _, _ = run(t, "--db", dbPath, "configs", "show", "exact")
	if !strings.Contains(out, "preset exact: solver exact") {
		t.Errorf("configs show: %q", out)
	}
	if _, errOut, code := run(t, "--db", dbPath, "configs", "show", "nope"); code != exitNotFound {
		t.Errorf("configs show nope: exit %d %q", code, errOut)
	}
}

// TestRunSummaryCountsLinkedRuns holds run's summary to what the
// experiment holds: runs recorded before by another experiment are linked
// to it and counted, and the summary says how many.
func TestRunSummaryCountsLinkedRuns(t *testing.T) {
	dbPath := exampleDB(t)
	if _, errOut, code := run(t, "--db", dbPath, "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "2", "--experiment", "first"); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "3", "--experiment", "second")
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "recorded 4 runs; 8 were recorded before (8 of them by other experiments, now linked to this one)") {
		t.Errorf("stderr: %q", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] != "config,runs,linked,solved,success,mean_effort_solved,effort_unit,mean_generations_solved,errors" ||
		!strings.HasPrefix(lines[1], "exact,12,8,12,100.0%,") {
		t.Fatalf("summary:\n%s\nwant 12 runs of which 8 linked", out)
	}
	// The same count as the view of the experiment's runs.
	held, _, _ := run(t, "--db", dbPath, "-O", "csv", "sql", "SELECT COUNT(*) AS n FROM experiment_run_results WHERE experiment = 'second'")
	if held != "n\n12\n" {
		t.Errorf("experiment_run_results holds %q", held)
	}
	// JSON keeps the full values: the success rate a number, not text.
	out, _, _ = run(t, "--db", dbPath, "-O", "json", "run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "3", "--experiment", "second")
	if !strings.Contains(out, `"runs": 12, "linked": 8, "solved": 12, "success": 100, "mean_effort_solved": `) {
		t.Errorf("JSON summary: %s", out)
	}
}

// TestJobsCapped gives --jobs far above the cores: the value the command
// sees is jobsPerCore per core, with a note saying so, and the run goes on.
func TestJobsCapped(t *testing.T) {
	limit := jobsPerCore * runtime.NumCPU()
	var jobs int
	var errb bytes.Buffer
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmd.Flags().IntVar(&jobs, "jobs", 1, "")
	cmd.SetErr(&errb)
	if err := cmd.ParseFlags([]string{"--jobs", "100000"}); err != nil {
		t.Fatal(err)
	}
	if err := capJobs(cmd); err != nil || jobs != limit || !strings.Contains(errb.String(), fmt.Sprintf("--jobs 100000 capped at %d", limit)) {
		t.Errorf("capJobs: %v, jobs %d, stderr %q; want %d and a note", err, jobs, errb.String(), limit)
	}
	if err := cmd.ParseFlags([]string{"--jobs", fmt.Sprint(limit)}); err != nil || capJobs(cmd) != nil || jobs != limit {
		t.Errorf("--jobs %d changed to %d", limit, jobs)
	}

	dbPath := exampleDB(t)
	_, errOut, code := run(t, "--db", dbPath, "run", "--puzzle", "1", "--config", "exact", "--jobs", "100000")
	if code != 0 || !strings.Contains(errOut, "--jobs 100000 capped at") {
		t.Errorf("run --jobs 100000: exit %d: %s", code, errOut)
	}
}
