package tuning

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/tune/irace"
)

// costSQL is the cost of a run by each objective, as an expression over
// run_results r: the same costs as the racer's (lab.costs).
var costSQL = map[string]string{
	PAR10:   fmt.Sprintf("CASE WHEN r.solved = 1 THEN FLOOR(r.cpu_seconds * %d) / %d.0 ELSE 10 * r.timeout_ms / 1000.0 END", cpuTicks, cpuTicks),
	Effort:  "CASE WHEN r.solved = 1 THEN r.effort ELSE 10 * r.max_evaluations END",
	Success: "1 - r.solved",
}

// ExportIrace writes into dir the files with which irace tunes what spec
// asks, on the same training puzzles and budget (package irace): the
// target runner calls sudokulab (the program and global flags) to do each
// run, in the experiment NAME-irace, and prints its cost. It writes
// nothing to the lab.
func ExportIrace(ctx context.Context, d *db.DB, reg runner.Registry, spec Spec, dir string, sudokulab []string) error {
	p, err := prepare(ctx, d, reg, spec)
	if err != nil {
		return err
	}
	s := p.spec
	run := []string{"run", "--solver", s.Solver, "--runs", "1", "--jobs", "1", "--trace", "none", "--experiment", p.name + "-irace"}
	fixed := make([]string, 0, len(p.space.Fixed))
	for k := range p.space.Fixed {
		fixed = append(fixed, k)
	}
	slices.Sort(fixed)
	for _, k := range fixed {
		run = append(run, "--set", k+"="+p.space.Fixed[k])
	}
	if s.RunBudget.MaxEvaluations > 0 {
		run = append(run, "--max-evaluations", strconv.FormatInt(s.RunBudget.MaxEvaluations, 10))
	}
	if s.RunBudget.MaxGenerations > 0 {
		run = append(run, "--max-generations", strconv.FormatInt(s.RunBudget.MaxGenerations, 10))
	}
	if s.Timeout > 0 {
		run = append(run, "--timeout", s.Timeout.String())
	}
	err = irace.Write(dir, irace.Export{
		Space: p.space, Instances: p.train, Budget: s.Budget, Seed: s.Seed,
		Sudokulab: sudokulab, Run: run, Cost: costSQL[s.Objective],
		MaxEvaluations: s.RunBudget.MaxEvaluations, MaxGenerations: s.RunBudget.MaxGenerations, TimeoutMS: s.Timeout.Milliseconds(),
	})
	if err != nil {
		return fmt.Errorf("export irace: %w", err)
	}
	return nil
}
