package raters_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/raters"
)

// TestReadSEPath reads back the path the se rater writes, and nothing
// from details without one.
func TestReadSEPath(t *testing.T) {
	g := sudokulab.MustParse("..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..")
	r, err := (&raters.SE{}).Rate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := raters.ReadSEPath(r.Details)
	if !ok || len(p.Steps) == 0 || p.ERTechnique == "" || p.EDTechnique == "" {
		t.Errorf("path of %s: %+v, %v", r.Details, p, ok)
	}
	for _, d := range []string{"", "{}", `{"path": []}`, "not json", `{"level": 3}`} {
		if _, ok := raters.ReadSEPath(d); ok {
			t.Errorf("%q: a path", d)
		}
	}
}

// TestExplainSE follows Sudoku Explainer's path through puzzles, from
// singles only to forcing chains: its steps are those the se rating
// lists, each elimination removes a candidate the position still has, the
// steps fill the grid without a conflict, and no step eliminated a digit
// of the grid they fill (the solution); a puzzle that is not 9x9 is
// refused.
func TestExplainSE(t *testing.T) {
	ctx := context.Background()
	for _, s := range []string{
		"..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329..",
		// ER 8.5, Region Forcing Chains (raters/se/testdata/serate-top1465.tsv).
		"6..3.2....4.....8..........7.26............543.........8.15........8.2........7..",
	} {
		g := sudokulab.MustParse(s)
		tr, err := raters.ExplainSE(ctx, g)
		if err != nil || tr.Beyond || len(tr.Steps) == 0 {
			t.Fatalf("%s: %d steps, beyond %v, %v", s, len(tr.Steps), tr.Beyond, err)
		}
		r, err := (&raters.SE{}).Rate(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		path, _ := raters.ReadSEPath(r.Details)
		if len(path.Steps) != len(tr.Steps) {
			t.Fatalf("%s: %d steps, the rating lists %d", s, len(tr.Steps), len(path.Steps))
		}
		pos := raters.NewPosition(g)
		elims := 0
		for i, st := range tr.Steps {
			if want := fmt.Sprintf("%.1f %s", st.Difficulty, st.Technique); !strings.HasPrefix(path.Steps[i], want) {
				t.Errorf("step %d: %q, the rating says %q", i+1, want, path.Steps[i])
			}
			for _, c := range st.Step.Eliminations {
				if !pos.Has(c.Cell, c.Digit) {
					t.Errorf("step %d (%s) eliminates %d from cell %d, not a candidate", i+1, st.Technique, c.Digit, c.Cell)
				}
			}
			elims += len(st.Step.Eliminations)
			pos.Apply(st.Step)
		}
		solution := pos.Grid()
		if !pos.Solved() || solution.Conflicts() != nil {
			t.Fatalf("%s: the steps leave %s", s, solution)
		}
		for i, st := range tr.Steps {
			for _, c := range st.Step.Eliminations {
				if int(solution.Cells[c.Cell]) == c.Digit {
					t.Errorf("step %d (%s) eliminates the solution's %d from cell %d", i+1, st.Technique, c.Digit, c.Cell)
				}
			}
		}
		if elims == 0 && r.Value != nil && *r.Value > 2 {
			t.Errorf("%s: rated %v, but no step eliminates anything", s, *r.Value)
		}
		t.Logf("rated %s: %d steps, %d eliminations", r.Label, len(tr.Steps), elims)
	}
	if _, err := raters.ExplainSE(ctx, sudokulab.MustParse(strings.Repeat(".", 16))); err == nil {
		t.Error("a 4x4 puzzle explained")
	}
}
