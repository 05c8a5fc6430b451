package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneCommand tunes lewis-sa's alpha on lab.db.example with a small
// budget, wants the elites printed and the tuning resumed (no run done)
// when the same command is given again, exports the irace files, and
// refuses bad flags with exit code 2.
func TestTuneCommand(t *testing.T) {
	dir := t.TempDir()
	lab := filepath.Join(dir, "lab.db")
	if _, errOut, code := run(t, "--db", lab, "init", "--from", "../../lab.db.example"); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	args := []string{"--db", lab, "-O", "csv", "tune", "--solver", "lewis-sa", "--train", "collection = 'paper-puzzles'",
		"--budget", "60", "--max-evaluations", "20000", "--param", "alpha=0.9..0.999", "--experiment", "t", "--jobs", "1"}
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "rank,config,alpha" || !strings.HasPrefix(lines[1], "1,t-elite-1,") && !strings.HasPrefix(lines[1], "1,lewis-sa-2007,") {
		t.Errorf("tune printed:\n%s", out)
	}
	if !strings.Contains(errOut, "tuning t: ") || strings.Contains(errOut, "resumed") {
		t.Errorf("tune said:\n%s", errOut)
	}
	again, errAgain, code := run(t, args...)
	if code != 0 || again != out || !strings.Contains(errAgain, "resumed tuning t") {
		t.Errorf("the same tune again: exit %d\n%s\n%s", code, again, errAgain)
	}
	runs, _, _ := run(t, "--db", lab, "-O", "csv", "sql", "SELECT COUNT(*), SUM(solved) >= 0 FROM experiment_run_results WHERE experiment = 't'")
	tuned, _, _ := run(t, "--db", lab, "-O", "csv", "sql", "SELECT runs_used, state FROM tunings WHERE name = 't'")
	if n := strings.Split(strings.Split(strings.TrimSpace(runs), "\n")[1], ",")[0]; !strings.HasPrefix(strings.Split(strings.TrimSpace(tuned), "\n")[1], n+",done") {
		t.Errorf("experiment runs %q, tuning %q", runs, tuned)
	}

	svg := filepath.Join(dir, "race.svg")
	if _, errOut, code := run(t, append(args, "--plot", svg)...); code != 0 {
		t.Fatalf("tune --plot: exit %d: %s", code, errOut)
	}
	if pic, err := os.ReadFile(svg); err != nil || !strings.Contains(string(pic), "Iterated race of tuning t") {
		t.Errorf("the race picture: %v", err)
	}

	export := filepath.Join(dir, "irace")
	if _, errOut, code := run(t, append(args, "--export", "irace", export)...); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	params, err := os.ReadFile(filepath.Join(export, "parameters.txt"))
	if err != nil || !strings.Contains(string(params), "alpha\t\"--set alpha=\"\tr\t(0.9, 0.999)") {
		t.Errorf("parameters.txt: %q %v", params, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--train", "id < 3", "--budget", "10"}, "--solver"},
		{[]string{"tune", "--solver", "lewis-sa", "--budget", "10"}, "--train"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 3"}, "--budget"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 3", "--budget", "10", "--export", "smac", dir}, "only format is irace"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 3", "--budget", "10", "--param", "alpha"}, "--param \"alpha\": want name=value"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 3", "--budget", "10", "--objective", "par10"}, "needs --timeout"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 0", "--budget", "10", "--max-evaluations", "9"}, "selects no puzzle"},
		{[]string{"tune", "--solver", "lewis-sa", "--train", "id < 3", "--budget", "10", "--max-evaluations", "9", "--plot", "race.txt"}, "want a .svg"},
		{[]string{"tune", "--solver", "exact", "--train", "id < 3", "--budget", "10", "--max-evaluations", "9"}, "nothing to tune"},
	} {
		_, errOut, code := run(t, append([]string{"--db", lab}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s; want exit 2 saying %q", c.args, code, errOut, c.want)
		}
	}
}

// TestTuneTellsUnclaimed: tune --jobs 0 whose runs wait unclaimed (the
// runner tells it, once per step: TestRunByWorkersTellsUnclaimed) says
// once, on stderr, the worker command line to start, with the database
// (its password left out) and the experiment, each a word a POSIX shell
// reads back as it is (a ' in a name or path closes and reopens the
// quotes; TestQuoteShellReadsBack has sh read such words).
func TestTuneTellsUnclaimed(t *testing.T) {
	for _, c := range []struct{ db, experiment, want string }{
		{"postgres://lab:secret@db.example.org/lab", "k2", "sudokulab --db postgres://lab:xxxxx@db.example.org/lab worker --experiment k2 --follow"},
		{"labs/o'brien/my lab.db", "k2", `sudokulab --db 'labs/o'\''brien/my lab.db' worker --experiment k2 --follow`},
		{"lab.db", "bob's tune", `sudokulab --db lab.db worker --experiment 'bob'\''s tune' --follow`},
	} {
		var stderr strings.Builder
		o := &tuneOptions{options: &options{dbPath: c.db}}
		opts := o.tuningOptions(&stderr)
		if !opts.ByWorkers || opts.Runner.Unclaimed == nil {
			t.Fatalf("tune --jobs 0: options %+v, want runs left to workers, told when unclaimed", opts)
		}
		opts.Runner.Unclaimed(c.experiment)
		opts.Runner.Unclaimed(c.experiment)
		want := "tune: no run of experiment " + c.experiment + " claimed for 30s: with --jobs 0 every run waits for workers; start them here or on machines sharing the database:\n" +
			"  " + c.want + "\n"
		if stderr.String() != want {
			t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
		}
	}
}
