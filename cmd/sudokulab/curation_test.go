package main

// Issue 16, "Curation without surprises": the command line's part. Each
// test here failed before the change that it checks.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sudokulab/queries"
)

// exampleLab returns a copy of lab.db.example with its runs, ratings and
// experiment.
func exampleLab(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lab.db")
	mustRun(t, "--db", path, "init", "--from", "../../lab.db.example")
	return path
}

// sqlCount returns the value a one-column, one-row SQL query gives.
func sqlCount(t *testing.T, dbPath, query string) string {
	t.Helper()
	out := mustRun(t, "--db", dbPath, "-O", "csv", "sql", query)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// An import that reads no puzzle is an error naming the file and the
// reason, and leaves nothing behind, so that the corrected file imports.
func TestImportOfNothing(t *testing.T) {
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	tests := []struct {
		name, file, content string
		args                []string
		want                string
	}{
		{"empty file", "empty.txt", "", nil, "empty.txt: no puzzle imported: the file is empty"},
		{"nothing parses", "rows.grid", "Grid 01\n1 2 3 | 4;5;6\nabc\n", nil,
			"rows.grid: no puzzle imported: nothing in it reads as a puzzle in the grid format"},
		{"every entry rejected", "short.txt", escargot[:80] + "\n", []string{"--skip-invalid"},
			"short.txt: no puzzle imported: all 1 entries were rejected (the first, line 1: 80 cells, want 81 (9x9): read \"1....7.9..3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errOut, code := run(t, append([]string{"--db", dbPath, "import", path}, tt.args...)...)
			if code != exitInvalid || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, errOut, tt.want)
			}
			if n := sqlCount(t, dbPath, "SELECT (SELECT COUNT(*) FROM imports) + (SELECT COUNT(*) FROM collections) + (SELECT COUNT(*) FROM puzzles)"); n != "0" {
				t.Fatalf("%s imports, collections and puzzles left behind", n)
			}
			// The corrected file imports into the collection it names.
			if err := os.WriteFile(path, []byte(escargot+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out := mustRun(t, "--db", dbPath, "import", "--format", "line", path)
			if !strings.Contains(out, "1 read: 1 new") {
				t.Errorf("corrected import: %s", out)
			}
			mustRun(t, "--db", dbPath, "sql", "--write", "DELETE FROM collection_puzzles; DELETE FROM collections")
			mustRun(t, "--db", dbPath, "sql", "--write", "DELETE FROM imports")
			mustRun(t, "--db", dbPath, "sql", "--write", "DELETE FROM puzzles")
		})
	}
}

// A missing collection, puzzle, configuration or experiment is exit 3
// naming it, in every command that takes one.
func TestMissingIsNotFound(t *testing.T) {
	dbPath := exampleLab(t)
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"rate --collection", []string{"rate", "--rater", "givens", "--collection", "nosuch"}, `no collection "nosuch"`},
		{"puzzles list --collection", []string{"puzzles", "list", "--collection", "nosuch"}, `no collection "nosuch"`},
		{"count --collection", []string{"count", "--collection", "nosuch"}, `no collection "nosuch"`},
		{"run --collection", []string{"run", "--collection", "nosuch", "--solver", "exact"}, `no collection "nosuch"`},
		{"export --collection", []string{"export", "--collection", "nosuch", "-o", out}, `"nosuch"`},
		{"collections show", []string{"collections", "show", "nosuch"}, `no collection "nosuch"`},
		{"collections rm", []string{"collections", "rm", "nosuch"}, `"nosuch"`},
		{"puzzles show", []string{"puzzles", "show", "9999"}, "no puzzle with id 9999"},
		{"configs show", []string{"configs", "show", "nosuch"}, `no configuration called "nosuch"`},
		{"run --config", []string{"run", "--collection", "reseda-2012", "--config", "nosuch"}, `no configuration called "nosuch"`},
		{"runs list --config", []string{"runs", "list", "--config", "nosuch"}, `no configuration called "nosuch"`},
		{"runs list --experiment", []string{"runs", "list", "--experiment", "nosuch"}, `no experiment called "nosuch"`},
		{"runs show", []string{"runs", "show", "99999"}, "99999"},
		{"experiments show", []string{"experiments", "show", "nosuch"}, `no experiment called "nosuch"`},
		{"query", []string{"query", "nosuch"}, `no query called "nosuch"`},
		{"query show", []string{"query", "show", "nosuch"}, `no query called "nosuch"`},
		{"query --param collection", []string{"query", "success-by-collection", "--param", "collection=nosuch"}, `no collection called "nosuch"`},
		{"query --param config", []string{"query", "success-by-collection", "--param", "config=nosuch"}, `no configuration called "nosuch"`},
		{"query --param experiment", []string{"query", "success-by-collection", "--param", "experiment=nosuch"}, `no experiment called "nosuch"`},
	}
	before := sqlCount(t, dbPath, "SELECT (SELECT COUNT(*) FROM ratings) || '/' || (SELECT COUNT(*) FROM experiments) || '/' || (SELECT COUNT(*) FROM runs)")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			if code != exitNotFound || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 3 and %q", code, stdout, errOut, tt.want)
			}
		})
	}
	if after := sqlCount(t, dbPath, "SELECT (SELECT COUNT(*) FROM ratings) || '/' || (SELECT COUNT(*) FROM experiments) || '/' || (SELECT COUNT(*) FROM runs)"); after != before {
		t.Errorf("ratings/experiments/runs %s before, %s after", before, after)
	}
}

// One meaning per flag name: --format is a file format, --output-format
// (-O) the table, csv or json output, --where filters puzzle_catalog; usage
// errors are one line with the fix.
func TestFlagConventions(t *testing.T) {
	dbPath := exampleLab(t)
	file := filepath.Join(t.TempDir(), "escargot.txt")
	if err := os.WriteFile(file, []byte(escargot+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"old global --format", []string{"--format", "json", "puzzles", "list"}, exitInvalid,
			"for table, csv or json output use --output-format (-O): sudokulab -O json puzzles list"},
		{"--format json on import", []string{"--format", "json", "import", file}, exitInvalid,
			"--format json reads the files as json (--format is the files' format); for json output use --output-format json (-O json)"},
		{"-O json on import", []string{"-O", "json", "import", file}, 0, `"read":1`},
		{"bad -O", []string{"-O", "xml", "formats"}, exitInvalid, `--output-format "xml": want table, csv or json`},
		{"--format on rate without files", []string{"rate", "--rater", "givens", "--format", "csv"}, exitInvalid, "--format is for rate FILE..."},
		{"mistyped flag", []string{"puzzles", "list", "--collecton", "reseda-2012"}, exitInvalid,
			"unknown flag: --collecton (did you mean --collection?); see sudokulab puzzles list --help"},
		{"mistyped command", []string{"puzles", "list"}, exitInvalid, `unknown command "puzles" for "sudokulab" (did you mean puzzles?); see sudokulab --help`},
		{"mistyped subcommand", []string{"puzzles", "lst"}, exitInvalid, `unknown command "lst" for "sudokulab puzzles" (did you mean list?); see sudokulab puzzles --help`},
		{"missing subcommand", []string{"runs"}, exitInvalid, "missing subcommand, one of list, show; see sudokulab runs --help"},
		{"query without a name", []string{"query"}, exitInvalid, "query needs a NAME: sudokulab query NAME runs one; sudokulab query list lists them"},
		{"mistyped query", []string{"query", "hardest-puzzle"}, exitNotFound, `no query called "hardest-puzzle" (did you mean hardest-puzzles?)`},
		{"missing argument", []string{"configs", "show"}, exitInvalid, "sudokulab configs show takes 1 argument(s), got 0; see sudokulab configs show --help"},
		{"sql without --write", []string{"sql", "DELETE FROM puzzles"}, exitInvalid, "add --write to allow it"},
		{"sql starting with a comment", []string{"sql", "-- count\nSELECT 1"}, exitInvalid, "put -- before it"},
		{"--where filters puzzle_catalog in runs list", []string{"-O", "csv", "runs", "list", "--where", "collection = 'reseda-2012'", "--limit", "1"}, 0, "id,experiment,config"},
		{"--runs-where filters run_results", []string{"-O", "csv", "runs", "list", "--runs-where", "config = 'exact'", "--limit", "1"}, 0, ",exact,"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			got := errOut
			if tt.code == 0 {
				got = stdout
			}
			if code != tt.code || !strings.Contains(got, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, errOut, tt.code, tt.want)
			}
			if code == exitInvalid && (strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "Usage:")) {
				t.Errorf("a usage error is one line, not the usage: %q", errOut)
			}
		})
	}
}

// Every flag named where filters puzzle_catalog and says so; every
// --format names a file format; every -o/--output is a file.
func TestFlagNamesMeanOneThing(t *testing.T) {
	fileFormats := map[string]bool{"sudokulab import": true, "sudokulab export": true, "sudokulab export-runs": true,
		"sudokulab rate": true, "sudokulab check": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			switch f.Name {
			case "where":
				if !strings.Contains(f.Usage, "puzzle_catalog") {
					t.Errorf("%s --where: help %q does not say it filters puzzle_catalog", c.CommandPath(), f.Usage)
				}
			case "runs-where":
				if !strings.Contains(f.Usage, "run_results") {
					t.Errorf("%s --runs-where: help %q does not say it filters run_results", c.CommandPath(), f.Usage)
				}
			case "format":
				if !f.Hidden && !fileFormats[c.CommandPath()] {
					t.Errorf("%s has a --format that is no file format", c.CommandPath())
				}
			case "output":
				if f.Shorthand != "o" {
					t.Errorf("%s --output has shorthand %q, want o", c.CommandPath(), f.Shorthand)
				}
			}
			if f.Shorthand == "O" && f.Name != "output-format" || f.Shorthand == "o" && f.Name != "output" {
				t.Errorf("%s: -%s is --%s", c.CommandPath(), f.Shorthand, f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

// Every command that prints something prints JSON with -O json: nested
// objects, never a JSON document inside a string.
func TestJSONEverywhere(t *testing.T) {
	dbPath := exampleLab(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "escargot.txt")
	if err := os.WriteFile(file, []byte(escargot+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	mustRun(t, "--db", other, "init", "--from", "../../lab.db.example")
	qs, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"--db", filepath.Join(dir, "new.db"), "init"},
		{"migrate", "status"},
		{"migrate", "up"},
		{"formats"},
		{"solvers"},
		{"solve", escargot},
		{"check", file},
		{"rate", "--rater", "givens", file},
		{"import", file, "--collection", "mine"},
		{"puzzles", "add", "--collection", "mine", "1...4.....1....."},
		{"puzzles", "list", "--limit", "3"},
		{"puzzles", "show", "4"},
		{"collections", "list"},
		{"collections", "show", "reseda-2012"},
		{"collections", "add", "few", "--where", "givens < 25"},
		{"collections", "rm", "few"},
		{"configs", "add", "tabu-10", "--solver", "franco-tabu", "--set", "tabu-list-size=10"},
		{"configs", "list"},
		{"configs", "show", "franco-table3"},
		{"run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "1", "--experiment", "j"},
		{"run", "--collection", "reseda-2012", "--solver", "exact", "--runs", "2", "--experiment", "k", "--enqueue-only"},
		{"worker", "--experiment", "k"},
		{"experiments", "list"},
		{"experiments", "show", "example-samples"},
		{"runs", "list", "--limit", "3"},
		{"runs", "show", "1"},
		{"rate", "--rater", "givens", "--collection", "reseda-2012", "--force"},
		{"count"},
		{"dedupe", "--report"},
		{"query", "list"},
		{"query", "show", "hardest-puzzles"},
		{"sql", "SELECT metadata, options FROM collection_puzzles, ratings LIMIT 2"},
		{"sql", "--write", "UPDATE experiments SET description = 'x' WHERE name = 'j'"},
		{"merge", other},
	}
	for _, q := range qs {
		steps = append(steps, []string{"query", q.Name})
	}
	for _, args := range steps {
		name := strings.Join(args, " ")
		if args[0] != "--db" {
			args = append([]string{"--db", dbPath}, args...)
		}
		stdout, errOut, code := run(t, append([]string{"-O", "json"}, args...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errOut)
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Errorf("%s: not JSON: %v\n%s", name, err, stdout)
			continue
		}
		if path, s := jsonInString(v, name); path != "" {
			t.Errorf("%s: %s is a JSON document in a string: %.80s", name, path, s)
		}
	}
}

// jsonInString returns the path of the first string in v that holds a
// JSON object or array, and the string.
func jsonInString(v any, path string) (string, string) {
	switch x := v.(type) {
	case string:
		t := strings.TrimSpace(x)
		if t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
			return path, x
		}
	case []any:
		for i, e := range x {
			if p, s := jsonInString(e, path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p, s
			}
		}
	case map[string]any:
		for k, e := range x {
			if p, s := jsonInString(e, path+"."+k); p != "" {
				return p, s
			}
		}
	}
	return "", ""
}

// rate FILE... and check FILE... read puzzle files without a database:
// one row per puzzle, in the order of the files, on several goroutines.
func TestRateAndCheckFiles(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "none.db")
	mixed := filepath.Join("testdata", "files", "mixed.txt")
	second := filepath.Join("testdata", "files", "second.txt")
	golden(t, "check-files.csv", mustRun(t, "--db", dbPath, "-O", "csv", "check", "--jobs", "4", mixed, second))
	golden(t, "rate-files.csv", mustRun(t, "--db", dbPath, "-O", "csv", "rate", "--rater", "givens", "--jobs", "4", mixed, second))
	out := mustRun(t, "--db", dbPath, "-O", "json", "check", mixed)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 5 {
		t.Fatalf("check -O json: %v, %d rows:\n%s", err, len(rows), out)
	}
	if rows[0]["valid"] != true || rows[1]["solutions"] != "2+" || rows[3]["solutions"] != 0.0 || !strings.HasPrefix(rows[4]["problem"].(string), "80 cells, want 81 (9x9): read ") {
		t.Errorf("check -O json: %v", rows)
	}
	if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
		t.Errorf("rate and check FILE... made a database: %v", err)
	}

	// Many puzzles on many goroutines come out in input order.
	var b strings.Builder
	var grids []string
	for i := range 60 {
		g := []byte(escargot)
		// Relabel 1 and the i-th symbol: another valid puzzle each time.
		a, c := byte('1'), byte('1'+i%9)
		for j := range g {
			switch g[j] {
			case a:
				g[j] = c
			case c:
				g[j] = a
			}
		}
		grids = append(grids, string(g))
		b.WriteString(string(g) + "\n")
	}
	many := filepath.Join(dir, "many.txt")
	if err := os.WriteFile(many, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mustRun(t, "--db", dbPath, "-O", "csv", "check", "--jobs", "8", many)
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(lines) != len(grids) {
		t.Fatalf("%d rows for %d puzzles", len(lines), len(grids))
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, many+","+strconv.Itoa(i+1)+",") {
			t.Fatalf("row %d is %q: out of order", i+1, l)
		}
	}

	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty file", []string{"check", filepath.Join("testdata", "files", "empty.txt")}, exitInvalid, "empty.txt: no puzzle read: the file is empty"},
		{"missing file", []string{"check", filepath.Join(dir, "nosuch.txt")}, exitInvalid, "nosuch.txt"},
		{"rater reading the database", []string{"rate", "--rater", "empirical", mixed}, exitInvalid, "rater empirical reads the database"},
		{"--collection with files", []string{"rate", "--rater", "givens", "--collection", "x", mixed}, exitInvalid, "--collection selects stored puzzles"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// check and rate FILE... take --puzzle-column as import does: the CSV
// error that suggests the flag is followed by one that reads.
func TestRateAndCheckFilesPuzzleColumn(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "none.db")
	file := fixture("csv/no-grid-column.csv")
	for _, cmd := range [][]string{{"check"}, {"rate", "--rater", "givens"}} {
		_, errOut, code := run(t, append(append([]string{"--db", dbPath}, cmd...), file)...)
		if code != exitInvalid || !strings.Contains(errOut, "name it with --puzzle-column") {
			t.Fatalf("%s without --puzzle-column: exit %d %q", cmd[0], code, errOut)
		}
		out := mustRun(t, append(append([]string{"--db", dbPath, "-O", "csv"}, cmd...), "--puzzle-column", "board_text", file)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[1], file+",2,") || !strings.Contains(lines[1], `"8 cells, want 16`) ||
			!strings.HasPrefix(lines[2], file+",3,,9,35,1,") {
			t.Errorf("%s --puzzle-column:\n%s", cmd[0], out)
		}
	}
	if _, errOut, code := run(t, "--db", dbPath, "rate", "--rater", "givens", "--puzzle-column", "x"); code != exitInvalid || !strings.Contains(errOut, "--puzzle-column is for rate FILE...") {
		t.Errorf("--puzzle-column without files: exit %d %q", code, errOut)
	}
}

// Shell completion offers the names of configurations, collections,
// solvers, raters, queries and experiments, never file names.
func TestCompletion(t *testing.T) {
	dbPath := exampleLab(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"--config", []string{"run", "--config", "franco-t"}, "franco-table3"},
		{"--collection", []string{"puzzles", "list", "--collection", ""}, "reseda-2012"},
		{"--solver", []string{"run", "--solver", "ex"}, "exact"},
		{"--rater", []string{"rate", "--rater", "hu"}, "human"},
		{"--experiment", []string{"runs", "list", "--experiment", ""}, "example-samples"},
		{"configs show", []string{"configs", "show", "sato-inoue-mut"}, "sato-inoue-mut-cross-ls"},
		{"query", []string{"query", "hardest"}, "hardest-puzzles"},
		{"-O", []string{"-O", ""}, "json"},
		{"import --format", []string{"import", "--format", "l"}, "line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"__complete", "--db", dbPath}, tt.args...)...)
			if code != 0 || !strings.Contains(out, "\n"+tt.want+"\n") && !strings.HasPrefix(out, tt.want+"\n") {
				t.Errorf("exit %d, completions %q (%s); want %q", code, out, errOut, tt.want)
			}
			if !strings.HasSuffix(strings.TrimSpace(out), ":4") {
				t.Errorf("completions %q do not turn file names off (:4)", out)
			}
		})
	}
}
