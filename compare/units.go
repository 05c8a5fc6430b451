package compare

import (
	"fmt"
	"strings"

	"sudokulab"
	"sudokulab/db"
)

// ConfigUnit is the unit a configuration counts its effort in:
// run_results.effort_unit, "evaluations", or "nodes" for a tree search
// (the exact and restart-search solvers).
type ConfigUnit = db.ConfigUnit

// Mixed names two configurations whose efforts are counted in different
// units, which do not compare: a search node is not an evaluation.
type Mixed struct {
	A, UnitA, B, UnitB string
}

// Err is the error of a command asked to compare efforts that do not
// compare: EINVALID, naming the options that measure time instead
// ("--time cpu" for compare, "--x seconds" for plot).
func (m *Mixed) Err(alternatives ...string) error {
	return sudokulab.Errorf(sudokulab.EINVALID, "%s counts its effort in %s and %s in %s, which do not compare: use %s",
		m.A, m.UnitA, m.B, m.UnitB, strings.Join(alternatives, " or "))
}

// String says what does not compare, for a note.
func (m *Mixed) String() string {
	return fmt.Sprintf("%s counts %s and %s %s, which do not compare", m.A, m.UnitA, m.B, m.UnitB)
}

// EffortUnit decides whether the efforts of configurations compare: it
// returns the unit they share ("evaluations" when none is known), or the
// first two, in the order given, that count in different units. Every
// command that puts efforts side by side (compare, plot, report) decides
// with it; where efforts do not compare they use time instead
// (TimeMeasure), or refuse with Mixed.Err.
func EffortUnit(units []ConfigUnit) (string, *Mixed) {
	var first ConfigUnit
	for _, u := range units {
		switch {
		case u.Unit == "":
		case first.Unit == "":
			first = u
		case u.Unit != first.Unit:
			return "", &Mixed{A: first.Config, UnitA: first.Unit, B: u.Config, UnitB: u.Unit}
		}
	}
	if first.Unit == "" {
		return "evaluations", nil
	}
	return first.Unit, nil
}

// TimeMeasure returns the time that compares configurations whose
// efforts do not: CPU seconds when every run has its CPU time recorded
// (allCPU), which a loaded machine does not inflate, else wall-clock
// seconds.
func TimeMeasure(allCPU bool) Measure {
	if allCPU {
		return CPU
	}
	return Seconds
}

// UnitOf names a time measure's unit as Result.Unit does: "cpu seconds"
// or "seconds"; Evaluations has no unit of its own (EffortUnit's).
func UnitOf(m Measure) string {
	switch m {
	case CPU:
		return "cpu seconds"
	case Seconds:
		return "seconds"
	}
	return ""
}
