package stats

import "math"

// TQuantile returns the p-quantile of Student's t distribution with df
// degrees of freedom (R's qt(p, df)), found by bisection on the tail
// probability P(|T| > t) = P(F > t^2) for F with 1 and df degrees of
// freedom. It is NaN for p outside (0, 1) or df not above 0.
func TQuantile(p, df float64) float64 {
	if !(p > 0 && p < 1) || !(df > 0) {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	// Two-sided tail probability of the quantile's absolute value.
	tail := 2 * math.Min(p, 1-p)
	lo, hi := 0.0, 1.0
	for FUpper(hi*hi, 1, df) > tail {
		hi *= 2
		if math.IsInf(hi, 1) {
			return math.NaN()
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if FUpper(mid*mid, 1, df) > tail {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-14*hi {
			break
		}
	}
	t := (lo + hi) / 2
	if p < 0.5 {
		return -t
	}
	return t
}
