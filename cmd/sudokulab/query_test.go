package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// labDB returns a copy of lab.db.example with runs recorded by `run` (the
// exact solver and the stochastic franco-tabu-table2 on reseda-2012, under
// the experiment e1) and a human rating of every puzzle.
func labDB(t *testing.T) string {
	t.Helper()
	path := exampleDB(t)
	for _, config := range []string{"exact", "franco-tabu-table2"} {
		if _, errOut, code := run(t, "--db", path, "run", "--collection", "reseda-2012", "--config", config,
			"--runs", "2", "--max-generations", "300", "--experiment", "e1"); code != 0 {
			t.Fatalf("run %s: exit %d: %s", config, code, errOut)
		}
	}
	ctx := context.Background()
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ps, err := db.ListPuzzles(ctx, d, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		v := float64(i % 3)
		label := []string{"easy", "medium", "hard"}[i%3]
		if err := db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: p.ID, Rater: "human", RaterVersion: "1", Value: &v, Label: label}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestQueryList(t *testing.T) {
	out, errOut, code := run(t, "-O", "csv", "query", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"name,parameters,description\n",
		"\nconvergence,config=NULL collection=NULL experiment=NULL axis=generations,\"Convergence of the best cost",
		"\nreproduce-ga,,\"Our success counts",
		"\nsuccess-by-rating,rater=human experiment=NULL config=NULL,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("query list lacks %q:\n%s", want, out)
		}
	}
	out, _, code = run(t, "query", "show", "hardest-puzzles")
	if code != 0 || !strings.Contains(out, "--param limit=20  how many puzzles to list") || !strings.Contains(out, "LIMIT :limit;") {
		t.Errorf("query show (exit %d):\n%s", code, out)
	}
}

func TestQueryRun(t *testing.T) {
	path := labDB(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "--db", path, "-O", "csv", "query", "success-by-collection",
		"--param", "collection=reseda-2012", "--param", "experiment=e1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 ||
		lines[0] != "config,collection,runs,solved,success_rate,effort_unit,mean_effort_solved,median_effort_solved,mean_generations_solved,median_generations_solved,mean_seconds,mean_cpu_seconds,mean_prefilter_revisions,ert_effort" ||
		!strings.HasPrefix(lines[1], "exact,reseda-2012,8,8,1,") ||
		!strings.HasPrefix(lines[2], "franco-tabu-table2,reseda-2012,8,") {
		t.Errorf("success-by-collection:\n%s", out)
	}
	// An experiment that does not exist is not found, not an empty table;
	// a number is bound as one.
	_, errOut, code = run(t, "--db", path, "-O", "csv", "query", "success-by-collection", "-p", "experiment=nope")
	if code != exitNotFound || !strings.Contains(errOut, `--param experiment: no experiment called "nope"`) {
		t.Errorf("experiment nope: exit %d, %q", code, errOut)
	}
	out, _, code = run(t, "--db", path, "-O", "json", "query", "hardest-puzzles", "--param", "limit=2")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 || rows[0]["hardness_rank"] != 1.0 {
		t.Errorf("hardest-puzzles (exit %d, %v):\n%s", code, err, out)
	}
	out, _, code = run(t, "--db", path, "query", "success-by-rating")
	for _, want := range []string{"easy", "medium", "hard", "exact", "franco-tabu-table2"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("success-by-rating lacks %q:\n%s", want, out)
		}
	}
	// Parameters cannot inject SQL: the value is bound as a string, a
	// configuration name that does not exist.
	_, errOut, code = run(t, "--db", path, "-O", "csv", "query", "success-by-collection",
		"--param", "config=x' OR 1=1; DROP TABLE runs; --")
	if code != exitNotFound || !strings.Contains(errOut, `no configuration called "x' OR 1=1; DROP TABLE runs; --"`) {
		t.Errorf("injected config: exit %d, %q", code, errOut)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("the queries changed the database file")
	}
}

func TestQueryErrors(t *testing.T) {
	path := labDB(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown query", []string{"query", "nope"}, exitNotFound, `no query called "nope"; sudokulab query list lists them (known: collection-summary, convergence,`},
		{"unknown parameter", []string{"query", "history", "--param", "rater=x"}, exitInvalid, `query history has no parameter "rater" (it has: config, collection)`},
		{"no parameters", []string{"query", "reproduce-ga", "--param", "x=1"}, exitInvalid, "query reproduce-ga takes no parameters"},
		{"bad setting", []string{"query", "history", "--param", "config"}, exitInvalid, `--param "config": want NAME=VALUE`},
		{"twice", []string{"query", "history", "-p", "config=a", "-p", "config=b"}, exitInvalid, "--param config given twice"},
		{"two names", []string{"query", "history", "convergence"}, exitInvalid, "query takes one NAME"},
		{"no database", []string{"--db", path + ".missing", "query", "history"}, exitNotFound, "lab.db.missing does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--db", path}, tt.args...)
			_, errOut, code := run(t, args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}
