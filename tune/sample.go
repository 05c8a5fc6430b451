package tune

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Candidate is one configuration in the tuning: its number (1, 2, ... in
// the order sampled), the iteration that sampled it, its parent (the
// elite it was sampled around, 0 for none), and its value of every tuned
// parameter.
type Candidate struct {
	ID, Iteration, Parent int
	// Values holds each tuned parameter's value in Space.Params order:
	// the number itself, or the index of a categorical's choice.
	Values []float64
	// model is the sampling distribution around the candidate, set when
	// it first becomes an elite (§3.1).
	model *model
}

// Set returns the candidate's settings, name to value as text, the
// tuned parameters over the space's fixed ones: what --set takes.
func (c *Candidate) Set(s Space) map[string]string {
	set := make(map[string]string, len(s.Params)+len(s.Fixed))
	for k, v := range s.Fixed {
		set[k] = v
	}
	for i, p := range s.Params {
		set[p.Name] = p.format(c.Values[i])
	}
	return set
}

// model is irace's sampling model of one elite (§3.1): the standard
// deviation of each numerical parameter, on its (possibly log)
// transformed scale, and the probability of each choice of a
// categorical.
type model struct {
	sd    []float64
	probs [][]float64
}

// bounds returns the interval a numerical parameter is sampled in, on
// its transformed scale: an integer is sampled as a real in [Min, Max+1)
// and truncated, as irace does, so that every integer has the same
// width.
func (p Param) bounds() (lo, hi float64) {
	lo, hi = p.Min, p.Max
	if p.Kind == Int {
		hi++
	}
	if p.Log {
		return math.Log(lo), math.Log(hi)
	}
	return lo, hi
}

// fromScale maps a sampled point of the transformed scale back to a
// value: exponentiated on the log scale, truncated for an integer,
// rounded to the sampler's digits for a real, always within [Min, Max].
func (p Param) fromScale(x float64) float64 {
	if p.Log {
		x = math.Exp(x)
	}
	if p.Kind == Int {
		x = math.Floor(x)
	} else {
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	}
	return math.Min(math.Max(x, p.Min), p.Max)
}

// toScale maps a value to the transformed scale, at the middle of an
// integer's unit interval so that the normal around an integer elite is
// centred on it.
func (p Param) toScale(v float64) float64 {
	if p.Kind == Int {
		v += 0.5
	}
	if p.Log {
		return math.Log(v)
	}
	return v
}

// initialModel is the model irace gives a configuration sampled
// uniformly: half the range as standard deviation, equal probabilities.
func initialModel(s Space) *model {
	m := &model{sd: make([]float64, len(s.Params)), probs: make([][]float64, len(s.Params))}
	for i, p := range s.Params {
		if p.Kind == Categorical {
			m.probs[i] = make([]float64, len(p.Choices))
			for j := range m.probs[i] {
				m.probs[i][j] = 1 / float64(len(p.Choices))
			}
			continue
		}
		lo, hi := p.bounds()
		m.sd[i] = (hi - lo) / 2
	}
	return m
}

func (m *model) clone() *model {
	c := &model{sd: append([]float64(nil), m.sd...), probs: make([][]float64, len(m.probs))}
	for i, p := range m.probs {
		c.probs[i] = append([]float64(nil), p...)
	}
	return c
}

// sampleUniform draws a candidate uniformly from the space (§3.1, the
// first iteration): uniform on the transformed scale of a number, equal
// probabilities for the choices.
func sampleUniform(s Space, rng *rand.Rand) []float64 {
	v := make([]float64, len(s.Params))
	for i, p := range s.Params {
		if p.Kind == Categorical {
			v[i] = float64(rng.IntN(len(p.Choices)))
			continue
		}
		lo, hi := p.bounds()
		v[i] = p.fromScale(lo + rng.Float64()*(hi-lo))
	}
	return v
}

// sampleAround draws a candidate from an elite's model (§3.1): each
// number from the normal centred on the elite's value with the model's
// standard deviation, truncated to the range (§3.4, truncated sampling),
// each categorical from the model's probabilities.
func sampleAround(s Space, parent *Candidate, rng *rand.Rand) []float64 {
	v := make([]float64, len(s.Params))
	m := parent.model
	for i, p := range s.Params {
		if p.Kind == Categorical {
			v[i] = float64(pick(m.probs[i], rng))
			continue
		}
		lo, hi := p.bounds()
		v[i] = p.fromScale(truncatedNormal(p.toScale(parent.Values[i]), m.sd[i], lo, hi, rng))
	}
	return v
}

// pick draws an index with the given probabilities.
func pick(probs []float64, rng *rand.Rand) int {
	u := rng.Float64()
	var sum float64
	for i, p := range probs {
		sum += p
		if u < sum {
			return i
		}
	}
	return len(probs) - 1
}

// truncatedNormal draws from the normal of mean mu and deviation sd
// restricted to [lo, hi), by inverting its distribution function between
// the bounds' probabilities.
func truncatedNormal(mu, sd, lo, hi float64, rng *rand.Rand) float64 {
	if !(sd > 0) {
		return math.Min(math.Max(mu, lo), hi)
	}
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(x-mu)/(sd*math.Sqrt2)) }
	a, b := cdf(lo), cdf(hi)
	if !(b > a) {
		// Both bounds lie far in one tail: the nearer bound is as good
		// a draw as floating point allows.
		if mu < lo {
			return lo
		}
		return math.Nextafter(hi, lo)
	}
	u := a + rng.Float64()*(b-a)
	x := mu + sd*math.Sqrt2*math.Erfinv(2*u-1)
	if math.IsNaN(x) || x < lo {
		return lo
	}
	if x >= hi {
		return math.Nextafter(hi, lo)
	}
	return x
}

// updateModels moves the elites' models before iteration it of iters
// (§3.1): each numerical deviation shrinks by the factor
// (1/newCandidates)^(1/len(Params)), and each categorical's probabilities
// are scaled by 1-(it-1)/iters with (it-1)/iters added to the elite's own
// choice, normalised, capped at 0.2^(1/len(Params)) and normalised again
// (irace's updateModel for an elitist race). An elite without a model
// takes its parent's, or the initial one.
func updateModels(s Space, elites []*Candidate, byID map[int]*Candidate, it, iters, newCandidates int) {
	shrink := math.Pow(1/float64(max(newCandidates, 1)), 1/float64(len(s.Params)))
	pull := float64(it-1) / float64(iters)
	probMax := math.Pow(0.2, 1/float64(len(s.Params)))
	for _, e := range elites {
		switch parent := byID[e.Parent]; {
		case e.model != nil:
		case parent != nil && parent.model != nil:
			e.model = parent.model.clone()
		default:
			e.model = initialModel(s)
		}
		for i, p := range s.Params {
			if p.Kind != Categorical {
				e.model.sd[i] *= shrink
				continue
			}
			probs := e.model.probs[i]
			for j := range probs {
				probs[j] *= 1 - pull
			}
			probs[int(e.Values[i])] += pull
			normalize(probs)
			// Elitist irace caps each probability (then normalises
			// again), so that no choice is given up for good.
			for j := range probs {
				probs[j] = math.Min(probs[j], probMax)
			}
			normalize(probs)
		}
	}
}

// pickParent draws an elite by rank (§3.1): the elite of rank r among n
// with probability (n-r+1)/(n(n+1)/2), elites listed best first.
func pickParent(elites []*Candidate, rng *rand.Rand) *Candidate {
	n := len(elites)
	w := make([]float64, n)
	for r := range n {
		w[r] = float64(n-r) / float64(n*(n+1)/2)
	}
	return elites[pick(w, rng)]
}

// normalize scales probs to sum to 1.
func normalize(probs []float64) {
	var sum float64
	for _, q := range probs {
		sum += q
	}
	for j := range probs {
		probs[j] /= sum
	}
}

// softRestartThreshold is the distance, as a fraction of a numerical
// parameter's range, within which two candidates count as the same for a
// soft restart: irace's softRestartThreshold, 10^-digits.
const softRestartThreshold = 1e-4

// similar returns the elites whose models a soft restart widens (§3.1,
// "soft restart"; irace's similarConfigurations and restartConfigurations):
// among the elites and the new candidates vals (sampled around the
// elites parents), any two with the same choices and numbers within
// softRestartThreshold of their ranges (on the parameters' own scale, as
// irace measures) are similar; the model of a similar elite, and of the
// parent of a similar new candidate, is restarted.
func similar(s Space, elites []*Candidate, vals [][]float64, parents []int) []*Candidate {
	values := make([][]float64, 0, len(elites)+len(vals))
	owners := make([]*Candidate, 0, len(elites)+len(vals))
	for _, e := range elites {
		values, owners = append(values, e.Values), append(owners, e)
	}
	for i, v := range vals {
		j := slices.IndexFunc(elites, func(e *Candidate) bool { return e.ID == parents[i] })
		if j < 0 {
			continue
		}
		values, owners = append(values, v), append(owners, elites[j])
	}
	var out []*Candidate
	mark := func(c *Candidate) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for i := range values {
		for j := i + 1; j < len(values); j++ {
			if near(s, values[i], values[j]) {
				mark(owners[i])
				mark(owners[j])
			}
		}
	}
	return out
}

// near says whether two candidates' values are the same choices and
// numbers within softRestartThreshold of each range.
func near(s Space, a, b []float64) bool {
	for i, p := range s.Params {
		if p.Kind == Categorical {
			if a[i] != b[i] {
				return false
			}
			continue
		}
		if r := p.Max - p.Min; math.Abs(a[i]-b[i]) > softRestartThreshold*r {
			return false
		}
	}
	return true
}

// restartModels widens the models of elites (irace's
// restartConfigurations): each categorical's probabilities move a tenth
// of the way toward their largest (0.9 p + 0.1 max p, normalised), and
// each numerical deviation becomes min(sd newCandidates^(2/N_param),
// sd_0 (1/newCandidates)^(1/N_param)), sd_0 being the initial half range.
func restartModels(s Space, elites []*Candidate, newCandidates int) {
	k, n := float64(len(s.Params)), float64(max(newCandidates, 1))
	initial := initialModel(s)
	for _, e := range elites {
		for i, p := range s.Params {
			if p.Kind != Categorical {
				e.model.sd[i] = math.Min(e.model.sd[i]*math.Pow(n, 2/k), initial.sd[i]*math.Pow(1/n, 1/k))
				continue
			}
			probs := e.model.probs[i]
			top := slices.Max(probs)
			for j := range probs {
				probs[j] = 0.9*probs[j] + 0.1*top
			}
			normalize(probs)
		}
	}
}
