// Package restart holds the restart schedules the stochastic solvers share
// (nbcoin, satoinoue): how many generations without a better grid an
// attempt may last before the search starts again.
//
// A solver with parameter restart = u > 0 starts a new attempt once the
// current attempt's best cost has not improved for T(a) generations, a
// being the attempt's number (1 for the first). The schedule chooses T:
//
//   - fixed: T(a) = u, the same patience for every attempt (the solvers'
//     original restart rule, whose u was tuned on the hard puzzles);
//   - luby: T(a) = u * Luby(a), the universal sequence 1, 1, 2, 1, 1, 2, 4,
//     1, 1, 2, 1, 1, 2, 4, 8, ... of Luby, Sinclair and Zuckerman ("Optimal
//     speedup of Las Vegas algorithms", Information Processing Letters 47,
//     1993), which needs no tuning beyond its unit;
//   - geometric: T(a) = u * f^(a-1), the patience multiplied by f (2 by
//     default) at each restart, so that some attempt gets any patience
//     after a number of restarts logarithmic in it.
//
// Luby et al. state their schedule for run lengths; here it is applied to
// the patience (generations without improvement), the rule the solvers'
// fixed restarts already use, so that a comparison of schedules changes
// nothing but the thresholds.
package restart

import (
	"fmt"
	"math"

	"sudokulab"
)

// The schedules.
const (
	Fixed     = "fixed"     // the same patience for every attempt
	Luby      = "luby"      // unit times the Luby sequence
	Geometric = "geometric" // unit times factor^(attempt-1)
)

// The parameter names, shared by the solvers that restart.
const (
	ParamSchedule = "restart-schedule"
	ParamFactor   = "restart-factor"
)

// Schedule gives the patience of each attempt.
type Schedule struct {
	// Kind is Fixed, Luby or Geometric.
	Kind string
	// Unit is the patience of the first attempt in generations; 0 means
	// never restart.
	Unit int64
	// Factor is the growth of the geometric schedule (ignored by the
	// others).
	Factor float64
}

// maxPatience caps a threshold so that it never overflows.
const maxPatience = math.MaxInt64 / 4

// Patience returns T(attempt), the generations without a better grid after
// which attempt (1 for the first) ends in a restart; 0 means never.
func (s Schedule) Patience(attempt int64) int64 {
	if s.Unit <= 0 {
		return 0
	}
	attempt = max(attempt, 1)
	switch s.Kind {
	case Luby:
		return capMul(s.Unit, float64(LubyTerm(attempt)))
	case Geometric:
		f := max(s.Factor, 1)
		return capMul(s.Unit, math.Pow(f, float64(attempt-1)))
	}
	return s.Unit
}

// capMul returns u*x rounded to the nearest integer, at most maxPatience.
func capMul(u int64, x float64) int64 {
	v := float64(u) * x
	if v >= maxPatience || math.IsInf(v, 1) || math.IsNaN(v) {
		return maxPatience
	}
	return max(1, int64(math.Round(v)))
}

// LubyTerm returns the i-th term (i >= 1) of the Luby sequence 1, 1, 2, 1,
// 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...: t(i) = 2^(k-1) if i = 2^k - 1,
// else t(i - 2^(k-1) + 1) for 2^(k-1) <= i < 2^k - 1.
func LubyTerm(i int64) int64 {
	if i < 1 {
		return 1
	}
	for {
		k := int64(1)
		for (int64(1)<<k)-1 < i {
			k++
		}
		if i == (int64(1)<<k)-1 {
			return int64(1) << (k - 1)
		}
		i -= (int64(1) << (k - 1)) - 1
	}
}

// Params returns the specifications of the schedule's two parameters for a
// solver's registry entry, citing section.
func Params(section string) []sudokulab.ParamSpec {
	return []sudokulab.ParamSpec{
		{Name: ParamSchedule, Kind: sudokulab.ParamChoice, Default: Fixed, Choices: []string{Fixed, Luby, Geometric},
			Doc:     "patience of attempt a, in units of restart generations: fixed (1 each), luby (1, 1, 2, 1, 1, 2, 4, ...: Luby, Sinclair and Zuckerman 1993) or geometric (restart-factor^(a-1)); not in the paper",
			Section: section},
		{Name: ParamFactor, Kind: sudokulab.ParamFloat, Default: 2.0, Min: 1, Max: 100,
			Doc:     "growth of the patience at each restart with restart-schedule=geometric",
			Section: section},
	}
}

// FromParams reads the schedule from resolved parameters, unit being the
// value of the solver's restart parameter.
func FromParams(p sudokulab.Params, unit int64) (Schedule, error) {
	s := Schedule{Kind: p.String(ParamSchedule), Unit: unit, Factor: p.Float(ParamFactor)}
	switch s.Kind {
	case Fixed, Luby, Geometric:
	default:
		return Schedule{}, sudokulab.Errorf(sudokulab.EINVALID, "%s %q: want %s, %s or %s", ParamSchedule, s.Kind, Fixed, Luby, Geometric)
	}
	return s, nil
}

// String describes the schedule, for debugging.
func (s Schedule) String() string {
	if s.Kind == Geometric {
		return fmt.Sprintf("%s(%d x %g)", s.Kind, s.Unit, s.Factor)
	}
	return fmt.Sprintf("%s(%d)", s.Kind, s.Unit)
}
