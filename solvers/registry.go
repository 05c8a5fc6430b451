// Package solvers is the registry of the lab's solvers: an explicit list,
// built in one place, that the command line and the run engine look
// solvers up in.
package solvers

import (
	"slices"
	"strings"

	"sudokulab"
	"sudokulab/solvers/acs"
	"sudokulab/solvers/cuckoo"
	"sudokulab/solvers/exact"
	"sudokulab/solvers/francoga"
	"sudokulab/solvers/lewissa"
	"sudokulab/solvers/nbcoin"
	"sudokulab/solvers/reseda"
	"sudokulab/solvers/restartsearch"
	"sudokulab/solvers/satoinoue"
	"sudokulab/solvers/tabu"
)

// Registry maps solver names to their descriptions.
type Registry struct {
	byName map[string]sudokulab.SolverInfo
}

// NewRegistry returns a registry of the given solvers. It panics on an
// empty or duplicate name: the list is fixed at compile time.
func NewRegistry(infos ...sudokulab.SolverInfo) *Registry {
	r := &Registry{byName: make(map[string]sudokulab.SolverInfo, len(infos))}
	for _, info := range infos {
		if info.Name == "" || info.New == nil {
			panic("solvers: registering a solver without a name or constructor")
		}
		if _, dup := r.byName[info.Name]; dup {
			panic("solvers: solver " + info.Name + " registered twice")
		}
		r.byName[info.Name] = info
	}
	return r
}

// Default returns the registry of every solver in sudokulab.
func Default() *Registry {
	return NewRegistry(
		acs.Info(),
		cuckoo.Info(),
		exact.Info(),
		francoga.Info(),
		lewissa.Info(),
		nbcoin.Info(),
		reseda.Info(),
		restartsearch.Info(),
		satoinoue.Info(),
		tabu.Info(),
	)
}

// Names returns the solver names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// All returns the solvers sorted by name.
func (r *Registry) All() []sudokulab.SolverInfo {
	out := make([]sudokulab.SolverInfo, 0, len(r.byName))
	for _, n := range r.Names() {
		out = append(out, r.byName[n])
	}
	return out
}

// Lookup returns the named solver, or an EINVALID error listing the known
// ones.
func (r *Registry) Lookup(name string) (sudokulab.SolverInfo, error) {
	if info, ok := r.byName[name]; ok {
		return info, nil
	}
	return sudokulab.SolverInfo{}, sudokulab.Errorf(sudokulab.EINVALID, "unknown solver %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// SameSettings reports whether two stored parameter sets of solver are
// the same settings: both read back with this code's declarations, so a
// parameter added since one was stored takes its default. An unknown
// solver or unreadable parameters are not the same.
func (r *Registry) SameSettings(solver, a, b string) bool {
	info, err := r.Lookup(solver)
	if err != nil {
		return false
	}
	pa, errA := info.ParseParams(a)
	pb, errB := info.ParseParams(b)
	return errA == nil && errB == nil && pa.Canonical() == pb.Canonical()
}

// Preset returns the preset called name of any solver, and whether there
// is one.
func (r *Registry) Preset(name string) (sudokulab.Preset, bool) {
	for _, info := range r.All() {
		for _, p := range info.Presets {
			if p.Name == name {
				return p, true
			}
		}
	}
	return sudokulab.Preset{}, false
}

// PresetNames returns the names of every solver's presets, in the order
// of All and of each solver's presets.
func (r *Registry) PresetNames() []string {
	var names []string
	for _, info := range r.All() {
		for _, p := range info.Presets {
			names = append(names, p.Name)
		}
	}
	return names
}
