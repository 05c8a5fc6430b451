package sudokulab_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"sudokulab"
)

func intp(n int) *int { return &n }

func floatp(f float64) *float64 { return &f }

// TestCheckRecords holds each record's Check to the rows it must refuse
// and those it must accept.
func TestCheckRecords(t *testing.T) {
	puzzle := sudokulab.MustParse(escargot)
	solution := sudokulab.MustParse(escargotSolution)
	// The solution with its first empty cell of the puzzle set to the
	// value of the next cell: the givens kept, a rule broken.
	broken := solution.Clone()
	for i, v := range puzzle.Cells {
		if v == 0 {
			broken.Cells[i] = broken.Cells[i+1]
			break
		}
	}
	changed := solution.Clone()
	changed.Cells[0] = changed.Cells[0]%9 + 1 // escargot gives r1c1
	params := `{"a":1}`
	hash := sudokulab.ConfigParamsHash("exact", params)
	tests := []struct {
		name  string
		check func() error
		want  string // a part of the error; "" means valid
	}{
		{"puzzle", (&sudokulab.Puzzle{Givens: puzzle, Solution: solution, SolutionCount: intp(1), CountStatus: "counted"}).Check, ""},
		{"puzzle without solution", (&sudokulab.Puzzle{Givens: puzzle}).Check, ""},
		{"puzzle solution breaks the rules", (&sudokulab.Puzzle{Givens: puzzle, Solution: broken}).Check, "wrong solution: solution breaks the rules"},
		{"puzzle solution changes a given", (&sudokulab.Puzzle{Givens: puzzle, Solution: changed}).Check, "r1c1 holds"},
		{"puzzle givens break the rules", (&sudokulab.Puzzle{Givens: sudokulab.MustParse("11" + strings.Repeat(".", 79))}).Check, "givens break the rules"},
		{"puzzle count 3", (&sudokulab.Puzzle{Givens: puzzle, SolutionCount: intp(3)}).Check, "solution count 3"},
		{"puzzle count 0 with solution", (&sudokulab.Puzzle{Givens: puzzle, Solution: solution, SolutionCount: intp(0)}).Check, "solution count 0"},
		{"puzzle counted without count", (&sudokulab.Puzzle{Givens: puzzle, CountStatus: "counted"}).Check, `count status "counted"`},
		{"puzzle unknown status", (&sudokulab.Puzzle{Givens: puzzle, CountStatus: "maybe"}).Check, `count status "maybe"`},
		{"puzzle negative count time", (&sudokulab.Puzzle{Givens: puzzle, CountSeconds: -1}).Check, "count time is -1"},

		{"collection", (&sudokulab.Collection{Name: "forum-hardest", Description: "from the forum"}).Check, ""},
		{"collection without name", (&sudokulab.Collection{}).Check, "name is empty"},
		{"collection name with line break", (&sudokulab.Collection{Name: "a\nb"}).Check, "control character"},
		{"collection name too long", (&sudokulab.Collection{Name: strings.Repeat("n", sudokulab.MaxNameBytes+1)}).Check, "more than 1024"},
		{"experiment name not UTF-8", (&sudokulab.Experiment{Name: "\xff"}).Check, "not UTF-8"},

		{"import", (&sudokulab.Import{FileName: "a.sdm", FileSHA256: strings.Repeat("ab", 32), Format: "sdm"}).Check, ""},
		{"import checksum", (&sudokulab.Import{FileName: "a.sdm", FileSHA256: "abc", Format: "sdm"}).Check, "not a hex SHA-256"},
		{"import negative count", (&sudokulab.Import{FileName: "a", FileSHA256: strings.Repeat("ab", 32), Format: "sdm", PuzzlesRead: -1}).Check, "puzzles read is -1"},

		{"membership", (&sudokulab.Membership{Position: 1, Label: "no1", Metadata: `{"ER":"11.9"}`}).Check, ""},
		{"membership position 0", (&sudokulab.Membership{Position: 0}).Check, "position 0"},
		{"membership label too long", (&sudokulab.Membership{Position: 1, Label: strings.Repeat("x", sudokulab.MaxLabelBytes+1)}).Check, "label is 1025 bytes long"},
		{"membership label with a NUL", (&sudokulab.Membership{Position: 1, Label: "a\x00b"}).Check, `label "a\x00b" holds a NUL character`},
		{"membership metadata array", (&sudokulab.Membership{Position: 1, Metadata: `[1]`}).Check, "metadata are not a JSON object"},
		{"membership metadata two objects", (&sudokulab.Membership{Position: 1, Metadata: `{} {}`}).Check, "text after the object"},

		{"config", func() error {
			return (&sudokulab.Config{Name: "x", Solver: "exact", Params: params, ParamsHash: hash}).Check(nil)
		}, ""},
		{"config params not JSON", func() error {
			return (&sudokulab.Config{Name: "x", Solver: "exact", Params: `{a`, ParamsHash: hash}).Check(nil)
		}, "parameters are not a JSON object"},
		{"config params not canonical", func() error {
			return (&sudokulab.Config{Name: "x", Solver: "exact", Params: `{ "a": 1 }`, ParamsHash: hash}).Check(nil)
		}, "not in canonical form"},
		{"config hash", func() error {
			return (&sudokulab.Config{Name: "x", Solver: "exact", Params: params, ParamsHash: "feed"}).Check(nil)
		}, "params_hash"},
		{"config unknown parameter", func() error {
			return (&sudokulab.Config{Name: "x", Solver: "exact", Params: params, ParamsHash: hash}).Check(&sudokulab.SolverInfo{Name: "exact"})
		}, "no parameters"},

		{"rating", (&sudokulab.Rating{Rater: "se", RaterVersion: "1", Options: `{}`, Value: floatp(11.9), Details: `{"path":[]}`}).Check, ""},
		{"rating options not JSON", (&sudokulab.Rating{Rater: "se", RaterVersion: "1", Options: `{not json`}).Check, "options are not a JSON object"},
		{"rating options null", (&sudokulab.Rating{Rater: "se", RaterVersion: "1", Options: `null`}).Check, "options are not a JSON object: null"},
		{"rating details not JSON", (&sudokulab.Rating{Rater: "se", RaterVersion: "1", Details: `x`}).Check, "details are not a JSON object"},
		{"rating infinite", (&sudokulab.Rating{Rater: "se", RaterVersion: "1", Value: floatp(math.Inf(1))}).Check, "not a finite number"},
		{"rating without version", (&sudokulab.Rating{Rater: "se"}).Check, ""},
		{"rating without rater", (&sudokulab.Rating{RaterVersion: "1"}).Check, "rater is empty"},

		{"run solved", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusSolved, FinalGrid: solution, BestCost: intp(0)}).Check(puzzle)
		}, ""},
		{"run unsolved", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusUnsolved, FinalGrid: broken, BestCost: intp(2)}).Check(puzzle)
		}, ""},
		{"run error without grid", func() error { return (&sudokulab.Run{Status: sudokulab.StatusError, Error: "boom"}).Check(puzzle) }, ""},
		{"run solved with broken grid", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusSolved, FinalGrid: broken}).Check(puzzle)
		}, "solved, but the final grid is no solution: solution breaks the rules"},
		{"run solved without grid", func() error { return (&sudokulab.Run{Status: sudokulab.StatusSolved}).Check(puzzle) }, "without a final grid"},
		{"run solved with cost", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusSolved, FinalGrid: solution, BestCost: intp(3)}).Check(puzzle)
		}, "best cost is 3"},
		{"run changes a given", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusUnsolved, FinalGrid: changed}).Check(puzzle)
		}, "changes the given at r1c1"},
		{"run other shape", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusUnsolved, FinalGrid: sudokulab.MustParse(strings.Repeat(".", 16))}).Check(puzzle)
		}, "final grid is 4x4 (2x2 boxes), the puzzle 9x9"},
		{"run error keeps what the solver returned", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusError, FinalGrid: changed, Error: "solver changed a given"}).Check(puzzle)
		}, ""},
		{"run status", func() error { return (&sudokulab.Run{Status: "finished"}).Check(puzzle) }, `status "finished"`},
		{"run negative evaluations", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusUnsolved, Evaluations: -1}).Check(puzzle)
		}, "evaluations is -1"},
		{"run NaN wall time", func() error {
			return (&sudokulab.Run{Status: sudokulab.StatusUnsolved, WallSeconds: floatp(math.NaN())}).Check(puzzle)
		}, "wall time is NaN"},

		{"point", (&sudokulab.TrajectoryPoint{Seq: 1, Evaluations: 10, BestCost: 4, ElapsedSeconds: 0.5}).Check, ""},
		{"point negative cost", (&sudokulab.TrajectoryPoint{BestCost: -1}).Check, "best cost is -1"},
		{"point infinite convergence", (&sudokulab.TrajectoryPoint{Convergence: floatp(math.Inf(-1))}).Check, "convergence -Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("accepted, want an error with %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want it to hold %q", err, tt.want)
			}
		})
	}
}

// FuzzCheck gives the checks arbitrary grids, statuses and JSON: they
// never panic, and what they accept holds what they promise, checked here
// cell by cell.
func FuzzCheck(f *testing.F) {
	f.Add(escargot, escargotSolution, "solved", `{"a":1}`)
	f.Add(escargot, escargot, "solved", `{}`)
	f.Add(strings.Repeat(".", 16), "1234341221434321", "unsolved", `null`)
	f.Add("11"+strings.Repeat(".", 79), "", "error", `[`)
	f.Fuzz(func(t *testing.T, givens, other, status, js string) {
		g, err := sudokulab.Parse(givens)
		if err != nil {
			return
		}
		o, err := sudokulab.Parse(other)
		if err != nil {
			o = sudokulab.Grid{}
		}
		p := sudokulab.Puzzle{Givens: g, Solution: o}
		if p.Check() == nil && p.HasSolution() {
			solves(t, g, o)
		}
		r := sudokulab.Run{Status: sudokulab.RunStatus(status), FinalGrid: o}
		if r.Check(g) == nil && r.Status == sudokulab.StatusSolved {
			solves(t, g, o)
		}
		if sudokulab.CheckJSONObject("options", js, false) == nil {
			if !json.Valid([]byte(js)) || !bytes.HasPrefix(bytes.TrimLeft([]byte(js), " \t\r\n"), []byte("{")) {
				t.Errorf("CheckJSONObject accepted %q", js)
			}
		}
	})
}

// solves fails t unless s solves g: same shape, every cell filled, the
// givens kept, no unit repeating a symbol.
func solves(t *testing.T, g, s sudokulab.Grid) {
	t.Helper()
	if s.Shape != g.Shape || len(s.Cells) != len(g.Cells) {
		t.Fatalf("accepted a %s solution of a %s puzzle", s.Shape, g.Shape)
	}
	for i, v := range s.Cells {
		if v == 0 || int(v) > g.N() || (g.Cells[i] != 0 && g.Cells[i] != v) {
			t.Fatalf("accepted %s as a solution of %s: cell %d", s, g, i)
		}
	}
	for _, unit := range g.Geometry().Units {
		seen := map[uint8]bool{}
		for _, c := range unit {
			if seen[s.Cells[c]] {
				t.Fatalf("accepted %s as a solution of %s: a unit repeats %d", s, g, s.Cells[c])
			}
			seen[s.Cells[c]] = true
		}
	}
}
