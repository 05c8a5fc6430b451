package irace_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sudokulab"
	"sudokulab/tune"
	"sudokulab/tune/irace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestWriteGolden writes the irace files of a space with every kind of
// parameter and compares them with testdata/, which irace 3.5 reads
// (readParameters, readConfigurationsFile, readScenario; see
// scripts/bench-tune.sh).
func TestWriteGolden(t *testing.T) {
	info := sudokulab.SolverInfo{Name: "s", Params: []sudokulab.ParamSpec{
		{Name: "alpha", Kind: sudokulab.ParamFloat, Default: 0.99, Min: 0.5, Max: 0.999999},
		{Name: "reheat", Kind: sudokulab.ParamInt, Default: int64(20), Min: 0, Max: 1e9},
		{Name: "chain-factor", Kind: sudokulab.ParamFloat, Default: 1.0, Min: 1e-6, Max: 1000},
		{Name: "propagate", Kind: sudokulab.ParamChoice, Default: "none", Choices: []string{"none", "singles", "hidden"}},
		{Name: "restarts", Kind: sudokulab.ParamBool, Default: true},
	}}
	space, err := tune.SpaceOf(info, map[string]string{
		"alpha": "0.9..0.9999", "reheat": "log:1..1000", "chain-factor": "log:0.001..10", "propagate": "none|singles|hidden", "restarts": "false|true",
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	space.Fixed = map[string]string{}
	dir := t.TempDir()
	err = irace.Write(dir, irace.Export{
		Space: space, Instances: []int64{3, 5, 8}, Budget: 500, Seed: 42,
		Sudokulab: []string{"/path/to/sudokulab", "--db", "/path/to/it's lab.db"},
		Run:       []string{"run", "--solver", "s", "--runs", "1", "--set", "t0=12", "--max-evaluations", "300000", "--experiment", "tune-x-irace"},
		Cost:      "1 - r.solved", MaxEvaluations: 300000,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"parameters.txt", "configurations.txt", "instances.txt", "scenario.txt", "target-runner"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, golden, got)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "target-runner")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("target-runner is not executable: %v %v", fi.Mode(), err)
	}
}
