package sudokulab

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// This file holds the records the laboratory stores. Each type mirrors one
// table of the database (see docs/schema.md) and its db tags name the
// columns. Package db reads and writes them; it converts the text columns
// that hold grids and timestamps to Grid and time.Time, so these types are
// not meant to be scanned by reflection directly.
//
// Nullable columns follow two conventions. Where the zero value cannot be a
// stored value (ids start at 1, line numbers at 1, JSON text is never
// empty) the zero value stands for NULL. Where zero is a meaningful number
// (a count, a cost, a rating) the field is a pointer and nil stands for
// NULL.

// Puzzle is one row of the puzzles table: a puzzle grid, stored once per
// box shape and text form however many collections list it.
type Puzzle struct {
	// ID is the row id, assigned by the database.
	ID int64 `db:"id"`
	// Givens is the puzzle: its shape gives the columns size, box_rows and
	// box_cols, its canonical text form (Grid.String) is the column grid, and
	// its number of filled cells is the column givens.
	Givens Grid `db:"grid"`
	// Solution is the solved grid, or the zero Grid (nil Cells) while no
	// solution is known, which the column solution stores as NULL.
	Solution Grid `db:"solution"`
	// SolutionCount is how many solutions the puzzle has: 0, 1, or 2 meaning
	// "two or more". Nil means not counted yet (NULL).
	SolutionCount *int `db:"solution_count"`
	// CountStatus says how the count went: CountCounted when SolutionCount
	// is exact, CountUndetermined when the count's budget ran out
	// (SolutionCount is then nil, and Solution kept if one was found), or
	// empty (NULL) for a puzzle never counted or counted before counts
	// had a status.
	CountStatus string `db:"count_status"`
	// CountSeconds is the wall-clock seconds the latest count took; 0
	// (NULL) when unknown.
	CountSeconds float64 `db:"count_seconds"`
	// SymmetryForm is reserved for the symmetry-canonical form of a 9x9
	// puzzle; empty (NULL) until computed.
	SymmetryForm string `db:"symmetry_form"`
	// CreatedAt is when the puzzle was first stored.
	CreatedAt time.Time `db:"created_at"`
}

// The count statuses, the column puzzles.count_status.
const (
	CountCounted      = "counted"      // solution_count is exact
	CountUndetermined = "undetermined" // the count's budget ran out
)

// HasSolution reports whether the puzzle's solution is known.
func (p *Puzzle) HasSolution() bool { return len(p.Solution.Cells) > 0 }

// Shape returns the box shape of the puzzle.
func (p *Puzzle) Shape() Shape { return p.Givens.Shape }

// Collection is one row of the collections table: a named list of puzzles,
// such as the puzzles of one paper or one import.
type Collection struct {
	// ID is the row id; Name is unique and is what people type.
	ID   int64  `db:"id"`
	Name string `db:"name"`
	// Description says where the puzzles come from, in a sentence.
	Description string `db:"description"`
	// CreatedAt is when the collection was created.
	CreatedAt time.Time `db:"created_at"`
	// Frozen is set for a collection made by sudokulab collections add:
	// imports do not add to it.
	Frozen bool `db:"frozen"`
	// Puzzles is the number of member puzzles. It is not a column: package
	// db fills it in when listing collections.
	Puzzles int `db:"puzzles"`
}

// Membership is one row of the collection_puzzles table: puzzle PuzzleID
// belongs to collection CollectionID. A puzzle may belong to many
// collections, under a different label and position in each.
type Membership struct {
	// CollectionID and PuzzleID identify the membership.
	CollectionID int64 `db:"collection_id"`
	PuzzleID     int64 `db:"puzzle_id"`
	// Position is the 1-based order inside the collection. When adding, 0
	// means "after the last one".
	Position int `db:"position"`
	// Label is the puzzle's name in the collection, such as "sato-no27", or
	// empty.
	Label string `db:"label"`
	// ImportID is the import that added the membership, or 0 (NULL) when it
	// was added by hand.
	ImportID int64 `db:"import_id"`
	// SourceLine is the 1-based line of the source file the puzzle came
	// from, or 0 (NULL) when unknown.
	SourceLine int `db:"source_line"`
	// Metadata is a JSON object of extra fields from the source, or empty
	// (NULL).
	Metadata string `db:"metadata"`
	// AddedAt is when the membership was recorded.
	AddedAt time.Time `db:"added_at"`
	// Collection is the collection's name. It is not a column of
	// collection_puzzles: package db fills it in on reads and ignores it on
	// writes.
	Collection string `db:"collection"`
}

// Import is one row of the imports table: the provenance of one run of an
// importer over one file.
type Import struct {
	// ID is the row id.
	ID int64 `db:"id"`
	// FileName is the file as given on the command line; FileSHA256 is the
	// hex SHA-256 of its bytes; Format names the parser used ("sdk", "csv",
	// ...).
	FileName   string `db:"file_name"`
	FileSHA256 string `db:"file_sha256"`
	Format     string `db:"format"`
	// CollectionID is the collection the puzzles were added to, or 0 (NULL).
	CollectionID int64 `db:"collection_id"`
	// StartedAt is when the import began; FinishedAt when it ended, or the
	// zero time (NULL) while it is running or if it was interrupted.
	StartedAt  time.Time `db:"started_at"`
	FinishedAt time.Time `db:"finished_at"`
	// PuzzlesRead counts the puzzles parsed from the file, PuzzlesNew those
	// not stored before, PuzzlesDuplicate those already stored, and
	// PuzzlesRejected the entries that were not valid puzzles.
	PuzzlesRead      int `db:"puzzles_read"`
	PuzzlesNew       int `db:"puzzles_new"`
	PuzzlesDuplicate int `db:"puzzles_duplicate"`
	PuzzlesRejected  int `db:"puzzles_rejected"`
	// Notes is free text, such as why entries were rejected.
	Notes string `db:"notes"`
}

// Rating is one row of the ratings table: the difficulty of one puzzle by
// one rater. A puzzle has at most one rating per rater; rating again
// replaces it.
type Rating struct {
	// ID is the row id; PuzzleID the puzzle rated.
	ID       int64 `db:"id"`
	PuzzleID int64 `db:"puzzle_id"`
	// Rater names the rating method ("se", "hodoku", "backtracks", ...) and
	// RaterVersion its version.
	Rater        string `db:"rater"`
	RaterVersion string `db:"rater_version"`
	// Options is the JSON object of the rater's options; empty means "{}".
	Options string `db:"options"`
	// Value is the numeric rating, nil (NULL) when the rater gives none.
	Value *float64 `db:"value"`
	// Label is the rater's verbal grade ("easy", "diabolical"), or empty
	// (NULL).
	Label string `db:"label"`
	// Details is a JSON object of further results, or empty (NULL).
	Details string `db:"details"`
	// RatedAt is when the rating was computed.
	RatedAt time.Time `db:"rated_at"`
	// ImportID is the import whose file gave the rating (its claim, kept
	// beside the lab's own), or 0 for a rating computed here.
	ImportID int64 `db:"import_id"`
}

// Config is one row of the configs table: a named solver configuration. Its
// identity is the solver together with its parameters; two names for the
// same parameters are not allowed.
type Config struct {
	// ID is the row id; Name is unique and is what people type.
	ID   int64  `db:"id"`
	Name string `db:"name"`
	// Solver names the algorithm ("sato-inoue-ga", "reseda", ...).
	Solver string `db:"solver"`
	// Params is the canonical JSON object of the solver's parameters (see
	// CanonicalParams); ParamsHash is ConfigParamsHash(Solver, Params).
	Params     string `db:"params"`
	ParamsHash string `db:"params_hash"`
	// Description says what the configuration is for.
	Description string `db:"description"`
	// Preset is true for configurations created from a paper's settings.
	Preset bool `db:"preset"`
	// CreatedAt is when the configuration was stored.
	CreatedAt time.Time `db:"created_at"`
}

// CanonicalParams returns the canonical text of a JSON object of solver
// parameters, as encoding/json writes it (the form of Params.Canonical):
// compact, object keys sorted at every level, numbers written as given. An
// empty string is the empty object. Anything but one JSON object is an
// EINVALID error. It is idempotent, so canonical text hashes the same after
// a round trip through the database.
func CanonicalParams(params string) (string, error) {
	if params == "" {
		return "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(params)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", WrapError(EINVALID, err, "parameters are not JSON")
	}
	if dec.More() {
		return "", Errorf(EINVALID, "parameters: text after the JSON object")
	}
	if _, ok := v.(map[string]any); !ok {
		return "", Errorf(EINVALID, "parameters must be a JSON object, got %s", params)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", WrapError(EINVALID, err, "parameters")
	}
	return string(b), nil
}

// ConfigParamsHash returns the identity hash of a configuration: the hex
// SHA-256 of solver, a newline, and the canonical parameters.
func ConfigParamsHash(solver, canonicalParams string) string {
	h := sha256.Sum256([]byte(solver + "\n" + canonicalParams))
	return hex.EncodeToString(h[:])
}

// Experiment is one row of the experiments table: a named group of runs.
type Experiment struct {
	// ID is the row id; Name is unique.
	ID   int64  `db:"id"`
	Name string `db:"name"`
	// Description says what the experiment measures.
	Description string `db:"description"`
	// CreatedAt is when the experiment was created.
	CreatedAt time.Time `db:"created_at"`
}

// RunStatus is how a run ended, the column runs.status.
type RunStatus string

// The run statuses. Only these values are stored.
const (
	StatusSolved   RunStatus = "solved"   // the solver reached cost 0
	StatusUnsolved RunStatus = "unsolved" // the evaluation or generation budget ran out
	StatusTimeout  RunStatus = "timeout"  // the time budget ran out
	StatusCanceled RunStatus = "canceled" // the run was interrupted
	StatusError    RunStatus = "error"    // the solver failed; see Run.Error
)

// Valid reports whether s is one of the run statuses.
func (s RunStatus) Valid() bool {
	switch s {
	case StatusSolved, StatusUnsolved, StatusTimeout, StatusCanceled, StatusError:
		return true
	}
	return false
}

// String returns the status as stored: "solved", "timeout", ...
func (s RunStatus) String() string { return string(s) }

// Run is one row of the runs table: one solver configuration applied once
// to one puzzle with one seed and one budget. Those five things are the
// run's identity: the database holds at most one run for them.
type Run struct {
	// ID is the row id; ExperimentID the experiment it belongs to, or 0
	// (NULL).
	ID           int64 `db:"id"`
	ExperimentID int64 `db:"experiment_id"`
	// PuzzleID and ConfigID say what was solved and how; Seed seeds the
	// random source.
	PuzzleID int64 `db:"puzzle_id"`
	ConfigID int64 `db:"config_id"`
	Seed     int64 `db:"seed"`
	// MaxEvaluations, MaxGenerations and TimeoutMS are the budget; 0 means
	// no limit.
	MaxEvaluations int64 `db:"max_evaluations"`
	MaxGenerations int64 `db:"max_generations"`
	TimeoutMS      int64 `db:"timeout_ms"`
	// Status is how the run ended.
	Status RunStatus `db:"status"`
	// Evaluations counts cost-function evaluations, Generations the
	// generations or iterations, Restarts the restarts of the search.
	Evaluations int64 `db:"evaluations"`
	Generations int64 `db:"generations"`
	Restarts    int64 `db:"restarts"`
	// BestCost is the lowest cost reached (0 = solved), nil (NULL) when the
	// run produced none. Cost is always lower-is-better; see Missing.Total.
	BestCost *int `db:"best_cost"`
	// FinalGrid is the best grid at the end, or the zero Grid (NULL).
	FinalGrid Grid `db:"final_grid"`
	// WallSeconds is the elapsed wall-clock time, nil (NULL) when unknown.
	WallSeconds *float64 `db:"wall_seconds"`
	// CPUSeconds is the CPU time of the thread that ran the search, nil
	// (NULL) where the platform cannot measure it and for runs recorded
	// before it was measured.
	CPUSeconds *float64 `db:"cpu_seconds"`
	// PrefilterRevisions is the work of the AC3/GAC prefilter (see
	// Result.PrefilterRevisions), nil (NULL) for a run without prefilter.
	PrefilterRevisions *int64 `db:"prefilter_revisions"`
	// Nodes and Guesses are the exact solver's search work (see
	// Result.Nodes), nil (NULL) for the stochastic solvers.
	Nodes   *int64 `db:"nodes"`
	Guesses *int64 `db:"guesses"`
	// Error is the failure message of a run with StatusError, else empty
	// (NULL).
	Error string `db:"error"`
	// CodeVersion is the sudokulab version that ran it; Host the machine.
	CodeVersion string `db:"code_version"`
	Host        string `db:"host"`
	// StartedAt and FinishedAt bound the run.
	StartedAt  time.Time `db:"started_at"`
	FinishedAt time.Time `db:"finished_at"`
}

// TrajectoryPoint is one row of the trajectory_points table: the state of a
// run at one moment, for plotting convergence.
type TrajectoryPoint struct {
	// RunID is the run; Seq the 0-based order of the point within it.
	RunID int64 `db:"run_id"`
	Seq   int   `db:"seq"`
	// Generation and Evaluations are the run's counters at this point;
	// ElapsedSeconds the time since the run started.
	Generation     int64   `db:"generation"`
	Evaluations    int64   `db:"evaluations"`
	ElapsedSeconds float64 `db:"elapsed_seconds"`
	// BestCost is the lowest cost so far; CurrentCost the cost of the
	// current solution or the population mean, nil (NULL) when not
	// recorded.
	BestCost    int      `db:"best_cost"`
	CurrentCost *float64 `db:"current_cost"`
	// Restarts is the number of restarts so far, so that a restart shows
	// as a step in this column.
	Restarts int64 `db:"restarts"`
	// Convergence is the solver's own convergence measure at this point,
	// such as RESEDA's rho; nil (NULL) for solvers that have none.
	Convergence *float64 `db:"convergence"`
}

// ParseRunStatus returns the RunStatus named s, or an EINVALID error.
func ParseRunStatus(s string) (RunStatus, error) {
	if st := RunStatus(s); st.Valid() {
		return st, nil
	}
	return "", Errorf(EINVALID, "run status %q: want solved, unsolved, timeout, canceled or error", s)
}
