package db

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// Tuning is one row of the tunings table: what sudokulab tune races and
// how far it got.
type Tuning struct {
	ID, ExperimentID int64
	Name, Solver     string
	// TrainWhere and TestWhere are the puzzle_catalog predicates of the
	// training and test sets.
	TrainWhere, TestWhere string
	// Space is the tuned parameters and the fixed ones as the command
	// gave them, canonical JSON.
	Space     string
	Objective string
	// BudgetRuns is the number of runs the race may do; Seed seeds it.
	BudgetRuns, Seed int64
	// Budget bounds each run.
	Budget Budget
	// State is "racing" or "done"; RunsUsed, Iterations, StopReason and
	// BestConfigID say what a finished tuning did and found.
	State                string
	RunsUsed, Iterations int64
	StopReason           string
	BestConfigID         int64
}

// sameSettings says whether two tunings were asked for with the same
// settings, the identity under which a tuning resumes.
func (t *Tuning) sameSettings(o *Tuning) bool {
	return t.Solver == o.Solver && t.TrainWhere == o.TrainWhere && t.TestWhere == o.TestWhere &&
		t.Space == o.Space && t.Objective == o.Objective && t.BudgetRuns == o.BudgetRuns &&
		t.Seed == o.Seed && t.Budget == o.Budget
}

// EnsureTuning stores t under its name, or finds the stored tuning of that
// name, which must have the same settings (else ECONFLICT): a tuning
// started again with the same command resumes. It sets t's ID and what
// the stored row holds of its progress; resumed says whether it existed.
func EnsureTuning(ctx context.Context, x sqlx.ExtContext, t *Tuning) (resumed bool, err error) {
	var s Tuning
	var stop sql.NullString
	var best sql.NullInt64
	err = x.QueryRowxContext(ctx, x.Rebind(`SELECT id, experiment_id, solver, train_where, test_where, space, objective,
		budget_runs, seed, max_evaluations, max_generations, timeout_ms, state, runs_used, iterations, stop_reason, best_config_id
		FROM tunings WHERE name = ?`), t.Name).Scan(&s.ID, &s.ExperimentID, &s.Solver, &s.TrainWhere, &s.TestWhere, &s.Space,
		&s.Objective, &s.BudgetRuns, &s.Seed, &s.Budget.MaxEvaluations, &s.Budget.MaxGenerations, &s.Budget.TimeoutMS,
		&s.State, &s.RunsUsed, &s.Iterations, &stop, &best)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		// Another racer given the same command may store it first: then
		// this one resumes it.
		err = x.QueryRowxContext(ctx, x.Rebind(`INSERT INTO tunings (name, experiment_id, solver, train_where, test_where, space,
			objective, budget_runs, seed, max_evaluations, max_generations, timeout_ms, started_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING id`),
			t.Name, t.ExperimentID, t.Solver, t.TrainWhere, t.TestWhere, t.Space, t.Objective, t.BudgetRuns, t.Seed,
			t.Budget.MaxEvaluations, t.Budget.MaxGenerations, t.Budget.TimeoutMS, FormatTime(time.Now())).Scan(&t.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return EnsureTuning(ctx, x, t)
		}
		if err != nil {
			return false, dbError(err, "add tuning "+t.Name)
		}
		t.State = "racing"
		return false, nil
	case err != nil:
		return false, dbError(err, "find tuning "+t.Name)
	}
	if !t.sameSettings(&s) || t.ExperimentID != s.ExperimentID {
		return true, sudokulab.Errorf(sudokulab.ECONFLICT,
			"tuning %q exists with other settings (solver %s, train %q, budget %d runs, seed %d, space %s): give another --experiment",
			t.Name, s.Solver, s.TrainWhere, s.BudgetRuns, s.Seed, s.Space)
	}
	t.ID, t.State, t.RunsUsed, t.Iterations = s.ID, s.State, s.RunsUsed, s.Iterations
	t.StopReason, t.BestConfigID = stop.String, best.Int64
	return true, nil
}

// TuningCandidate is one row of tuning_candidates.
type TuningCandidate struct {
	TuningID             int64
	Candidate, Iteration int
	Parent               int // 0: none (NULL)
	ConfigID             int64
	EliteRank            int // 0: not a final elite (NULL)
	Config               string
}

// AddTuningCandidate stores a candidate of a tuning, unless stored
// already (a resumed tuning samples the same candidates again).
func AddTuningCandidate(ctx context.Context, x sqlx.ExtContext, c TuningCandidate) error {
	_, err := x.ExecContext(ctx, x.Rebind(`INSERT INTO tuning_candidates (tuning_id, candidate, config_id, iteration, parent)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (tuning_id, candidate) DO NOTHING`),
		c.TuningID, c.Candidate, c.ConfigID, c.Iteration, optionalID(int64(c.Parent)))
	return dbError(err, "add tuning candidate")
}

// TuningStep is one row of tuning_steps: a candidate in one race step.
type TuningStep struct {
	Iteration, Step, Candidate int
	PuzzleID, Seed             int64
	Cost, MeanRank             float64
	// Test is the test done after the step ("" for none) and P its
	// p-value (NaN when none).
	Test  string
	P     float64
	Alive bool
}

// AddTuningSteps stores the rows of one race step in one transaction,
// keeping rows stored already.
func AddTuningSteps(ctx context.Context, d *DB, tuningID int64, steps []TuningStep) error {
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(`INSERT INTO tuning_steps (tuning_id, iteration, step, candidate, puzzle_id, seed, cost, mean_rank, test, p_value, alive)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tuning_id, iteration, step, candidate) DO NOTHING`)
		for _, s := range steps {
			var test sql.NullString
			var p sql.NullFloat64
			if s.Test != "" {
				test = sql.NullString{String: s.Test, Valid: true}
			}
			if !math.IsNaN(s.P) {
				p = sql.NullFloat64{Float64: s.P, Valid: true}
			}
			if _, err := tx.ExecContext(ctx, q, tuningID, s.Iteration, s.Step, s.Candidate, s.PuzzleID, s.Seed,
				s.Cost, s.MeanRank, test, p, boolInt(s.Alive)); err != nil {
				return dbError(err, "add tuning step")
			}
		}
		return nil
	})
}

// FinishTuning marks a tuning done with what it found: elites lists the
// candidate numbers of the final elites, best first.
func FinishTuning(ctx context.Context, d *DB, t *Tuning, elites []int) error {
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE tuning_candidates SET elite_rank = NULL WHERE tuning_id = ?`), t.ID); err != nil {
			return dbError(err, "finish tuning")
		}
		for i, c := range elites {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE tuning_candidates SET elite_rank = ? WHERE tuning_id = ? AND candidate = ?`),
				i+1, t.ID, c); err != nil {
				return dbError(err, "finish tuning")
			}
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE tunings SET state = 'done', runs_used = ?, iterations = ?, stop_reason = ?,
			best_config_id = ?, finished_at = COALESCE(finished_at, ?) WHERE id = ?`),
			t.RunsUsed, t.Iterations, t.StopReason, optionalID(t.BestConfigID), FormatTime(time.Now()), t.ID)
		return dbError(err, "finish tuning")
	})
}

// RenameConfig renames a configuration; the name must be free (else
// ECONFLICT).
func RenameConfig(ctx context.Context, x sqlx.ExtContext, id int64, name string) error {
	var other int64
	err := x.QueryRowxContext(ctx, x.Rebind(`SELECT id FROM configs WHERE name = ?`), name).Scan(&other)
	switch {
	case err == nil && other == id:
		return nil
	case err == nil:
		return sudokulab.Errorf(sudokulab.ECONFLICT, "configuration name %q is taken", name)
	case !errors.Is(err, sql.ErrNoRows):
		return dbError(err, "rename configuration")
	}
	_, err = x.ExecContext(ctx, x.Rebind(`UPDATE configs SET name = ? WHERE id = ?`), name, id)
	return dbError(err, "rename configuration")
}

// RunOutcome is what the tuning reads of a recorded run.
type RunOutcome struct {
	ConfigID   int64
	Status     string
	CPUSeconds *float64
	Effort     int64
	EffortUnit string
}

// RunOutcomes reads the recorded runs of configs on one puzzle with one
// seed and budget: a run's identity, whichever experiment recorded it.
func RunOutcomes(ctx context.Context, x sqlx.ExtContext, puzzleID, seed int64, b Budget, configs []int64) ([]RunOutcome, error) {
	if len(configs) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In(`SELECT config_id, status, cpu_seconds, effort, effort_unit FROM run_results
		WHERE puzzle_id = ? AND seed = ? AND max_evaluations = ? AND max_generations = ? AND timeout_ms = ? AND config_id IN (?)`,
		puzzleID, seed, b.MaxEvaluations, b.MaxGenerations, b.TimeoutMS, configs)
	if err != nil {
		return nil, err
	}
	var out []RunOutcome
	rows, err := x.QueryxContext(ctx, x.Rebind(q), args...)
	if err != nil {
		return nil, dbError(err, "read tuning runs")
	}
	defer rows.Close()
	for rows.Next() {
		var o RunOutcome
		var cpu sql.NullFloat64
		if err := rows.Scan(&o.ConfigID, &o.Status, &cpu, &o.Effort, &o.EffortUnit); err != nil {
			return nil, dbError(err, "read tuning runs")
		}
		if cpu.Valid {
			o.CPUSeconds = &cpu.Float64
		}
		out = append(out, o)
	}
	return out, dbError(rows.Err(), "read tuning runs")
}

// SelectedPuzzles lists the ids of the puzzles of puzzle_catalog that
// match the predicate where, by id, at most limit of them when limit is
// positive. The predicate is evaluated read-only.
func SelectedPuzzles(ctx context.Context, d *DB, where string, limit int) ([]int64, error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	return planPuzzles(ctx, d, PlanSpec{Where: where}, 0, limit)
}

// optionalID stores 0 as NULL.
func optionalID(v int64) sql.NullInt64 { return sql.NullInt64{Int64: v, Valid: v != 0} }

// TuningRace reads the race of the tuning called name: its step rows in
// order, and its final elites' candidate numbers, best first. An unknown
// name is ENOTFOUND.
func TuningRace(ctx context.Context, x sqlx.ExtContext, name string) (steps []TuningStep, elites []int, err error) {
	var id int64
	err = x.QueryRowxContext(ctx, x.Rebind(`SELECT id FROM tunings WHERE name = ?`), name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, sudokulab.Errorf(sudokulab.ENOTFOUND, "no tuning %q", name)
	}
	if err != nil {
		return nil, nil, dbError(err, "read tuning")
	}
	rows, err := x.QueryxContext(ctx, x.Rebind(`SELECT iteration, step, candidate, puzzle_id, seed, cost, mean_rank, test, p_value, alive
		FROM tuning_steps WHERE tuning_id = ? ORDER BY iteration, step, candidate`), id)
	if err != nil {
		return nil, nil, dbError(err, "read tuning steps")
	}
	defer rows.Close()
	for rows.Next() {
		var s TuningStep
		var test sql.NullString
		var p sql.NullFloat64
		var alive int64
		if err := rows.Scan(&s.Iteration, &s.Step, &s.Candidate, &s.PuzzleID, &s.Seed, &s.Cost, &s.MeanRank, &test, &p, &alive); err != nil {
			return nil, nil, dbError(err, "read tuning steps")
		}
		s.Test, s.P, s.Alive = test.String, math.NaN(), alive == 1
		if p.Valid {
			s.P = p.Float64
		}
		steps = append(steps, s)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, dbError(err, "read tuning steps")
	}
	err = sqlx.SelectContext(ctx, x, &elites, x.Rebind(`SELECT candidate FROM tuning_candidates
		WHERE tuning_id = ? AND elite_rank IS NOT NULL ORDER BY elite_rank`), id)
	return steps, elites, dbError(err, "read tuning elites")
}
