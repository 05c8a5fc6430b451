package generator_test

import (
	"context"
	"encoding/json"
	"testing"

	"sudokulab"
	"sudokulab/generator"
	"sudokulab/symmetry"
)

func TestProvenance(t *testing.T) {
	six, err := sudokulab.ShapeForN(6)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		opts   generator.Options
		seed   int64
		count  int
		rating string
		json   string
		args   string
	}{
		{"plain", generator.Options{Shape: sudokulab.Classic}, 42, 10, "",
			`{"generator":"g","generator_version":"` + generator.Version + `","seed":42,"count":10,"shape":"9x9","box":"3x3","symmetry":"none","minimal":false}`,
			"--count 10 --shape 9x9 --box 3x3 --seed 42 --symmetry none"},
		{"all", generator.Options{Shape: six, Symmetry: generator.Rot180, Minimal: true, Givens: generator.Range{Min: 10, Max: 12}}, -7, 3, "human:hard..beyond",
			`{"generator":"g","generator_version":"` + generator.Version + `","seed":-7,"count":3,"shape":"6x6","box":"2x3","symmetry":"rot180","minimal":true,"givens":"10..12","rating":"human:hard..beyond"}`,
			"--count 3 --shape 6x6 --box 2x3 --seed -7 --symmetry rot180 --minimal --givens 10..12 --rating human:hard..beyond"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := generator.NewProvenance("g", tt.opts, tt.seed, tt.count, tt.rating)
			if got := p.JSON(); got != tt.json {
				t.Errorf("JSON\n got %s\nwant %s", got, tt.json)
			}
			if got := p.Args(); got != tt.args {
				t.Errorf("Args = %q, want %q", got, tt.args)
			}
			if len(p.SHA256()) != 64 || p.SHA256() == generator.NewProvenance("g", tt.opts, tt.seed+1, tt.count, tt.rating).SHA256() {
				t.Errorf("SHA256 %q does not tell seeds apart", p.SHA256())
			}
			one := p.Of(generator.Puzzle{Index: 5, Attempt: 2})
			var m map[string]any
			if err := json.Unmarshal([]byte(one.JSON()), &m); err != nil {
				t.Fatal(err)
			}
			if m["index"] != 5.0 || m["attempt"] != 2.0 || m["count"] != nil {
				t.Errorf("Of: %s: want index 5, attempt 2, no count", one.JSON())
			}
			if p.Count != tt.count || p.Index != nil {
				t.Errorf("Of changed the generation's provenance: %+v", p)
			}
			if m := p.Membership(generator.Puzzle{Index: 5, Attempt: 2}); m.Label != p.Label(5) || m.Metadata != one.JSON() {
				t.Errorf("Membership = %+v, want label %s and metadata %s", m, p.Label(5), one.JSON())
			}
			if got, want := p.Label(5), "gen-"+jsonInt(tt.seed)+"-5"; got != want {
				t.Errorf("Label = %q, want %q", got, want)
			}
		})
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestStored stores a generated puzzle counted, with its one solution, and
// with a symmetry form only for 9x9 grids.
func TestStored(t *testing.T) {
	four, err := sudokulab.ShapeForN(4)
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range []sudokulab.Shape{sudokulab.Classic, four} {
		gen, err := generator.New(generator.Options{Shape: shape, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var made []generator.Puzzle
		err = gen.Generate(context.Background(), 0, 1, 1, func(p generator.Puzzle) error { made = append(made, p); return nil })
		if err != nil || len(made) != 1 {
			t.Fatalf("%dx%d: %d puzzles, %v", shape.N(), shape.N(), len(made), err)
		}
		var canon symmetry.Canonicalizer
		pz, err := made[0].Stored(&canon)
		if err != nil {
			t.Fatal(err)
		}
		if pz.SolutionCount == nil || *pz.SolutionCount != 1 || pz.CountStatus != sudokulab.CountCounted ||
			pz.Givens.String() != made[0].Givens.String() || pz.Solution.String() != made[0].Solution.String() {
			t.Errorf("%dx%d: stored %+v", shape.N(), shape.N(), pz)
		}
		if (pz.SymmetryForm != "") != (shape == sudokulab.Classic) {
			t.Errorf("%dx%d: symmetry form %q", shape.N(), shape.N(), pz.SymmetryForm)
		}
	}
}
