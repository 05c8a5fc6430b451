package db_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestRunSelection selects runs on every backend with each field of
// db.RunSelection, alone and together, through ReadQuery as plot and
// compare run it: a '?' in a predicate's string or comment is the
// person's text, not a placeholder, on PostgreSQL too.
func TestRunSelection(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		d := b.open(t)
		puzzle, config, exp := runFixture(t, d)
		ids := addRuns(t, d, puzzle.ID, config, exp, sudokulab.StatusSolved, sudokulab.StatusUnsolved, sudokulab.StatusSolved, sudokulab.StatusError)
		// The work queue links runs to experiments: here "exp" recorded
		// them all, and "second" linked the middle two.
		second, err := db.EnsureExperiment(ctx, d, "second", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.EnsureExperiment(ctx, d, "empty", ""); err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			link := []int64{exp}
			if i == 1 || i == 2 {
				link = append(link, second)
			}
			for _, e := range link {
				if _, err := d.ExecContext(ctx, d.Rebind("INSERT INTO experiment_runs (experiment_id, run_id) VALUES (?, ?)"), e, id); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, tt := range []struct {
			name string
			sel  db.RunSelection
			want string // seeds
		}{
			{"every run", db.RunSelection{}, "[1 2 3 4]"},
			{"experiment", db.RunSelection{Experiment: "exp"}, "[1 2 3 4]"},
			{"linked runs", db.RunSelection{Experiment: "second"}, "[2 3]"},
			{"experiment without runs", db.RunSelection{Experiment: "empty"}, "[]"},
			{"configs", db.RunSelection{Configs: []string{"other", "ga"}}, "[1 2 3 4]"},
			{"other config", db.RunSelection{Configs: []string{"other"}}, "[]"},
			{"runs-where", db.RunSelection{RunsWhere: "status = 'solved'"}, "[1 3]"},
			{"where", db.RunSelection{Where: "givens > 0"}, "[1 2 3 4]"},
			{"where none", db.RunSelection{Where: "givens > 81"}, "[]"},
			{"all fields", db.RunSelection{Experiment: "exp", Configs: []string{"ga"}, Where: "size = 9", RunsWhere: "seed >= 2 -- a comment"}, "[2 3 4]"},
			{"question marks", db.RunSelection{Experiment: "exp", Configs: []string{"ga"}, RunsWhere: "'why?' = 'why' || '?' AND seed < 3 -- really?"}, "[1 2]"},
		} {
			if err := tt.sel.Check(); err != nil {
				t.Fatalf("%s: Check: %v", tt.name, err)
			}
			cond, args := tt.sel.Condition()
			tab, err := d.ReadQuery(ctx, "SELECT r.seed FROM run_results r WHERE "+cond+" ORDER BY r.seed", args...)
			if err != nil {
				t.Fatalf("%s: %v\n%s", tt.name, err, cond)
			}
			var seeds []int64
			for _, row := range tab.Rows {
				seeds = append(seeds, asInt(t, row[0]))
			}
			if got := fmt.Sprint(seeds); got != tt.want {
				t.Errorf("%s: seeds %s, want %s", tt.name, got, tt.want)
			}
		}
		// runs list: the runs an experiment linked are its runs too.
		tab, err := db.RunList(db.RunSelection{Experiment: "second"}, 0)(ctx, d)
		if err != nil || len(tab.Rows) != 2 || asInt(t, tab.Rows[0][0]) != ids[2] || asInt(t, tab.Rows[1][0]) != ids[1] {
			t.Errorf("RunList of second = %v, %v; want runs %d and %d, newest first", tab.Rows, err, ids[2], ids[1])
		}
	})
}

// TestRunSelectionRefuses checks that a selection naming what does not
// exist is an ENOTFOUND error naming it, and that a predicate leaving its
// parentheses is refused before any SQL runs.
func TestRunSelectionRefuses(t *testing.T) {
	ctx := context.Background()
	d := openTemp(t)
	runFixture(t, d)
	for _, tt := range []struct {
		sel  db.RunSelection
		want string
	}{
		{db.RunSelection{Experiment: "nope"}, `no experiment called "nope"`},
		{db.RunSelection{Experiment: "exp", Configs: []string{"ga", "nope"}}, `no configuration called "nope"`},
	} {
		err := db.RequireSelected(ctx, d, tt.sel)
		if sudokulab.ErrorCode(err) != sudokulab.ENOTFOUND || !strings.Contains(fmt.Sprint(err), tt.want) {
			t.Errorf("RequireSelected(%+v) = %v, want ENOTFOUND %q", tt.sel, err, tt.want)
		}
	}
	if err := db.RequireSelected(ctx, d, db.RunSelection{Experiment: "exp", Configs: []string{"ga"}}); err != nil {
		t.Errorf("RequireSelected of what exists: %v", err)
	}
	for _, sel := range []db.RunSelection{{Where: "1) OR (1"}, {RunsWhere: "1; DELETE FROM runs"}} {
		if err := sel.Check(); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
			t.Errorf("Check(%+v) = %v, want EINVALID", sel, err)
		}
	}
}

// FuzzRebindDollar holds the PostgreSQL rebind of ReadQuery to its
// promise: what PostgreSQL reads in the rebound query is what it read
// before, less the '?' placeholders, which become $1, $2, ... in order;
// strings, quoted names and comments are left as they were.
func FuzzRebindDollar(f *testing.F) {
	for _, q := range []string{
		"SELECT ? WHERE a = 'why?' -- really?\n AND b = ?",
		`SELECT "col?" FROM t WHERE x = ? /* ? */ AND y = $$?$$ AND z = E'\'?'`,
		"SELECT $1, ?, $tag$ ? $tag$, ?",
		"SELECT a?, 5?, ?5, ?abc",
		"SELECT 'unclosed ?",
		"",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		before, reason := db.PostgresTokens(q)
		if reason != "" {
			return // rebound as sqlx does: the database refuses it
		}
		out := db.RebindDollar(q)
		after, reason := db.PostgresTokens(out)
		if reason != "" {
			t.Fatalf("%q rebound to %q, which reads no more: %s", q, out, reason)
		}
		var want []string
		n := 0
		for _, tok := range before {
			if tok == "punct ?" {
				n++
				continue
			}
			want = append(want, tok)
		}
		if fmt.Sprint(after) != fmt.Sprint(want) {
			t.Fatalf("%q rebound to %q: tokens %q, want %q", q, out, after, want)
		}
		last := -1
		for k := 1; k <= n; k++ {
			i := strings.Index(out[last+1:], "$"+strconv.Itoa(k))
			if i < 0 {
				t.Fatalf("%q rebound to %q: no $%d after byte %d", q, out, k, last)
			}
			last += 1 + i
		}
	})
}
