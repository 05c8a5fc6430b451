package solvers_test

import (
	"slices"
	"testing"

	"sudokulab"
	"sudokulab/solvers"
)

func TestDefaultRegistry(t *testing.T) {
	reg := solvers.Default()
	names := reg.Names()
	if !slices.IsSorted(names) || len(names) < 7 {
		t.Errorf("names %v: want at least the seven solvers, sorted", names)
	}
	if _, err := reg.Lookup("no-such-solver"); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Errorf("unknown solver: %v", err)
	}
	// Presets are stored by name and identified by settings: two presets
	// with one name, or with the same solver and settings, would collide
	// in every database.
	byName := map[string]string{}
	bySettings := map[string]string{}
	for _, info := range reg.All() {
		for _, p := range info.Presets {
			if other, dup := byName[p.Name]; dup {
				t.Errorf("preset name %s used by %s and %s", p.Name, other, info.Name)
			}
			byName[p.Name] = info.Name
			params, err := info.Resolve(p.Set)
			if err != nil {
				t.Errorf("preset %s: %v", p.Name, err)
				continue
			}
			key := info.Name + " " + params.Canonical()
			if other, dup := bySettings[key]; dup {
				t.Errorf("presets %s and %s have the same settings", other, p.Name)
			}
			bySettings[key] = p.Name
			if _, err := info.New(params); err != nil {
				t.Errorf("preset %s: new: %v", p.Name, err)
			}
		}
	}
}

func TestNewRegistryRejectsDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a duplicate name did not panic")
		}
	}()
	info := solvers.Default().All()[0]
	solvers.NewRegistry(info, info)
}

// TestSameSettings reads both parameter sets with the solver's
// declarations: a default left out is the same setting, another value is
// not, nor an unknown solver or parameters that do not read.
func TestSameSettings(t *testing.T) {
	reg := solvers.Default()
	for _, tt := range []struct {
		solver, a, b string
		want         bool
	}{
		{"acs", `{}`, `{"ants": 10}`, true},
		{"acs", `{"ants": 10}`, `{"ants": 10}`, true},
		{"acs", `{}`, `{"ants": 11}`, false},
		{"acs", `{}`, `{"no_such": 1}`, false},
		{"acs", `{}`, `not json`, false},
		{"no-such-solver", `{}`, `{}`, false},
	} {
		if got := reg.SameSettings(tt.solver, tt.a, tt.b); got != tt.want {
			t.Errorf("SameSettings(%s, %s, %s) = %v, want %v", tt.solver, tt.a, tt.b, got, tt.want)
		}
	}
}

// TestPreset finds every registered preset by name, and none by an
// unknown name.
func TestPreset(t *testing.T) {
	reg := solvers.Default()
	n := 0
	for _, info := range reg.All() {
		for _, want := range info.Presets {
			n++
			if got, ok := reg.Preset(want.Name); !ok || got.Name != want.Name || got.Description != want.Description {
				t.Errorf("Preset(%q) = %v, %v", want.Name, got, ok)
			}
		}
	}
	if n == 0 {
		t.Fatal("no presets registered")
	}
	for _, name := range []string{"no-such-preset", ""} {
		if p, ok := reg.Preset(name); ok {
			t.Errorf("Preset(%q) = %v, want none", name, p)
		}
	}
}

// TestPresetNames lists every preset Preset finds, and nothing else.
func TestPresetNames(t *testing.T) {
	reg := solvers.Default()
	names := reg.PresetNames()
	if len(names) == 0 {
		t.Fatal("no preset names")
	}
	n := 0
	for _, info := range reg.All() {
		n += len(info.Presets)
	}
	if len(names) != n {
		t.Errorf("%d preset names, want %d", len(names), n)
	}
	for _, name := range names {
		if _, ok := reg.Preset(name); !ok {
			t.Errorf("PresetNames lists %q, which Preset does not find", name)
		}
	}
}
