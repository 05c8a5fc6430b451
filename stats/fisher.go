package stats

import "math"

// FisherResult is the outcome of Fisher's exact test on a 2x2 table
//
//	a b
//	c d
//
// conditioned on its margins, so that the top-left cell a follows a
// hypergeometric distribution under the null hypothesis of independence.
type FisherResult struct {
	// Less is P(X <= a): the one-sided p-value for an odds ratio below 1.
	Less float64
	// Greater is P(X >= a): the one-sided p-value for an odds ratio above 1.
	Greater float64
	// TwoSided sums the probabilities of every table at most as likely as
	// the observed one (with R's relative tolerance of 1e-7), as R's
	// fisher.test does.
	TwoSided float64
}

// FisherExact runs Fisher's exact test on the 2x2 table [[a, b], [c, d]]:
// in sudokulab, a and b are the solved and unsolved runs of one
// configuration, c and d those of the other. Negative counts, and a table
// with no entries, give NaN p-values.
func FisherExact(a, b, c, d int) FisherResult {
	nan := FisherResult{math.NaN(), math.NaN(), math.NaN()}
	if a < 0 || b < 0 || c < 0 || d < 0 || a+b+c+d == 0 {
		return nan
	}
	r1, c1, n := a+b, a+c, a+b+c+d
	lo, hi := max(0, c1-(n-r1)), min(r1, c1)
	// logP(x) for the hypergeometric: C(r1, x) C(n-r1, c1-x) / C(n, c1).
	logDenom := logChoose(n, c1)
	prob := make([]float64, hi-lo+1)
	for x := lo; x <= hi; x++ {
		prob[x-lo] = math.Exp(logChoose(r1, x) + logChoose(n-r1, c1-x) - logDenom)
	}
	var res FisherResult
	obs := prob[a-lo]
	for x := lo; x <= hi; x++ {
		p := prob[x-lo]
		if x <= a {
			res.Less += p
		}
		if x >= a {
			res.Greater += p
		}
		if p <= obs*(1+1e-7) {
			res.TwoSided += p
		}
	}
	res.Less = math.Min(res.Less, 1)
	res.Greater = math.Min(res.Greater, 1)
	res.TwoSided = math.Min(res.TwoSided, 1)
	return res
}

// logChoose returns log C(n, k).
func logChoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
