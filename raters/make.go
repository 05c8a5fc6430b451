package raters

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokulab"
)

// All is the name Make takes for every rater that needs nothing more.
const All = "all"

// Make makes the rater called name, or for All every rater except those
// that read the database (Info.NeedsDB) and have no options in opts,
// in the order of Names. opts holds the options of each rater by name;
// x is the database for the raters that read it (nil: none). An unknown
// name is an ENOTFOUND error, a bad option an EINVALID one.
func (r *Registry) Make(ctx context.Context, name string, opts map[string]map[string]string, x sqlx.ExtContext) ([]Rater, error) {
	names := []string{name}
	if name == All {
		names = nil
		for _, n := range r.Names() {
			if !r.infos[n].NeedsDB || opts[n] != nil {
				names = append(names, n)
			}
		}
	}
	var out []Rater
	for _, n := range names {
		in, err := r.Lookup(n)
		if err != nil {
			return nil, err
		}
		rt, err := in.New(ctx, Env{Options: opts[n], DB: x})
		if err != nil {
			return nil, err
		}
		out = append(out, rt)
	}
	return out, nil
}

// RefuseDBRaters returns an EINVALID error when rater, or a rater one
// of the KEY=VALUE settings kvs names (RATER.KEY=VALUE), reads the
// database (Info.NeedsDB): rate FILE... rates without one.
func (r *Registry) RefuseDBRaters(rater string, kvs []string) error {
	for _, n := range r.Names() {
		if !r.infos[n].NeedsDB {
			continue
		}
		named := rater == n
		for _, kv := range kvs {
			named = named || strings.HasPrefix(kv, n+".")
		}
		if named {
			return sudokulab.Errorf(sudokulab.EINVALID, "rater %s reads the database, so it cannot rate files; import them and rate --collection", n)
		}
	}
	return nil
}

// TimeLimitsText lists the raters' own time limits, "name limit" joined
// by commas, the limits without zero units (5m, not 5m0s): for rate's
// help.
func (r *Registry) TimeLimitsText() string {
	var parts []string
	for _, n := range r.Names() {
		parts = append(parts, fmt.Sprintf("%s %s", n, shortDuration(r.infos[n].TimeLimit())))
	}
	return strings.Join(parts, ", ")
}

// shortDuration writes d without zero units: 5m, not 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ParseOptions splits KEY=VALUE settings (sudokulab rate's --option) by
// rater into the options Make takes. RATER.KEY=VALUE is for the rater
// named; a bare KEY=VALUE is for rater, which must then be one rater, not
// All. A malformed setting, or one for a rater other than rater, is an
// EINVALID error, one for an unknown rater an ENOTFOUND one.
func (r *Registry) ParseOptions(rater string, kvs []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, kv := range kvs {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: want KEY=VALUE", kv)
		}
		name := rater
		if n, k, ok := strings.Cut(key, "."); ok {
			name, key = n, k
		} else if rater == All {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: with --rater all, name the rater: RATER.%s", kv, kv)
		}
		if _, err := r.Lookup(name); err != nil {
			return nil, fmt.Errorf("--option %q: %w", kv, err)
		}
		if rater != All && name != rater {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--option %q: is for rater %s, not %s", kv, name, rater)
		}
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][key] = value
	}
	return out, nil
}
