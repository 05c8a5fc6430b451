package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/symmetry"
)

// fixture names a file of the importers' test data.
func fixture(name string) string { return filepath.Join("..", "..", "importers", "testdata", name) }

// mustRun runs the command line and fails the test unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("sudokulab %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func TestImportCommand(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	out := mustRun(t, "--db", dbPath, "import", fixture("line/top.txt"), fixture("csv/forum.csv"))
	for _, want := range []string{"top.txt: line format, 3 read: 3 new, 0 duplicate, 0 rejected; collection top (import 1)",
		"forum.csv: csv format, 2 read: 0 new, 2 duplicate, 0 rejected; collection forum (import 2)",
		`note: line 1: title "The hardest sudokus, 2011-06 (a sample)"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "--db", dbPath, "import", fixture("line/top.txt"))
	if !strings.Contains(out, "top.txt: already imported into collection top (import 1") || !strings.Contains(out, "nothing changed") {
		t.Errorf("second import: %s", out)
	}
	out = mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT p.collection, p.label, cp.source_line FROM puzzle_catalog p JOIN collection_puzzles cp ON cp.puzzle_id = p.id AND cp.collection_id = p.collection_id WHERE givens = 23 ORDER BY collection")
	if out != "collection,label,source_line\nforum,escargot,3\ntop,,4\n" {
		t.Errorf("memberships of the escargot:\n%s", out)
	}

	// A bad file imports nothing and says where and why.
	_, errOut, code := run(t, "--db", dbPath, "import", fixture("line/bad-80.sdm"))
	if code != exitInvalid || !strings.Contains(errOut, "bad-80.sdm:3: 80 cells, want 81") {
		t.Errorf("bad file: exit %d, %q", code, errOut)
	}
	out = mustRun(t, "--db", dbPath, "import", "--skip-invalid", fixture("line/bad-80.sdm"))
	if !strings.Contains(out, "2 new, 1 duplicate, 1 rejected") || !strings.Contains(out, "rejected "+fixture("line/bad-80.sdm")+":3: 80 cells, want 81") {
		t.Errorf("--skip-invalid: %s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "--format", "xml", fixture("line/top.txt")}, `unknown format "xml"`},
		{[]string{"import", "--symbols", "Q", fixture("grid/hex16.txt")}, `--symbols "Q"`},
		{[]string{"import", fixture("grid/ambiguous16.txt")}, "say which with --symbols 0-F or --symbols 1-G"},
		{[]string{"import", "--rating-column", "ER", fixture("csv/forum.csv")}, "want COLUMN=RATER"},
		{[]string{"import"}, "requires at least 1 arg"},
	} {
		_, errOut, code := run(t, append([]string{"--db", dbPath}, tt.args...)...)
		if code != exitInvalid || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tt.args, code, errOut, exitInvalid, tt.want)
		}
	}
	mustRun(t, "--db", dbPath, "import", "--symbols", "0-F", "--collection", "big", fixture("grid/ambiguous16.txt"))
}

// TestExportImportRoundTrip exports a collection in every format and
// imports it into a new database: the same puzzles, labels and metadata.
func TestExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := initDB(t, filepath.Join(dir, "src.db"))
	mustRun(t, "--db", src, "import", "--collection", "mix", fixture("line/top.txt"), fixture("csv/tab.tsv"), fixture("sdk/escargot.sdk"))
	query := "SELECT p.position, p.grid, p.solution_count, p.label, cp.metadata FROM puzzle_catalog p JOIN collection_puzzles cp ON cp.puzzle_id = p.id AND cp.collection_id = p.collection_id WHERE p.collection = 'mix' ORDER BY p.position"
	gridsOnly := "SELECT position, grid, solution_count FROM puzzle_catalog WHERE collection = 'mix' ORDER BY position"
	ratings := "SELECT grid, rater, value FROM rating_table ORDER BY grid, rater"
	for _, tt := range []struct {
		format string
		full   bool // labels and metadata too
	}{
		{"line", true}, {"csv", true}, {"json", true}, {"opensudoku", true}, {"sdm", false}, {"grid", false}, {"sdk", false}, {"ss", false},
	} {
		t.Run(tt.format, func(t *testing.T) {
			out := filepath.Join(dir, "mix."+tt.format)
			mustRun(t, "--db", src, "export", "--collection", "mix", "--format", tt.format, "-o", out)
			dst := initDB(t, filepath.Join(dir, tt.format+".db"))
			args := []string{"--db", dst, "import", "--collection", "mix", "--format", tt.format}
			if tt.format == "sdk" || tt.format == "ss" {
				// A file per puzzle, named after the label; in the order of
				// the export.
				entries, err := os.ReadDir(out)
				if err != nil || len(entries) != 5 {
					t.Fatalf("%d files (%v)", len(entries), err)
				}
				for _, e := range entries {
					mustRun(t, append(args, filepath.Join(out, e.Name()))...)
				}
				q := "SELECT grid FROM puzzles ORDER BY grid"
				if a, b := mustRun(t, "--db", src, "sql", q), mustRun(t, "--db", dst, "sql", q); a != b {
					t.Errorf("puzzles differ:\n%s\n%s", a, b)
				}
				return
			}
			mustRun(t, append(args, out)...)
			q := gridsOnly
			if tt.full {
				q = query
			}
			if a, b := mustRun(t, "--db", src, "sql", q), mustRun(t, "--db", dst, "sql", q); a != b {
				t.Errorf("after export and import:\n%s\nwant\n%s", b, a)
			}
			if tt.format == "csv" || tt.format == "json" {
				if a, b := mustRun(t, "--db", src, "sql", ratings), mustRun(t, "--db", dst, "sql", ratings); a != b {
					t.Errorf("ratings after export and import:\n%s\nwant\n%s", b, a)
				}
			}
		})
	}
	// To standard output, with --where.
	out := mustRun(t, "--db", src, "export", "--where", "givens = 17", "--format", "sdm")
	if out != "000000000000000001000002030000003020001040000005000060030000004070080009620007000\n" {
		t.Errorf("export --where: %q", out)
	}
	golden(t, "export-mix.csv", mustRun(t, "--db", src, "export", "--collection", "mix", "--format", "csv"))
	if _, errOut, code := run(t, "--db", src, "export", "--collection", "nope"); code != exitNotFound || !strings.Contains(errOut, `no collection "nope"`) {
		t.Errorf("unknown collection: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "--db", src, "export", "--format", "sdk"); code != exitInvalid || !strings.Contains(errOut, "name a folder with -o") {
		t.Errorf("sdk to stdout: exit %d %q", code, errOut)
	}
}

func TestFormatsCommand(t *testing.T) {
	golden(t, "formats.csv", mustRun(t, "-O", "csv", "formats"))
}

func TestCollectionsCommand(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "import", fixture("line/top.txt"), fixture("line/mixed.txt"))
	out := mustRun(t, "--db", dbPath, "collections", "add", "hard", "--where", "givens < 25", "--description", "sparse ones")
	if out != "added collection hard: 3 puzzles\n" {
		t.Errorf("add: %q", out)
	}
	if _, errOut, code := run(t, "--db", dbPath, "collections", "add", "hard", "--where", "1"); code != exitConflict || !strings.Contains(errOut, "collection hard exists") {
		t.Errorf("add again: exit %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "--db", dbPath, "collections", "add", "x", "--where", "givens <"); code != exitInvalid || !strings.Contains(errOut, "syntax error") {
		t.Errorf("bad predicate: exit %d %q", code, errOut)
	}
	if _, _, code := run(t, "--db", dbPath, "collections", "add", "x"); code != exitInvalid {
		t.Errorf("add without --where: exit %d", code)
	}
	// The frozen set does not follow later imports.
	mustRun(t, "--db", dbPath, "import", fixture("csv/forum.csv"))
	out = mustRun(t, "--db", dbPath, "-O", "csv", "collections", "list")
	for _, want := range []string{"forum,2,", "hard,3,", "mixed,4,", "top,3,", "sparse ones,true"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "--db", dbPath, "collections", "show", "top")
	for _, want := range []string{"collection top: 3 puzzles", "royle-1", `{"ED":"10.5/10.5/10.5","comment":"AI Escargot","field1":"escargot"}`, "imports:", "top.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "--db", dbPath, "collections", "rm", "top")
	if out != "removed collection top (3 puzzles; they stay in the database)\n" {
		t.Errorf("rm: %q", out)
	}
	if _, _, code := run(t, "--db", dbPath, "collections", "show", "top"); code != exitNotFound {
		t.Errorf("show after rm: exit %d", code)
	}
	if n := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT COUNT(*) AS n FROM puzzles"); n != "n\n5\n" {
		t.Errorf("puzzles after rm: %q", n)
	}
}

func TestDedupeCommand(t *testing.T) {
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	// Two transformations of the escargot, and a puzzle added by hand
	// (without a symmetry form) that is a third.
	rng := rand.New(rand.NewPCG(5, 6))
	g := sudokulab.MustParse(escargot)
	a, b, c := symmetry.Random(rng).Apply(g), symmetry.Random(rng).Apply(g), symmetry.Random(rng).Apply(g)
	path := filepath.Join(dir, "variants.txt")
	if err := os.WriteFile(path, []byte(a.String()+"\n"+b.String()+"\n"+easyGrid+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "import", path)
	mustRun(t, "--db", dbPath, "puzzles", "add", c.String())
	out, errOut, code := run(t, "--db", dbPath, "-O", "csv", "dedupe", "--report")
	if code != 0 || !strings.Contains(errOut, "1 puzzles given a symmetry form; 1 groups of puzzles equal up to symmetry, 3 puzzles in them") {
		t.Fatalf("dedupe: exit %d %q", code, errOut)
	}
	form, _ := symmetry.Form(g)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || lines[0] != "symmetry_form,puzzles,id,givens,grid,collection" || !strings.HasPrefix(lines[1], form+",3,1,23,") {
		t.Errorf("report:\n%s", out)
	}
}

const easyGrid = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."

// A line file of "<id> <puzzle> <rating>" (sudoku-exchange's puzzle bank)
// imports with the id as metadata and, named by --rating-column, the number
// as a rating.
func TestImportIDRatingLines(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "import", "--rating-column", "field1=exchange", fixture("line/exchange.txt"))
	out := mustRun(t, "--db", dbPath, "-O", "csv", "sql",
		"SELECT cp.source_line, json_extract(cp.metadata, '$.id') AS id, r.rater, r.value FROM collection_puzzles cp "+
			"LEFT JOIN ratings r ON r.puzzle_id = cp.puzzle_id ORDER BY cp.source_line")
	want := "source_line,id,rater,value\n1,0000183b305c,exchange,1.2\n2,e-1,exchange,2.5\n3,m-2,,\n"
	if out != want {
		t.Errorf("stored:\n%s\nwant\n%s", out, want)
	}
}

// A forum list's #!sudoku header: each rating column's values are stored
// under its own rater, not the next column's.
func TestImportForumRatings(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	mustRun(t, "--db", dbPath, "import", fixture("csv/forum-ratings.csv"))
	out := mustRun(t, "--db", dbPath, "-O", "csv", "sql",
		"SELECT cp.label, r.rater, r.value FROM collection_puzzles cp JOIN ratings r ON r.puzzle_id = cp.puzzle_id "+
			"WHERE cp.source_line = 3 ORDER BY r.rater")
	want := "label,rater,value\n" +
		"easter monster,gsf-q1,99529\neaster monster,gsf-q2,99493\n" +
		"easter monster,se-ed,11.3\neaster monster,se-ep,11.5\neaster monster,se-er,11.6\n" +
		"easter monster,suexrat9,7092\neaster monster,suexratt,3944\n"
	if out != want {
		t.Errorf("stored:\n%s\nwant\n%s", out, want)
	}
}

// TestImportDescription records where the puzzles come from in the
// description of the collection the import creates, and leaves the default
// description without --description.
func TestImportDescription(t *testing.T) {
	dbPath := initDB(t, filepath.Join(t.TempDir(), "lab.db"))
	const source = "sudoku 1.0.5-2.1 (Debian): /usr/games/sudoku -g3 '-cvery easy' -fcompact"
	mustRun(t, "--db", dbPath, "import", "--collection", "generated", "--description", source, fixture("line/top.txt"))
	mustRun(t, "--db", dbPath, "import", fixture("csv/forum.csv"))
	out := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT name, description FROM collections ORDER BY name")
	want := "name,description\nforum,imported from forum.csv (csv)\ngenerated," + source + "\n"
	if out != want {
		t.Errorf("collections:\n%s\nwant:\n%s", out, want)
	}
}
