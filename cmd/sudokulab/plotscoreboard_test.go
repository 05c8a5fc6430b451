package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotScoreboard checks the scoreboard picture's flags and that a lab
// without runs at the papers' budgets is told so (exit 3) instead of
// getting an empty picture; the drawing itself is tested in plots.
func TestPlotScoreboard(t *testing.T) {
	path := exampleDB(t)
	out := filepath.Join(t.TempDir(), "sb.svg")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plot", "scoreboard", "-o", out}, exitNotFound, "none of the 87 scoreboard cells has runs"},
		{[]string{"plot", "scoreboard", "--readings", "some", "-o", out}, exitInvalid, `--readings "some": want paper, readings, all`},
		{[]string{"plot", "scoreboard", "--config", "exact", "-o", out}, exitInvalid, "takes no --config"},
	}
	for _, tt := range tests {
		_, errOut, code := run(t, append([]string{"--db", path}, tt.args...)...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", strings.Join(tt.args, " "), code, tt.code, tt.want, errOut)
		}
	}
}
