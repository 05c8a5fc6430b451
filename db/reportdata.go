package db

import (
	"context"
	"fmt"
)

// The rows an experiment's report reads (package report). Every function
// reads through ReadQuery, so a report changes nothing, and names the
// experiment's runs as RunSelection does.

// ExperimentHead is an experiment's own row: what heads its report.
type ExperimentHead struct {
	Name, Description, Created string
}

// ExperimentHead returns the row of the experiment called name, and
// false when there is none.
func (d *DB) ExperimentHead(ctx context.Context, name string) (ExperimentHead, bool, error) {
	t, err := d.ReadQuery(ctx, `SELECT name, description, created_at FROM experiments WHERE name = ?`, name)
	if err != nil || len(t.Rows) == 0 {
		return ExperimentHead{}, false, err
	}
	row := t.Rows[0]
	return ExperimentHead{Name: text(row[0]), Description: text(row[1]), Created: text(row[2])}, true, nil
}

// ExperimentRun is one run of an experiment as its report reads it,
// whatever its status.
type ExperimentRun struct {
	ID, Puzzle     int64
	Config, Solver string
	Status         string
	Solved         bool
	// Effort is in EffortUnit; Wall and CPU are seconds. Each is NaN when
	// not recorded.
	Effort, Wall, CPU float64
	EffortUnit        string
	// Seed, MaxEvaluations, MaxGenerations and TimeoutMS are the rest of
	// the run's identity.
	Seed, MaxEvaluations, MaxGenerations, TimeoutMS int64
	CodeVersion                                     string
}

// ExperimentRuns returns every run of the experiment called name, in no
// particular order.
func (d *DB) ExperimentRuns(ctx context.Context, name string) ([]ExperimentRun, error) {
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.solver, r.puzzle_id, r.status, r.solved, r.effort, r.effort_unit, r.wall_seconds, r.cpu_seconds, r.id,
		       r.seed, r.max_evaluations, r.max_generations, r.timeout_ms, r.code_version
		FROM run_results r
		WHERE `+cond, args...)
	if err != nil {
		return nil, err
	}
	runs := make([]ExperimentRun, len(t.Rows))
	for i, row := range t.Rows {
		runs[i] = ExperimentRun{Config: text(row[0]), Solver: text(row[1]), Puzzle: wholeNumber(row[2]), Status: text(row[3]),
			Solved: wholeNumber(row[4]) == 1, Effort: Number(row[5]), EffortUnit: text(row[6]), Wall: Number(row[7]), CPU: Number(row[8]),
			ID: wholeNumber(row[9]), Seed: wholeNumber(row[10]), MaxEvaluations: wholeNumber(row[11]), MaxGenerations: wholeNumber(row[12]),
			TimeoutMS: wholeNumber(row[13]), CodeVersion: text(row[14])}
	}
	return runs, nil
}

// ExperimentWork returns the runs the experiment called name planned (its
// rows of work) and how many of them are not done.
func (d *DB) ExperimentWork(ctx context.Context, name string) (planned, pending int, err error) {
	t, err := d.ReadQuery(ctx, `
		SELECT COUNT(*), SUM(CASE WHEN w.state <> 'done' THEN 1 ELSE 0 END)
		FROM work w JOIN experiments e ON e.id = w.experiment_id WHERE e.name = ?`, name)
	if err != nil {
		return 0, 0, err
	}
	return int(wholeNumber(t.Rows[0][0])), int(wholeNumber(t.Rows[0][1])), nil
}

// ExperimentDates returns when the first run of the experiment called
// name started and the last finished, as stored ("" when it has none).
func (d *DB) ExperimentDates(ctx context.Context, name string) (first, last string, err error) {
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `SELECT MIN(r.started_at), MAX(r.finished_at) FROM run_results r WHERE `+cond, args...)
	if err != nil {
		return "", "", err
	}
	return text(t.Rows[0][0]), text(t.Rows[0][1]), nil
}

// RunPuzzle is a puzzle an experiment ran on, with the first of its
// labels in its collections ("" when it has none).
type RunPuzzle struct {
	ID           int64
	Givens, Size int64
	Label        string
}

// ExperimentPuzzles returns the puzzles the runs of the experiment called
// name were on, by id.
func (d *DB) ExperimentPuzzles(ctx context.Context, name string) ([]RunPuzzle, error) {
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `
			SELECT p.id, p.givens, p.size,
			       (SELECT MIN(pc.label) FROM puzzle_catalog pc WHERE pc.id = p.id AND pc.label <> '')
			FROM puzzles p
			WHERE p.id IN (SELECT r.puzzle_id FROM run_results r WHERE `+cond+`)
			ORDER BY p.id`, args...)
	if err != nil {
		return nil, err
	}
	out := make([]RunPuzzle, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = RunPuzzle{ID: wholeNumber(row[0]), Givens: wholeNumber(row[1]), Size: wholeNumber(row[2]), Label: text(row[3])}
	}
	return out, nil
}

// PuzzleMembership is one collection a puzzle belongs to; InNone is true
// for a puzzle in no collection (Collection is then "").
type PuzzleMembership struct {
	Puzzle     int64
	Collection string
	InNone     bool
}

// ExperimentMemberships returns the collections of the puzzles the runs
// of the experiment called name were on, by puzzle id: one row per puzzle
// and collection, and one with InNone for a puzzle in none.
func (d *DB) ExperimentMemberships(ctx context.Context, name string) ([]PuzzleMembership, error) {
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `
			SELECT DISTINCT pc.id, pc.collection
			FROM puzzle_catalog pc
			WHERE pc.id IN (SELECT r.puzzle_id FROM run_results r WHERE `+cond+`)
			ORDER BY pc.id`, args...)
	if err != nil {
		return nil, err
	}
	out := make([]PuzzleMembership, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = PuzzleMembership{Puzzle: wholeNumber(row[0]), Collection: text(row[1]), InNone: row[1] == nil}
	}
	return out, nil
}

// ConfigRow is a configuration's stored row: Params is its canonical
// JSON.
type ConfigRow struct {
	Name, Solver, Params, Description string
	Preset                            bool
}

// ExperimentConfigs returns the configurations of the runs of the
// experiment called name, in no particular order.
func (d *DB) ExperimentConfigs(ctx context.Context, name string) ([]ConfigRow, error) {
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT c.name, c.solver, c.params, c.description, c.preset
		FROM configs c
		WHERE c.id IN (SELECT r.config_id FROM run_results r WHERE `+cond+`)`, args...)
	if err != nil {
		return nil, err
	}
	out := make([]ConfigRow, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = ConfigRow{Name: text(row[0]), Solver: text(row[1]), Params: text(row[2]), Description: text(row[3]),
			Preset: wholeNumber(row[4]) == 1}
	}
	return out, nil
}

// RunOrigin is what recorded an experiment's runs: a code version or a
// host ("" when not recorded), with its runs, the first started and the
// last finished.
type RunOrigin struct {
	Value             string
	Runs              int
	FirstRun, LastRun string
}

// Kinds of RunOrigin: the run_results column grouped by.
const (
	ByCodeVersion = "code_version"
	ByHost        = "host"
)

// ExperimentOrigins returns the runs of the experiment called name
// grouped by ByCodeVersion or ByHost, the earliest first.
func (d *DB) ExperimentOrigins(ctx context.Context, name, by string) ([]RunOrigin, error) {
	if by != ByCodeVersion && by != ByHost {
		return nil, fmt.Errorf("runs grouped by %q: want %s or %s", by, ByCodeVersion, ByHost)
	}
	cond, args := RunSelection{Experiment: name}.Condition()
	t, err := d.ReadQuery(ctx, `
			SELECT r.`+by+`, COUNT(*), MIN(r.started_at), MAX(r.finished_at)
			FROM run_results r WHERE `+cond+`
			GROUP BY r.`+by+`
			ORDER BY MIN(r.started_at), r.`+by, args...)
	if err != nil {
		return nil, err
	}
	out := make([]RunOrigin, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = RunOrigin{Value: text(row[0]), Runs: int(wholeNumber(row[1])), FirstRun: text(row[2]), LastRun: text(row[3])}
	}
	return out, nil
}

// text reads a text cell of a Table; NULL is "".
func text(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}
