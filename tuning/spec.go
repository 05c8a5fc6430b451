package tuning

import (
	"fmt"
	"slices"
	"strings"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/tune"
)

// Check refuses a spec and options that cannot be tuned, in the words of
// the flags of sudokulab tune that set them: no solver, no training
// puzzles, no budget, a negative number of jobs or a lease under
// runner.MinLease. tune checks them before it opens the database.
func (s Spec) Check(o Options) error {
	switch {
	case s.Solver == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "say what to tune: --solver NAME")
	case strings.TrimSpace(s.Train) == "":
		return sudokulab.Errorf(sudokulab.EINVALID, "say what to train on: --train WHERE")
	case s.Budget < 1:
		return sudokulab.Errorf(sudokulab.EINVALID, "--budget %d: want a number of runs above 0", s.Budget)
	case o.Runner.Jobs < 0:
		return sudokulab.Errorf(sudokulab.EINVALID, "--jobs %d: want 0 (sudokulab worker processes do every run) or more", o.Runner.Jobs)
	}
	return runner.CheckLease(s.Lease)
}

// StepText says what the test after a race step found, as tune reports
// each step on standard error; ok is false for a step that was not
// tested.
func StepText(s tune.Step) (text string, ok bool) {
	if s.Test == "" {
		return "", false
	}
	alive := 0
	for _, e := range s.Entries {
		if e.Alive {
			alive++
		}
	}
	return fmt.Sprintf("iteration %d step %d: %s p = %.3g, %d of %d candidates alive",
		s.Iteration, s.Number, s.Test, s.P, alive, len(s.Entries)), true
}

// EliteTable lists the final elites, best first, with their tuned
// parameter values, one column per parameter by name.
func (r Report) EliteTable() db.Table {
	var names []string
	for name := range r.Settings[0] {
		names = append(names, name)
	}
	slices.Sort(names)
	rows := make([][]any, len(r.Elites))
	for i, name := range r.Elites {
		rows[i] = []any{i + 1, name}
		for _, p := range names {
			rows[i] = append(rows[i], r.Settings[i][p])
		}
	}
	return db.Table{Columns: append([]string{"rank", "config"}, names...), Rows: rows}
}
