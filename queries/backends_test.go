package queries_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/internal/paperdata"
	"sudokulab/internal/pgtest"
	"sudokulab/queries"
	"sudokulab/runner"
	"sudokulab/solvers"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestQueriesOnBothBackends fills a SQLite lab and a PostgreSQL lab with
// the same data and runs every shipped query on both, with its defaults
// (which must give rows) and again with its filtering parameters set: each
// must succeed on both with the same columns and the same number of rows,
// and the same values where they are exact (integers, text; not real
// numbers, which the engines compute and print differently, nor
// timestamps).
func TestQueriesOnBothBackends(t *testing.T) {
	ctx := context.Background()
	lite, err := db.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	pg, err := db.Open(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	labs := []*db.DB{lite, pg}
	for _, d := range labs {
		fillLab(t, d)
	}
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	// Values for the parameters that filter, to run each query filtered too.
	filters := map[string]string{"config": "exact", "collection": "reseda-2012", "experiment": "tabu-caso1", "rater": "givens"}
	for _, q := range qs {
		t.Run(q.Name, func(t *testing.T) {
			if rows := compareBackends(t, labs, q, nil); rows == 0 {
				t.Errorf("no rows on either backend")
			}
			given := map[string]string{}
			for _, p := range q.Params {
				if v, ok := filters[p.Name]; ok {
					given[p.Name] = v
				}
			}
			if len(given) > 0 {
				compareBackends(t, labs, q, given)
			}
		})
	}
}

// compareBackends runs q with the parameters on both labs and compares
// the results; it returns the number of rows.
func compareBackends(t *testing.T, labs []*db.DB, q queries.Query, params map[string]string) int {
	t.Helper()
	sql, args, err := q.Bind(params)
	if err != nil {
		t.Fatal(err)
	}
	var tabs []db.Table
	for _, d := range labs {
		tab, err := d.ReadQuery(context.Background(), sql, args...)
		if err != nil {
			t.Fatalf("%s with %v: %v", d.Engine(), params, err)
		}
		tabs = append(tabs, tab)
	}
	a, b := tabs[0], tabs[1]
	if !slices.Equal(a.Columns, b.Columns) {
		t.Fatalf("with %v, columns differ:\nSQLite     %v\nPostgreSQL %v", params, a.Columns, b.Columns)
	}
	if len(a.Rows) != len(b.Rows) {
		t.Fatalf("with %v, SQLite gives %d rows, PostgreSQL %d", params, len(a.Rows), len(b.Rows))
	}
	exact := exactColumns(a, b)
	ra, rb := projectRows(a, exact), projectRows(b, exact)
	if !slices.Equal(ra, rb) {
		var cols []string
		for i, ok := range exact {
			if ok {
				cols = append(cols, a.Columns[i])
			}
		}
		t.Errorf("with %v, the exact columns %v differ (rows sorted):\nSQLite\n  %s\nPostgreSQL\n  %s",
			params, cols, strings.Join(ra, "\n  "), strings.Join(rb, "\n  "))
	}
	return len(a.Rows)
}

// fillLab stores the papers' puzzles in collections, every preset, runs
// of the exact solver and of stochastic presets (the tabu search under two
// code versions; NB-COIN, a GA and RESEDA in the experiments the
// reproduction queries read), two raters' ratings and symmetry forms: the
// same rows in any database, in the same order, so that ids agree.
func fillLab(t *testing.T, d *db.DB) {
	t.Helper()
	ctx := context.Background()
	ids := map[string]int64{}
	err := d.WithTx(ctx, func(tx *sqlx.Tx) error {
		all, err := db.EnsureCollection(ctx, tx, "paper-puzzles", "")
		if err != nil {
			return err
		}
		reseda, err := db.EnsureCollection(ctx, tx, "reseda-2012", "")
		if err != nil {
			return err
		}
		nbcoin, err := db.EnsureCollection(ctx, tx, "nb-coin", "")
		if err != nil {
			return err
		}
		sato, err := db.EnsureCollection(ctx, tx, "sato-inoue-2010", "")
		if err != nil {
			return err
		}
		for _, p := range paperdata.All() {
			one := 1
			pz := &sudokulab.Puzzle{Givens: p.Puzzle, Solution: p.Solution, SolutionCount: &one}
			if _, _, err := db.AddPuzzle(ctx, tx, pz); err != nil {
				return err
			}
			ids[p.Name] = pz.ID
			cols := []int64{all}
			if strings.HasPrefix(p.Paper, "reseda") {
				cols = append(cols, reseda)
			}
			if strings.HasPrefix(p.Name, "sato-no") {
				cols = append(cols, nbcoin)
			}
			if strings.HasPrefix(p.Paper, "ga-building-blocks") {
				cols = append(cols, sato)
			}
			for _, c := range cols {
				if err := db.AddMembership(ctx, tx, sudokulab.Membership{CollectionID: c, PuzzleID: pz.ID, Label: p.Name, Metadata: `{"level":"` + p.Level + `"}`}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reg := solvers.Default()
	if err := runner.SyncPresets(ctx, d, reg); err != nil {
		t.Fatal(err)
	}
	load := func(names ...string) []runner.Config {
		var out []runner.Config
		for _, name := range names {
			c, err := runner.LoadConfig(ctx, d, reg, name)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		return out
	}
	experiment := func(name string) int64 {
		id, err := db.EnsureExperiment(ctx, d, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	puzzles := func(where string) []sudokulab.Puzzle {
		ps, err := db.ListPuzzles(ctx, d, where, 0)
		if err != nil || len(ps) == 0 {
			t.Fatalf("puzzles %q: %d, %v", where, len(ps), err)
		}
		return ps
	}
	plans := []struct {
		plan    runner.Plan
		version string
	}{
		{runner.Plan{Puzzles: puzzles("collection = 'reseda-2012'"), Configs: load("exact", "franco-tabu-table2"), Seeds: []int64{1, 2},
			Budget: sudokulab.Budget{MaxGenerations: 300}, ExperimentID: experiment("tabu-caso1")}, "v1"},
		{runner.Plan{Puzzles: puzzles("collection = 'reseda-2012'"), Configs: load("exact", "franco-tabu-table2"), Seeds: []int64{3, 4},
			Budget: sudokulab.Budget{MaxGenerations: 300}, ExperimentID: experiment("tabu-caso1")}, "v2"},
		{runner.Plan{Puzzles: puzzles("label IN ('sato-no1', 'sato-no11')"), Configs: load("nb-coin-table2"), Seeds: []int64{1, 2},
			Budget: sudokulab.Budget{MaxGenerations: 50}, ExperimentID: experiment("nb-coin-table2")}, "v2"},
		{runner.Plan{Puzzles: puzzles("label = 'sato-no1'"), Configs: load("sato-inoue-mut-cross-ls"), Seeds: []int64{1},
			Budget: sudokulab.Budget{MaxGenerations: 30}, ExperimentID: experiment("ga-table1")}, "v2"},
		{runner.Plan{Puzzles: puzzles("label = 'reseda-easy'"), Configs: load("reseda-table1-both-a0.7"), Seeds: []int64{1},
			Budget: sudokulab.Budget{MaxGenerations: 30}, ExperimentID: experiment("reseda-table1")}, "v2"},
	}
	for _, p := range plans {
		if _, err := runner.Execute(ctx, d, p.plan, runner.Options{Jobs: 2, Trace: runner.DefaultTrace, CodeVersion: p.version, Host: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	labels := []string{"easy", "medium", "hard"}
	for i, p := range paperdata.All() {
		givens := float64(p.Givens)
		score := float64((i * 7) % 5)
		for _, r := range []sudokulab.Rating{
			{PuzzleID: ids[p.Name], Rater: "givens", RaterVersion: "1", Value: &givens},
			{PuzzleID: ids[p.Name], Rater: "human", RaterVersion: "1", Value: &score, Label: labels[i%len(labels)]},
		} {
			if err := db.UpsertRating(ctx, d, r); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SetSymmetryForm(ctx, d, ids[p.Name], fmt.Sprintf("form-%d", min(i%4, 2))); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	integerText   = regexp.MustCompile(`^-?[0-9]+$`)
	decimalText   = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)
	timestampText = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T`)
	decimalInText = regexp.MustCompile(`-?[0-9]+\.[0-9]+`)
)

// cell returns the comparable form of a value and whether it is exact:
// NULL, integers (PostgreSQL gives SUM over BIGINT as numeric text) and
// text, with the decimal numbers inside text written in their shortest
// form (SQLite's 0.5 is PostgreSQL's 0.50). Reals and PostgreSQL's
// numeric fractions are not exact, nor are timestamps.
func cell(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "NULL", true
	case int64:
		return strconv.FormatInt(v, 10), true
	case int32:
		return strconv.FormatInt(int64(v), 10), true
	case bool:
		return fmt.Sprint(v), true
	case string:
		switch {
		case integerText.MatchString(v):
			return strings.TrimPrefix(v, "+"), true
		case decimalText.MatchString(v), timestampText.MatchString(v):
			return "", false
		}
		return decimalInText.ReplaceAllStringFunc(v, func(s string) string {
			f, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(f, 'g', -1, 64)
		}), true
	}
	return "", false
}

// exactColumns reports, per column, whether every value of both tables is
// exact.
func exactColumns(tabs ...db.Table) []bool {
	exact := make([]bool, len(tabs[0].Columns))
	for i := range exact {
		exact[i] = true
		for _, tab := range tabs {
			for _, row := range tab.Rows {
				if _, ok := cell(row[i]); !ok {
					exact[i] = false
				}
			}
		}
	}
	return exact
}

// projectRows returns the rows' exact columns, one line per row, sorted:
// the engines order NULLs and ties differently.
func projectRows(tab db.Table, exact []bool) []string {
	var out []string
	for _, row := range tab.Rows {
		var parts []string
		for i, v := range row {
			if exact[i] {
				s, _ := cell(v)
				parts = append(parts, s)
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	slices.Sort(out)
	return out
}
