package pipeline_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/importers"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/gridgen"
	"sudokulab/solvers/exact"
)

func TestCheck(t *testing.T) {
	g := sudokulab.MustParse(easy)
	var s exact.Solver
	p, _, err := pipeline.Count(context.Background(), &s, g, -1)
	if err != nil {
		t.Fatal(err)
	}
	wrong := sudokulab.MustParse(p.Solution.String())
	wrong.Cells[0], wrong.Cells[1] = wrong.Cells[1], wrong.Cells[0]
	clash := sudokulab.MustParse("8" + easy[1:])
	two, _ := gridgen.Shuffled(3, 0.45, 1)
	cases := []struct {
		name      string
		entry     importers.Entry
		timeout   time.Duration
		solutions any
		valid     bool
		problem   string // a prefix
	}{
		{"unreadable", importers.Entry{Err: &importers.DecodeError{File: "f", Line: 3, Reason: "bad char"}}, 0, nil, false, "bad char"},
		{"breaks a rule", importers.Entry{Record: importers.Record{Grid: clash}}, 0, 0, false, clash.Validate().Error()},
		{"no solution", importers.Entry{Record: importers.Record{Grid: sudokulab.MustParse("12345678........9" + strings.Repeat(".", 64))}}, 0, 0, false, "no solution"},
		{"unique", importers.Entry{Record: importers.Record{Grid: g}}, 0, 1, true, ""},
		{"unique, right solution", importers.Entry{Record: importers.Record{Grid: g, Solution: p.Solution}}, 0, 1, true, ""},
		{"unique, wrong solution", importers.Entry{Record: importers.Record{Grid: g, Solution: wrong}}, 0, 1, true, "the solution the file gives is wrong: "},
		{"two or more", importers.Entry{Record: importers.Record{Grid: two}}, 0, "2+", false, "two or more solutions"},
		{"undetermined", importers.Entry{Record: importers.Record{Grid: gridgen.SlowCount()}}, 50 * time.Millisecond, sudokulab.CountUndetermined, false, "counting stopped after "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := pipeline.Check(context.Background(), tc.entry, tc.timeout)
			if err != nil {
				t.Fatal(err)
			}
			if c.Solutions != tc.solutions || c.Valid != tc.valid || !strings.HasPrefix(c.Problem, tc.problem) || (tc.problem == "") != (c.Problem == "") {
				t.Errorf("Check = %+v, want solutions %v, valid %v, problem %q...", c, tc.solutions, tc.valid, tc.problem)
			}
		})
	}
}
