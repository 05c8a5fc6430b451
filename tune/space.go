// Package tune configures a solver by iterated racing, as the irace
// package does (López-Ibáñez, Dubois-Lacoste, Pérez Cáceres, Birattari
// and Stützle 2016, "The irace package: Iterated racing for automatic
// algorithm configuration", Operations Research Perspectives 3:43-58):
// candidate configurations are sampled from the parameter space, raced
// on training instances one at a time, those a Friedman test shows worse
// are dropped, and new candidates are sampled around the survivors, the
// elites, until the budget of runs is spent. Section numbers in the doc
// comments refer to that paper.
//
// The package knows nothing of the database: an Evaluator gives the cost
// of candidates on an instance, and a Recorder hears of every race step.
package tune

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"sudokulab"
)

// Kind is the type of a tuned parameter (§3.2: irace's parameter types,
// without ordinal and conditional parameters).
type Kind int

// The kinds of tuned parameters.
const (
	// Int is an integer in [Min, Max].
	Int Kind = iota
	// Real is a real number in [Min, Max].
	Real
	// Categorical is one of Choices.
	Categorical
)

// Param is one parameter to tune.
type Param struct {
	Name string
	Kind Kind
	// Min and Max bound an Int or Real, inclusive.
	Min, Max float64
	// Log samples an Int or Real uniformly in log(Min)..log(Max), and
	// perturbs it there (irace's "log" transformation); Min must be
	// positive.
	Log bool
	// Choices are the values of a Categorical, as --set takes them.
	Choices []string
}

// Space is what a tuning explores: the tuned parameters, the parameters
// held fixed, and the initial candidates raced first.
type Space struct {
	Params []Param
	// Fixed sets parameters that are not tuned, name to value as text.
	Fixed map[string]string
	// Initial lists configurations raced in the first iteration before
	// any sampled one (§3.1: irace's initial configurations), each the
	// value as text of every tuned parameter.
	Initial []map[string]string
}

// ParseRange reads a parameter's range as --param gives it: "LO..HI"
// (an Int when the parameter is declared int, else a Real), "log:LO..HI"
// for the log scale, or "A|B|C" for a categorical. The declared range
// bounds a numeric range given.
func ParseRange(spec sudokulab.ParamSpec, text string) (Param, error) {
	p := Param{Name: spec.Name}
	body, isLog := strings.CutPrefix(strings.TrimSpace(text), "log:")
	switch spec.Kind {
	case sudokulab.ParamBool, sudokulab.ParamChoice:
		if isLog {
			return p, fmt.Errorf("parameter %s is categorical: log: does not apply", spec.Name)
		}
		p.Kind = Categorical
		allowed := spec.Choices
		if spec.Kind == sudokulab.ParamBool {
			allowed = []string{"false", "true"}
		}
		for _, c := range strings.Split(body, "|") {
			c = strings.TrimSpace(c)
			if !slices.Contains(allowed, c) {
				return p, fmt.Errorf("parameter %s: %q is not one of %s", spec.Name, c, strings.Join(allowed, "|"))
			}
			if slices.Contains(p.Choices, c) {
				return p, fmt.Errorf("parameter %s: %q given twice", spec.Name, c)
			}
			p.Choices = append(p.Choices, c)
		}
		if len(p.Choices) < 2 {
			return p, fmt.Errorf("parameter %s: give at least two values A|B to tune, or fix it with --set", spec.Name)
		}
		return p, nil
	case sudokulab.ParamInt, sudokulab.ParamFloat:
	default:
		return p, fmt.Errorf("parameter %s: unknown kind %q", spec.Name, spec.Kind)
	}
	p.Kind, p.Log = Real, isLog
	if spec.Kind == sudokulab.ParamInt {
		p.Kind = Int
	}
	a, b, ok := strings.Cut(body, "..")
	var err1, err2 error
	p.Min, err1 = strconv.ParseFloat(strings.TrimSpace(a), 64)
	p.Max, err2 = strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || math.IsNaN(p.Min) || math.IsNaN(p.Max) {
		return p, fmt.Errorf("parameter %s: %q is not a range LO..HI or log:LO..HI", spec.Name, text)
	}
	if p.Kind == Int && (p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max)) {
		return p, fmt.Errorf("parameter %s is an integer: %q has a fraction", spec.Name, text)
	}
	return p, p.check(spec)
}

// check refuses a numeric range that is empty, infinite, outside the
// declaration, or on the log scale without a positive minimum.
func (p Param) check(spec sudokulab.ParamSpec) error {
	switch {
	case !(p.Min < p.Max):
		return fmt.Errorf("parameter %s: range %v..%v is empty; fix one value with --set", p.Name, p.Min, p.Max)
	case math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0):
		return fmt.Errorf("parameter %s: range %v..%v is not finite; give one with --param %s=LO..HI", p.Name, p.Min, p.Max, p.Name)
	case p.Min < spec.Min || p.Max > spec.Max:
		return fmt.Errorf("parameter %s: range %v..%v leaves the declared %s", p.Name, p.Min, p.Max, spec.Range())
	case p.Log && p.Min <= 0:
		return fmt.Errorf("parameter %s: a log scale needs a positive minimum, not %v", p.Name, p.Min)
	}
	return nil
}

// logDecades is how many decades a declared positive range must span for
// SpaceOf to tune it on the log scale.
const logDecades = 3

// SpaceOf returns the space of a solver: the parameters given ranges
// (name to --param text) are tuned over them; without any, every
// declared parameter with a finite range is tuned over its declared
// range, on the log scale when that range is positive and spans at
// least three decades (so that 1..1e6 is not all sampled above 1e5).
// The parameters in fixed (name to --set text) are not tuned. The
// initial candidate is the solver's defaults overridden by preset (a
// preset's settings, nil for none) and fixed.
func SpaceOf(info sudokulab.SolverInfo, ranges, fixed, preset map[string]string) (Space, error) {
	s := Space{Fixed: map[string]string{}}
	for name, v := range fixed {
		if _, ok := info.Param(name); !ok {
			return s, fmt.Errorf("solver %s has no parameter %q", info.Name, name)
		}
		if _, ok := ranges[name]; ok {
			return s, fmt.Errorf("parameter %s is both tuned (--param) and fixed (--set)", name)
		}
		s.Fixed[name] = v
	}
	for name := range ranges {
		if _, ok := info.Param(name); !ok {
			return s, fmt.Errorf("solver %s has no parameter %q", info.Name, name)
		}
	}
	for _, spec := range info.Params {
		if _, ok := s.Fixed[spec.Name]; ok {
			continue
		}
		if text, ok := ranges[spec.Name]; ok {
			p, err := ParseRange(spec, text)
			if err != nil {
				return s, err
			}
			s.Params = append(s.Params, p)
			continue
		}
		if len(ranges) > 0 {
			continue
		}
		if p, ok := declared(spec); ok {
			s.Params = append(s.Params, p)
		}
	}
	if len(s.Params) == 0 {
		return s, fmt.Errorf("solver %s: nothing to tune (no parameter with a finite range; give --param name=LO..HI)", info.Name)
	}
	set := map[string]string{}
	for k, v := range preset {
		set[k] = v
	}
	for k, v := range s.Fixed {
		set[k] = v
	}
	params, err := info.Resolve(set)
	if err != nil {
		return s, err
	}
	first := map[string]string{}
	for _, p := range s.Params {
		v := params[p.Name]
		first[p.Name] = fmt.Sprint(v)
		if p.Kind != Categorical {
			x, _ := strconv.ParseFloat(first[p.Name], 64)
			if x < p.Min || x > p.Max {
				// The default lies outside the range asked for: race
				// the nearest value in it.
				first[p.Name] = p.format(math.Min(math.Max(x, p.Min), p.Max))
			}
		} else if !slices.Contains(p.Choices, first[p.Name]) {
			first[p.Name] = p.Choices[0]
		}
	}
	s.Initial = []map[string]string{first}
	return s, nil
}

// declared returns the parameter tuned over its declared range, if that
// range is finite.
func declared(spec sudokulab.ParamSpec) (Param, bool) {
	p := Param{Name: spec.Name, Min: spec.Min, Max: spec.Max}
	switch spec.Kind {
	case sudokulab.ParamBool:
		p.Kind, p.Choices = Categorical, []string{"false", "true"}
		return p, true
	case sudokulab.ParamChoice:
		p.Kind, p.Choices = Categorical, slices.Clone(spec.Choices)
		return p, len(p.Choices) > 1
	case sudokulab.ParamInt:
		p.Kind = Int
	case sudokulab.ParamFloat:
		p.Kind = Real
	default:
		return p, false
	}
	if math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) || !(p.Min < p.Max) {
		return p, false
	}
	p.Log = p.Min > 0 && p.Max/p.Min >= math.Pow(10, logDecades)
	return p, true
}

// digits is the precision of sampled reals: irace rounds them to 4
// decimal places (its "digits" option); we keep 4 significant digits,
// which is the same for values near 1 and keeps small log-scale values.
const digits = 4

// format writes a value of the parameter as --set takes it.
func (p Param) format(x float64) string {
	switch p.Kind {
	case Int:
		return strconv.FormatInt(int64(x), 10)
	case Categorical:
		return p.Choices[int(x)]
	}
	return strconv.FormatFloat(x, 'g', digits, 64)
}

// parse reads a value of the parameter as text into the number the
// sampler works with: the value, or the index of a choice.
func (p Param) parse(text string) (float64, error) {
	if p.Kind == Categorical {
		i := slices.Index(p.Choices, text)
		if i < 0 {
			return 0, fmt.Errorf("parameter %s: %q is not one of %s", p.Name, text, strings.Join(p.Choices, "|"))
		}
		return float64(i), nil
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || x < p.Min || x > p.Max {
		return 0, fmt.Errorf("parameter %s: %q is not a number in %v..%v", p.Name, text, p.Min, p.Max)
	}
	if p.Kind == Int && x != math.Trunc(x) {
		return 0, fmt.Errorf("parameter %s: %q is not an integer", p.Name, text)
	}
	return x, nil
}
