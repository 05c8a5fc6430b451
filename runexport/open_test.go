package runexport_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/runexport"
)

// TestOpen refuses what export-runs' --format and -o may not say, in
// their words, and writes nothing when it opens an output.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format, path string
		want         string // "" for no error
	}{
		{"csv", "-", ""},
		{"csv", filepath.Join(dir, "runs.csv"), ""},
		{"iohprofiler", filepath.Join(dir, "new"), ""},
		{"iohprofiler", "-", "-o -: the iohprofiler format is a folder"},
		{"iohprofiler", full, "the folder is not empty"},
		{"", "-", "export-runs needs --format iohprofiler or --format csv"},
		{"json", "-", `--format "json": want iohprofiler or csv`},
	}
	for _, tt := range tests {
		out, err := runexport.Open(tt.format, tt.path, &bytes.Buffer{})
		switch {
		case tt.want == "" && (err != nil || out == nil):
			t.Errorf("Open(%q, %q) = %v, %v", tt.format, tt.path, out, err)
		case tt.want != "" && (sudokulab.ErrorCode(err) != sudokulab.EINVALID || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Open(%q, %q): %v, want EINVALID with %q", tt.format, tt.path, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("Open wrote into %s: %v", dir, entries)
	}
	out, err := runexport.Open("csv", "-", &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Report("csv"); got != "exported 0 runs (0 trajectory points, 0 rows) of 0 configurations on 0 puzzles to standard output (csv)" {
		t.Errorf("Report = %q", got)
	}
}
