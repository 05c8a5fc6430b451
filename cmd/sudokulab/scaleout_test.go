package main

// Many processes on one lab: real sudokulab processes (the test binary
// re-executed as the command, see TestMain) sharing one SQLite file, and
// workers sharing one PostgreSQL database, one of them killed with
// SIGKILL mid-plan.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/gridgen"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/pgtest"
)

// envMain makes the test binary act as the sudokulab command (TestMain).
const envMain = "SUDOKULAB_TEST_MAIN"

// proc is a sudokulab process started by a test.
type proc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	done     chan struct{}
	code     int
}

// start runs the sudokulab command with args in a process of its own.
func start(t *testing.T, args ...string) *proc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: exec.Command(exe, args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), envMain+"=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// wait waits for the process and fails the test unless it exits 0.
func (p *proc) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(3 * time.Minute):
		p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("%s: still running after 3 minutes; stderr:\n%s", what, p.err.String())
	}
	if p.code != 0 {
		t.Errorf("%s: exit %d; stderr:\n%s", what, p.code, p.err.String())
	}
}

// variants writes n distinct 9x9 puzzles to a text file, one per line:
// the papers' puzzles with their digits relabelled and rows swapped
// within bands, which keeps each one a puzzle with one solution.
func variants(t *testing.T, dir string, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var base []sudokulab.Grid
	for _, p := range paperdata.All() {
		if p.Puzzle.Shape == sudokulab.Classic {
			base = append(base, p.Puzzle)
		}
	}
	seen := map[string]bool{}
	var b strings.Builder
	for len(seen) < n {
		g := base[rng.IntN(len(base))]
		perm := rng.Perm(9)
		cells := make([]uint8, 81)
		band := rng.IntN(3)
		swap := [3]int{0, 1, 2}
		rng.Shuffle(3, func(i, j int) { swap[i], swap[j] = swap[j], swap[i] })
		for r := range 9 {
			src := r
			if r/3 == band {
				src = band*3 + swap[r%3]
			}
			for c := range 9 {
				if v := g.Cells[src*9+c]; v != 0 {
					cells[r*9+c] = uint8(perm[v-1] + 1)
				}
			}
		}
		s := sudokulab.Grid{Shape: sudokulab.Classic, Cells: cells}.String()
		if !seen[s] {
			seen[s] = true
			b.WriteString(s + "\n")
		}
	}
	path := filepath.Join(dir, "variants.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// count runs one counting query on the database.
func count(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.GetContext(context.Background(), &n, d.Rebind(q), args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestProcessesShareOneFile runs four identical run processes, an import
// and a loop of sql readers on one SQLite file at once: nobody fails, the
// runners share the plan and record every run once, the import is
// complete and the file passes integrity_check.
func TestProcessesShareOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes for several seconds")
	}
	dir := t.TempDir()
	path := exampleDB(t)
	file := variants(t, dir, 2000)
	// 11 puzzles x 2 configurations x 40 seeds: 880 runs of a few ms.
	runArgs := []string{"--db", path, "run", "--collection", "paper-puzzles", "--solver", "exact", "--config", "franco-tabu-table2",
		"--runs", "40", "--max-generations", "300", "--jobs", "1", "--experiment", "shared"}
	var runners []*proc
	for range 4 {
		runners = append(runners, start(t, runArgs...))
	}
	imp := start(t, "--db", path, "import", file, "--collection", "variants")
	stop := make(chan struct{})
	var (
		wg      sync.WaitGroup
		reads   int
		readErr []string
	)
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			p := start(t, "--db", path, "-O", "csv", "sql", "SELECT count(*) FROM runs")
			<-p.done
			reads++
			if p.code != 0 {
				readErr = append(readErr, fmt.Sprintf("exit %d: %s", p.code, p.err.String()))
			}
		}
	})
	for i, p := range runners {
		p.wait(t, "run "+strconv.Itoa(i+1))
	}
	imp.wait(t, "import")
	close(stop)
	wg.Wait()
	if len(readErr) > 0 || reads == 0 {
		t.Errorf("%d sql readers, failures: %v", reads, readErr)
	}

	d, err := db.OpenOptions(context.Background(), path, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const planned = 11 * 2 * 40
	exp := count(t, d, `SELECT id FROM experiments WHERE name = 'shared'`)
	if n := count(t, d, `SELECT COUNT(*) FROM experiment_runs WHERE experiment_id = ?`, exp); n != planned {
		t.Errorf("experiment shared has %d runs, planned %d", n, planned)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM runs r JOIN experiment_runs er ON er.run_id = r.id AND er.experiment_id = ?`, exp); n != planned {
		t.Errorf("%d runs recorded, planned %d", n, planned)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM work WHERE experiment_id = ? AND state = 'done'`, exp); n != planned {
		t.Errorf("%d work items done, planned %d", n, planned)
	}
	if n := count(t, d, `SELECT COUNT(DISTINCT worker) FROM work WHERE experiment_id = ?`, exp); n < 2 {
		t.Errorf("%d processes recorded the plan's runs; want the four to share it", n)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM puzzle_catalog WHERE collection = 'variants'`); n != 2000 {
		t.Errorf("the import shows %d puzzles, want 2000", n)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM imports WHERE state = 'done' AND puzzles_read = 2000`); n != 1 {
		t.Errorf("%d finished imports of 2000 puzzles, want 1", n)
	}
	var check string
	if err := d.GetContext(context.Background(), &check, `PRAGMA integrity_check`); err != nil || check != "ok" {
		t.Errorf("integrity_check: %q, %v", check, err)
	}
	t.Logf("%d sql readers ran meanwhile", reads)
}

// TestWorkersSurviveSIGKILL runs four worker processes on a plan in
// PostgreSQL and kills one with SIGKILL mid-plan: the others take over its
// runs once its lease lapses, and the plan finishes with nothing lost or
// recorded twice.
func TestWorkersSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes for several seconds")
	}
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	file := variants(t, dir, 30)
	for _, args := range [][]string{
		{"--db", dsn, "init"},
		{"--db", dsn, "import", file, "--collection", "hard"},
		// 30 puzzles x 16 seeds: 480 runs of about 20 ms.
		{"--db", dsn, "run", "--collection", "hard", "--config", "franco-tabu-table2", "--runs", "16",
			"--max-generations", "2000", "--experiment", "killed", "--enqueue-only"},
	} {
		if _, errOut, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args[2:], code, errOut)
		}
	}
	var workers []*proc
	for range 4 {
		workers = append(workers, start(t, "--db", dsn, "worker", "--experiment", "killed", "--jobs", "1", "--lease", "3s"))
	}
	d, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// Kill one worker once a fifth of the plan is recorded, while it
	// holds claims.
	deadline := time.Now().Add(time.Minute)
	for count(t, d, `SELECT COUNT(*) FROM runs`) < 96 {
		if time.Now().After(deadline) {
			t.Fatal("the workers recorded too little in a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The victim is the first worker still running: on a loaded machine
	// a worker can find every remaining item claimed by the others and
	// end (a worker without --follow ends when nothing is left to claim).
	victim := -1
	for i, p := range workers {
		select {
		case <-p.done:
			if p.code != 0 {
				t.Fatalf("worker %d ended early with exit %d: %s", i+1, p.code, p.err.String())
			}
			continue
		default:
		}
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err == nil {
			victim = i
			break
		}
	}
	if victim < 0 {
		t.Fatal("every worker had ended before one could be killed")
	}
	<-workers[victim].done
	for i, p := range workers {
		if i != victim {
			p.wait(t, "worker "+strconv.Itoa(i+1))
		}
	}
	const planned = 30 * 16
	exp := count(t, d, `SELECT id FROM experiments WHERE name = 'killed'`)
	if n := count(t, d, `SELECT COUNT(*) FROM runs`); n != planned {
		t.Errorf("%d runs recorded, planned %d", n, planned)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM work WHERE experiment_id = ? AND state = 'done' AND run_id IS NOT NULL`, exp); n != planned {
		t.Errorf("%d work items done, planned %d", n, planned)
	}
	if n := count(t, d, `SELECT COUNT(DISTINCT run_id) FROM work WHERE experiment_id = ?`, exp); n != planned {
		t.Errorf("%d distinct runs for the plan's items, want %d", n, planned)
	}
	taken := count(t, d, `SELECT COUNT(*) FROM work WHERE experiment_id = ? AND attempts > 1`, exp)
	t.Logf("%d runs taken over from the killed worker", taken)
}

// init makes the test binary act as the sudokulab command when a test
// starts it with envMain set: before any test runs, main takes over and
// exits.
func init() {
	if os.Getenv(envMain) == "1" {
		main()
	}
}

// TestCountSurvivesSIGKILL kills `count` with SIGKILL while it counts:
// the counts it finished before are kept, and counting again does only
// the rest.
func TestCountSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes for several seconds")
	}
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	// Two 25x25 puzzles, counted in id order: about 0.4 s, then 3.5 s.
	var b strings.Builder
	for _, p := range []sudokulab.Grid{gridgen.ShortCount(), gridgen.LongCount()} {
		b.WriteString(p.String() + "\n")
	}
	file := filepath.Join(dir, "g25.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "--db", dbPath, "import", file, "--collection", "g25", "--count-timeout", "1ms"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	d, err := db.OpenOptions(context.Background(), dbPath, db.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	counted := func() int64 {
		return count(t, d, `SELECT COUNT(*) FROM puzzles WHERE solution_count IS NOT NULL AND count_status = 'counted'`)
	}
	if n := counted(); n != 0 {
		t.Fatalf("%d puzzles counted within 1 ms; want none, for the test to mean something", n)
	}
	// Budgets far above the counts' 0.4 s and 3.5 s, for slow machines.
	p := start(t, "--db", dbPath, "count", "--collection", "g25", "--timeout", "5m", "--jobs", "1")
	deadline := time.Now().Add(time.Minute)
	for counted() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("count stored nothing in a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done
	kept := counted()
	if kept == 0 || kept == 2 {
		t.Fatalf("%d counts kept after the kill; want some but not all (the test needs a kill mid-way)", kept)
	}
	out, errOut, code := run(t, "--db", dbPath, "count", "--collection", "g25", "--timeout", "5m")
	if code != 0 {
		t.Fatalf("count again: exit %d: %s", code, errOut)
	}
	if n := counted(); n != 2 {
		t.Errorf("%d of 2 counted after counting again; output %s %s", n, out, errOut)
	}
	if !strings.Contains(out+errOut, fmt.Sprintf("of %d puzzle", 2-kept)) {
		t.Errorf("counting again should take only the %d left: %s %s", 2-kept, out, errOut)
	}
}

// TestWorkerStartOutlivesCut cuts off the session of each of a worker's
// first reads (the presets, its experiment, the work left), as a restart
// of the PostgreSQL server does: the worker reads again on a new session
// and does its work, instead of exiting (or calling its experiment
// missing).
func TestWorkerStartOutlivesCut(t *testing.T) {
	dsn := pgtest.DSN(t)
	file := variants(t, t.TempDir(), 2)
	for _, args := range [][]string{{"init"}, {"import", file, "--collection", "cut"}} {
		if _, errOut, code := run(t, append([]string{"--db", dsn}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	d, err := db.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, table := range []string{"configs", "experiments", "work"} {
		t.Run(table, func(t *testing.T) {
			exp := "cut-" + table
			if _, errOut, code := run(t, "--db", dsn, "run", "--collection", "cut", "--config", "exact",
				"--runs", "2", "--experiment", exp, "--enqueue-only"); code != 0 {
				t.Fatalf("run --enqueue-only: exit %d: %s", code, errOut)
			}
			var errOut string
			err := pgtest.CutWaiting(t, dsn, table, func() error {
				_, stderr, code := run(t, "--db", dsn, "worker", "--experiment", exp, "--jobs", "1")
				if errOut = stderr; code != 0 {
					return fmt.Errorf("worker: exit %d", code)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%v across the cut; stderr:\n%s", err, errOut)
			}
			n := count(t, d, `SELECT COUNT(*) FROM work w JOIN experiments e ON e.id = w.experiment_id WHERE e.name = ? AND w.state = 'done'`, exp)
			if n != 4 {
				t.Errorf("%d runs recorded for %s, want 4 (2 puzzles x 2 runs)", n, exp)
			}
		})
	}
}
