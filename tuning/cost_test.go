package tuning_test

import (
	"context"
	"path/filepath"
	"testing"

	"sudokulab/db"
	"sudokulab/tuning"
)

// TestPar10CountsMilliseconds checks that par10 counts a solved run's CPU
// time in whole milliseconds, the rest dropped, so that runs solved at
// once tie, and that the SQL irace's target runner prints gives the same
// costs as the racer (an unsolved run: ten times the 1 s timeout).
func TestPar10CountsMilliseconds(t *testing.T) {
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, c := range []struct {
		cpu, want float64
	}{
		{0.0000429, 0}, {0.00089, 0}, {0.001, 0.001}, {0.003, 0.003}, {0.0423, 0.042}, {1.2345, 1.234},
	} {
		if got := tuning.CPUCost(c.cpu); got != c.want {
			t.Errorf("CPUCost(%v) = %v, want %v", c.cpu, got, c.want)
		}
		for _, solved := range []int{1, 0} {
			want := c.want
			if solved == 0 {
				want = 10
			}
			var got float64
			q := `SELECT ` + tuning.CostSQL(tuning.PAR10) + ` FROM (SELECT ? AS solved, ? AS cpu_seconds, 1000 AS timeout_ms) r`
			if err := d.QueryRowxContext(context.Background(), d.Rebind(q), solved, c.cpu).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("SQL cost of a run solved %d in %v s = %v, want %v", solved, c.cpu, got, want)
			}
		}
	}
}
