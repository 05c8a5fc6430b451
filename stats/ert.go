package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Run is one run for the expected running time: the effort it spent
// (evaluations, nodes, seconds: any additive measure) and whether it
// solved its problem.
type Run struct {
	Effort float64
	Solved bool
}

// ERT returns the expected running time of runs: the effort of all runs,
// successful or not, divided by the number of successful runs (Hansen et
// al., COCO: "Real-parameter black-box optimization benchmarking:
// experimental setup", the aRT). It is +Inf when no run succeeded and NaN
// when there are no runs.
func ERT(runs []Run) float64 {
	if len(runs) == 0 {
		return math.NaN()
	}
	var effort, solved float64
	for _, r := range runs {
		effort += r.Effort
		if r.Solved {
			solved++
		}
	}
	if solved == 0 {
		return math.Inf(1)
	}
	return effort / solved
}

// Interval is an estimate with a confidence interval [Low, High]. Any of
// them may be +Inf (for ERT: too few successes) or NaN (no data).
type Interval struct {
	Estimate, Low, High float64
}

// BootstrapERT returns the ERT of the runs of all strata with a percentile
// bootstrap confidence interval at level (0.95 for 95 %): reps times, each
// stratum's runs are resampled with replacement (keeping its size, so that
// the mix of strata, such as puzzles of different difficulty, stays the
// same) and the ERT of the pooled resample computed; Low and High are the
// (1-level)/2 and (1+level)/2 quantiles of those ERTs (R's quantile type
// 7). A resample without a success has an infinite ERT, so High is +Inf
// when more than (1-level)/2 of the resamples have none. rng is the only
// randomness: the same seed gives the same interval. With reps < 1, or no
// runs, Low and High are NaN.
func BootstrapERT(strata [][]Run, reps int, level float64, rng *rand.Rand) Interval {
	var all []Run
	for _, s := range strata {
		all = append(all, s...)
	}
	iv := Interval{Estimate: ERT(all), Low: math.NaN(), High: math.NaN()}
	if len(all) == 0 || reps < 1 || !(level > 0 && level < 1) {
		return iv
	}
	erts := make([]float64, reps)
	for r := range erts {
		var effort, solved float64
		for _, s := range strata {
			for range s {
				run := s[rng.IntN(len(s))]
				effort += run.Effort
				if run.Solved {
					solved++
				}
			}
		}
		if solved == 0 {
			erts[r] = math.Inf(1)
		} else {
			erts[r] = effort / solved
		}
	}
	slices.Sort(erts)
	alpha := (1 - level) / 2
	iv.Low = Quantile(erts, alpha)
	iv.High = Quantile(erts, 1-alpha)
	return iv
}

// Quantile returns the q quantile of the sorted values by linear
// interpolation between order statistics (R's quantile type 7, the
// default). Infinite values are allowed: a quantile that falls on or
// next to +Inf is +Inf. It is NaN for no values or q outside [0, 1].
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	h := float64(len(sorted)-1) * q
	lo := int(math.Floor(h))
	hi := min(lo+1, len(sorted)-1)
	frac := h - float64(lo)
	if frac == 0 {
		return sorted[lo]
	}
	if math.IsInf(sorted[hi], 1) {
		return math.Inf(1)
	}
	return sorted[lo] + frac*(sorted[hi]-sorted[lo])
}

// Median returns the median of values (which it does not modify), NaN for
// none.
func Median(values []float64) float64 {
	s := slices.Clone(values)
	slices.Sort(s)
	return Quantile(s, 0.5)
}
