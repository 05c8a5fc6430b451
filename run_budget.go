package sudokulab

import "fmt"

// BudgetText describes r's budget in words: "none" when it has no limit,
// else its three limits, 0 standing for no limit on that one.
func (r *Run) BudgetText() string {
	if r.MaxEvaluations <= 0 && r.MaxGenerations <= 0 && r.TimeoutMS <= 0 {
		return "none"
	}
	return fmt.Sprintf("%d evaluations, %d generations, %d ms (0: no limit)", r.MaxEvaluations, r.MaxGenerations, r.TimeoutMS)
}
