// Package stats holds the statistics sudokulab compares solver
// configurations with: Fisher's exact test on success counts, the log-rank
// test on right-censored times to solve, the Mann-Whitney U test on the
// times of solved runs, the expected running time (ERT) with percentile
// bootstrap confidence intervals, and Holm's correction for multiple
// tests; and for many configurations over many puzzles (Demšar 2006):
// Friedman's rank test with mean ranks, Nemenyi's critical difference
// (the studentized range distribution) and Wilcoxon's signed-rank test of
// paired samples.
//
// The package is pure computation: no database, no I/O, and its only
// randomness is the *rand.Rand a caller passes in. Each test follows the
// conventions of R's implementation (fisher.test, survival::survdiff,
// wilcox.test, p.adjust, friedman.test, ptukey), so that its numbers can be checked against R;
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

// ChiSquareUpper returns P(X > x) for X chi-square distributed with df
// degrees of freedom (R's pchisq(x, df, lower.tail = FALSE)): the p-value
// of a chi-square statistic. It is NaN for a NaN or negative x or a df
// below 1.
func ChiSquareUpper(x float64, df int) float64 {
	if math.IsNaN(x) || x < 0 || df < 1 {
		return math.NaN()
	}
	return gammaUpper(float64(df)/2, x/2)
}

// gammaUpper returns the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x)/Γ(a) for a > 0, x >= 0: by its power series where that
// converges fast (x < a+1), else by its continued fraction (modified Lentz),
// as in Numerical Recipes 6.2.
func gammaUpper(a, x float64) float64 {
	if x == 0 {
		return 1
	}
	if math.IsInf(x, 1) {
		return 0
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	const eps, tiny = 1e-15, 1e-300
	if x < a+1 {
		// P(a, x) = e^-x x^a / Γ(a) Σ x^n / (a (a+1) ... (a+n)).
		term := 1 / a
		sum := term
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*eps {
				break
			}
		}
		return 1 - front*sum
	}
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = 1 / awayFromZero(an*d+b)
		c = awayFromZero(b + an/c)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return front * h
}

// awayFromZero returns x, or 1e-300 when x is nearer zero than that: the
// modified Lentz method's guard against dividing by zero in a continued
// fraction.
func awayFromZero(x float64) float64 {
	const tiny = 1e-300
	if math.Abs(x) < tiny {
		return tiny
	}
	return x
}
