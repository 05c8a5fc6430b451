package plots

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Quantile returns the q quantile of sorted (linear interpolation between
// order statistics, R's type 7); NaN for no values.
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// normalQuantile returns the p quantile of the standard normal
// distribution.
func normalQuantile(p float64) float64 {
	return -math.Sqrt2 * math.Erfcinv(2*p)
}

// Wilson returns the Wilson score interval (without continuity
// correction) for k successes in n trials at the confidence level
// (0.95 for 95 %): the interval Newcombe (1998) recommends, which stays
// inside [0, 1] and is not empty at 0 or n successes. For n = 0 it
// returns 0 and 1.
func Wilson(k, n int, level float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z := normalQuantile(1 - (1-level)/2)
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	lo, hi = max(0, centre-half), min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// RunTimes are the runtimes of one configuration's runs to the target
// (solved): Hits holds the budget at which each successful run got there,
// Runs counts every run, successful or not.
type RunTimes struct {
	Config string
	Hits   []float64
	Runs   int
}

// Steps returns the ECDF of the runtimes at its steps: xs the distinct
// hit budgets in increasing order, fs the fraction of all Runs that hit
// at or before each.
func (r RunTimes) Steps() (xs, fs []float64) {
	hits := slices.Clone(r.Hits)
	slices.Sort(hits)
	for i, h := range hits {
		if i+1 < len(hits) && hits[i+1] == h {
			continue
		}
		xs = append(xs, h)
		fs = append(fs, float64(i+1)/float64(r.Runs))
	}
	return xs, fs
}

// seedOf is the bootstrap seed of a series: fixed for its name, so that a
// band does not change with the other series drawn beside it.
func seedOf(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// maxBandPoints bounds the budgets a bootstrap band is computed at.
const maxBandPoints = 400

// ECDFBand returns a percentile bootstrap confidence band at the level
// (0.95) for the ECDF of r at the budgets xs (increasing): resamples times,
// Runs runs are drawn with replacement from r's runs (its hits and its
// failures), and at each budget lo and hi are the (1-level)/2 and
// (1+level)/2 quantiles of the resampled fraction solved. The random
// numbers come from a PCG seeded with seed, so the band is the same on
// every call.
func ECDFBand(r RunTimes, xs []float64, resamples int, level float64, seed uint64) (lo, hi []float64) {
	n := r.Runs
	lo, hi = make([]float64, len(xs)), make([]float64, len(xs))
	if n == 0 || resamples <= 0 {
		return lo, hi
	}
	hits := slices.Clone(r.Hits)
	slices.Sort(hits)
	// upto[j]: the number of hits at or before xs[j].
	upto := make([]int, len(xs))
	for j, x := range xs {
		upto[j] = sort.SearchFloat64s(hits, math.Nextafter(x, math.Inf(1)))
	}
	rng := rand.New(rand.NewPCG(seed, 0x5d0c_1ab))
	counts := make([]int, len(hits)+1)
	samples := make([][]float64, len(xs))
	for j := range samples {
		samples[j] = make([]float64, resamples)
	}
	for b := range resamples {
		clear(counts)
		for range n {
			if i := rng.IntN(n); i < len(hits) {
				counts[i+1]++
			}
		}
		for i := 1; i < len(counts); i++ {
			counts[i] += counts[i-1]
		}
		for j := range xs {
			samples[j][b] = float64(counts[upto[j]]) / float64(n)
		}
	}
	a := (1 - level) / 2
	for j, s := range samples {
		slices.Sort(s)
		lo[j], hi[j] = Quantile(s, a), Quantile(s, 1-a)
	}
	return lo, hi
}

// bandBudgets returns the budgets an ECDF band is computed at: the
// distinct hits, thinned to at most maxBandPoints evenly spread over their
// order.
func bandBudgets(xs []float64) []float64 {
	if len(xs) <= maxBandPoints {
		return xs
	}
	out := make([]float64, 0, maxBandPoints)
	for k := range maxBandPoints {
		out = append(out, xs[k*(len(xs)-1)/(maxBandPoints-1)])
	}
	return slices.Compact(out)
}

// Trajectory is one run's best cost over its budget axis (generations,
// evaluations or seconds), points in increasing X; Best never increases.
// Panel names the panel it is drawn in (the puzzle), Used is what the run
// spent in all (its last X when 0).
type Trajectory struct {
	Config string
	Panel  string
	X      []float64
	Best   []float64
	Used   float64
}

func (t Trajectory) used() float64 {
	if t.Used > 0 || len(t.X) == 0 {
		return t.Used
	}
	return t.X[len(t.X)-1]
}

func (t Trajectory) solved() bool {
	return len(t.Best) > 0 && t.Best[len(t.Best)-1] == 0
}

// Band is the convergence of one configuration: at each X, the median
// best cost over its runs and the Lo and Hi quantiles.
type Band struct {
	Config           string
	X                []float64
	Median, Lo, Hi   []float64
	Runs             int
	QuantLo, QuantHi float64
}

// Bands summarises trajectories per configuration, in order of first
// appearance: at every budget where some run's best cost changes, the
// median and the qlo and qhi quantiles over runs of the best cost reached
// within the budget. A run that stopped earlier keeps its last best cost;
// a run without a point at or before a budget does not count there. The
// budgets are thinned to at most 400, evenly spread over their order.
func Bands(runs []Trajectory, qlo, qhi float64) []Band {
	var order []string
	byConfig := map[string][]Trajectory{}
	for _, r := range runs {
		if len(r.X) == 0 {
			continue
		}
		if _, ok := byConfig[r.Config]; !ok {
			order = append(order, r.Config)
		}
		byConfig[r.Config] = append(byConfig[r.Config], r)
	}
	var out []Band
	for _, name := range order {
		rs := byConfig[name]
		var grid []float64
		for _, r := range rs {
			grid = append(grid, r.X...)
		}
		slices.Sort(grid)
		grid = bandBudgets(slices.Compact(grid))
		b := Band{Config: name, Runs: len(rs), QuantLo: qlo, QuantHi: qhi}
		vals := make([]float64, 0, b.Runs)
		for _, x := range grid {
			vals = vals[:0]
			for _, r := range rs {
				// The last point at or before x.
				i := sort.SearchFloat64s(r.X, math.Nextafter(x, math.Inf(1)))
				if i > 0 {
					vals = append(vals, r.Best[i-1])
				}
			}
			if len(vals) == 0 {
				continue
			}
			slices.Sort(vals)
			b.X = append(b.X, x)
			b.Median = append(b.Median, Quantile(vals, 0.5))
			b.Lo = append(b.Lo, Quantile(vals, qlo))
			b.Hi = append(b.Hi, Quantile(vals, qhi))
		}
		out = append(out, b)
	}
	return out
}

// ERTCurve is the expected running time of one configuration against
// target costs: ERT[i] is the ERT to reach a best cost at or below
// Targets[i], +Inf where no run reached it.
type ERTCurve struct {
	Config  string
	Targets []float64
	ERT     []float64
	Runs    int
}

// ERT returns, per configuration in order of first appearance, the
// expected running time to each target: the budget all runs spent until
// they reached the target (or in all, when they never did), divided by
// the number of runs that reached it (Hansen et al., COCO; IOHanalyzer's
// ERT). A run reaches a target at the first point whose best cost is at or
// below it.
func ERT(runs []Trajectory, targets []float64) []ERTCurve {
	var order []string
	byConfig := map[string][]Trajectory{}
	for _, r := range runs {
		if _, ok := byConfig[r.Config]; !ok {
			order = append(order, r.Config)
		}
		byConfig[r.Config] = append(byConfig[r.Config], r)
	}
	var out []ERTCurve
	for _, name := range order {
		c := ERTCurve{Config: name, Targets: targets, ERT: make([]float64, len(targets)), Runs: len(byConfig[name])}
		for i, t := range targets {
			spent, hits := 0.0, 0
			for _, r := range byConfig[name] {
				j := slices.IndexFunc(r.Best, func(b float64) bool { return b <= t })
				if j >= 0 {
					spent += r.X[j]
					hits++
				} else {
					spent += r.used()
				}
			}
			c.ERT[i] = math.Inf(1)
			if hits > 0 {
				c.ERT[i] = spent / float64(hits)
			}
		}
		out = append(out, c)
	}
	return out
}

// Targets returns the distinct best costs the runs went through, in
// increasing order: the targets where an ERT curve can change.
func Targets(runs []Trajectory) []float64 {
	var ts []float64
	for _, r := range runs {
		ts = append(ts, r.Best...)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}
