// Package report writes the report of an experiment as one self-contained
// HTML page: a summary of the experiment, success rates with Wilson
// intervals and expected running times (ERT) with bootstrap intervals per
// configuration and per puzzle (or collection), the pairwise comparisons
// of package compare, the pictures of package plots inline as SVG, every
// configuration with its parameters and the paper they come from, and the
// provenance of the runs (code versions, hosts, dates, schema version).
//
// The page needs nothing but itself: the style sheet and the pictures are
// inline, it links to no other address and runs no script, so it opens
// offline, in a mail attachment or from an archive years later.
//
// Build reads a Report from a database (read-only); DrawFigures and
// DrawRankingFigures draw its pictures with plot's own code (package
// figures); Render writes the page.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"

	"sudokulab/compare"
	"sudokulab/stats"
)

// Report is everything the page shows. Build fills it in from a
// database; every field can also be set by hand (the tests do).
type Report struct {
	// Title heads the page; Build makes it "Experiment NAME".
	Title      string
	Experiment Experiment
	Summary    Summary
	// Ranking, when the experiment holds more than two configurations,
	// opens the page; nil otherwise.
	Ranking *Ranking
	// Tunings are the tunings raced in the experiment (sudokulab tune
	// --experiment NAME), shown first; none for another experiment.
	Tunings []Tuning
	// Unit names the effort unit of the ERT columns when every
	// configuration counts in the same one ("evaluations", "nodes"), else
	// it is empty and each row says its own.
	Unit string
	// TimeUnit names the time of the time columns: "CPU seconds" when
	// every run has its CPU time recorded, else "wall-clock seconds".
	TimeUnit string
	// Level is the confidence level of every interval (0.95).
	Level float64
	// Resamples is the number of bootstrap resamples of each ERT interval.
	Resamples int
	// Configs has one row per configuration: its success and ERT over
	// all its runs, best first.
	Configs []SuccessRow
	// GroupBy is "puzzle" or "collection": what Groups are.
	GroupBy string
	// GroupNote says how runs were counted in the groups, if it needs
	// saying (a puzzle in two collections counts in both).
	GroupNote string
	// Groups has one row per group and configuration.
	Groups []SuccessRow
	// Comparisons are the pairwise comparisons.
	Comparisons Comparisons
	// Figures are the pictures, in order.
	Figures []Figure
	// Settings describes each configuration: its solver, paper and
	// parameters.
	Settings   []Config
	Provenance Provenance
	// Notes are remarks on what the report left out or could not compute.
	Notes []string
}

// Experiment is the experiment a report is about.
type Experiment struct {
	Name, Description string
	// Created is when the experiment was created, as the database gives it.
	Created string
}

// Summary counts what the experiment holds.
type Summary struct {
	Configs, Puzzles int
	// Runs counts every run of the experiment; Analysed those that ended
	// solved, unsolved or timeout, which the tables count; Solved those
	// solved. Canceled and Errors are left out of the tables.
	Runs, Analysed, Solved, Canceled, Errors int
	// Planned and Pending count the experiment's work queue: runs planned,
	// and runs not yet done (pending or running). Both are 0 for an
	// experiment without queued work.
	Planned, Pending int
	// FirstRun and LastRun are when its first run started and its last
	// ended.
	FirstRun, LastRun string
}

// Rate is a success rate with its Wilson score interval.
type Rate struct {
	Solved, Runs int
	Low, High    float64
}

// Value returns Solved/Runs, NaN for no runs.
func (r Rate) Value() float64 {
	if r.Runs == 0 {
		return nan
	}
	return float64(r.Solved) / float64(r.Runs)
}

// SuccessRow is one configuration's success and expected running time,
// over all its runs or in one group (a puzzle or a collection).
type SuccessRow struct {
	Config, Solver string
	// Group names the puzzle or collection; empty for a configuration's
	// overall row.
	Group string
	// Puzzles counts the puzzles the runs were on.
	Puzzles int
	Success Rate
	// ERT is the expected running time in Unit (the solver's effort),
	// with its bootstrap interval, resampled within each puzzle; NaN when
	// no run has its effort recorded.
	ERT  stats.Interval
	Unit string
	// Time is the expected running time in the report's TimeUnit.
	Time stats.Interval
	// MedianEffort and MedianTime are the medians of the solved runs.
	MedianEffort, MedianTime float64
}

// Comparisons are the pairwise comparisons of configurations.
type Comparisons struct {
	// Mode says which pairs are compared: "every pair" of a few
	// configurations, or each "against the best" when there are many.
	Mode string
	// Best names the best configuration in mode "against the best".
	Best string
	// Why says in a sentence how the pairs were chosen.
	Why   string
	Pairs []Pair
}

// Pair is the comparison of two configurations.
type Pair struct {
	A, B string
	// Note says why the times are in Result.Unit, when it is not the
	// solvers' effort.
	Note   string
	Result *compare.Result
	// Err says why the pair could not be compared.
	Err string
}

// Figure is one picture of the page.
type Figure struct {
	// ID is the fragment the contents link to ("figure-ecdf").
	ID      string
	Title   string
	Caption string
	// SVG is the picture as an inline <svg> element (InlineSVG).
	SVG template.HTML
	// Err, when not empty, says why the picture was not drawn.
	Err string
}

// Config is one configuration as the page describes it.
type Config struct {
	Name, Solver, Description string
	// Preset is true for a configuration of a paper's published settings.
	Preset bool
	// Summary, Paper and Counting come from the solver's registration:
	// what it is, where it was published, and what it counts as an
	// evaluation. Empty when this sudokulab does not know the solver.
	Summary, Paper, Counting string
	Params                   []Param
	// Plan says how its runs in the experiment were made.
	Plan Plan
}

// Param is one parameter of a configuration.
type Param struct {
	Name, Value string
	// Default is the paper's setting, Range the values allowed, Section
	// where the paper defines it; Doc says what it does.
	Default, Range, Section, Doc string
	// Changed is true when Value is not the default.
	Changed bool
}

// Provenance says where the runs come from.
type Provenance struct {
	// Database names the database (a file, or a URL without password);
	// Engine is "SQLite" or "PostgreSQL"; SchemaVersion its migration.
	Database, Engine string
	SchemaVersion    int64
	// CodeVersions and Hosts count the runs per sudokulab version and per
	// machine.
	CodeVersions, Hosts []Count
	FirstRun, LastRun   string
	Runs                int
	// Generated is when the report was made, Generator by what.
	Generated time.Time
	Generator string
}

// Count is how many runs share a value, and when they ran.
type Count struct {
	Value             string
	Runs              int
	FirstRun, LastRun string
}

//go:embed report.html.tmpl
var pageTemplate string

//go:embed report.css
var pageCSS string

var page = template.Must(template.New("report").Funcs(funcs).Parse(pageTemplate))

// Render writes r as one self-contained HTML page to w.
func Render(w io.Writer, r *Report) error {
	var buf bytes.Buffer
	if err := page.Execute(&buf, struct {
		*Report
		CSS template.CSS
	}{r, template.CSS(pageCSS)}); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
