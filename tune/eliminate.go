package tune

import (
	"cmp"
	"math"
	"slices"

	"sudokulab/stats"
)

// Verdict is the outcome of one elimination test on the alive candidates
// of a race.
type Verdict struct {
	// Test names the test: "friedman" or, between two candidates,
	// "wilcoxon".
	Test string
	// P is the test's p-value (NaN when it could not be computed, as when
	// every block is tied).
	P float64
	// Keep says, for each column, whether the candidate survives.
	Keep []bool
	// RankSums holds each column's sum of within-block ranks (rank 1 the
	// lowest cost, ties sharing mid-ranks).
	RankSums []float64
}

// Eliminate runs irace's elimination test (§3.3, "F-race"; irace's
// aux.friedman) on costs, one row per instance and one column per alive
// candidate, lower better, at confidence level conf (0.95 in irace).
// With three or more candidates it is Friedman's test; when its p-value
// is below 1-conf, the candidates whose rank sum exceeds the best one's
// by more than Conover's (1999, pp. 369-371) critical difference
// t_{1-(1-conf)/2, (n-1)(k-1)} sqrt(2 (n A - sum R_j^2) / ((n-1)(k-1)))
// are dropped, A being the sum of the squared ranks. With two it is
// Wilcoxon's signed-rank test of the pairs, which drops the candidate
// whose median difference is the larger (exact below stats.ExactLimit
// pairs without ties, as R's wilcox.test, which irace calls, is); but a
// candidate no worse than the other on every instance drops the other at
// once, with p = 0, as irace does.
func Eliminate(costs [][]float64, conf float64) Verdict {
	k := 0
	if len(costs) > 0 {
		k = len(costs[0])
	}
	v := Verdict{P: math.NaN(), Keep: make([]bool, k), RankSums: make([]float64, k)}
	for j := range v.Keep {
		v.Keep[j] = true
	}
	n := len(costs)
	var a float64
	for _, row := range costs {
		ranks := midRanks(row)
		for j, r := range ranks {
			v.RankSums[j] += r
			a += r * r
		}
	}
	alpha := 1 - conf
	if k == 2 {
		v.Test = "wilcoxon"
		x, y, d := make([]float64, n), make([]float64, n), make([]float64, n)
		for i, row := range costs {
			x[i], y[i], d[i] = row[0], row[1], row[0]-row[1]
		}
		// One no worse than the other on every instance drops the other
		// without a test (irace's aux_friedman reports p = 0 then).
		switch {
		case n > 0 && slices.Max(d) <= 0:
			v.P, v.Keep[1] = 0, false
			return v
		case n > 0 && slices.Min(d) >= 0:
			v.P, v.Keep[0] = 0, false
			return v
		}
		v.P = stats.SignedRank(x, y, stats.TwoSided).P
		if v.P < alpha {
			if stats.Median(d) < 0 {
				v.Keep[1] = false
			} else {
				v.Keep[0] = false
			}
		}
		return v
	}
	v.Test = "friedman"
	if k < 2 || n < 2 {
		return v
	}
	v.P = stats.Friedman(costs).P
	if !(v.P < alpha) {
		return v
	}
	nf, kf := float64(n), float64(k)
	var sumR2 float64
	for _, r := range v.RankSums {
		sumR2 += r * r
	}
	df := (nf - 1) * (kf - 1)
	t := stats.TQuantile(1-alpha/2, df) * math.Sqrt(math.Max(0, 2*(nf*a-sumR2)/df))
	best := slices.Min(v.RankSums)
	for j, r := range v.RankSums {
		v.Keep[j] = r-best <= t
	}
	return v
}

// midRanks ranks a row, 1 the smallest, tied values sharing the mean of
// the ranks they span.
func midRanks(row []float64) []float64 {
	idx := make([]int, len(row))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(row[a], row[b]) })
	ranks := make([]float64, len(row))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && row[idx[j+1]] == row[idx[i]] {
			j++
		}
		r := float64(i+j)/2 + 1
		for m := i; m <= j; m++ {
			ranks[idx[m]] = r
		}
		i = j + 1
	}
	return ranks
}
