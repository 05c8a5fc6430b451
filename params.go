package sudokulab

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParamKind is the type of a solver parameter.
type ParamKind string

// The parameter kinds.
const (
	ParamInt    ParamKind = "int"
	ParamFloat  ParamKind = "float"
	ParamBool   ParamKind = "bool"
	ParamChoice ParamKind = "choice" // one of ParamSpec.Choices
)

// ParamSpec declares one parameter of a solver: its name, type, default
// (the paper's setting), allowed range, a one-line doc and the section of
// the paper it comes from.
type ParamSpec struct {
	Name string
	Kind ParamKind
	// Default is an int64, float64, bool or string according to Kind.
	Default any
	// Min and Max bound ParamInt and ParamFloat values, inclusive.
	Min, Max float64
	// Choices lists the values of a ParamChoice.
	Choices []string
	Doc     string
	// Section cites where the parameter is defined, such as "RESEDA §2.2".
	Section string
}

// Range describes the allowed values, for help text: "1..1000", "0..1",
// "true|false" or "full|groups".
func (s ParamSpec) Range() string {
	switch s.Kind {
	case ParamBool:
		return "true|false"
	case ParamChoice:
		return strings.Join(s.Choices, "|")
	}
	f := func(x float64) string {
		switch {
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return f(s.Min) + ".." + f(s.Max)
}

// parse converts text to the parameter's type and checks its range.
func (s ParamSpec) parse(text string) (any, error) {
	switch s.Kind {
	case ParamInt:
		v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		return v, s.check(float64(v))
	case ParamFloat:
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsNaN(v) {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		return v, s.check(v)
	case ParamBool:
		v, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", text)
		}
		return v, nil
	case ParamChoice:
		if !slices.Contains(s.Choices, text) {
			return nil, fmt.Errorf("%q is not one of %s", text, s.Range())
		}
		return text, nil
	}
	return nil, fmt.Errorf("unknown parameter kind %q", s.Kind)
}

func (s ParamSpec) check(v float64) error {
	if v < s.Min || v > s.Max {
		return fmt.Errorf("%v is outside %s", v, s.Range())
	}
	return nil
}

// Params holds a solver's resolved parameters: every declared parameter,
// each with a value of its kind's Go type (int64, float64, bool, string).
type Params map[string]any

// Int returns an int parameter. It panics if name is not an int parameter:
// solvers read only what they declare.
func (p Params) Int(name string) int64 { return p[name].(int64) }

// Float returns a float parameter.
func (p Params) Float(name string) float64 { return p[name].(float64) }

// Bool returns a bool parameter.
func (p Params) Bool(name string) bool { return p[name].(bool) }

// String returns a choice parameter.
func (p Params) String(name string) string { return p[name].(string) }

// Canonical returns the canonical JSON of the parameters, keys sorted, the
// form stored in configs.params and hashed into its identity.
func (p Params) Canonical() string {
	b, err := json.Marshal(map[string]any(p)) // maps marshal with sorted keys
	if err != nil {
		panic("sudokulab: parameters do not marshal: " + err.Error())
	}
	return string(b)
}

// SolverInfo describes a registered solver: its name, what it is, the paper
// it implements, its parameters with their defaults, and how to make one.
type SolverInfo struct {
	Name    string
	Summary string
	// Paper cites the source, such as "Maire and Prissette 2012".
	Paper string
	// Counting says, in one sentence each, what the solver counts as an
	// evaluation, a generation and a restart (or, for a tree search, a
	// node and a guess), so that effort can be compared across solvers.
	Counting string
	Params   []ParamSpec
	// Presets are named configurations reproducing the paper's
	// experiments; every database gets them.
	Presets []Preset
	// New returns a solver for resolved parameters (see Resolve).
	New func(Params) (Solver, error)
}

// Preset is a named configuration of a solver taken from a paper, such as
// the settings of one table.
type Preset struct {
	Name        string
	Description string
	// Set overrides the defaults, as --set name=value does.
	Set map[string]string
}

// Sets returns the preset's settings as sorted name=value texts, each the
// value of a --set that gives it.
func (p Preset) Sets() []string {
	out := make([]string, 0, len(p.Set))
	for k, v := range p.Set {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// Param returns the declaration of the named parameter.
func (s *SolverInfo) Param(name string) (ParamSpec, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return ParamSpec{}, false
}

// Resolve returns the full parameter set: the defaults, overridden by set
// (name to value as text, from --set name=value). An unknown name or a
// value of the wrong type or out of range is an EINVALID error naming the
// parameter.
func (s *SolverInfo) Resolve(set map[string]string) (Params, error) {
	p := make(Params, len(s.Params))
	for _, spec := range s.Params {
		p[spec.Name] = spec.Default
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, name := range names {
		spec, ok := s.Param(name)
		if !ok {
			known := make([]string, len(s.Params))
			for i, sp := range s.Params {
				known[i] = sp.Name
			}
			if len(known) == 0 {
				return nil, Errorf(EINVALID, "solver %s has no parameters; got %s", s.Name, name)
			}
			return nil, Errorf(EINVALID, "solver %s has no parameter %q (it has %s)", s.Name, name, strings.Join(known, ", "))
		}
		v, err := spec.parse(set[name])
		if err != nil {
			return nil, WrapError(EINVALID, err, "solver %s: parameter %s", s.Name, name)
		}
		p[name] = v
	}
	return p, nil
}

// ParseParams reads canonical parameter JSON (as stored in configs.params)
// back into Params, checking it against the declarations: for a
// configuration stored by another version of the code, a missing parameter
// takes its default and an unknown one is an error.
func (s *SolverInfo) ParseParams(canonical string) (Params, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(canonical), &raw); err != nil {
		return nil, WrapError(EINVALID, err, "solver %s: parameters %s", s.Name, canonical)
	}
	set := make(map[string]string, len(raw))
	for k, v := range raw {
		var str string
		if json.Unmarshal(v, &str) == nil {
			set[k] = str
		} else {
			set[k] = string(v)
		}
	}
	return s.Resolve(set)
}
