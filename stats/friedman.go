package stats

import (
	"math"
)

// FriedmanResult is the outcome of Friedman's test of k treatments
// (configurations, algorithms) measured on N blocks (puzzles, data sets).
type FriedmanResult struct {
	// Blocks is N, the blocks the test used: those with a value for every
	// treatment. Treatments is k.
	Blocks, Treatments int
	// MeanRanks holds each treatment's rank averaged over the blocks, in
	// the order of the columns given; rank 1 is the smallest value in its
	// block, and tied values share the mean of the ranks they span.
	MeanRanks []float64
	// Statistic is Friedman's chi-square statistic with R's correction
	// for ties (friedman.test), on DF = k-1 degrees of freedom; P is its
	// p-value from the chi-square distribution.
	Statistic float64
	DF        int
	P         float64
	// Uncorrected is the statistic without the correction for ties, as
	// Demšar (2006, eq. in section 3.2.2) writes it from the mean ranks:
	// 12N/(k(k+1)) [sum R_j^2 - k(k+1)^2/4]. It equals Statistic when no
	// block holds a tie.
	Uncorrected float64
}

// Friedman runs Friedman's rank test on y, one row per block and one
// column per treatment, as R's friedman.test(y) does: each block's values
// are ranked (mid-ranks for ties), and the statistic is corrected for the
// ties. Rows with a NaN or of another length than the first are left out,
// as R leaves out incomplete blocks. Fewer than two treatments or no
// complete block, or every block tied throughout, give a NaN statistic
// and p-value.
func Friedman(y [][]float64) FriedmanResult {
	k := 0
	if len(y) > 0 {
		k = len(y[0])
	}
	res := FriedmanResult{Treatments: k, DF: k - 1, Statistic: math.NaN(), P: math.NaN(), Uncorrected: math.NaN()}
	res.MeanRanks = make([]float64, k)
	sums := make([]float64, k)
	var tieSum float64
	for _, row := range y {
		if len(row) != k || hasNaN(row) {
			continue
		}
		ranks, ties := rank(row)
		for j, r := range ranks {
			sums[j] += r
		}
		for _, t := range ties {
			tieSum += t*t*t - t
		}
		res.Blocks++
	}
	if res.Blocks == 0 || k < 2 {
		for j := range res.MeanRanks {
			res.MeanRanks[j] = math.NaN()
		}
		return res
	}
	n, kf := float64(res.Blocks), float64(k)
	var dev, sq float64
	for j, s := range sums {
		res.MeanRanks[j] = s / n
		d := s - n*(kf+1)/2
		dev += d * d
		sq += res.MeanRanks[j] * res.MeanRanks[j]
	}
	res.Uncorrected = 12 * n / (kf * (kf + 1)) * (sq - kf*(kf+1)*(kf+1)/4)
	den := n*kf*(kf+1) - tieSum/(kf-1)
	if den <= 0 {
		return res
	}
	res.Statistic = 12 * dev / den
	res.P = ChiSquareUpper(res.Statistic, k-1)
	return res
}

// ImanDavenport returns Iman and Davenport's (1980) F statistic from
// Friedman's chi-square statistic chi2 of k treatments over n blocks,
// F = (n-1) chi2 / (n(k-1) - chi2), and its p-value from the F
// distribution with k-1 and (k-1)(n-1) degrees of freedom. Demšar (2006)
// recommends it over the chi-square, which is conservative.
func ImanDavenport(chi2 float64, n, k int) (f, p float64) {
	nf, kf := float64(n), float64(k)
	if n < 2 || k < 2 || math.IsNaN(chi2) || chi2 >= nf*(kf-1) {
		return math.NaN(), math.NaN()
	}
	f = (nf - 1) * chi2 / (nf*(kf-1) - chi2)
	return f, FUpper(f, kf-1, (kf-1)*(nf-1))
}

// rankScale is sqrt(k(k+1)/(6n)), the standard error of a difference of
// two mean ranks under the null hypothesis (Demšar 2006, section 3.2.2).
func rankScale(k, n int) float64 {
	return math.Sqrt(float64(k*(k+1)) / (6 * float64(n)))
}

// NemenyiCD returns the critical difference of Nemenyi's test (Demšar
// 2006): two of k treatments ranked over n blocks differ at level alpha
// when their mean ranks differ by more than q_alpha sqrt(k(k+1)/(6n)),
// where q_alpha is the studentized range quantile for k means and
// infinite degrees of freedom divided by sqrt(2). It is NaN for k < 2,
// n < 1 or alpha outside (0, 1).
func NemenyiCD(k, n int, alpha float64) float64 {
	if k < 2 || n < 1 || !(alpha > 0 && alpha < 1) {
		return math.NaN()
	}
	return NemenyiQ(k, alpha) * rankScale(k, n)
}

// NemenyiQ returns q_alpha of Demšar's (2006) Table 5: the 1-alpha
// quantile of the studentized range of k means with infinite degrees of
// freedom, divided by sqrt(2).
func NemenyiQ(k int, alpha float64) float64 {
	return StudentizedRangeQuantile(1-alpha, k) / math.Sqrt2
}

// NemenyiP returns the p-value of Nemenyi's test for two of k treatments
// whose mean ranks over n blocks differ by d: the probability that the
// studentized range of k means exceeds |d| sqrt(2) / sqrt(k(k+1)/(6n)),
// as PMCMRplus's frdAllPairsNemenyiTest computes it. A pair differs at
// level alpha exactly when |d| > NemenyiCD(k, n, alpha).
func NemenyiP(d float64, k, n int) float64 {
	if k < 2 || n < 1 || math.IsNaN(d) {
		return math.NaN()
	}
	return StudentizedRangeUpper(math.Abs(d)*math.Sqrt2/rankScale(k, n), k)
}

func hasNaN(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}
