package runexport_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/runexport"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixtureRun is a run with its trajectory, as a Writer receives them.
type fixtureRun struct {
	run    runexport.Run
	points []sudokulab.TrajectoryPoint
}

func ptr[T any](v T) *T { return &v }

// fixture returns runs covering every case the writers distinguish, in the
// order db.ExportRuns gives them (configuration, puzzle, run id): the
// exact solver (effort in nodes, one point); a stochastic solver whose
// first point has 0 evaluations (a prefilter) and whose trace stops before
// its final effort; a run without points; a NULL current cost and CPU
// time; an unknown effort; a run that failed (no cost) and one canceled;
// two runs of one configuration on one puzzle; a puzzle without label; a
// configuration whose name is no file name.
func fixture() []fixtureRun {
	t0 := time.Date(2025, 3, 14, 9, 26, 53, 589e6, time.UTC)
	run := func(id, puzzle int64, config, solver, label string, seed int64, status sudokulab.RunStatus, evals, gens int64, best *int, unit string) runexport.Run {
		effort := ptr(evals)
		if unit == runexport.UnitNodes {
			effort = ptr(gens)
		}
		return runexport.Run{
			Run: sudokulab.Run{ID: id, ExperimentID: 1, PuzzleID: puzzle, ConfigID: id % 3, Seed: seed,
				MaxEvaluations: 100000, MaxGenerations: 0, TimeoutMS: 60000, Status: status,
				Evaluations: evals, Generations: gens, BestCost: best, WallSeconds: ptr(0.25 * float64(id)),
				CPUSeconds: ptr(0.125 * float64(id)), CodeVersion: "v1.2.3", Host: "lab1",
				StartedAt: t0.Add(time.Duration(id) * time.Second), FinishedAt: t0.Add(time.Duration(id)*time.Second + 250*time.Millisecond)},
			Experiment: "e1", Config: config, Solver: solver, PuzzleLabel: label, Size: 9, Givens: 30,
			Effort: effort, EffortUnit: unit,
		}
	}
	pt := func(seq int, gen, evals int64, secs float64, best int, cur *float64, restarts int64, conv *float64) sudokulab.TrajectoryPoint {
		return sudokulab.TrajectoryPoint{Seq: seq, Generation: gen, Evaluations: evals, ElapsedSeconds: secs,
			BestCost: best, CurrentCost: cur, Restarts: restarts, Convergence: conv}
	}
	exact := run(1, 7, "exact", "exact", "sato-no27", 1, sudokulab.StatusSolved, 0, 12, ptr(0), runexport.UnitNodes)
	exact.Run.Nodes, exact.Run.Guesses = ptr(int64(12)), ptr(int64(11))

	prefiltered := run(2, 7, "franco-tabu-table2-ac3", "franco-tabu", "sato-no27", 1, sudokulab.StatusSolved, 0, 0, ptr(0), runexport.UnitEvaluations)
	prefiltered.Run.PrefilterRevisions = ptr(int64(1620))
	improving := run(3, 7, "franco-tabu-table2-ac3", "franco-tabu", "sato-no27", 2, sudokulab.StatusUnsolved, 100000, 1000, ptr(2), runexport.UnitEvaluations)
	improving.Run.Restarts = 1
	improving.Run.PrefilterRevisions = ptr(int64(1580))
	untraced := run(4, 8, "franco-tabu-table2-ac3", "franco-tabu", "", 1, sudokulab.StatusTimeout, 5400, 54, ptr(4), runexport.UnitEvaluations)
	untraced.Run.CPUSeconds, untraced.Run.WallSeconds = nil, nil
	failed := run(5, 8, "franco-tabu-table2-ac3", "franco-tabu", "", 2, sudokulab.StatusError, 0, 0, nil, runexport.UnitEvaluations)
	failed.Run.Error = "solver failed: \"bad\", see log\nsecond line"
	canceled := run(6, 8, "franco-tabu-table2-ac3", "franco-tabu", "", 3, sudokulab.StatusCanceled, 300, 3, ptr(9), runexport.UnitEvaluations)
	oldExact := run(7, 8, "my exact, \"quoted\"", "exact", "", 5, sudokulab.StatusSolved, 881, 3, ptr(0), runexport.UnitNodes)
	oldExact.Effort = nil // recorded before migration 5: nodes unknown, generations hold them

	return []fixtureRun{
		{exact, []sudokulab.TrajectoryPoint{pt(0, 12, 0, 0.0004, 0, ptr(0.0), 0, nil)}},
		{prefiltered, []sudokulab.TrajectoryPoint{pt(0, 0, 0, 0.001, 0, ptr(0.0), 0, nil)}},
		{improving, []sudokulab.TrajectoryPoint{
			pt(0, 0, 1, 0.002, 14, ptr(14.0), 0, nil),
			pt(1, 1, 81, 0.003, 11, ptr(12.5), 0, ptr(0.25)),
			pt(2, 2, 161, 0.004, 9, nil, 0, ptr(0.5)),
			pt(3, 500, 40081, 0.5, 2, ptr(3.0), 1, ptr(0.625)),
		}},
		{untraced, nil},
		{failed, nil},
		{canceled, []sudokulab.TrajectoryPoint{pt(0, 3, 300, 0.01, 9, ptr(9.0), 0, nil)}},
		{oldExact, []sudokulab.TrajectoryPoint{pt(0, 3, 881, 0.0002, 0, ptr(0.0), 0, nil)}},
	}
}

// write hands the runs to w and closes it.
func write(t *testing.T, w runexport.Writer, runs []fixtureRun) {
	t.Helper()
	for _, r := range runs {
		if err := w.Run(&r.run); err != nil {
			t.Fatal(err)
		}
		for i := range r.points {
			p := r.points[i]
			p.RunID = r.run.Run.ID
			if err := w.Point(&p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// tree returns every file under dir as "== path" followed by its content,
// in path order.
func tree(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		b.WriteString("== " + filepath.ToSlash(rel) + "\n")
		b.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGolden writes the fixture in both formats and compares every byte
// with the golden files.
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	ioh := runexport.NewIOHprofiler(dir)
	write(t, ioh, fixture())
	golden(t, "iohprofiler.txt", tree(t, dir))

	var b bytes.Buffer
	write(t, runexport.NewCSV(&b), fixture())
	golden(t, "trajectories.csv", b.Bytes())

	s := ioh.Summary()
	if s.Runs != 5 || s.Skipped != 2 || !strings.Contains(s.SkippedWhy, "status error") || !strings.Contains(s.SkippedWhy, "status canceled") {
		t.Errorf("iohprofiler summary %+v: want 5 runs, 2 left out (error, canceled)", s)
	}
	if len(s.Files) != 8 {
		t.Errorf("iohprofiler wrote %d files, want 4 .info and 4 .dat: %v", len(s.Files), s.Files)
	}
}

// TestIOHprofilerNotGrouped checks that runs of one configuration and
// puzzle coming in two groups are refused rather than overwritten.
func TestIOHprofilerNotGrouped(t *testing.T) {
	runs := fixture()
	w := runexport.NewIOHprofiler(t.TempDir())
	for _, r := range []runexport.Run{runs[1].run, runs[3].run, runs[2].run} {
		if err := w.Run(&r); err != nil {
			if !strings.Contains(err.Error(), "ordered by configuration and puzzle") {
				t.Fatalf("error %q does not say the runs must be grouped", err)
			}
			w.Close()
			return
		}
	}
	t.Fatal("runs of one configuration and puzzle in two groups were accepted")
}

func TestIOHprofilerNothingBeforeFirstRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	w := runexport.NewIOHprofiler(dir)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("an export without runs created %s", dir)
	}
	if !slices.Equal(runexport.IOHColumns[:3], []string{"function evaluation", "current f(x)", "best-so-far f(x)"}) {
		t.Errorf("IOHColumns start %q", runexport.IOHColumns[:3])
	}
}
