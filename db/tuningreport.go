package db

import (
	"context"
	"math"
)

// The rows an experiment's report reads of the tunings raced in it
// (package report), through ReadQuery: a report changes nothing.

// TuningView is a tuning as its report shows it: its row, its candidates
// and every step of its race.
type TuningView struct {
	// Tuning is the row of tunings; its ExperimentID and BestConfigID are
	// set, and Budget holds the runs' budget.
	Tuning
	// BestConfig names the best elite's configuration ("" until the
	// tuning is done); StartedAt and FinishedAt are as stored ("" while
	// racing).
	BestConfig, StartedAt, FinishedAt string
	// Candidates are the tuning's candidates by number.
	Candidates []TuningCandidateView
	// Steps are its race's rows by iteration, step and candidate.
	Steps []TuningStep
}

// TuningCandidateView is a candidate of a tuning with its configuration
// as stored now (the final elites renamed NAME-elite-K).
type TuningCandidateView struct {
	Candidate, Iteration int
	// Parent is the candidate it was sampled around (0: none); EliteRank
	// its rank among the final elites (0: not one).
	Parent, EliteRank int
	// Config and Params are its configuration's name and canonical JSON
	// parameters.
	Config, Params string
}

// ExperimentTunings returns the tunings whose race ran in the experiment
// called name (tune --experiment NAME), by name, each with its candidates
// and steps; none for an experiment of no tuning.
func (d *DB) ExperimentTunings(ctx context.Context, name string) ([]TuningView, error) {
	t, err := d.ReadQuery(ctx, `
		SELECT t.id, t.name, t.experiment_id, t.solver, t.train_where, t.test_where, t.space, t.objective, t.budget_runs, t.seed,
		       t.max_evaluations, t.max_generations, t.timeout_ms, t.state, t.runs_used, t.iterations, t.stop_reason,
		       t.best_config_id, c.name, t.started_at, t.finished_at
		FROM tunings t
		JOIN experiments e ON e.id = t.experiment_id
		LEFT JOIN configs c ON c.id = t.best_config_id
		WHERE e.name = ?
		ORDER BY t.name`, name)
	if err != nil || len(t.Rows) == 0 {
		return nil, err
	}
	out := make([]TuningView, len(t.Rows))
	at := map[int64]int{}
	for i, r := range t.Rows {
		out[i] = TuningView{
			Tuning: Tuning{
				ID: wholeNumber(r[0]), Name: text(r[1]), ExperimentID: wholeNumber(r[2]), Solver: text(r[3]),
				TrainWhere: text(r[4]), TestWhere: text(r[5]), Space: text(r[6]), Objective: text(r[7]),
				BudgetRuns: wholeNumber(r[8]), Seed: wholeNumber(r[9]),
				Budget: Budget{MaxEvaluations: wholeNumber(r[10]), MaxGenerations: wholeNumber(r[11]), TimeoutMS: wholeNumber(r[12])},
				State:  text(r[13]), RunsUsed: wholeNumber(r[14]), Iterations: wholeNumber(r[15]), StopReason: text(r[16]),
				BestConfigID: wholeNumber(r[17]),
			},
			BestConfig: text(r[18]), StartedAt: text(r[19]), FinishedAt: text(r[20]),
		}
		at[out[i].ID] = i
	}
	const ofExperiment = `tuning_id IN (SELECT t.id FROM tunings t JOIN experiments e ON e.id = t.experiment_id WHERE e.name = ?)`
	t, err = d.ReadQuery(ctx, `
		SELECT tc.tuning_id, tc.candidate, tc.iteration, tc.parent, tc.elite_rank, c.name, c.params
		FROM tuning_candidates tc
		JOIN configs c ON c.id = tc.config_id
		WHERE tc.`+ofExperiment+`
		ORDER BY tc.tuning_id, tc.candidate`, name)
	if err != nil {
		return nil, err
	}
	for _, r := range t.Rows {
		v := &out[at[wholeNumber(r[0])]]
		v.Candidates = append(v.Candidates, TuningCandidateView{
			Candidate: int(wholeNumber(r[1])), Iteration: int(wholeNumber(r[2])), Parent: int(wholeNumber(r[3])),
			EliteRank: int(wholeNumber(r[4])), Config: text(r[5]), Params: text(r[6]),
		})
	}
	t, err = d.ReadQuery(ctx, `
		SELECT tuning_id, iteration, step, candidate, puzzle_id, seed, cost, mean_rank, test, p_value, alive
		FROM tuning_steps
		WHERE `+ofExperiment+`
		ORDER BY tuning_id, iteration, step, candidate`, name)
	if err != nil {
		return nil, err
	}
	for _, r := range t.Rows {
		v := &out[at[wholeNumber(r[0])]]
		s := TuningStep{
			Iteration: int(wholeNumber(r[1])), Step: int(wholeNumber(r[2])), Candidate: int(wholeNumber(r[3])),
			PuzzleID: wholeNumber(r[4]), Seed: wholeNumber(r[5]), Cost: Number(r[6]), MeanRank: Number(r[7]),
			Test: text(r[8]), P: math.NaN(), Alive: wholeNumber(r[10]) == 1,
		}
		if r[9] != nil {
			s.P = Number(r[9])
		}
		v.Steps = append(v.Steps, s)
	}
	return out, nil
}
