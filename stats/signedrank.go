package stats

import (
	"math"
	"sync"
)

// SignedRankResult is the outcome of Wilcoxon's signed-rank test of paired
// samples.
type SignedRankResult struct {
	// V is the sum of the ranks of |x_i - y_i| over the pairs with x_i >
	// y_i (R's V), pairs with no difference left out.
	V float64
	// N is the number of pairs with a difference, the pairs ranked.
	N int
	// P is the p-value for the alternative asked for.
	P float64
	// Exact says whether P comes from the exact distribution of V (fewer
	// than ExactLimit pairs, no tied differences and no zero difference)
	// rather than the normal approximation.
	Exact bool
}

// SignedRank runs Wilcoxon's signed-rank test of the pairs (x_i, y_i), as
// R's wilcox.test(x, y, paired = TRUE, alternative, exact = NULL,
// correct = TRUE) does: pairs with a NaN are left out, zero differences
// are dropped (R's default zero.method "Wilcoxon"), the absolute
// differences ranked with mid-ranks; the p-value is exact when fewer than
// ExactLimit pairs remain and there were neither ties nor zeros, else from
// the normal approximation with the variance corrected for ties and a
// continuity correction of 1/2. Samples of different lengths, no pair with
// a difference, or no variance give a NaN p-value.
func SignedRank(x, y []float64, alt Alternative) SignedRankResult {
	if len(x) != len(y) {
		return SignedRankResult{V: math.NaN(), P: math.NaN()}
	}
	var d, abs []float64
	zeros := false
	for i := range x {
		v := x[i] - y[i]
		switch {
		case math.IsNaN(v):
		case v == 0:
			zeros = true
		default:
			d = append(d, v)
			abs = append(abs, math.Abs(v))
		}
	}
	n := len(d)
	res := SignedRankResult{N: n, V: math.NaN(), P: math.NaN()}
	if n == 0 {
		return res
	}
	ranks, ties := rank(abs)
	res.V = 0
	for i, r := range ranks {
		if d[i] > 0 {
			res.V += r
		}
	}
	if n < ExactLimit && len(ties) == 0 && !zeros {
		res.Exact = true
		res.P = exactVPValue(res.V, n, alt)
		return res
	}
	nf := float64(n)
	var tieSum float64
	for _, t := range ties {
		tieSum += t*t*t - t
	}
	sigma := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - tieSum/48)
	if sigma == 0 {
		return res
	}
	res.P = normalPValue(res.V-nf*(nf+1)/4, sigma, alt, true)
	return res
}

// exactVPValue returns the p-value of V = v for n pairs from the exact
// null distribution of V, as R's psignrank gives it.
func exactVPValue(v float64, n int, alt Alternative) float64 {
	return exactPValue(cachedVFrequencies(n), v, float64(n*(n+1))/4, alt)
}

// vCache keeps the distributions of V computed so far, by n: a post-hoc
// comparison of many configurations asks for the same n again and again.
var vCache struct {
	sync.Mutex
	m map[int][]float64
}

// cachedVFrequencies returns, for k = 0 .. n(n+1)/2, the number of the 2^n
// subsets of the ranks 1..n whose sum is k (the signs that give V = k).
func cachedVFrequencies(n int) []float64 {
	vCache.Lock()
	defer vCache.Unlock()
	if f, ok := vCache.m[n]; ok {
		return f
	}
	if vCache.m == nil {
		vCache.m = map[int][]float64{}
	}
	f := make([]float64, n*(n+1)/2+1)
	f[0] = 1
	top := 0
	for r := 1; r <= n; r++ {
		top += r
		for s := top; s >= r; s-- {
			f[s] += f[s-r]
		}
	}
	vCache.m[n] = f
	return f
}
