package db

// The checks Merge makes of its source before it writes anything: every
// row that would be copied is read once and checked as the command that
// writes such rows would check it (sudokulab's Check methods), so that a
// source with a broken row is refused whole, or merged without it.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// MergeInvalid is one source row that fails the checks.
type MergeInvalid struct {
	// Table is the source table; Row names the row there: its id, or
	// "collection C, puzzle P" for collection_puzzles. Reason says what
	// is wrong.
	Table, Row, Reason string
}

func (v MergeInvalid) String() string { return v.Table + " " + v.Row + ": " + v.Reason }

// badKey names a source row: its table and id, for collection_puzzles
// the collection and puzzle ids, for puzzle_tags the puzzle id and tag.
type badKey struct {
	table string
	a, b  int64
	s     string
}

// mergeInvalidShown is the number of invalid rows the error of a refused
// source names.
const mergeInvalidShown = 5

// check reads the source once and records the rows that fail the checks
// in m.bad and the report. A source with invalid rows is an EINVALID
// error unless SkipInvalid is set.
func (m *merger) check(ctx context.Context) error {
	m.bad = map[badKey]string{}
	if err := m.checkTypes(ctx); err != nil {
		return err
	}
	steps := []func(context.Context) error{
		func(ctx context.Context) error { return m.checkNamed(ctx, "collections", collectionsQuery) },
		m.checkImports, m.checkPuzzles, m.checkMemberships, m.checkConfigs,
		func(ctx context.Context) error { return m.checkNamed(ctx, "experiments", experimentsQuery) },
		m.checkRatings, m.checkTags, m.checkRuns, m.checkPoints, m.checkWork,
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return fmt.Errorf("merge %s: check the source: %w", m.src.path, err)
		}
	}
	n := len(m.bad)
	if n == 0 || m.opts.SkipInvalid {
		return nil
	}
	rows := fmt.Sprintf("%d rows of the source fail", n)
	if n == 1 {
		rows = "1 row of the source fails"
	}
	return sudokulab.Errorf(sudokulab.EINVALID, "merge %s: %s the checks, so nothing was merged: %s",
		m.src.path, rows, m.firstInvalid(n))
}

// mergeTableKeys are the tables Merge reads with the columns that
// identify their rows.
var mergeTableKeys = []struct {
	table string
	key   []string
}{
	{"collections", []string{"id"}}, {"imports", []string{"id"}}, {"puzzles", []string{"id"}},
	{"collection_puzzles", []string{"collection_id", "puzzle_id"}}, {"configs", []string{"id"}},
	{"experiments", []string{"id"}}, {"ratings", []string{"id"}}, {"puzzle_tags", []string{"puzzle_id"}}, {"runs", []string{"id"}},
	{"trajectory_points", []string{"run_id", "seq"}}, {"experiment_runs", []string{"experiment_id", "run_id"}},
	{"work", []string{"id"}},
}

// checkTypes refuses a source (SQLite) whose numeric columns hold values
// of another type: such rows cannot be read, so not even SkipInvalid can
// leave them out.
func (m *merger) checkTypes(ctx context.Context) error {
	if m.src.dialect.mistyped == nil {
		return nil
	}
	n := 0
	for _, t := range mergeTableKeys {
		faults, err := m.src.dialect.mistyped(ctx, m.src, t.table, t.key)
		if err != nil {
			return fmt.Errorf("merge %s: check the source: %w", m.src.path, err)
		}
		for _, f := range faults {
			row := strings.Trim(fmt.Sprint(f.key), "[]")
			if len(f.key) == 2 {
				row = fmt.Sprintf("%s %d, %s %d", t.key[0], f.key[0], t.key[1], f.key[1])
			}
			v := MergeInvalid{Table: t.table, Row: row,
				Reason: fmt.Sprintf("%s holds %s %q, not %s", f.column, f.got, f.value, f.declared)}
			m.rep.Invalid = append(m.rep.Invalid, v)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	m.rep.Unreadable = true
	return sudokulab.Errorf(sudokulab.EINVALID, "merge %s: the source holds values of the wrong type, which cannot be read, so nothing was merged: %s",
		m.src.path, m.firstInvalid(n))
}

// firstInvalid lists the first few of the n invalid rows in the report.
func (m *merger) firstInvalid(n int) string {
	var shown []string
	for _, v := range m.rep.Invalid[:min(len(m.rep.Invalid), mergeInvalidShown)] {
		shown = append(shown, v.String())
	}
	if n > len(shown) {
		shown = append(shown, fmt.Sprintf("and %d more", n-len(shown)))
	}
	return strings.Join(shown, "; ")
}

// invalid records that the row key (named row in the report) fails the
// checks for reason err. A row found invalid twice keeps its first
// reason.
func (m *merger) invalid(key badKey, row string, err error) {
	if m.bad[key] != "" {
		return
	}
	m.bad[key] = err.Error()
	if m.opts.MaxConflicts < 0 || len(m.rep.Invalid) < m.opts.MaxConflicts {
		m.rep.Invalid = append(m.rep.Invalid, MergeInvalid{Table: key.table, Row: row, Reason: err.Error()})
	} else {
		m.rep.InvalidNotListed++
	}
}

// invalidID records that the row id of table fails the checks.
func (m *merger) invalidID(table string, id int64, err error) {
	m.invalid(badKey{table, id, 0, ""}, strconv.FormatInt(id, 10), err)
}

// checkPages reads the source in pages, as mergePages does, and checks
// each row; the progress is reported as the kind "check " and the table.
func checkPages[T, K any](ctx context.Context, m *merger, table string, read func(ctx context.Context, after K, n int) (rows []T, next K, err error), check func(T)) error {
	return sourcePages(ctx, m, "check "+table, read, func(rows []T) error {
		for _, r := range rows {
			check(r)
		}
		return nil
	})
}

func (m *merger) checkNamed(ctx context.Context, table, query string) error {
	return checkPages(ctx, m, table, m.readNamed(table, query), func(r namedRow) {
		err := (&sudokulab.Collection{Name: r.name, Description: r.description}).Check()
		if err == nil && r.frozen != 0 && r.frozen != 1 {
			err = fmt.Errorf("frozen %d: want 0 or 1", r.frozen)
		}
		if err == nil {
			err = checkStamps([2]string{"created_at", r.created})
		}
		if err != nil {
			m.invalidID(table, r.id, err)
		}
	})
}

func (m *merger) checkImports(ctx context.Context) error {
	return checkPages(ctx, m, "imports", m.readImports, func(r importRow) {
		im := sudokulab.Import{FileName: r.fileName, FileSHA256: r.sha, Format: r.format, PuzzlesRead: int(r.read),
			PuzzlesNew: int(r.added), PuzzlesDuplicate: int(r.duplicate), PuzzlesRejected: int(r.reject), Notes: r.notes}
		err := im.Check()
		if err == nil && r.records < 0 {
			err = fmt.Errorf("records done is %d, below 0", r.records)
		}
		if err == nil {
			err = checkStamps(append(nullStamp("finished_at", r.finished), [2]string{"started_at", r.started})...)
		}
		if err != nil {
			m.invalidID("imports", r.id, err)
		}
	})
}

// checkStamps reports the first of the timestamps (column name, text)
// that ParseTime cannot read, as the destination's readers would fail on
// it. A NULL column is left out of the list.
func checkStamps(stamps ...[2]string) error {
	for _, st := range stamps {
		if _, err := ParseTime(st[1]); err != nil {
			return fmt.Errorf("%s: %w", st[0], err)
		}
	}
	return nil
}

// nullStamp is the timestamp of a nullable column for checkStamps: none
// for NULL.
func nullStamp(column string, s sql.NullString) [][2]string {
	if !s.Valid {
		return nil
	}
	return [][2]string{{column, s.String}}
}

// storedGrid reads a grid column of a puzzle of shape: it must be the
// canonical text form, which is the puzzle's identity.
func storedGrid(what, text string, shape sudokulab.Shape) (sudokulab.Grid, error) {
	g, err := sudokulab.ParseShape(text, shape)
	if err != nil {
		return g, fmt.Errorf("%s %.200q: %w", what, text, err)
	}
	if g.String() != text {
		return g, fmt.Errorf("%s %.200q is not in canonical form (%s)", what, text, g.String())
	}
	return g, nil
}

func (m *merger) checkPuzzles(ctx context.Context) error {
	return checkPages(ctx, m, "puzzles", m.readPuzzles, func(r puzzleRow) {
		err := checkPuzzleRow(r)
		if err == nil {
			err = checkStamps([2]string{"created_at", r.created})
		}
		if err != nil {
			m.invalidID("puzzles", r.id, err)
		}
	})
}

// checkPuzzleRow checks a row of puzzles: its columns agree with its grid,
// and the puzzle passes sudokulab.Puzzle.Check.
func checkPuzzleRow(r puzzleRow) error {
	shape := sudokulab.Shape{BoxRows: int(r.rows), BoxCols: int(r.cols)}
	if err := shape.Validate(); err != nil {
		return err
	}
	if r.size != int64(shape.N()) {
		return fmt.Errorf("size %d, but %s boxes make %d", r.size, shape, shape.N())
	}
	p := sudokulab.Puzzle{CountStatus: r.status.String, CountSeconds: r.seconds.Float64, SymmetryForm: r.form.String}
	var err error
	if p.Givens, err = storedGrid("grid", r.grid, shape); err != nil {
		return err
	}
	if int64(p.Givens.Givens()) != r.givens {
		return fmt.Errorf("givens %d, but the grid has %d", r.givens, p.Givens.Givens())
	}
	if r.solution.Valid {
		if p.Solution, err = storedGrid("solution", r.solution.String, shape); err != nil {
			return err
		}
	}
	if r.count.Valid {
		c := int(r.count.Int64)
		if int64(c) != r.count.Int64 {
			return fmt.Errorf("solution count %d: want 0, 1 or 2", r.count.Int64)
		}
		p.SolutionCount = &c
	}
	return p.Check()
}

func (m *merger) checkMemberships(ctx context.Context) error {
	return checkPages(ctx, m, "collection_puzzles", m.readMemberships, func(r memberRow) {
		ms := sudokulab.Membership{Position: int(r.position), Label: r.label, Metadata: r.metadata.String,
			SourceLine: int(r.line.Int64)}
		err := ms.Check()
		if err == nil && (int64(ms.Position) != r.position || int64(ms.SourceLine) != r.line.Int64) {
			err = fmt.Errorf("position %d or source line %d out of range", r.position, r.line.Int64)
		}
		if err == nil {
			err = checkStamps([2]string{"added_at", r.added})
		}
		if err != nil {
			m.invalid(badKey{"collection_puzzles", r.collection, r.puzzle, ""},
				fmt.Sprintf("collection %d, puzzle %d", r.collection, r.puzzle), err)
		}
	})
}

func (m *merger) checkConfigs(ctx context.Context) error {
	return checkPages(ctx, m, "configs", m.readConfigs, func(r configRow) {
		c := sudokulab.Config{Name: r.name, Solver: r.solver, Params: r.params, ParamsHash: r.hash, Description: r.description}
		var info *sudokulab.SolverInfo
		if m.opts.Solvers != nil {
			i, err := m.opts.Solvers.Lookup(r.solver)
			if err != nil {
				m.invalidID("configs", r.id, fmt.Errorf("solver %.200q is not one this program runs", r.solver))
				return
			}
			info = &i
		}
		err := c.Check(info)
		if err == nil && r.preset != 0 && r.preset != 1 {
			err = fmt.Errorf("preset %d: want 0 or 1", r.preset)
		}
		if err == nil {
			err = checkStamps([2]string{"created_at", r.created})
		}
		if err != nil {
			m.invalidID("configs", r.id, err)
		}
	})
}

func (m *merger) checkRatings(ctx context.Context) error {
	return checkPages(ctx, m, "ratings", m.readRatings, func(r ratingRow) {
		rt := sudokulab.Rating{Rater: r.rater, RaterVersion: r.version, Options: r.options, Label: r.label.String,
			Details: r.details.String}
		if r.value.Valid {
			rt.Value = &r.value.Float64
		}
		err := rt.Check()
		if err == nil {
			err = checkStamps([2]string{"rated_at", r.rated})
		}
		if err != nil {
			m.invalidID("ratings", r.id, err)
		}
	})
}

// checkRuns checks the runs on the puzzles the source publishes (those
// Merge reads), each against its puzzle's givens.
func (m *merger) checkRuns(ctx context.Context) error {
	read := m.readRuns
	return checkPages(ctx, m, "runs", read, func(c sourceRun) {
		r := c.run
		shape := sudokulab.Shape{BoxRows: c.rows, BoxCols: c.cols}
		puzzle, err := sudokulab.ParseShape(c.grid, shape)
		if err != nil || m.bad[badKey{"puzzles", r.PuzzleID, 0, ""}] != "" {
			return // an invalid puzzle: its runs are skipped with it
		}
		if c.final.Valid {
			if r.FinalGrid, err = storedGrid("final grid", c.final.String, shape); err != nil {
				m.invalidID("runs", r.ID, err)
				return
			}
		}
		err = r.Check(puzzle)
		if err == nil {
			err = checkStamps([2]string{"started_at", c.started}, [2]string{"finished_at", c.finished})
		}
		if err != nil {
			m.invalidID("runs", r.ID, err)
		}
	})
}

// sourceRun is a run of the source as read: the run, and beside it its
// final grid and timestamps as stored (text that may be no grid or time:
// the run then holds none) and its puzzle's givens and shape.
type sourceRun struct {
	run               sudokulab.Run
	final             sql.NullString
	started, finished string
	grid              string
	rows, cols        int
}

// sourceRunCols are the columns of a sourceRun: those of scanRun, but
// for the final grid and timestamps, which come after them as text.
var sourceRunCols = strings.NewReplacer("r.final_grid", "NULL", "r.started_at", "NULL", "r.finished_at", "NULL").Replace(runCols) +
	", r.final_grid, r.started_at, r.finished_at, p.grid, p.box_rows, p.box_cols"

// readRuns reads a page of the source's runs on the puzzles they refer
// to, in id order. A final grid or timestamp the run cannot hold is left
// out of it, to be found by the checks (the merge leaves such a run out).
func (m *merger) readRuns(ctx context.Context, after int64, n int) ([]sourceRun, int64, error) {
	var out []sourceRun
	err := selectAll(ctx, m.src, "read runs", m.src.Rebind(`
		SELECT `+sourceRunCols+` FROM runs r JOIN puzzles p ON p.id = r.puzzle_id
		WHERE r.id > ? ORDER BY r.id LIMIT ?`), []any{after, n}, func(rs *sqlx.Rows) error {
		var c sourceRun
		r, err := scanRun(extraCols{rs, []any{&c.final, &c.started, &c.finished, &c.grid, &c.rows, &c.cols}})
		if err != nil {
			return err
		}
		shape := sudokulab.Shape{BoxRows: c.rows, BoxCols: c.cols}
		if c.final.Valid {
			r.FinalGrid, _ = sudokulab.ParseShape(c.final.String, shape)
		}
		r.StartedAt, _ = ParseTime(c.started)
		r.FinishedAt, _ = ParseTime(c.finished)
		c.run = r
		out = append(out, c)
		return nil
	})
	if len(out) == 0 {
		return nil, after, err
	}
	return out, out[len(out)-1].run.ID, err
}

// extraCols scans the columns after those a scan function reads into
// extra.
type extraCols struct {
	rs    rowScanner
	extra []any
}

func (e extraCols) Scan(dest ...any) error { return e.rs.Scan(append(dest, e.extra...)...) }

// pointCursor is the position of a trajectory point: run and seq.
type pointCursor struct{ run, seq int64 }

// checkPoints checks every trajectory point; a run with an invalid point
// is invalid (a run's trajectory is merged whole).
func (m *merger) checkPoints(ctx context.Context) error {
	read := func(ctx context.Context, after pointCursor, n int) ([]sudokulab.TrajectoryPoint, pointCursor, error) {
		var out []sudokulab.TrajectoryPoint
		err := selectAll(ctx, m.src, "read trajectories", m.src.Rebind(`
			SELECT run_id, seq, generation, evaluations, elapsed_seconds, best_cost, current_cost, restarts, convergence
			FROM trajectory_points WHERE (run_id, seq) > (?, ?) ORDER BY run_id, seq LIMIT ?`),
			[]any{after.run, after.seq, n}, func(rs *sqlx.Rows) error {
				var p sudokulab.TrajectoryPoint
				err := rs.Scan(&p.RunID, &p.Seq, &p.Generation, &p.Evaluations, &p.ElapsedSeconds, &p.BestCost,
					&p.CurrentCost, &p.Restarts, &p.Convergence)
				out = append(out, p)
				return err
			})
		if len(out) == 0 {
			return nil, after, err
		}
		last := out[len(out)-1]
		return out, pointCursor{last.RunID, int64(last.Seq)}, err
	}
	return checkPages(ctx, m, "trajectory_points", read, func(p sudokulab.TrajectoryPoint) {
		if err := p.Check(); err != nil {
			m.invalidID("runs", p.RunID, fmt.Errorf("trajectory point %d: %w", p.Seq, err))
		}
	})
}

func (m *merger) checkWork(ctx context.Context) error {
	return checkPages(ctx, m, "work", m.readWork, func(r workRow) {
		var err error
		switch {
		case r.state != "pending" && r.state != "running" && r.state != "done":
			err = fmt.Errorf("state %.80q: want pending, running or done", r.state)
		case r.maxEvals < 0 || r.maxGens < 0 || r.timeout < 0:
			err = fmt.Errorf("budget %d evaluations, %d generations, %d ms: want none below 0", r.maxEvals, r.maxGens, r.timeout)
		case r.attempts < 0:
			err = fmt.Errorf("attempts %d, below 0", r.attempts)
		case len(r.trace) > sudokulab.MaxTextBytes:
			err = fmt.Errorf("trace settings are %d bytes long, more than %d", len(r.trace), sudokulab.MaxTextBytes)
		default:
			err = checkStamps(append(nullStamp("finished_at", r.finished), [2]string{"enqueued_at", r.enqueued})...)
		}
		if err != nil {
			m.invalidID("work", r.id, err)
		}
	})
}
