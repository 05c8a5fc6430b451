package runner_test

import (
	"context"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/runner"
	"sudokulab/solvers/exact"
)

// fakeRegistry is a runner.Registry of the given solvers.
type fakeRegistry []sudokulab.SolverInfo

func (r fakeRegistry) Lookup(name string) (sudokulab.SolverInfo, error) {
	for _, info := range r {
		if info.Name == name {
			return info, nil
		}
	}
	return sudokulab.SolverInfo{}, sudokulab.Errorf(sudokulab.EINVALID, "unknown solver %q", name)
}

func (r fakeRegistry) All() []sudokulab.SolverInfo { return r }

// testRegistry holds the exact solver and the local search with two
// presets.
func testRegistry() fakeRegistry {
	ls := localSearchInfo()
	ls.Presets = []sudokulab.Preset{
		{Name: "ls-paper", Description: "short patience", Set: map[string]string{"restart": "500"}},
		{Name: "ls-default", Description: "the defaults"},
	}
	return fakeRegistry{exact.Info(), ls}
}

func TestEnsureConfig(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	reg := testRegistry()
	const ls = "test-local-search"
	tests := []struct {
		name       string
		cfgName    string
		solver     string
		set        map[string]string
		wantName   string // "" when an error is expected
		wantReused bool
		wantErr    string
		wantCode   string
	}{
		{name: "defaults, no name", solver: ls, wantName: ls},
		{name: "defaults again", solver: ls, wantName: ls, wantReused: true},
		{name: "defaults spelt out, other name", cfgName: "mine", solver: ls, set: map[string]string{"restart": "3000"}, wantName: ls, wantReused: true},
		{name: "other settings, no name", solver: ls, set: map[string]string{"restart": "7"}, wantName: ls + "-"},
		{name: "other settings, named", cfgName: "patient", solver: ls, set: map[string]string{"restart": "100000"}, wantName: "patient"},
		{name: "named again", cfgName: "patient", solver: ls, set: map[string]string{"restart": "100000"}, wantName: "patient", wantReused: true},
		{name: "name taken by other settings", cfgName: "patient", solver: ls, set: map[string]string{"restart": "9"}, wantErr: "exists with other settings", wantCode: sudokulab.ECONFLICT},
		{name: "unknown solver", solver: "nope", wantErr: `unknown solver "nope"`, wantCode: sudokulab.EINVALID},
		{name: "unknown parameter", solver: ls, set: map[string]string{"speed": "1"}, wantErr: `no parameter "speed"`, wantCode: sudokulab.EINVALID},
		{name: "out of range", solver: ls, set: map[string]string{"restart": "-1"}, wantErr: "restart", wantCode: sudokulab.EINVALID},
		{name: "no parameters", solver: "exact", wantName: "exact"},
	}
	ids := map[string]int64{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, reused, err := runner.EnsureConfig(ctx, d, reg, tc.cfgName, tc.solver, tc.set, "test", false)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				if code := sudokulab.ErrorCode(err); code != tc.wantCode {
					t.Errorf("error code %q, want %q", code, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(c.Name, tc.wantName) || (!strings.HasSuffix(tc.wantName, "-") && c.Name != tc.wantName) {
				t.Errorf("name %q, want %q", c.Name, tc.wantName)
			}
			if strings.HasSuffix(tc.wantName, "-") && len(c.Name) != len(tc.wantName)+8 {
				t.Errorf("name %q: want the solver and an 8-digit hash", c.Name)
			}
			if reused != tc.wantReused {
				t.Errorf("reused %v, want %v", reused, tc.wantReused)
			}
			if c.ID == 0 || c.Info.Name != tc.solver || c.Params.Canonical() != c.Config.Params {
				t.Errorf("config %+v: want an id, the solver and its parameters", c.Config)
			}
			if id, ok := ids[c.Name]; ok && id != c.ID {
				t.Errorf("%s has id %d, earlier %d", c.Name, c.ID, id)
			}
			ids[c.Name] = c.ID
			// What is stored loads back the same.
			back, err := runner.LoadConfig(ctx, d, reg, c.Name)
			if err != nil {
				t.Fatalf("LoadConfig(%s): %v", c.Name, err)
			}
			if back.ID != c.ID || back.Params.Canonical() != c.Params.Canonical() || back.Info.Name != c.Info.Name {
				t.Errorf("LoadConfig(%s) = %+v, stored %+v", c.Name, back.Config, c.Config)
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	orphan := sudokulab.Config{Name: "orphan", Solver: "gone-solver", Params: "{}"}
	if _, _, err := db.EnsureConfig(ctx, d, &orphan); err != nil {
		t.Fatal(err)
	}
	odd := sudokulab.Config{Name: "odd", Solver: "test-local-search", Params: `{"restart": 5, "colour": "red"}`}
	if _, _, err := db.EnsureConfig(ctx, d, &odd); err != nil {
		t.Fatal(err)
	}
	older := sudokulab.Config{Name: "older", Solver: "test-local-search", Params: `{"restart": 5}`}
	if _, _, err := db.EnsureConfig(ctx, d, &older); err != nil {
		t.Fatal(err)
	}
	reg := testRegistry()
	for _, tc := range []struct {
		name, wantErr, wantCode string
	}{
		{"missing", `no configuration called "missing"`, sudokulab.ENOTFOUND},
		{"orphan", `unknown solver "gone-solver"`, sudokulab.EINVALID},
		{"odd", `no parameter "colour"`, sudokulab.EINVALID},
		{"older", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := runner.LoadConfig(ctx, d, reg, tc.name)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				// A parameter missing from the stored JSON takes its default.
				if c.Params.Int("restart") != 5 || c.Params.Int("delay_us") != 0 {
					t.Errorf("params %v", c.Params)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || sudokulab.ErrorCode(err) != tc.wantCode {
				t.Errorf("error %v (code %q), want %q (%s)", err, sudokulab.ErrorCode(err), tc.wantErr, tc.wantCode)
			}
		})
	}
}

func TestSyncPresets(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	reg := testRegistry()
	// A configuration already holds a preset's name, with other settings.
	taken := sudokulab.Config{Name: "ls-paper", Solver: "test-local-search", Params: `{"delay_us":0,"restart":42}`}
	if _, _, err := db.EnsureConfig(ctx, d, &taken); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		if err := runner.SyncPresets(ctx, d, reg); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		cfgs, err := db.ListConfigs(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]sudokulab.Config{}
		for _, c := range cfgs {
			got[c.Name] = c
		}
		if len(cfgs) != 3 {
			t.Errorf("round %d: %d configurations %v, want exact, ls-default and the taken ls-paper", round, len(cfgs), got)
		}
		if c := got["exact"]; !c.Preset || c.Solver != "exact" {
			t.Errorf("round %d: exact preset %+v", round, c)
		}
		if c := got["ls-default"]; !c.Preset || c.Solver != "test-local-search" || !strings.Contains(c.Params, `"restart":3000`) {
			t.Errorf("round %d: ls-default preset %+v", round, c)
		}
		if c := got["ls-paper"]; c.Preset || c.ID != taken.ID || !strings.Contains(c.Params, `"restart":42`) {
			t.Errorf("round %d: the taken name ls-paper was changed: %+v", round, c)
		}
	}
}

// TestEnsureConfigAfterANewParameter stores configurations as an older
// version of a solver, without one of today's parameters, wrote them:
// asking for the same settings with today's parameter set finds them,
// under their names, instead of taking them for new settings (a new row)
// or, under the same name, for a conflict.
func TestEnsureConfigAfterANewParameter(t *testing.T) {
	ctx := context.Background()
	d := newDB(t)
	reg := testRegistry()
	const ls = "test-local-search"
	for _, c := range []sudokulab.Config{
		{Name: ls, Solver: ls, Params: `{"restart": 3000}`},      // delay_us added since
		{Name: "patient", Solver: ls, Params: `{"restart": 99}`}, // the same
	} {
		if _, _, err := db.EnsureConfig(ctx, d, &c); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		set      map[string]string
		wantName string
	}{
		{"", nil, ls},
		{"", map[string]string{"delay_us": "0"}, ls},
		{"patient", map[string]string{"restart": "99"}, "patient"},
		{"", map[string]string{"restart": "99"}, "patient"},
	} {
		c, reused, err := runner.EnsureConfig(ctx, d, reg, tc.name, ls, tc.set, "test", false)
		if err != nil {
			t.Fatalf("EnsureConfig(%q, %v): %v", tc.name, tc.set, err)
		}
		if !reused || c.Name != tc.wantName {
			t.Errorf("EnsureConfig(%q, %v) = %s (reused %v), want the stored %s", tc.name, tc.set, c.Name, reused, tc.wantName)
		}
	}
	// A setting of the new parameter is new settings.
	if c, reused, err := runner.EnsureConfig(ctx, d, reg, "", ls, map[string]string{"delay_us": "5"}, "test", false); err != nil || reused {
		t.Errorf("delay_us=5: %s reused %v, err %v; want a new configuration", c.Name, reused, err)
	}
}
