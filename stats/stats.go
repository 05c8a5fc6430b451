// Package stats holds the statistics sudokulab compares solver
// configurations with: Fisher's exact test on success counts, the log-rank
// test on right-censored times to solve, the Mann-Whitney U test on the
// times of solved runs, the expected running time (ERT) with percentile
// bootstrap confidence intervals, and Holm's correction for multiple
// tests.
//
// The package is pure computation: no database, no I/O, and its only
// randomness is the *rand.Rand a caller passes in. Each test follows the
// conventions of R's implementation (fisher.test, survival::survdiff,
// wilcox.test, p.adjust), so that its numbers can be checked against R;
// the tests of this package do so with published reference values.
//
// A p-value that cannot be computed (an empty sample, no events, no
// variance) is NaN, never a made-up 1.
package stats

import (
	"math"
)

// normalUpper returns P(Z > z) for a standard normal Z.
func normalUpper(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

// normalLower returns P(Z <= z) for a standard normal Z.
func normalLower(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// ChiSquare1Upper returns P(X > x) for X chi-square distributed with one
// degree of freedom: the p-value of a 1-df chi-square statistic. It is NaN
// for a NaN or negative x.
func ChiSquare1Upper(x float64) float64 {
	if math.IsNaN(x) || x < 0 {
		return math.NaN()
	}
	return math.Erfc(math.Sqrt(x / 2))
}
