package show_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/internal/show"
	"sudokulab/solvers"
)

func TestSolutionCount(t *testing.T) {
	tests := []struct {
		n, limit int
		want     string
	}{
		{0, 2, "0 (no solution)"},
		{1, 2, "1 (unique)"},
		{2, 2, "2 or more"},
		{3, 10, "3"},
		{10, 10, "10 or more"},
	}
	for _, tt := range tests {
		if got := show.SolutionCount(tt.n, tt.limit); got != tt.want {
			t.Errorf("SolutionCount(%d, %d) = %q, want %q", tt.n, tt.limit, got, tt.want)
		}
	}
}

func TestPuzzleCount(t *testing.T) {
	one := 1
	grid := sudokulab.MustParse("1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..")
	solved, err := sudokulab.Parse("162857493534129678789643521475312986913586742628794135356478219241935867897261354")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    sudokulab.Puzzle
		want string
	}{
		{"counted", sudokulab.Puzzle{Givens: grid, SolutionCount: &one}, "1 (unique)"},
		{"not counted", sudokulab.Puzzle{Givens: grid}, "not counted"},
		{"undetermined", sudokulab.Puzzle{Givens: grid, CountStatus: sudokulab.CountUndetermined, CountSeconds: 1.5},
			"undetermined (counting stopped after 1.5s; sudokulab count finishes it)"},
		{"undetermined with a solution", sudokulab.Puzzle{Givens: grid, Solution: solved, CountStatus: sudokulab.CountUndetermined, CountSeconds: 0.25},
			"undetermined (one found; counting stopped after 250ms; sudokulab count finishes it)"},
	}
	for _, tt := range tests {
		if got := show.PuzzleCount(&tt.p); got != tt.want {
			t.Errorf("%s: PuzzleCount = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestImports writes one import as text and as JSON.
func TestImports(t *testing.T) {
	res := &pipeline.Result{File: "a.txt", Format: "line", Collection: "a", Collections: []string{"a"},
		Import: sudokulab.Import{ID: 7, PuzzlesRead: 3, PuzzlesNew: 2, PuzzlesDuplicate: 1}, Undetermined: 1, Checked: 3,
		Notes: []string{"a header"}, Elapsed: 1500 * time.Millisecond}
	var text bytes.Buffer
	p, err := show.NewImports(&text, "table")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Print(res); err != nil || p.Close() != nil {
		t.Fatal(err)
	}
	want := `a.txt: line format, 3 read: 2 new, 1 duplicate, 0 rejected; collection a (import 7) in 1.5s
  1 of the 3 puzzles counted left their count undetermined within the budget (count_status 'undetermined'); sudokulab count --collection a finishes them
  note: a header
`
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	var js bytes.Buffer
	if p, err = show.NewImports(&js, "json"); err != nil {
		t.Fatal(err)
	}
	if err := p.Print(res); err != nil || p.Close() != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, js.String())
	}
	if len(got) != 1 || got[0]["import_id"] != 7.0 || got[0]["new"] != 2.0 || got[0]["resumed_after"] != nil {
		t.Errorf("json = %v", got)
	}
}

// TestSolvers lists the registered solvers in each format: every solver
// is named in all three.
func TestSolvers(t *testing.T) {
	all := solvers.Default().All()
	for _, format := range []string{"table", "csv", "json"} {
		var b bytes.Buffer
		if err := show.Solvers(&b, format, all); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		for _, s := range all {
			if !strings.Contains(b.String(), s.Name) {
				t.Errorf("%s: %s missing", format, s.Name)
			}
		}
	}
}

// TestMergeNotes lists conflicts, the invalid rows only when they were
// left out, and notes.
func TestMergeNotes(t *testing.T) {
	rep := db.MergeReport{Conflicts: []db.MergeConflict{{Kind: "runs", Identity: "run 3", Differs: "status solved, not unsolved"}},
		ConflictsNotListed: 2, Invalid: []db.MergeInvalid{{Table: "puzzles", Row: "7", Reason: "breaks a rule"}}, Notes: []string{"n"}}
	for _, tt := range []struct {
		invalid bool
		want    string
	}{
		{false, "conflict: runs: run 3: status solved, not unsolved\nconflict: 2 more not listed\nnote: n\n"},
		{true, "conflict: runs: run 3: status solved, not unsolved\nconflict: 2 more not listed\ninvalid, left out: puzzles 7: breaks a rule\nnote: n\n"},
	} {
		var b bytes.Buffer
		show.MergeNotes(&b, rep, tt.invalid)
		if b.String() != tt.want {
			t.Errorf("MergeNotes(invalid %v) =\n%s\nwant\n%s", tt.invalid, b.String(), tt.want)
		}
	}
}
