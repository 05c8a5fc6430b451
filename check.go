package sudokulab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// This file holds the checks of stored records: what the commands that
// write a record (import, run, rate, configs) make sure of before they
// store it, for the records that reach the laboratory another way, such as
// the rows merge copies from another laboratory. Each Check method returns
// a plain error saying what is wrong, without naming the record: the
// caller knows its table and id.

// The bounds on the size of stored text. The commands never write more;
// merge refuses a row that holds more.
const (
	// MaxNameBytes bounds names: of collections, experiments,
	// configurations, solvers, raters and formats, and rater and code
	// versions and host names.
	MaxNameBytes = 1 << 10
	// MaxLabelBytes bounds the label of a puzzle in a collection and the
	// verbal grade of a rating. They are indexed for the puzzle table's
	// sort (collection_puzzles' label indexes, ratings(rater, label,
	// value, puzzle_id)), and PostgreSQL's B-tree entries hold at most
	// 2,704 bytes: a rater name and a label of at most 1 KiB each fit on
	// both engines, whatever the text.
	MaxLabelBytes = 1 << 10
	// MaxTextBytes bounds free text: descriptions, file names, import
	// notes, error messages, symmetry forms and trace settings.
	MaxTextBytes = 1 << 20
	// MaxJSONBytes bounds the JSON objects: parameters, options, details
	// and the metadata of a membership, which holds the extra fields of a
	// line an importer read (at most 16 MiB long).
	MaxJSONBytes = 16 << 20
)

// checkText reports text that is longer than max bytes or not UTF-8.
func checkText(what, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%s is %d bytes long, more than %d", what, len(s), max)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not UTF-8 text", what)
	}
	return nil
}

// CheckName reports a name that is empty, longer than MaxNameBytes, not
// UTF-8, or holds a control character (such as a line break).
func CheckName(what, name string) error {
	if name == "" {
		return fmt.Errorf("%s is empty", what)
	}
	if err := checkText(what, name, MaxNameBytes); err != nil {
		return err
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return fmt.Errorf("%s %q holds a control character", what, name)
		}
	}
	return nil
}

// CheckLabel reports a label (of a puzzle in a collection, or a rating's
// grade) longer than MaxLabelBytes, not UTF-8, or holding a NUL
// character.
func CheckLabel(label string) error {
	if err := checkText("label", label, MaxLabelBytes); err != nil {
		return err
	}
	if strings.ContainsRune(label, 0) {
		// PostgreSQL's text holds none, and SQLite's text functions end
		// the label there.
		return fmt.Errorf("label %.80q holds a NUL character", label)
	}
	return nil
}

// CheckJSONObject reports text that is not one JSON object of at most
// MaxJSONBytes. Empty text is allowed when optional is true (a NULL
// column).
func CheckJSONObject(what, text string, optional bool) error {
	if text == "" && optional {
		return nil
	}
	if len(text) > MaxJSONBytes {
		return fmt.Errorf("%s is %d bytes long, more than %d", what, len(text), MaxJSONBytes)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%s are not a JSON object: %w", what, err)
	}
	if v == nil {
		return fmt.Errorf("%s are not a JSON object: null", what)
	}
	if dec.More() {
		return fmt.Errorf("%s are not a JSON object: text after the object", what)
	}
	return nil
}

// checkCount reports a negative counter.
func checkCount(what string, n int64) error {
	if n < 0 {
		return fmt.Errorf("%s is %d, below 0", what, n)
	}
	return nil
}

// checkSeconds reports a duration that is negative or not finite.
func checkSeconds(what string, s float64) error {
	if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return fmt.Errorf("%s is %v, want a finite number of seconds, at least 0", what, s)
	}
	return nil
}

// Check reports what makes the puzzle one that AddPuzzle refuses: givens
// that are no grid or break the rules, a solution that does not solve
// them, a solution count other than 0, 1 or 2 (or 0 with a solution), a
// count status that does not fit the count, a negative count time or an
// oversized symmetry form.
func (p *Puzzle) Check() error {
	if err := p.Givens.Validate(); err != nil {
		return err
	}
	if p.HasSolution() {
		if err := CheckSolution(p.Givens, p.Solution); err != nil {
			return fmt.Errorf("wrong solution: %w", err)
		}
	}
	if c := p.SolutionCount; c != nil && (*c < 0 || *c > 2 || (*c == 0 && p.HasSolution())) {
		return fmt.Errorf("solution count %d: want 0, 1 or 2 (two or more), and not 0 with a solution", *c)
	}
	switch st := p.CountStatus; {
	case st == "", st == CountCounted && p.SolutionCount != nil, st == CountUndetermined && p.SolutionCount == nil:
	default:
		return fmt.Errorf("count status %q: want %q with a solution count, %q or none without one",
			st, CountCounted, CountUndetermined)
	}
	if err := checkSeconds("count time", p.CountSeconds); err != nil {
		return err
	}
	return checkText("symmetry form", p.SymmetryForm, MaxTextBytes)
}

// Check reports a collection without a valid name or with an oversized
// description.
func (c *Collection) Check() error {
	if err := CheckName("name", c.Name); err != nil {
		return err
	}
	return checkText("description", c.Description, MaxTextBytes)
}

// Check reports an experiment without a valid name or with an oversized
// description.
func (e *Experiment) Check() error {
	return (&Collection{Name: e.Name, Description: e.Description}).Check()
}

// sha256Hex matches the hex form of a SHA-256 checksum.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Check reports an import record whose checksum is not a hex SHA-256,
// whose format is no name, whose counts are negative, or whose file name
// or notes are oversized.
func (im *Import) Check() error {
	if err := checkText("file name", im.FileName, MaxTextBytes); err != nil {
		return err
	}
	if !sha256Hex.MatchString(im.FileSHA256) {
		return fmt.Errorf("file checksum %.80q is not a hex SHA-256", im.FileSHA256)
	}
	if err := CheckName("format", im.Format); err != nil {
		return err
	}
	for _, c := range []struct {
		what string
		n    int
	}{
		{"puzzles read", im.PuzzlesRead}, {"new puzzles", im.PuzzlesNew},
		{"duplicate puzzles", im.PuzzlesDuplicate}, {"rejected puzzles", im.PuzzlesRejected},
	} {
		if err := checkCount(c.what, int64(c.n)); err != nil {
			return err
		}
	}
	return checkText("notes", im.Notes, MaxTextBytes)
}

// Check reports a membership at a position below 1 or on a negative line,
// with an oversized label, or whose metadata are not a JSON object.
func (m *Membership) Check() error {
	if m.Position < 1 {
		return fmt.Errorf("position %d, want at least 1", m.Position)
	}
	if err := checkCount("source line", int64(m.SourceLine)); err != nil {
		return err
	}
	if err := CheckLabel(m.Label); err != nil {
		return err
	}
	return CheckJSONObject("metadata", m.Metadata, true)
}

// Check reports a configuration that run would not use: a name or solver
// name that is no name, parameters that are not canonical JSON (as
// CanonicalParams writes them), a params_hash other than
// ConfigParamsHash, or an oversized description. With info, the
// description of the configuration's solver, the parameters must also be
// ones the solver declares, with values in range (SolverInfo.ParseParams).
func (c *Config) Check(info *SolverInfo) error {
	if err := CheckName("name", c.Name); err != nil {
		return err
	}
	if err := CheckName("solver", c.Solver); err != nil {
		return err
	}
	if err := CheckJSONObject("parameters", c.Params, false); err != nil {
		return err
	}
	canonical, err := CanonicalParams(c.Params)
	if err != nil {
		return err
	}
	if canonical != c.Params {
		return fmt.Errorf("parameters %.200s are not in canonical form (%.200s)", c.Params, canonical)
	}
	if want := ConfigParamsHash(c.Solver, c.Params); c.ParamsHash != want {
		return fmt.Errorf("params_hash %.80q is not the hash of its solver and parameters (%s)", c.ParamsHash, want)
	}
	if info != nil {
		if _, err := info.ParseParams(c.Params); err != nil {
			return err
		}
	}
	return checkText("description", c.Description, MaxTextBytes)
}

// Check reports a rating that rate would not store: a rater that is no
// name, an oversized version, options or details that are not a JSON
// object, a value that is not a finite number, or an oversized label.
func (r *Rating) Check() error {
	if err := CheckName("rater", r.Rater); err != nil {
		return err
	}
	if err := checkText("rater version", r.RaterVersion, MaxNameBytes); err != nil {
		return err
	}
	if err := CheckJSONObject("options", r.Options, true); err != nil {
		return err
	}
	if v := r.Value; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
		return fmt.Errorf("value %v is not a finite number", *v)
	}
	if err := CheckLabel(r.Label); err != nil {
		return err
	}
	return CheckJSONObject("details", r.Details, true)
}

// CheckFinalGrid reports why final cannot be the grid a run on puzzle
// ended with: another shape, a symbol out of range, a given changed, or,
// for a solved run, no solution of the puzzle.
func CheckFinalGrid(puzzle, final Grid, solved bool) error {
	if err := checkGridOf(puzzle, final); err != nil {
		return err
	}
	for i, v := range puzzle.Cells {
		if v != 0 && final.Cells[i] != v {
			return fmt.Errorf("final grid changes the given at %s", puzzle.Geometry().CellName(i))
		}
	}
	if solved {
		if err := CheckSolution(puzzle, final); err != nil {
			return fmt.Errorf("solved, but the final grid is no solution: %w", err)
		}
	}
	return nil
}

// checkGridOf reports a final grid of another shape than puzzle, or with
// a symbol out of range.
func checkGridOf(puzzle, final Grid) error {
	if final.Shape != puzzle.Shape {
		return fmt.Errorf("final grid is %s, the puzzle %s", final.Shape, puzzle.Shape)
	}
	if len(final.Cells) != len(puzzle.Cells) {
		return fmt.Errorf("final grid has %d cells, want %d", len(final.Cells), len(puzzle.Cells))
	}
	for i, v := range final.Cells {
		if int(v) > puzzle.N() {
			return fmt.Errorf("final grid: %s holds %d, above %d", puzzle.Geometry().CellName(i), v, puzzle.N())
		}
	}
	return nil
}

// Check reports a run that run would not record on puzzle (the givens of
// its puzzle): an unknown status, a negative budget, counter, cost or
// time, a final grid that is not one of puzzle (see CheckFinalGrid; of a
// run that ended in an error, only its shape and symbols are checked,
// since run records what the failing solver returned), a solved run
// without its solution or with a cost above 0, or oversized text.
func (r *Run) Check(puzzle Grid) error {
	if !r.Status.Valid() {
		return fmt.Errorf("status %.80q: want solved, unsolved, timeout, canceled or error", string(r.Status))
	}
	for _, c := range []struct {
		what string
		n    int64
	}{
		{"max evaluations", r.MaxEvaluations}, {"max generations", r.MaxGenerations}, {"timeout", r.TimeoutMS},
		{"evaluations", r.Evaluations}, {"generations", r.Generations}, {"restarts", r.Restarts},
	} {
		if err := checkCount(c.what, c.n); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		what string
		n    *int64
	}{{"prefilter revisions", r.PrefilterRevisions}, {"nodes", r.Nodes}, {"guesses", r.Guesses}} {
		if c.n != nil {
			if err := checkCount(c.what, *c.n); err != nil {
				return err
			}
		}
	}
	if r.BestCost != nil {
		if err := checkCount("best cost", int64(*r.BestCost)); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		what string
		s    *float64
	}{{"wall time", r.WallSeconds}, {"CPU time", r.CPUSeconds}} {
		if c.s != nil {
			if err := checkSeconds(c.what, *c.s); err != nil {
				return err
			}
		}
	}
	solved := r.Status == StatusSolved
	switch {
	case len(r.FinalGrid.Cells) > 0 && r.Status == StatusError:
		// What a failing solver returned, kept as it was (a changed
		// given may be why the run failed).
		if err := checkGridOf(puzzle, r.FinalGrid); err != nil {
			return err
		}
	case len(r.FinalGrid.Cells) > 0:
		if err := CheckFinalGrid(puzzle, r.FinalGrid, solved); err != nil {
			return err
		}
	case solved:
		return errors.New("solved, but without a final grid")
	}
	if solved && r.BestCost != nil && *r.BestCost != 0 {
		return fmt.Errorf("solved, but the best cost is %d, not 0", *r.BestCost)
	}
	if err := checkText("error", r.Error, MaxTextBytes); err != nil {
		return err
	}
	if err := checkText("code version", r.CodeVersion, MaxNameBytes); err != nil {
		return err
	}
	return checkText("host", r.Host, MaxNameBytes)
}

// Check reports a trajectory point with a negative order, counter, time or
// cost, or a cost or convergence that is not a finite number.
func (p *TrajectoryPoint) Check() error {
	for _, c := range []struct {
		what string
		n    int64
	}{
		{"seq", int64(p.Seq)}, {"generation", p.Generation}, {"evaluations", p.Evaluations},
		{"best cost", int64(p.BestCost)}, {"restarts", p.Restarts},
	} {
		if err := checkCount(c.what, c.n); err != nil {
			return err
		}
	}
	if err := checkSeconds("elapsed time", p.ElapsedSeconds); err != nil {
		return err
	}
	for _, c := range []struct {
		what string
		v    *float64
	}{{"current cost", p.CurrentCost}, {"convergence", p.Convergence}} {
		if c.v != nil && (math.IsNaN(*c.v) || math.IsInf(*c.v, 0)) {
			return fmt.Errorf("%s %v is not a finite number", c.what, *c.v)
		}
	}
	return nil
}
