package queries

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/suggest"
)

// Lookup returns the shipped query called name, or an ENOTFOUND error
// naming the nearest names and all the known ones.
func Lookup(name string) (Query, error) {
	qs, err := All()
	if err != nil {
		return Query{}, err
	}
	q, ok := Find(qs, name)
	if !ok {
		names := make([]string, len(qs))
		for i, q := range qs {
			names[i] = q.Name
		}
		return q, sudokulab.Errorf(sudokulab.ENOTFOUND, "no query called %q%s; sudokulab query list lists them (known: %s)",
			name, suggest.DidYouMean(suggest.Names(name, names)), strings.Join(names, ", "))
	}
	return q, nil
}

// ParseParams reads NAME=VALUE settings (of --param) into a map; a
// setting without "=" or a name given twice is an EINVALID error.
func ParseParams(settings []string) (map[string]string, error) {
	values := map[string]string{}
	for _, s := range settings {
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--param %q: want NAME=VALUE", s)
		}
		if _, dup := values[k]; dup {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--param %s given twice", k)
		}
		values[k] = v
	}
	return values, nil
}

// CheckNamed returns an error if values names a collection, configuration
// or experiment (parameters collection, config and experiment, other than
// NULL) that x does not hold: a typo would otherwise filter everything
// out, silently.
func CheckNamed(ctx context.Context, x sqlx.ExtContext, values map[string]string) error {
	for _, named := range []struct{ param, what, table string }{
		{"collection", "collection", "collections"}, {"config", "configuration", "configs"}, {"experiment", "experiment", "experiments"},
	} {
		if v, ok := values[named.param]; ok && v != "NULL" {
			if err := db.MustExist(ctx, x, named.table, named.what, v); err != nil {
				return fmt.Errorf("--param %s: %w", named.param, err)
			}
		}
	}
	return nil
}

// ParamDefaults is q's parameters with their defaults, as they would be
// given: "experiment=NULL collection=paper-puzzles".
func (q Query) ParamDefaults() string {
	ps := make([]string, len(q.Params))
	for i, p := range q.Params {
		ps[i] = p.Name + "=" + p.DefaultString()
	}
	return strings.Join(ps, " ")
}
