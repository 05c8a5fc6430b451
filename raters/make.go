package raters

import (
	"context"

	"github.com/jmoiron/sqlx"
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
