package runner_test

import (
	"fmt"
	"testing"

	"sudokulab"
	"sudokulab/runner"
)

func TestConfigParamTable(t *testing.T) {
	c := runner.Config{
		Info: sudokulab.SolverInfo{Params: []sudokulab.ParamSpec{
			{Name: "pop", Kind: sudokulab.ParamInt, Default: int64(100), Min: 2, Max: 1000, Doc: "population", Section: "§2"},
			{Name: "elitist", Kind: sudokulab.ParamBool, Default: true, Doc: "keep the best"},
		}},
		Params: sudokulab.Params{"pop": int64(50), "elitist": false},
	}
	tab := c.ParamTable()
	if got := fmt.Sprint(tab.Columns); got != "[parameter value default range section doc]" {
		t.Fatalf("columns %s", got)
	}
	want := []string{"[pop 50 100 2..1000 §2 population]", "[elitist false true true|false  keep the best]"}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(want))
	}
	for i, row := range tab.Rows {
		if got := fmt.Sprint(row); got != want[i] {
			t.Errorf("row %d = %q, want %q", i, got, want[i])
		}
	}
}
