package stats

import (
	"math"
	"slices"
)

// Observation is one right-censored time: Time is when the event happened
// (Event true: a run solved its puzzle after Time seconds or evaluations)
// or when observation stopped without it (Event false: the run spent its
// budget, and all we know is that its time to solve exceeds Time).
type Observation struct {
	Time  float64
	Event bool
}

// Stratum is one stratum of a stratified log-rank test: the observations
// of the two groups compared, within which the groups are exchangeable
// under the null hypothesis (in sudokulab, the runs of two configurations
// on one puzzle).
type Stratum struct {
	A, B []Observation
}

// LogRankResult is the outcome of a log-rank test of two groups A and B.
type LogRankResult struct {
	// Observed is the number of events in A and in B.
	Observed [2]float64
	// Expected is the number of events expected in A and in B if both
	// had the same hazard: at each event time, the events shared in
	// proportion to the numbers at risk.
	Expected [2]float64
	// Variance is the hypergeometric variance of Observed[0] -
	// Expected[0], summed over event times (and strata).
	Variance float64
	// ChiSquare is (O_A - E_A)^2 / Variance, chi-square with one degree of
	// freedom under the null hypothesis; NaN when Variance is 0 (no event
	// time at which both groups were at risk).
	ChiSquare float64
	// P is the two-sided p-value of ChiSquare.
	P float64
}

// LogRank runs the log-rank (Mantel-Haenszel) test of equal survival
// curves for the right-censored samples a and b, as R's
// survival::survdiff(rho = 0) does: an observation censored at a time at
// which events happen is still at risk at that time.
func LogRank(a, b []Observation) LogRankResult {
	return StratifiedLogRank([]Stratum{{A: a, B: b}})
}

// StratifiedLogRank runs the log-rank test within each stratum and sums
// the observed, expected and variance terms over the strata before forming
// the statistic, as survdiff does with a strata() term. Empty strata add
// nothing.
func StratifiedLogRank(strata []Stratum) LogRankResult {
	var res LogRankResult
	for _, s := range strata {
		o, e, v := logRankTerms(s.A, s.B)
		for g := range 2 {
			res.Observed[g] += o[g]
			res.Expected[g] += e[g]
		}
		res.Variance += v
	}
	res.ChiSquare = math.NaN()
	if res.Variance > 0 {
		d := res.Observed[0] - res.Expected[0]
		res.ChiSquare = d * d / res.Variance
	}
	res.P = ChiSquare1Upper(res.ChiSquare)
	return res
}

// logRankTerms returns the observed and expected events of each group and
// the variance of O_A - E_A for one stratum.
func logRankTerms(a, b []Observation) (obs, exp [2]float64, variance float64) {
	type item struct {
		t     float64
		event bool
		group int
	}
	all := make([]item, 0, len(a)+len(b))
	for _, o := range a {
		all = append(all, item{o.Time, o.Event, 0})
	}
	for _, o := range b {
		all = append(all, item{o.Time, o.Event, 1})
	}
	slices.SortFunc(all, func(x, y item) int {
		switch {
		case x.t < y.t:
			return -1
		case x.t > y.t:
			return 1
		}
		return 0
	})
	atRisk := [2]float64{float64(len(a)), float64(len(b))}
	for i := 0; i < len(all); {
		// The observations at one time: events and censorings.
		j := i
		var d [2]float64
		var leaving [2]float64
		for j < len(all) && all[j].t == all[i].t {
			if all[j].event {
				d[all[j].group]++
			}
			leaving[all[j].group]++
			j++
		}
		if dt := d[0] + d[1]; dt > 0 {
			n := atRisk[0] + atRisk[1]
			obs[0] += d[0]
			obs[1] += d[1]
			exp[0] += dt * atRisk[0] / n
			exp[1] += dt * atRisk[1] / n
			if n > 1 {
				variance += dt * (atRisk[0] / n) * (atRisk[1] / n) * (n - dt) / (n - 1)
			}
		}
		atRisk[0] -= leaving[0]
		atRisk[1] -= leaving[1]
		i = j
	}
	return obs, exp, variance
}
