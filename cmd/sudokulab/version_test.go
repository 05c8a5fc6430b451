package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/solvers/exact"
)

// TestVersion holds `version` and `--version` to the code version runs
// record, the Go version, the schema version a new database gets and the
// exact solver's engines.
func TestVersion(t *testing.T) {
	path := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	d, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := d.Version(context.Background())
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, code := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, want := range []string{
			"sudokulab " + runner.CodeVersion() + "\n",
			"go: " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
			"schema version: " + strconv.FormatInt(schema, 10) + "\n",
			"exact solver: " + exact.Engines() + "\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
	out, _, _ := run(t, "-O", "json", "version")
	var v struct {
		Version string `json:"version"`
		Schema  int64  `json:"schema_version"`
		Engines string `json:"exact_engines"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Version != runner.CodeVersion() || v.Schema != schema || !strings.Contains(v.Engines, "count") {
		t.Errorf("JSON %s (%v)", out, err)
	}
}
