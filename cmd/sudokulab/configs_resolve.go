package main

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/solvers"
)

// parseSets reads repeated --set name=value flags.
func parseSets(sets []string) (map[string]string, error) {
	m := make(map[string]string, len(sets))
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, sudokulab.Errorf(sudokulab.EINVALID, "--set %q: want name=value", s)
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}

// loadConfig returns the stored configuration called name with its solver
// and parameters.
func loadConfig(ctx context.Context, x sqlx.ExtContext, reg *solvers.Registry, name string) (runner.Config, error) {
	c, err := db.GetConfig(ctx, x, name)
	if err != nil {
		return runner.Config{}, err
	}
	info, err := reg.Lookup(c.Solver)
	if err != nil {
		return runner.Config{}, sudokulab.WrapError(sudokulab.EINVALID, err, "configuration %s", name)
	}
	params, err := info.ParseParams(c.Params)
	if err != nil {
		return runner.Config{}, sudokulab.WrapError(sudokulab.EINVALID, err, "configuration %s", name)
	}
	return runner.Config{Config: *c, Info: info, Params: params}, nil
}

// ensureConfig stores a configuration of solver with the given parameter
// settings, or finds the stored one with the same settings: a
// configuration's identity is its solver and full parameter set, whatever
// its name. name may be empty: a new configuration is then called after
// the solver, with a hash suffix unless it has the default settings.
// reused says whether the configuration existed.
func ensureConfig(ctx context.Context, x sqlx.ExtContext, reg *solvers.Registry, name, solver string, set map[string]string, description string, preset bool) (rc runner.Config, reused bool, err error) {
	info, err := reg.Lookup(solver)
	if err != nil {
		return rc, false, err
	}
	params, err := info.Resolve(set)
	if err != nil {
		return rc, false, err
	}
	canonical := params.Canonical()
	hash := sudokulab.ConfigParamsHash(solver, canonical)
	if c, ok, err := db.FindConfigBySettings(ctx, x, solver, hash); err != nil {
		return rc, false, err
	} else if ok {
		return runner.Config{Config: *c, Info: info, Params: params}, true, nil
	}
	if name == "" {
		name = solver
		if defaults, _ := info.Resolve(nil); defaults.Canonical() != canonical {
			name = solver + "-" + hash[:8]
		}
	}
	c := sudokulab.Config{Name: name, Solver: solver, Params: canonical, Description: description, Preset: preset}
	if _, _, err := db.EnsureConfig(ctx, x, &c); err != nil {
		return rc, false, err
	}
	return runner.Config{Config: c, Info: info, Params: params}, false, nil
}

// syncPresets stores every registered preset the database lacks, so each
// database offers the papers' settings by name. A preset whose name is
// taken is left alone.
func syncPresets(ctx context.Context, d *db.DB, reg *solvers.Registry) error {
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for _, info := range reg.All() {
			for _, p := range info.Presets {
				if _, err := db.GetConfig(ctx, tx, p.Name); err == nil {
					continue
				} else if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
					return err
				}
				if _, _, err := ensureConfig(ctx, tx, reg, p.Name, info.Name, p.Set, p.Description, true); err != nil {
					return sudokulab.WrapError(sudokulab.ErrorCode(err), err, "preset %s", p.Name)
				}
			}
		}
		return nil
	})
}
