package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// labState is what an import must not change when it brings nothing new:
// every rating, every collection with its members, in order, and every
// tag.
func labState(t *testing.T, dbPath string) string {
	t.Helper()
	ratings := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT puzzle_id, rater, rater_version, options, value, label, details, rated_at, import_id
		FROM ratings ORDER BY puzzle_id, rater`)
	collections := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT c.name, c.description, c.frozen, c.created_at, cp.position, cp.puzzle_id, cp.label,
		       cp.import_id, cp.source_line, cp.metadata, cp.added_at
		FROM collections c LEFT JOIN collection_puzzles cp ON cp.collection_id = c.id
		ORDER BY c.name, cp.position`)
	puzzles := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT COUNT(*) AS puzzles FROM puzzles`)
	return ratings + collections + puzzles + tagState(t, dbPath)
}

// tagState lists the tags of the lab by grid, with their time and
// whether an import gave them.
func tagState(t *testing.T, dbPath string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT p.grid, t.tag, t.added_at, t.import_id IS NOT NULL AS imported FROM puzzle_tags t
		JOIN puzzles p ON p.id = t.puzzle_id ORDER BY p.grid, t.tag`)
}

// tagLab tags puzzles of the lab as a curator would: classic on the
// first three, and on the second one a tag with a comma, quotes and a
// space.
func tagLab(t *testing.T, dbPath string) {
	t.Helper()
	mustRun(t, "--db", dbPath, "sql", "--write", `INSERT INTO puzzle_tags (puzzle_id, tag)
		SELECT id, 'classic' FROM puzzles WHERE id IN (SELECT id FROM puzzles ORDER BY id LIMIT 3)`)
	mustRun(t, "--db", dbPath, "sql", "--write", `INSERT INTO puzzle_tags (puzzle_id, tag)
		SELECT id, 'for "the" paper, v2' FROM puzzles WHERE id = (SELECT id FROM puzzles ORDER BY id LIMIT 1 OFFSET 1)`)
}

// TestExportImportTags exports a lab whose puzzles carry tags in each
// format that holds them and imports the file into a new lab: the same
// puzzles get the same tags, as the import's. An export of a lab without
// tags has no tags column. A file with a tag serve --write would refuse
// fails the import, which takes back the tags it had put on puzzles the
// lab already held.
func TestExportImportTags(t *testing.T) {
	dir := t.TempDir()
	dbPath := exampleDB(t)
	untagged := filepath.Join(dir, "untagged.csv")
	mustRun(t, "--db", dbPath, "export", "--format", "csv", "--where", "1 = 1", "-o", untagged)
	if b, err := os.ReadFile(untagged); err != nil || strings.Contains(string(b), "tags") {
		t.Fatalf("export of a lab without tags (%v):\n%s", err, b)
	}
	tagLab(t, dbPath)
	want := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT p.grid, t.tag FROM puzzle_tags t
		JOIN puzzles p ON p.id = t.puzzle_id ORDER BY p.grid, t.tag`)
	if n := strings.Count(want, "\n"); n != 5 {
		t.Fatalf("the lab's tags:\n%s", want)
	}
	for _, format := range []string{"csv", "json"} {
		t.Run(format, func(t *testing.T) {
			file := filepath.Join(dir, "all."+format)
			mustRun(t, "--db", dbPath, "export", "--format", format, "--where", "1 = 1", "-o", file)
			fresh := filepath.Join(t.TempDir(), "fresh.db")
			mustRun(t, "--db", fresh, "init")
			mustRun(t, "--db", fresh, "import", file)
			got := mustRun(t, "--db", fresh, "-O", "csv", "sql", `SELECT p.grid, t.tag FROM puzzle_tags t
				JOIN puzzles p ON p.id = t.puzzle_id WHERE t.import_id IS NOT NULL ORDER BY p.grid, t.tag`)
			if got != want {
				t.Errorf("tags after importing the %s export:\n%s\nwant:\n%s", format, got, want)
			}
		})
	}
	grids := strings.Fields(mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT grid FROM puzzles ORDER BY id LIMIT 2"))[1:]
	bad := filepath.Join(dir, "bad.json")
	body := fmt.Sprintf(`[{"puzzle": %q, "tags": ["from-file"]}, {"puzzle": %q, "tags": ["a\u0001b"]}]`, grids[0], grids[1])
	if err := os.WriteFile(bad, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	before := tagState(t, dbPath)
	_, errOut, code := run(t, "--db", dbPath, "import", bad)
	if code == 0 || !strings.Contains(errOut, "holds a control character") {
		t.Errorf("import of a bad tag: exit %d, %s", code, errOut)
	}
	if after := tagState(t, dbPath); after != before {
		t.Errorf("the failed import left tags:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestReimportOwnExportChangesNothing rates a lab with every rater, adds
// a file's ratings (the file's own claims beside the lab's), freezes a
// collection in an order of its own with labels, exports it (and the
// whole lab) in every format that holds ratings and imports each file
// into the same lab: every rating and collection stays as it was.
func TestReimportOwnExportChangesNothing(t *testing.T) {
	dir := t.TempDir()
	dbPath := exampleDB(t)
	mustRun(t, "--db", dbPath, "rate", "--rater", "all", "--collection", "paper-puzzles", "--jobs", "2")
	grids := strings.Fields(mustRun(t, "--db", dbPath, "-O", "csv", "sql",
		"SELECT grid FROM puzzle_catalog WHERE collection = 'reseda-2012' ORDER BY position"))[1:]
	// JSON keeps every digit of the value.
	var human []struct{ Value json.Number }
	if err := json.Unmarshal([]byte(mustRun(t, "--db", dbPath, "-O", "json", "sql",
		"SELECT r.value FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id WHERE r.rater = 'human' AND p.grid = '"+grids[1]+"'")), &human); err != nil || len(human) != 1 {
		t.Fatalf("human rating: %v %v", human, err)
	}
	// A file of others: an ER for two puzzles, and a human rating that
	// agrees with ours for one and not for the other.
	claims := filepath.Join(dir, "claims.csv")
	body := fmt.Sprintf("puzzle,ER,rating:human\n%s,7.1,%s\n%s,3.4,1234.5\n", grids[1], human[0].Value, grids[2])
	if err := os.WriteFile(claims, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "import", claims)
	out := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `
		SELECT r.rater, r.value, r.import_id IS NOT NULL AS imported FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id
		WHERE p.grid IN ('`+grids[1]+`', '`+grids[2]+`') AND r.rater IN ('se-er', 'human', 'file:human')
		ORDER BY p.grid = '`+grids[2]+`', r.rater`)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 6 ||
		!strings.HasSuffix(lines[1], ",0") || !strings.HasPrefix(lines[1], "human,") || lines[2] != "se-er,7.1,1" ||
		lines[3] != "file:human,1234.5,1" || !strings.HasSuffix(lines[4], ",0") || lines[5] != "se-er,3.4,1" {
		t.Errorf("the file's ratings beside ours:\n%s", out)
	}
	// puzzles show says which ratings are a file's.
	id := strings.Fields(mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT id FROM puzzles WHERE grid = '"+grids[2]+"'"))[1]
	var shown struct {
		Ratings []struct {
			Rater    string
			ImportID *int64 `json:"import_id"`
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", dbPath, "-O", "json", "puzzles", "show", id)), &shown); err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, r := range shown.Ratings {
		fromFile := r.Rater == "file:human" || r.Rater == "se-er"
		if fromFile != (r.ImportID != nil) {
			t.Errorf("puzzles show: rating %s has import_id %v", r.Rater, r.ImportID)
		}
		if fromFile {
			files++
		}
	}
	if files != 2 || len(shown.Ratings) < 6 {
		t.Errorf("puzzles show: %d ratings, %d of them the file's; want 2 of the file's beside ours", len(shown.Ratings), files)
	}
	mustRun(t, "--db", dbPath, "collections", "add", "bench", "--where", "collection IN ('reseda-2012', 'claims', 'soto-2014')",
		"--order-by", "givens DESC", "--label", "'b' || id")
	tagLab(t, dbPath)
	before := labState(t, dbPath)
	for _, tt := range []struct{ format, file string }{
		{"csv", "bench.csv"}, {"json", "bench.json"}, {"csv", "all.csv"}, {"json", "all.json"},
	} {
		file := filepath.Join(dir, tt.file)
		sel := []string{"--collection", "bench"}
		if strings.HasPrefix(tt.file, "all") {
			sel = []string{"--where", "1 = 1"}
		}
		mustRun(t, append([]string{"--db", dbPath, "export", "--format", tt.format, "-o", file}, sel...)...)
		mustRun(t, "--db", dbPath, "import", file)
		if after := labState(t, dbPath); after != before {
			t.Fatalf("importing the lab's own export %s changed it:\nbefore:\n%s\nafter:\n%s", tt.file, before, after)
		}
	}
}

// writeFiles writes each file (a path under dir) with its content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImportCollectionNames: files of one name in two folders do not go
// silently into one collection; --collection puts many files, instance
// files too, into one; a frozen collection changes only when asked.
func TestImportCollectionNames(t *testing.T) {
	const (
		g1 = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
		g2 = ".24..7...6..........368.415431..5...5......3279.....6.2.971.8...4..93...31...475."
		g3 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
		g4 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
	)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/x.txt": g1 + "\n", "b/x.txt": g2 + "\n", "c.txt": g3 + "\n",
		"claims.csv": "puzzle,collection\n" + g2 + ",fz\n" + g4 + ",fz\n"})
	a, b := filepath.Join(dir, "a", "x.txt"), filepath.Join(dir, "b", "x.txt")
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	members := func(collection string) string {
		t.Helper()
		out := mustRun(t, "--db", dbPath, "-O", "csv", "sql",
			"SELECT position, grid, label FROM puzzle_catalog WHERE collection = '"+collection+"' ORDER BY position")
		return strings.TrimPrefix(out, "position,grid,label\n")
	}

	_, errOut, code := run(t, "--db", dbPath, "import", a, b)
	if code != exitInvalid || !strings.Contains(errOut, "import "+b+": collection x, named after the file, holds the puzzles of "+a) {
		t.Errorf("a/x.txt and b/x.txt: exit %d, %q", code, errOut)
	}
	if got := members("x"); got != "1,"+g1+",\n" {
		t.Errorf("collection x:\n%s", got)
	}
	mustRun(t, "--db", dbPath, "import", "--collection", "bx", b)
	mustRun(t, "--db", dbPath, "import", a) // a/x.txt again, its own collection: nothing new
	if got := members("x"); got != "1,"+g1+",\n" {
		t.Errorf("collection x after a/x.txt again:\n%s", got)
	}

	// --collection puts several files into one collection, in order.
	mustRun(t, "--db", dbPath, "import", "--collection", "both", a, b)
	if got := members("both"); got != "1,"+g1+",\n2,"+g2+",\n" {
		t.Errorf("collection both:\n%s", got)
	}
	mustRun(t, "--db", dbPath, "import", "--collection", "inst", fixture("instance-9x9.instance"), fixture("instance-16x16.instance"))
	if got := mustRun(t, "--db", dbPath, "-O", "csv", "sql", "SELECT collection, size, label FROM puzzle_catalog WHERE collection_id IN (SELECT collection_id FROM imports WHERE format = 'instance') ORDER BY position"); got != "collection,size,label\ninst,9,instance-9x9\ninst,16,instance-16x16\n" {
		t.Errorf("instance files with --collection:\n%s", got)
	}

	// A frozen collection changes only when asked.
	mustRun(t, "--db", dbPath, "collections", "add", "fz", "--where", "collection = 'both'", "--order-by", "position DESC", "--label", "'p' || position")
	frozen := "1," + g2 + ",p2\n2," + g1 + ",p1\n"
	if got := members("fz"); got != frozen {
		t.Errorf("frozen collection fz:\n%s", got)
	}
	_, errOut, code = run(t, "--db", dbPath, "import", "--collection", "fz", filepath.Join(dir, "c.txt"))
	if code != exitInvalid || !strings.Contains(errOut, "collection fz, which is frozen") || !strings.Contains(errOut, "--add-to-frozen") {
		t.Errorf("import into a frozen collection: exit %d, %q", code, errOut)
	}
	out := mustRun(t, "--db", dbPath, "import", filepath.Join(dir, "claims.csv"))
	if !strings.Contains(out, "note: 1 of the file's puzzles in collection fz went to collection claims: fz is frozen") {
		t.Errorf("a file naming a frozen collection: %s", out)
	}
	if got := members("fz"); got != frozen {
		t.Errorf("frozen collection fz after imports:\n%s", got)
	}
	if got := members("claims"); got != "1,"+g4+",\n" {
		t.Errorf("collection claims:\n%s", got)
	}
	mustRun(t, "--db", dbPath, "import", "--collection", "fz", "--add-to-frozen", filepath.Join(dir, "c.txt"))
	if got := members("fz"); got != frozen+"3,"+g3+",\n" {
		t.Errorf("fz with --add-to-frozen:\n%s", got)
	}
	mustRun(t, "--db", dbPath, "collections", "add", "fz", "--replace", "--where", "collection = 'fz' AND position < 3")
	if got := members("fz"); got != frozen {
		t.Errorf("fz replaced:\n%s", got)
	}
	// Puzzles kept out of a frozen collection do not go silently into the
	// collection of another folder's file of the same name either.
	writeFiles(t, dir, map[string]string{"d/claims.csv": "puzzle,collection\n" + g3 + ",fz\n"})
	_, errOut, code = run(t, "--db", dbPath, "import", filepath.Join(dir, "d", "claims.csv"))
	if code != exitInvalid || !strings.Contains(errOut, "collection claims, named after the file, holds the puzzles of "+filepath.Join(dir, "claims.csv")) {
		t.Errorf("d/claims.csv: exit %d, %q", code, errOut)
	}
}

// TestExportImportKeepsEveryRating exports a lab whose puzzles carry a
// computed rating, a file's claim under the same rater's name
// (file:givens) and two raters whose names differ only in case, and
// imports the export into a new lab: every rating comes back, none
// collapsing into another (the computed one as the file's claim
// file:givens, the claim as file:file:givens), a rating that is a label
// alone (value NULL, as the se rater's "partial") and one with both keep
// their labels, and importing the new lab's own export again changes
// nothing.
func TestExportImportKeepsEveryRating(t *testing.T) {
	const (
		g1 = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."
		g2 = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
	)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"claims.json": `[
{"puzzle": "` + g1 + `", "ratings": {"givens": 99, "Exchange": 1.5, "exchange": 2.5, "grade": "partial", "tough": {"value": 7.5, "label": "ER/EP, \"7.5\""}}},
{"puzzle": "` + g2 + `", "ratings": {"givens": 98, "Exchange": 3.5}}
]
`})
	src := initDB(t, filepath.Join(dir, "src.db"))
	mustRun(t, "--db", src, "import", filepath.Join(dir, "claims.json"))
	mustRun(t, "--db", src, "rate", "--rater", "givens", "--where", "1 = 1")
	ratings := func(dbPath string) string {
		t.Helper()
		return mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT p.grid, r.rater, r.value, r.label FROM ratings r
			JOIN puzzles p ON p.id = r.puzzle_id ORDER BY p.grid, r.rater`)
	}
	if got, want := ratings(src), "grid,rater,value,label\n"+
		g1+",Exchange,1.5,\n"+g1+",exchange,2.5,\n"+g1+",file:givens,99,\n"+g1+",givens,35,\n"+g1+",grade,,partial\n"+g1+",tough,7.5,\"ER/EP, \"\"7.5\"\"\"\n"+
		g2+",Exchange,3.5,\n"+g2+",file:givens,98,\n"+g2+",givens,23,\n"; got != want {
		t.Fatalf("the lab's ratings:\n%s\nwant:\n%s", got, want)
	}
	want := "grid,rater,value,label\n" +
		g1 + ",Exchange,1.5,\n" + g1 + ",exchange,2.5,\n" + g1 + ",file:file:givens,99,\n" + g1 + ",file:givens,35,\n" +
		g1 + ",grade,,partial\n" + g1 + ",tough,7.5,\"ER/EP, \"\"7.5\"\"\"\n" +
		g2 + ",Exchange,3.5,\n" + g2 + ",file:file:givens,98,\n" + g2 + ",file:givens,23,\n"
	for _, format := range []string{"csv", "json"} {
		t.Run(format, func(t *testing.T) {
			file := filepath.Join(dir, "all."+format)
			mustRun(t, "--db", src, "export", "--format", format, "--where", "1 = 1", "-o", file)
			fresh := initDB(t, filepath.Join(t.TempDir(), "fresh.db"))
			mustRun(t, "--db", fresh, "import", file)
			if got := ratings(fresh); got != want {
				t.Errorf("ratings after importing the %s export into a new lab:\n%s\nwant:\n%s", format, got, want)
			}
			before := labState(t, fresh)
			again := filepath.Join(t.TempDir(), "again."+format)
			mustRun(t, "--db", fresh, "export", "--format", format, "--where", "1 = 1", "-o", again)
			mustRun(t, "--db", fresh, "import", again)
			if after := labState(t, fresh); after != before {
				t.Errorf("importing the new lab's own export changed it:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// TestExportLineNote exports to the line format a puzzle whose CSV gave
// a column name with a space: the note on stderr says the key is
// written with _, and the export holds it so.
func TestExportLineNote(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"src.csv": "puzzle,Puzzle Source\n" + mustPaper(t, "reseda-easy") + ",forum\n"})
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	mustRun(t, "--db", dbPath, "import", filepath.Join(dir, "src.csv"))
	out, errOut, code := run(t, "--db", dbPath, "export", "--format", "line", "--collection", "src")
	if want := `note: 1 metadata key holds what a line's KEY=VALUE cannot (white space, #, = or quotes, or nothing): written with _ in its place, such as "Puzzle Source" as Puzzle_Source`; code != 0 || !strings.Contains(errOut, want) || !strings.Contains(out, " Puzzle_Source=forum\n") {
		t.Errorf("export: exit %d\n%s%s", code, out, errOut)
	}
}
