package sudokulab_test

import (
	"testing"

	"sudokulab"
)

func TestRunBudgetText(t *testing.T) {
	for _, tc := range []struct {
		run  sudokulab.Run
		want string
	}{
		{sudokulab.Run{}, "none"},
		{sudokulab.Run{MaxEvaluations: 1000}, "1000 evaluations, 0 generations, 0 ms (0: no limit)"},
		{sudokulab.Run{MaxGenerations: 5, TimeoutMS: 250}, "0 evaluations, 5 generations, 250 ms (0: no limit)"},
	} {
		if got := tc.run.BudgetText(); got != tc.want {
			t.Errorf("BudgetText of %+v = %q, want %q", tc.run, got, tc.want)
		}
	}
}
