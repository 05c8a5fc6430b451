package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlot(t *testing.T) {
	path := labDB(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
	}{
		{"convergence.png", []string{"plot", "convergence", "--config", "franco-tabu-table2", "--config", "exact"}},
		{"convergence.svg", []string{"plot", "convergence", "--axis", "evaluations", "--quantiles", "0.1,0.9", "--where", "experiment = 'e1'"}},
		{"ecdf.png", []string{"plot", "ecdf"}},
		{"ecdf.svg", []string{"plot", "ecdf", "--axis", "generations", "--config", "exact"}},
		{"success.png", []string{"plot", "success"}},
		// No ratings by this rater: grouped by collection.
		{"success-collections.svg", []string{"plot", "success", "--rater", "nobody"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name)
			args := append([]string{"--db", path}, tt.args...)
			_, errOut, code := run(t, append(args, "-o", out)...)
			if code != 0 || !strings.Contains(errOut, "wrote "+out) {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) < 2000 {
				t.Errorf("%s: only %d bytes", out, len(b))
			}
			if strings.HasSuffix(out, ".svg") {
				if !strings.Contains(string(b), "exact") {
					t.Errorf("%s does not name the configuration exact", out)
				}
				if strings.HasPrefix(tt.name, "success-collections") && !strings.Contains(string(b), "reseda-2012") {
					t.Errorf("%s is not grouped by collection", out)
				}
			} else if !strings.HasPrefix(string(b), "\x89PNG") {
				t.Errorf("%s is not a PNG", out)
			}
		})
	}
}

func TestPlotErrors(t *testing.T) {
	path := labDB(t)
	out := filepath.Join(t.TempDir(), "x.png")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no output", []string{"plot", "ecdf"}, exitInvalid, "needs -o FILE.svg or -o FILE.png"},
		{"bad extension", []string{"plot", "ecdf", "-o", "x.pdf"}, exitInvalid, "-o x.pdf: want a .svg or .png file"},
		{"bad axis", []string{"plot", "convergence", "--axis", "seconds", "-o", out}, exitInvalid, `--axis "seconds"`},
		{"bad quantiles", []string{"plot", "convergence", "--quantiles", "0.9,0.1", "-o", out}, exitInvalid, "--quantiles"},
		{"no runs", []string{"plot", "ecdf", "--config", "soto-cuckoo", "-o", out}, exitNotFound, "plot: no runs"},
		{"bad where", []string{"plot", "success", "--where", "nope = 1", "-o", out}, exitInvalid, "no such column: nope"},
		{"no subcommand", []string{"plot"}, exitInvalid, "missing subcommand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", path}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed plot left %s behind (%v)", out, err)
	}
}
