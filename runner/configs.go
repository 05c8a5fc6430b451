package runner

import (
	"context"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
)

// Registry is what the run engine needs of the solver registry
// (solvers.Registry).
type Registry interface {
	Lookup(name string) (sudokulab.SolverInfo, error)
	All() []sudokulab.SolverInfo
}

// LoadConfig returns the stored configuration called name with its solver
// and parameters.
func LoadConfig(ctx context.Context, x sqlx.ExtContext, reg Registry, name string) (Config, error) {
	c, err := db.GetConfig(ctx, x, name)
	if err != nil {
		return Config{}, err
	}
	return withSolver(c, reg)
}

// withSolver joins a stored configuration with its solver and parsed
// parameters.
func withSolver(c *sudokulab.Config, reg Registry) (Config, error) {
	info, err := reg.Lookup(c.Solver)
	if err != nil {
		return Config{}, sudokulab.WrapError(sudokulab.EINVALID, err, "configuration %s", c.Name)
	}
	params, err := info.ParseParams(c.Params)
	if err != nil {
		return Config{}, sudokulab.WrapError(sudokulab.EINVALID, err, "configuration %s", c.Name)
	}
	return Config{Config: *c, Info: info, Params: params}, nil
}

// EnsureConfig stores a configuration of solver with the given parameter
// settings, or finds the stored one with the same settings: a
// configuration's identity is its solver and full parameter set, whatever
// its name. name may be empty: a new configuration is then called after
// the solver, with a hash suffix unless it has the default settings.
// reused says whether the configuration existed.
func EnsureConfig(ctx context.Context, x sqlx.ExtContext, reg Registry, name, solver string, set map[string]string, description string, preset bool) (rc Config, reused bool, err error) {
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
		return Config{Config: *c, Info: info, Params: params}, true, nil
	}
	if c, ok, err := findEquivalentConfig(ctx, x, info, canonical); err != nil || ok {
		return Config{Config: c, Info: info, Params: params}, ok, err
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
	return Config{Config: c, Info: info, Params: params}, false, nil
}

// findEquivalentConfig finds a stored configuration of info's solver whose
// parameters, read with today's defaults for any parameter added since it
// was stored, are canonical. Its stored hash differs from canonical's: the
// hash covers the full parameter set as it was when the row was written,
// and a solver that gains a parameter (whose default keeps the old
// behaviour) would otherwise make every stored configuration of it look
// new, and their names conflict.
func findEquivalentConfig(ctx context.Context, x sqlx.ExtContext, info sudokulab.SolverInfo, canonical string) (sudokulab.Config, bool, error) {
	stored, err := db.ListConfigs(ctx, x)
	if err != nil {
		return sudokulab.Config{}, false, err
	}
	for _, c := range stored {
		if c.Solver != info.Name {
			continue
		}
		p, err := info.ParseParams(c.Params)
		if err != nil {
			continue // a parameter since removed: not the same settings
		}
		if p.Canonical() == canonical {
			return c, true, nil
		}
	}
	return sudokulab.Config{}, false, nil
}

// SyncPresets stores every registered preset the database lacks, so each
// database offers the papers' settings by name. A preset whose name is
// taken is left alone.
func SyncPresets(ctx context.Context, d *db.DB, reg Registry) error {
	// Look first, without the write lock: usually every preset is there.
	// The look is tried again as the write is (see db.DB.Retry).
	var stored []sudokulab.Config
	err := d.Retry(ctx, func() (err error) {
		stored, err = db.ListConfigs(ctx, d)
		return err
	})
	if err != nil {
		return err
	}
	names := make(map[string]bool, len(stored))
	for _, c := range stored {
		names[c.Name] = true
	}
	missing := false
	for _, info := range reg.All() {
		for _, p := range info.Presets {
			missing = missing || !names[p.Name]
		}
	}
	if !missing {
		return nil
	}
	return d.WithTx(ctx, func(tx *sqlx.Tx) error {
		for _, info := range reg.All() {
			for _, p := range info.Presets {
				if _, err := db.GetConfig(ctx, tx, p.Name); err == nil {
					continue
				} else if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND {
					return err
				}
				if _, _, err := EnsureConfig(ctx, tx, reg, p.Name, info.Name, p.Set, p.Description, true); err != nil {
					return sudokulab.WrapError(sudokulab.ErrorCode(err), err, "preset %s", p.Name)
				}
			}
		}
		return nil
	})
}
