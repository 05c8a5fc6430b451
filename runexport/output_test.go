package runexport_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/runexport"
)

// feed hands the runs to o as db.ExportRuns does, without closing it.
func feed(t *testing.T, o *runexport.Output, runs []fixtureRun) int64 {
	t.Helper()
	for _, r := range runs {
		if err := o.Run(&r.run); err != nil {
			t.Fatal(err)
		}
		for i := range r.points {
			p := r.points[i]
			p.RunID = r.run.Run.ID
			if err := o.Point(&p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return int64(len(runs))
}

// TestCSVOutput writes the fixture to each kind of csv output and checks
// where the two tables go, what they hold and what is counted.
func TestCSVOutput(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "trajectories.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path       string
		long, perRun     string // relative to the folder of the test
		where            string
		toStandardOutput bool
	}{
		{"file", "out/x.csv", "out/x.csv", "out/x-runs.csv", "DIR/out/x.csv and DIR/out/x-runs.csv", false},
		{"file, upper case", "X.CSV", "X.CSV", "X-runs.csv", "DIR/X.CSV and DIR/X-runs.csv", false},
		{"folder", "out", "out/trajectories.csv", "out/runs.csv", "DIR/out/trajectories.csv and DIR/out/runs.csv", false},
		{"standard output", "-", "", "", "standard output", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.path
			if path != "-" {
				path = filepath.Join(dir, path)
			}
			var stdout bytes.Buffer
			o := runexport.NewCSVOutput(path, &stdout)
			if want := strings.ReplaceAll(tt.where, "DIR", dir); o.Where != want {
				t.Errorf("Where %q, want %q", o.Where, want)
			}
			if err := o.Finish(feed(t, o, fixture()), nil); err != nil {
				t.Fatal(err)
			}
			if o.Configs() != 3 || o.Puzzles() != 2 {
				t.Errorf("%d configurations and %d puzzles, want 3 and 2", o.Configs(), o.Puzzles())
			}
			long := stdout.Bytes()
			if !tt.toStandardOutput {
				if stdout.Len() > 0 {
					t.Errorf("%d bytes written to standard output", stdout.Len())
				}
				if long, err = os.ReadFile(filepath.Join(dir, tt.long)); err != nil {
					t.Fatal(err)
				}
				if per, err := os.ReadFile(filepath.Join(dir, tt.perRun)); err != nil || len(per) == 0 {
					t.Errorf("per-run table: %d bytes, %v", len(per), err)
				}
			}
			if !bytes.Equal(long, want) {
				t.Errorf("the long table differs from testdata/golden/trajectories.csv:\n%s", long)
			}
		})
	}
}

// TestOutputNothingWithoutRuns checks that an export that finds no runs
// leaves no file and no folder behind, in either format.
func TestOutputNothingWithoutRuns(t *testing.T) {
	for _, format := range []string{"csv", "iohprofiler"} {
		dir := filepath.Join(t.TempDir(), "out")
		o := runexport.NewCSVOutput(dir, nil)
		if format == "iohprofiler" {
			o = runexport.NewIOHprofilerOutput(dir)
		}
		if err := o.Finish(0, nil); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: an export without runs created %s", format, dir)
		}
	}
}

// TestOutputFinishError checks that an export that stopped with an error
// returns it and still closes its files.
func TestOutputFinishError(t *testing.T) {
	dir := t.TempDir()
	o := runexport.NewCSVOutput(filepath.Join(dir, "x.csv"), nil)
	stop := errors.New("stopped")
	if err := o.Finish(feed(t, o, fixture()[:2]), stop); err != stop {
		t.Fatalf("Finish returned %v, want the export's error", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x.csv")); err != nil || len(b) == 0 {
		t.Errorf("the long table: %d bytes, %v", len(b), err)
	}
}
