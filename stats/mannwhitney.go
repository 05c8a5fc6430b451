package stats

import (
	"math"
	"slices"
	"sync"
)

// Alternative names the alternative hypothesis of a test: that the
// location of the first sample is not equal to (TwoSided), greater than
// (Greater) or less than (Less) that of the second.
type Alternative int

// The alternatives a test can take.
const (
	TwoSided Alternative = iota
	Greater
	Less
)

// ExactLimit is the sample size below which MannWhitney computes exact
// p-values (both samples smaller than it, and no ties), as R's wilcox.test
// does by default.
const ExactLimit = 50

// MannWhitneyResult is the outcome of a Mann-Whitney U (Wilcoxon rank sum)
// test of samples x and y.
type MannWhitneyResult struct {
	// U is the statistic of x: the number of pairs (x_i, y_j) with x_i >
	// y_j, ties counting one half. It is R's W. The statistic of y is
	// len(x)*len(y) - U.
	U float64
	// P is the p-value for the alternative asked for.
	P float64
	// Exact says whether P comes from the exact distribution of U (small
	// samples without ties) rather than the normal approximation.
	Exact bool
}

// MannWhitney runs the Mann-Whitney U test of x against y, as R's
// wilcox.test(x, y, alternative, exact = NULL, correct = TRUE) does: the
// exact distribution of U when both samples have fewer than ExactLimit
// values and no value is tied, else the normal approximation with the
// variance corrected for ties and a continuity correction of 1/2. An empty
// sample, or all values tied, gives a NaN p-value.
func MannWhitney(x, y []float64, alt Alternative) MannWhitneyResult {
	nx, ny := len(x), len(y)
	if nx == 0 || ny == 0 {
		return MannWhitneyResult{U: math.NaN(), P: math.NaN()}
	}
	u, ties := uStatistic(x, y)
	res := MannWhitneyResult{U: u}
	if nx < ExactLimit && ny < ExactLimit && len(ties) == 0 {
		res.Exact = true
		res.P = exactUPValue(u, nx, ny, alt)
		return res
	}
	res.P = normalUPValue(u, nx, ny, ties, alt, true)
	return res
}

// MannWhitneyNormal is MannWhitney with the p-value always from the normal
// approximation (the variance corrected for ties), with the continuity
// correction of 1/2 when correct is true: R's wilcox.test(x, y,
// alternative, exact = FALSE, correct = correct).
func MannWhitneyNormal(x, y []float64, alt Alternative, correct bool) MannWhitneyResult {
	nx, ny := len(x), len(y)
	if nx == 0 || ny == 0 {
		return MannWhitneyResult{U: math.NaN(), P: math.NaN()}
	}
	u, ties := uStatistic(x, y)
	return MannWhitneyResult{U: u, P: normalUPValue(u, nx, ny, ties, alt, correct)}
}

// uStatistic returns U of x against y (the rank sum of x less its least
// value, nx(nx+1)/2) and the sizes of the groups of tied values.
func uStatistic(x, y []float64) (u float64, ties []float64) {
	ranks, ties := rank(append(slices.Clone(x), y...))
	var rx float64
	for _, r := range ranks[:len(x)] {
		rx += r
	}
	return rx - float64(len(x)*(len(x)+1))/2, ties
}

// normalUPValue returns the p-value of U = u for samples of sizes nx and
// ny with the given groups of ties from the normal approximation.
func normalUPValue(u float64, nx, ny int, ties []float64, alt Alternative, correct bool) float64 {
	n := float64(nx + ny)
	var tieSum float64
	for _, t := range ties {
		tieSum += t*t*t - t
	}
	sigma := math.Sqrt(float64(nx*ny) / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 {
		return math.NaN()
	}
	return normalPValue(u-float64(nx*ny)/2, sigma, alt, correct)
}

// normalPValue returns the p-value of a statistic whose distance from its
// mean is z, with standard deviation sigma, from the normal approximation,
// less a continuity correction of 1/2 toward the mean when correct is
// true (R's wilcox.test with correct = TRUE).
func normalPValue(z, sigma float64, alt Alternative, correct bool) float64 {
	var correction float64
	switch {
	case !correct:
	case alt == TwoSided:
		if z > 0 {
			correction = 0.5
		} else if z < 0 {
			correction = -0.5
		}
	case alt == Greater:
		correction = 0.5
	case alt == Less:
		correction = -0.5
	}
	z = (z - correction) / sigma
	switch alt {
	case Greater:
		return normalUpper(z)
	case Less:
		return normalLower(z)
	}
	return math.Min(1, 2*math.Min(normalLower(z), normalUpper(z)))
}

// rank returns the ranks of v (1-based, ties given their mean rank) and
// the sizes of the groups of tied values (only groups of two or more).
func rank(v []float64) (ranks []float64, ties []float64) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	ranks = make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mean := float64(i+1+j) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			ranks[idx[k]] = mean
		}
		if j-i > 1 {
			ties = append(ties, float64(j-i))
		}
		i = j
	}
	return ranks, ties
}

// exactUPValue returns the p-value of U = u for samples of sizes m and n
// from the exact null distribution of U, as R's pwilcox gives it.
func exactUPValue(u float64, m, n int, alt Alternative) float64 {
	return exactPValue(cachedUFrequencies(m, n), u, float64(m*n)/2, alt)
}

// exactPValue returns the p-value of an integer statistic s from its exact
// null distribution: freq[k] counts the equally likely outcomes in which
// it is k, and center is its mean. The two-sided p-value doubles the
// tail s lies in, as R's wilcox.test does.
func exactPValue(freq []float64, s, center float64, alt Alternative) float64 {
	var total float64
	for _, f := range freq {
		total += f
	}
	// cdf(k) = P(statistic <= k).
	cdf := func(k int) float64 {
		if k < 0 {
			return 0
		}
		if k >= len(freq) {
			return 1
		}
		var s float64
		for _, f := range freq[:k+1] {
			s += f
		}
		return s / total
	}
	k := int(math.Round(s))
	switch alt {
	case Greater:
		return 1 - cdf(k-1)
	case Less:
		return cdf(k)
	}
	var p float64
	if s > center {
		p = 1 - cdf(k-1)
	} else {
		p = cdf(k)
	}
	return math.Min(1, 2*p)
}

// uCache keeps the distributions of U computed so far, by sample sizes:
// a comparison of many puzzles asks for the same few sizes again and
// again, and the largest (49 and 49) takes some 10 ms to build.
var uCache struct {
	sync.Mutex
	m map[[2]int][]float64
}

// cachedUFrequencies is uFrequencies, remembered. The distribution is
// symmetric in m and n, so one entry serves both orders.
func cachedUFrequencies(m, n int) []float64 {
	key := [2]int{min(m, n), max(m, n)}
	uCache.Lock()
	defer uCache.Unlock()
	if f, ok := uCache.m[key]; ok {
		return f
	}
	if uCache.m == nil {
		uCache.m = map[[2]int][]float64{}
	}
	f := uFrequencies(key[0], key[1])
	uCache.m[key] = f
	return f
}

// uFrequencies returns, for k = 0 .. m*n, the number of the C(m+n, m)
// orderings of m x values and n y values in which U (the pairs with the x
// above the y) equals k. It builds the orderings one value at a time from
// the smallest: an x placed when j y values are already down adds j to U.
func uFrequencies(m, n int) []float64 {
	// cur[i][k]: orderings of the first t values holding i x values with
	// U = k (and t-i y values).
	size := m*n + 1
	cur := make([][]float64, m+1)
	for i := range cur {
		cur[i] = make([]float64, size)
	}
	next := make([][]float64, m+1)
	for i := range next {
		next[i] = make([]float64, size)
	}
	cur[0][0] = 1
	for t := 1; t <= m+n; t++ {
		for i := range next {
			clear(next[i])
		}
		for i := 0; i <= m && i <= t-1; i++ {
			j := t - 1 - i // y values already placed
			if j > n {
				continue
			}
			for k, c := range cur[i] {
				if c == 0 {
					continue
				}
				if i < m { // place an x: it is above the j y values
					next[i+1][k+j] += c
				}
				if j < n { // place a y
					next[i][k] += c
				}
			}
		}
		cur, next = next, cur
	}
	return cur[m]
}
