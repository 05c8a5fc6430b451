package db

import (
	"context"
	"fmt"
	"math"
	"strings"

	"sudokulab"
)

// The reads of plot (and of report's pictures): each takes the runs a
// RunSelection chooses and runs through ReadQuery, on a read-only
// connection, since the selection holds a person's predicates. Their
// errors are ReadQuery's, for the caller to say what it was reading.

// budgetColumns are the run_results expressions of the run r's budget on
// each budget axis: what it was allowed, not what it spent.
var budgetColumns = map[string]string{
	"generations": "r.max_generations",
	"evaluations": "r.max_evaluations",
	"effort":      "CASE WHEN r.effort_unit = 'evaluations' THEN r.max_evaluations END",
	"seconds":     "r.timeout_ms / 1000.0",
	"cpu":         "r.timeout_ms / 1000.0",
}

// spentColumns are the run_results columns of what the run r spent on
// each budget axis.
var spentColumns = map[string]string{
	"generations": "r.generations",
	"evaluations": "r.evaluations",
	"effort":      "r.effort",
	"seconds":     "r.wall_seconds",
	"cpu":         "r.cpu_seconds",
}

// pointColumns are the trajectory_points columns t of each axis a
// trajectory is drawn on.
var pointColumns = map[string]string{
	"generations": "t.generation",
	"evaluations": "t.evaluations",
	"seconds":     "t.elapsed_seconds",
}

// axisColumn returns the column of axis in cols, or an EINVALID error.
func axisColumn(cols map[string]string, axis string) (string, error) {
	col, ok := cols[axis]
	if !ok {
		return "", sudokulab.Errorf(sudokulab.EINVALID, "no axis %q here", axis)
	}
	return col, nil
}

// SpentColumn names the run_results column of what a run spent on axis
// (generations, evaluations, effort, seconds or cpu), as a note about
// runs without it says.
func SpentColumn(axis string) string {
	return strings.TrimPrefix(spentColumns[axis], "r.")
}

// CheckSelectionViews runs sel.Where alone on puzzle_catalog and
// sel.RunsWhere alone on run_results, so that a column the view lacks is
// reported against the predicate that names it (in the subqueries of
// RunSelection.Condition such a column would silently be the outer
// run's). It returns the field ("where" or "runs-where") of the first
// predicate the database refuses, with its error.
func (d *DB) CheckSelectionViews(ctx context.Context, sel RunSelection) (field string, err error) {
	for _, v := range []struct{ field, pred, view string }{
		{"where", sel.Where, "puzzle_catalog"}, {"runs-where", sel.RunsWhere, "run_results"},
	} {
		if strings.TrimSpace(v.pred) == "" {
			continue
		}
		if err := checkPredicate(v.pred); err != nil {
			return v.field, err
		}
		if _, err := d.ReadQuery(ctx, "SELECT 1 FROM "+v.view+" WHERE ("+v.pred+"\n) LIMIT 1"); err != nil {
			return v.field, err
		}
	}
	return "", nil
}

// SelectionUnits is RunUnits of the runs sel selects.
func (d *DB) SelectionUnits(ctx context.Context, sel RunSelection) (units []ConfigUnit, allCPU bool, err error) {
	cond, args := sel.Condition()
	return d.RunUnits(ctx, cond, args...)
}

// RunBudgets returns the distinct budgets above 0 of the runs sel
// selects on axis (generations, evaluations, effort, seconds or cpu;
// seconds of the time limit for the last two).
func (d *DB) RunBudgets(ctx context.Context, sel RunSelection, axis string) ([]float64, error) {
	col, err := axisColumn(budgetColumns, axis)
	if err != nil {
		return nil, err
	}
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, "SELECT DISTINCT "+col+" FROM run_results r WHERE "+cond, args...)
	if err != nil {
		return nil, err
	}
	var out []float64
	for _, row := range t.Rows {
		if v := Number(row[0]); v > 0 {
			out = append(out, v)
		}
	}
	return out, nil
}

// SelectedPuzzle is a puzzle some selected runs were on.
type SelectedPuzzle struct {
	ID     int64
	Givens int
	// Label is the smallest non-empty label the puzzle has in a
	// collection the selection's Where matches, or "".
	Label string
}

// SelectedPuzzles returns the puzzles of the runs sel selects.
func (d *DB) SelectedPuzzles(ctx context.Context, sel RunSelection) ([]SelectedPuzzle, error) {
	cond, args := sel.Condition()
	labelWhere := ""
	if strings.TrimSpace(sel.Where) != "" {
		labelWhere = " AND (" + sel.Where + "\n)"
	}
	t, err := d.ReadQuery(ctx, `
		SELECT DISTINCT r.puzzle_id, r.givens,
		       (SELECT MIN(pc.label) FROM puzzle_catalog pc WHERE pc.id = r.puzzle_id AND pc.label <> ''`+labelWhere+`)
		FROM run_results r WHERE `+cond, args...)
	if err != nil {
		return nil, err
	}
	out := make([]SelectedPuzzle, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = SelectedPuzzle{ID: wholeNumber(row[0]), Givens: int(wholeNumber(row[1]))}
		if row[2] != nil {
			out[i].Label = fmt.Sprint(row[2])
		}
	}
	return out, nil
}

// TrajectoryRun is a selected run's trajectory on one axis.
type TrajectoryRun struct {
	Config       string
	ID, PuzzleID int64
	// Spent is what the run spent in all on the axis (NaN when not
	// recorded).
	Spent float64
	// X and Best are its points: the axis reading and the best cost,
	// increasing in X.
	X, Best []float64
}

// Trajectories returns the trajectory points of the runs sel selects on
// axis (generations, evaluations or seconds), by puzzle, run and point.
// A point without its reading, or out of order on the axis, is left out;
// a run without points is not returned.
func (d *DB) Trajectories(ctx context.Context, sel RunSelection, axis string) ([]TrajectoryRun, error) {
	col, err := axisColumn(pointColumns, axis)
	if err != nil {
		return nil, err
	}
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.id, r.puzzle_id, `+col+`, t.best_cost, `+spentColumns[axis]+`
		FROM run_results r JOIN trajectory_points t ON t.run_id = r.id
		WHERE `+cond+`
		ORDER BY r.puzzle_id, r.id, t.seq`, args...)
	if err != nil {
		return nil, err
	}
	var runs []TrajectoryRun
	lastID := int64(-1)
	for _, row := range t.Rows {
		if id := wholeNumber(row[1]); id != lastID {
			runs = append(runs, TrajectoryRun{Config: fmt.Sprint(row[0]), ID: id, PuzzleID: wholeNumber(row[2]), Spent: Number(row[5])})
			lastID = id
		}
		r := &runs[len(runs)-1]
		x, best := Number(row[3]), Number(row[4])
		if math.IsNaN(x) || math.IsNaN(best) {
			continue
		}
		if n := len(r.X); n > 0 && x < r.X[n-1] {
			continue // out of order: keep the trajectory increasing
		}
		r.X = append(r.X, x)
		r.Best = append(r.Best, best)
	}
	return runs, nil
}

// RunTime is what a selected run spent on one axis.
type RunTime struct {
	Config string
	Solved bool
	// Spent is NaN when the run did not record it.
	Spent float64
	// EffortUnit is the unit of the run's effort.
	EffortUnit string
}

// RunTimes returns what each run sel selects spent on axis (generations,
// evaluations, effort, seconds or cpu), by configuration and run id.
func (d *DB) RunTimes(ctx context.Context, sel RunSelection, axis string) ([]RunTime, error) {
	col, err := axisColumn(spentColumns, axis)
	if err != nil {
		return nil, err
	}
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, r.solved, `+col+`, r.effort_unit
		FROM run_results r
		WHERE `+cond+`
		ORDER BY r.config, r.id`, args...)
	if err != nil {
		return nil, err
	}
	out := make([]RunTime, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = RunTime{Config: fmt.Sprint(row[0]), Solved: wholeNumber(row[1]) == 1, Spent: Number(row[2]), EffortUnit: fmt.Sprint(row[3])}
	}
	return out, nil
}

// SuccessCount counts the selected runs of one configuration in one
// group of puzzles, and those solved.
type SuccessCount struct {
	Config, Group string
	// Level is the group's difficulty level and Value its puzzles' mean
	// rating, when the group is a rater's label; NaN otherwise.
	Level, Value float64
	Runs, Solved int
}

// SuccessTotals counts the runs sel selects, and those solved, per
// configuration (Group "").
func (d *DB) SuccessTotals(ctx context.Context, sel RunSelection) ([]SuccessCount, error) {
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, '', NULL, NULL, COUNT(*), SUM(r.solved) FROM run_results r WHERE `+cond+` GROUP BY r.config`, args...)
	return successCounts(t, err)
}

// SuccessByLabel counts the runs sel selects, and those solved, per
// configuration and label of the rater (one rating per puzzle and rater:
// each run is in one group), "(no label)" for puzzles it did not rate.
func (d *DB) SuccessByLabel(ctx context.Context, sel RunSelection, rater string) ([]SuccessCount, error) {
	cond, args := sel.Condition()
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, COALESCE(rt.label, '(no label)'), MIN(lv.level), AVG(rt.value), COUNT(*), SUM(r.solved)
		FROM run_results r
		LEFT JOIN ratings rt ON rt.puzzle_id = r.puzzle_id AND rt.rater = ?
		LEFT JOIN rating_levels lv ON lv.rater = rt.rater AND lv.label = rt.label
		WHERE `+cond+`
		GROUP BY r.config, rt.label`, append([]any{rater}, args...)...)
	return successCounts(t, err)
}

// SuccessByCollection counts the runs sel selects, and those solved, per
// configuration and collection: a run counts once in each collection its
// puzzle is in (of those sel.Where keeps), "(none)" for a puzzle in none.
func (d *DB) SuccessByCollection(ctx context.Context, sel RunSelection) ([]SuccessCount, error) {
	cond, args := sel.Condition()
	labelWhere := ""
	if strings.TrimSpace(sel.Where) != "" {
		// The rows of the view Where matches: its names resolve in w, the
		// innermost.
		labelWhere = ` AND EXISTS (SELECT 1 FROM puzzle_catalog w WHERE w.id = pc.id
				AND COALESCE(w.collection_id, -1) = COALESCE(pc.collection_id, -1) AND (` + sel.Where + "\n))"
	}
	t, err := d.ReadQuery(ctx, `
		SELECT r.config, COALESCE(pc.collection, '(none)'), NULL, NULL,
		       COUNT(DISTINCT r.id), COUNT(DISTINCT CASE WHEN r.solved = 1 THEN r.id END)
		FROM run_results r
		JOIN puzzle_catalog pc ON pc.id = r.puzzle_id`+labelWhere+`
		WHERE `+cond+`
		GROUP BY r.config, pc.collection`, args...)
	return successCounts(t, err)
}

// successCounts reads the rows of the Success queries: config, group,
// level, value, runs, solved.
func successCounts(t Table, err error) ([]SuccessCount, error) {
	if err != nil {
		return nil, err
	}
	out := make([]SuccessCount, len(t.Rows))
	for i, row := range t.Rows {
		out[i] = SuccessCount{Config: fmt.Sprint(row[0]), Group: fmt.Sprint(row[1]), Level: Number(row[2]), Value: Number(row[3]),
			Runs: int(wholeNumber(row[4])), Solved: int(wholeNumber(row[5]))}
	}
	return out, nil
}

// wholeNumber reads an integer cell of a Table; NULL is 0.
func wholeNumber(v any) int64 {
	f := Number(v)
	if math.IsNaN(f) {
		return 0
	}
	return int64(math.Round(f))
}
