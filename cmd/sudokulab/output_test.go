package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNumbersAtTheirPrecision holds tables and CSV to the digits a
// float64 carries (no 13.200000000000017 from binary arithmetic) while
// JSON keeps the full value.
func TestNumbersAtTheirPrecision(t *testing.T) {
	path := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	query := "SELECT 0.1 + 0.2 AS a, 13.2 + 1e-14 AS b, 1.0 / 3 AS c, 2.5 AS d, 1e300 * 10 AS e"
	tests := []struct {
		format string
		want   []string
	}{
		{"table", []string{"0.3  13.2  0.333333333333333  2.5  1e+301"}},
		{"csv", []string{"0.3,13.2,0.333333333333333,2.5,1e+301"}},
		{"json", []string{`"a": 0.30000000000000004`, `"b": 13.20000000000001`, `"c": 0.3333333333333333`, `"d": 2.5`}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			out, errOut, code := run(t, "--db", path, "-O", tt.format, "sql", query)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
