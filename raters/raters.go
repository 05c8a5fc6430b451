// Package raters holds the laboratory's difficulty raters. A Rater looks at
// one puzzle and returns a sudokulab.Rating: a numeric value, a verbal label
// and a JSON object of details. Every rating records the rater's name, its
// version and its options (canonical JSON), so that a stored rating can be
// traced to how it was made.
//
// The raters are:
//
//   - givens: the number of givens, with the per-unit minimum in details;
//   - backtrack: the exact solver's effort averaged over random
//     relabelings and permutations of the puzzle (see Backtrack);
//   - human: a logic rater that solves as a person does (see Human);
//   - se: Sudoku Explainer 1.2.1's ER/EP/ED (see SE and package
//     raters/se);
//   - empirical: the expected running time of a reference configuration,
//     from the runs already in the database (see Empirical).
//
// Default returns the explicit registry of them, with sorted names. Each
// has its default time limit of one rating (Info.TimeLimit): 5 minutes for
// se, 30 seconds for the others.
package raters

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// Rater rates puzzles. Rate must be safe for concurrent use: the rate
// command calls it from several goroutines.
type Rater interface {
	// Name is the rater's registered name, stored in ratings.rater.
	Name() string
	// Version changes whenever the rater's results may change.
	Version() string
	// Options is the canonical JSON object of the rater's options, defaults
	// included.
	Options() string
	// Rate rates one puzzle. The Rating's PuzzleID and RatedAt are left for
	// the caller; Rater, RaterVersion and Options are filled in.
	//
	// Rate honours ctx: once ctx is done it returns soon (within
	// milliseconds) with an error wrapping ctx.Err(), never a partial
	// rating as if it were complete. The rate command gives each rating
	// a deadline this way and does not store one cut short.
	Rate(ctx context.Context, puzzle sudokulab.Grid) (sudokulab.Rating, error)
}

// Env is what a rater is made from: its options as given by the user
// (key=value strings) and, for the raters that read it, the database.
type Env struct {
	Options map[string]string
	DB      sqlx.ExtContext
}

// Info describes one registered rater.
type Info struct {
	// Name is the rater's name; Summary one line for listings.
	Name    string
	Summary string
	// NeedsDB says the rater reads the database; such a rater is left out
	// of "all" unless one of its options is given.
	NeedsDB bool
	// Timeout is how long one rating by this rater may take unless the
	// caller says otherwise (rate's --timeout): long enough for the
	// hardest puzzles it is meant for on a loaded machine, short enough
	// that a puzzle it cannot finish does not hold a run for hours. Zero
	// means DefaultTimeout.
	Timeout time.Duration
	// New makes the rater from its options; unknown options and bad
	// values are EINVALID errors.
	New func(ctx context.Context, env Env) (Rater, error)
}

// DefaultTimeout is the time limit of one rating by a rater whose Info
// sets none: 9x9 puzzles take milliseconds, while a 25x25 puzzle with few
// givens can keep the backtrack or human rater busy for hours.
const DefaultTimeout = 30 * time.Second

// TimeLimit returns in.Timeout, or DefaultTimeout when it is zero.
func (in Info) TimeLimit() time.Duration {
	if in.Timeout > 0 {
		return in.Timeout
	}
	return DefaultTimeout
}

// Registry is an explicit set of raters.
type Registry struct {
	infos map[string]Info
}

// NewRegistry returns a registry of the given raters; it panics on a
// duplicate or empty name, a programming error.
func NewRegistry(infos ...Info) *Registry {
	r := &Registry{infos: map[string]Info{}}
	for _, in := range infos {
		if in.Name == "" || in.New == nil {
			panic("raters: a rater needs a name and a constructor")
		}
		if _, dup := r.infos[in.Name]; dup {
			panic("raters: duplicate rater " + in.Name)
		}
		r.infos[in.Name] = in
	}
	return r
}

// Default returns the registry of the laboratory's raters.
func Default() *Registry {
	return NewRegistry(
		BacktrackInfo(),
		EmpiricalInfo(),
		GivensInfo(),
		HumanInfo(),
		SEInfo(),
	)
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.infos))
	for n := range r.infos {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the rater registered under name, or an ENOTFOUND error
// listing the known names.
func (r *Registry) Lookup(name string) (Info, error) {
	in, ok := r.infos[name]
	if !ok {
		return Info{}, sudokulab.Errorf(sudokulab.ENOTFOUND, "unknown rater %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	return in, nil
}

// options reads a rater's key=value options, rejecting unknown keys.
type options struct {
	rater string
	raw   map[string]string
	used  map[string]bool
	err   error
}

func newOptions(rater string, raw map[string]string) *options {
	return &options{rater: rater, raw: raw, used: map[string]bool{}}
}

func (o *options) fail(key, format string, args ...any) {
	if o.err == nil {
		o.err = sudokulab.Errorf(sudokulab.EINVALID, "rater %s: option %s: %s", o.rater, key, fmt.Sprintf(format, args...))
	}
}

// int reads an integer option in [min, max].
func (o *options) int(key string, def, min, max int) int {
	o.used[key] = true
	s, ok := o.raw[key]
	if !ok {
		return def
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < min || v > max {
		o.fail(key, "%q: want an integer in [%d, %d]", s, min, max)
		return def
	}
	return v
}

// string reads a string option.
func (o *options) string(key, def string) string {
	o.used[key] = true
	if s, ok := o.raw[key]; ok {
		return s
	}
	return def
}

// done reports the first bad value or unknown key.
func (o *options) done() error {
	if o.err != nil {
		return o.err
	}
	keys := make([]string, 0, len(o.raw))
	for k := range o.raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !o.used[k] {
			known := make([]string, 0, len(o.used))
			for u := range o.used {
				known = append(known, u)
			}
			slices.Sort(known)
			if len(known) == 0 {
				return sudokulab.Errorf(sudokulab.EINVALID, "rater %s: unknown option %q (it has no options)", o.rater, k)
			}
			return sudokulab.Errorf(sudokulab.EINVALID, "rater %s: unknown option %q (known: %s)", o.rater, k, strings.Join(known, ", "))
		}
	}
	return nil
}

// mustJSON encodes v, a value of this package's making, as JSON; maps
// encode with sorted keys, which makes the text canonical.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("raters: " + err.Error())
	}
	return string(b)
}

// base fills the fields every rater sets.
func base(r Rater) sudokulab.Rating {
	return sudokulab.Rating{Rater: r.Name(), RaterVersion: r.Version(), Options: r.Options()}
}

func ptr(v float64) *float64 { return &v }
