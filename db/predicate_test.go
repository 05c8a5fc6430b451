package db_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
)

// escapes are predicates that leave the parentheses they are pasted into
// on the engines named: pasted unchecked into "1 = 0 AND (...)", they
// select rows there. Every one must be refused.
var escapes = []struct {
	name, where string
	engines     []string // where the raw statement selects rows
}{
	{"close and reopen", "1=0) OR (1=1", []string{"sqlite", "postgres"}},
	{"plain integers", "0) OR (1", []string{"sqlite"}},
	{"escape string", `collection = E'\'' ) OR (1=1 --'`, []string{"postgres"}},
	{"dollar string", "1=0 AND $a$ ( $a$ = '' ) OR (1=1", []string{"postgres"}},
	{"comment ends at the first */", "1=0 /* /* */ ) OR (1=1 /* */", []string{"sqlite"}},
	{"open only", "(1=1", nil},
	{"unclosed string", "collection = ') OR (1=1", nil},
	{"unclosed quoted name", `"x) OR (1=1`, nil},
	{"unclosed comment", "1=1 /* ) OR (1=1", nil},
	{"backslash in a plain string", `collection = '\'' ) OR (1=1 --'`, nil},
	{"tcl variable", "$a(() ) OR (1=1", nil},
	{"dollar after a number", "1$a$ ( $a$ ) OR (1=1", nil},
	{"two statements", "1=1; DELETE FROM puzzles", nil},
	{"NUL byte", "1=1\x00) OR (1=1", nil},
}

// insiders are predicates whose parentheses, quotes and comments stay
// inside: both engines evaluate them as one condition.
var insiders = []string{
	"collection = ')'",
	"collection = 'it''s (' OR givens > 0",
	`"collection" = ')' OR givens > 0`,
	"/* ) */ givens > 0",
	"givens > 0 -- ) OR (1=1",
	"(givens > 0) AND ((collection IS NULL) OR (collection <> '('))",
	"COALESCE(collection, '') NOT LIKE '%)%'",
}

// TestPredicateCannotLeave pastes each escape, unchecked, into a
// statement to show what it would do, then gives it to the store
// functions that take a predicate: each refuses it. The insiders are
// evaluated as single conditions.
func TestPredicateCannotLeave(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		pp := paperdata.MustGet("ai-escargot")
		p := sudokulab.Puzzle{Givens: pp.Puzzle}
		if _, _, err := db.AddPuzzle(ctx, d, &p); err != nil {
			t.Fatal(err)
		}
		cfg := sudokulab.Config{Name: "c", Solver: "exact", Params: "{}"}
		cfgID, _, err := db.EnsureConfig(ctx, d, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := db.EnsureExperiment(ctx, d, "e", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range escapes {
			t.Run(e.name, func(t *testing.T) {
				raw, err := d.ReadQuery(ctx, "SELECT id FROM puzzle_catalog WHERE 1 = 0 AND ("+e.where+"\n)")
				if escapes := err == nil && len(raw.Rows) > 0; escapes != contains(e.engines, b.name) {
					t.Errorf("pasted unchecked: %d rows, %v; want rows only on %v", len(raw.Rows), err, e.engines)
				}
				wantCode(t, db.CheckPredicate(e.where), sudokulab.EINVALID)
				_, err = db.ListPuzzles(ctx, d, e.where, 0)
				wantCode(t, err, sudokulab.EINVALID)
				spec := db.PlanSpec{ExperimentID: exp, ConfigIDs: []int64{cfgID}, Where: e.where, FirstSeed: 1, SeedCount: 1}
				_, err = db.CountPlanPuzzles(ctx, d, spec)
				wantCode(t, err, sudokulab.EINVALID)
				_, err = db.PlanDone(ctx, d, spec)
				wantCode(t, err, sudokulab.EINVALID)
				_, err = db.Enqueue(ctx, d, spec, nil)
				wantCode(t, err, sudokulab.EINVALID)
				_, err = db.RunTable(ctx, d, e.where, 0)
				wantCode(t, err, sudokulab.EINVALID)
			})
		}
		for _, w := range insiders {
			if err := db.CheckPredicate(w); err != nil {
				t.Errorf("%q refused: %v", w, err)
				continue
			}
			got, err := d.ReadQuery(ctx, "SELECT COUNT(*) FROM puzzle_catalog WHERE 1 = 0 AND ("+w+"\n)")
			if err != nil || len(got.Rows) != 1 || db.Number(got.Rows[0][0]) != 0 {
				t.Errorf("%q pasted: %v, %v; want one count of 0", w, got.Rows, err)
			}
			if _, err := db.ListPuzzles(ctx, d, w, 0); err != nil {
				t.Errorf("ListPuzzles(%q): %v", w, err)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// FuzzCheckPredicate holds CheckPredicate to its promise on SQLite: a
// predicate it accepts, pasted into "1 = 0 AND (...)" over a table that
// has a row, selects nothing (or is an error).
func FuzzCheckPredicate(f *testing.F) {
	for _, e := range escapes {
		f.Add(e.where)
	}
	for _, w := range insiders {
		f.Add(w)
	}
	d, err := db.Open(context.Background(), filepath.Join(f.TempDir(), "lab.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer d.Close()
	f.Fuzz(func(t *testing.T, where string) {
		if db.CheckPredicate(where) != nil || strings.TrimSpace(where) == "" {
			return
		}
		got, err := d.ReadQuery(context.Background(), "SELECT 1 FROM (SELECT 1 AS id, ')' AS collection, 30 AS givens) t WHERE 1 = 0 AND ("+where+"\n)")
		if err == nil && len(got.Rows) > 0 {
			t.Errorf("%q left its parentheses: %v", where, got.Rows)
		}
	})
}
