package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotRankingUnits draws the ranking's pictures of a lab whose exact
// solver counts nodes and franco-tabu-table2 evaluations: no picture
// puts the two on one axis. Without --time or --x they are drawn on time,
// saying why; asked for evaluations, each is refused naming the flag to
// use, as compare refuses.
func TestPlotRankingUnits(t *testing.T) {
	path := labDB(t)
	dir := t.TempDir()
	why := "exact counts nodes and franco-tabu-table2 evaluations, which do not compare"
	for _, tt := range []struct {
		kind string
		args []string
		want []string
	}{
		{"cd", nil, []string{"mean rank by ERT in cpu seconds", "in cpu seconds: " + why, "franco-tabu-table2 (2)", "exact (1)"}},
		{"cd", []string{"--measure", "success"}, []string{"mean rank by success rate", "2 configurations, 4 puzzles"}},
		{"profile", nil, []string{"ERT in cpu seconds over the best", "in cpu seconds: " + why, "exact (best on 100 %)"}},
		{"profile", []string{"--measure", "par", "--par-k", "2"}, []string{"PAR2 in cpu seconds over the best"}},
		{"aggecdf", nil, []string{">wall-clock seconds<", "on wall-clock seconds: " + why, "exact (area"}},
	} {
		name := tt.kind + strings.Join(tt.args, "") + ".svg"
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, name)
			_, errOut, code := run(t, append([]string{"--db", path, "plot", tt.kind, "-o", out}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			svg := string(b)
			for _, w := range tt.want {
				if !strings.Contains(svg, w) {
					t.Errorf("%s does not say %q", name, w)
				}
			}
			for _, bad := range []string{">evaluations<", "in evaluations", "(search nodes)", "in nodes"} {
				if strings.Contains(svg, bad) {
					t.Errorf("%s says %q: an axis of one solver's unit", name, bad)
				}
			}
		})
	}
	out := filepath.Join(dir, "x.svg")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cd", "--time", "evaluations"}, why[:len("exact counts")] + " its effort in nodes and franco-tabu-table2 in evaluations, which do not compare: use --time cpu or --time seconds"},
		{[]string{"profile", "--time", "evaluations"}, "use --time cpu or --time seconds"},
		{[]string{"aggecdf", "--x", "evaluations"}, "plot --x evaluations: " + why + ": use --x seconds"},
		{[]string{"profile", "--measure", "success"}, "use --measure ert or par"},
		{[]string{"cd", "--alpha", "2"}, "--alpha 2"},
		{[]string{"aggecdf", "--x", "cpu"}, `--x "cpu"`},
	} {
		_, errOut, code := run(t, append([]string{"--db", path, "plot", "-o", out}, tt.args...)...)
		if code != exitInvalid || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tt.args, code, errOut, exitInvalid, tt.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused picture was written")
	}
}
