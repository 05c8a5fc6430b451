package pipeline_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokulab"
	"sudokulab/db"
	"sudokulab/importers/pipeline"
	"sudokulab/symmetry"
)

const easy = "..867.4.24.23...9.37..2.......4...5.89.251.67.1...3.......9..73.3...52.17.5.329.."

func openTemp(t *testing.T) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func fixture(name string) string { return filepath.Join("..", "testdata", name) }

func importFile(t *testing.T, d *db.DB, path string, o pipeline.Options) *pipeline.Result {
	t.Helper()
	res, err := pipeline.ImportFile(context.Background(), d, path, o)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return res
}

// count runs a COUNT query.
func count(t *testing.T, d *db.DB, q string) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestImportCounts(t *testing.T) {
	d := openTemp(t)
	res := importFile(t, d, fixture("line/top.txt"), pipeline.Options{})
	im := res.Import
	if res.Format != "line" || res.Collection != "top" || im.PuzzlesRead != 3 || im.PuzzlesNew != 3 || im.PuzzlesDuplicate != 0 || im.FinishedAt.IsZero() {
		t.Fatalf("result %+v", res)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM puzzles WHERE solution_count = 1 AND solution IS NOT NULL AND length(symmetry_form) = 81"); n != 3 {
		t.Errorf("%d puzzles with solution and symmetry form, want 3", n)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM ratings WHERE rater IN ('se-er', 'se-ep', 'se-ed') AND value = 10.5"); n != 3 {
		t.Errorf("%d ratings, want 3", n)
	}
	var meta string
	d.QueryRowContext(context.Background(), "SELECT metadata FROM collection_puzzles WHERE source_line = 4").Scan(&meta)
	if meta != `{"ED":"10.5/10.5/10.5","comment":"AI Escargot","field1":"escargot"}` {
		t.Errorf("metadata %s", meta)
	}
	var label string
	d.QueryRowContext(context.Background(), "SELECT label FROM collection_puzzles WHERE source_line = 6").Scan(&label)
	if label != "royle-1" {
		t.Errorf("label %q", label)
	}

	// The same file again changes nothing.
	again := importFile(t, d, fixture("line/top.txt"), pipeline.Options{})
	if !again.Skipped || again.Previous.ID != im.ID || again.Collection != "top" {
		t.Errorf("second import %+v", again)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM imports"); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}

	// The same puzzles from other files and in other collections are
	// stored once, with a membership each.
	importFile(t, d, fixture("line/mixed.txt"), pipeline.Options{Collection: "mixed"})
	res = importFile(t, d, fixture("line/top.txt"), pipeline.Options{Collection: "again"})
	if res.Skipped || res.Import.PuzzlesNew != 0 || res.Import.PuzzlesDuplicate != 3 {
		t.Errorf("import into another collection %+v", res.Import)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM puzzles"); n != 5 {
		t.Errorf("%d puzzles, want 5", n)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles WHERE puzzle_id = (SELECT id FROM puzzles WHERE grid = '"+easy+"')"); n != 1 {
		t.Errorf("easy in %d collections, want 1", n)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles cp JOIN puzzles p ON p.id = cp.puzzle_id WHERE p.givens = 17"); n != 3 {
		t.Errorf("the 17-clue puzzle has %d memberships, want 3", n)
	}
	// Positions follow the file.
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id WHERE c.name = 'mixed' AND cp.position = cp.source_line"); n != 4 {
		t.Errorf("%d positions equal to the line, want 4", n)
	}
}

func TestImportDuplicatesInFile(t *testing.T) {
	d := openTemp(t)
	res := importFile(t, d, fixture("line/blanks.txt"), pipeline.Options{})
	if im := res.Import; im.PuzzlesRead != 7 || im.PuzzlesNew != 1 || im.PuzzlesDuplicate != 6 {
		t.Errorf("counts %+v", im)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM collection_puzzles"); n != 1 {
		t.Errorf("%d memberships, want 1", n)
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct {
		file string
		opts pipeline.Options
		want string
	}{
		{"line/bad-80.sdm", pipeline.Options{}, "bad-80.sdm:3: 80 cells, want 81"},
		{"rules/conflict.txt", pipeline.Options{}, "conflict.txt:2: givens break the rules: r1c1 and r1c2 both hold 1 in row 1"},
		{"csv/wrong-solution.csv", pipeline.Options{}, "wrong-solution.csv:3: the solution given is wrong"},
		{"csv/no-grid-column.csv", pipeline.Options{}, "no-grid-column.csv:1: the header has no puzzle column and no column of puzzles"},
		{"opensudoku/truncated.xml", pipeline.Options{}, "truncated.xml:6: the XML ends early"},
		{"opensudoku/truncated.xml", pipeline.Options{SkipInvalid: true}, "truncated.xml:6: the XML ends early"},
		{"json/truncated.json", pipeline.Options{}, "truncated.json:1: the JSON ends early"},
		{"grid/ambiguous16.txt", pipeline.Options{}, "--symbols 0-F or --symbols 1-G"},
		{"line/unknown-symbol.txt", pipeline.Options{}, "unknown-symbol.txt:2: cell 11: 'Z' is not a symbol of 1-9"},
		{"rules/counts.txt", pipeline.Options{RequireUnique: true}, "counts.txt:2: two or more solutions (--require-unique)"},
		{"rules/counts.txt", pipeline.Options{Format: "nope"}, `unknown format "nope"`},
		{"missing.txt", pipeline.Options{}, "missing.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d := openTemp(t)
			_, err := pipeline.ImportFile(context.Background(), d, fixture(tt.file), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("error %v (code %s), want EINVALID with %q", err, sudokulab.ErrorCode(err), tt.want)
			}
			// Nothing of the file is stored.
			for _, table := range []string{"puzzles", "imports", "collections", "collection_puzzles", "ratings"} {
				if n := count(t, d, "SELECT COUNT(*) FROM "+table); n != 0 {
					t.Errorf("%d rows in %s after a failed import", n, table)
				}
			}
		})
	}
}

func TestImportSkipInvalid(t *testing.T) {
	d := openTemp(t)
	res := importFile(t, d, fixture("line/bad-80.sdm"), pipeline.Options{SkipInvalid: true})
	im := res.Import
	if im.PuzzlesRead != 4 || im.PuzzlesNew != 3 || im.PuzzlesRejected != 1 || len(res.Rejected) != 1 {
		t.Fatalf("counts %+v, rejected %v", im, res.Rejected)
	}
	if got := res.Rejected[0].Error(); !strings.Contains(got, "bad-80.sdm:3: 80 cells, want 81 (9x9): read \"..867.4.24") {
		t.Errorf("rejected %q", got)
	}
	if !strings.Contains(im.Notes, "rejected line 3: 80 cells, want 81") {
		t.Errorf("notes %q", im.Notes)
	}
	res = importFile(t, d, fixture("rules/counts.txt"), pipeline.Options{SkipInvalid: true, RequireUnique: true})
	if im := res.Import; im.PuzzlesNew != 0 || im.PuzzlesDuplicate != 1 || im.PuzzlesRejected != 2 {
		t.Errorf("require-unique counts %+v", im)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM puzzles"); n != 3 {
		t.Errorf("%d puzzles, want 3", n)
	}
}

func TestImportSolutionCounts(t *testing.T) {
	d := openTemp(t)
	importFile(t, d, fixture("rules/counts.txt"), pipeline.Options{})
	rows, err := d.QueryContext(context.Background(), "SELECT solution_count, solution IS NULL FROM puzzles ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var c, null int
		rows.Scan(&c, &null)
		got = append(got, c, null)
	}
	// Unique: the solution; two or more: none; none: none.
	if want := []int{1, 0, 2, 1, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("counts and null solutions %v, want %v", got, want)
	}
}

func TestImportFormats(t *testing.T) {
	d := openTemp(t)
	for _, f := range []string{"csv/forum.csv", "csv/kaggle-rated.csv", "opensudoku/v2.opensudoku", "sdk/escargot.sdk",
		"ss/easy.ss", "grid/euler.txt", "grid/hex16.txt", "grid/letters25.txt", "json/objects.json", "line/utf16le-bom.txt"} {
		importFile(t, d, fixture(f), pipeline.Options{})
	}
	for _, tt := range []struct{ q string }{
		{"SELECT COUNT(*) = 2 FROM ratings WHERE rater = 'kaggle-difficulty'"},
		{"SELECT COUNT(*) = 3 FROM ratings WHERE rater LIKE 'se-%' AND value = 10.5"},
		{"SELECT COUNT(*) = 1 FROM collections WHERE name = 'Hard'"},
		{"SELECT COUNT(*) = 0 FROM collections WHERE name = 'v2'"},
		{"SELECT COUNT(*) = 1 FROM imports i JOIN collections c ON c.id = i.collection_id WHERE c.name = 'Hard' AND i.format = 'opensudoku'"},
		{"SELECT COUNT(*) = 1 FROM puzzle_catalog WHERE collection = 'Medium'"},
		{"SELECT COUNT(*) = 1 FROM puzzles WHERE size = 16 AND solution_count IS NOT NULL AND symmetry_form IS NULL"},
		{"SELECT COUNT(*) = 1 FROM puzzles WHERE size = 25"},
		{"SELECT COUNT(*) = 1 FROM collection_puzzles WHERE label = 'escargot' AND json_extract(metadata, '$.author') = 'Arto Inkala'"},
		{"SELECT COUNT(*) = 1 FROM collection_puzzles WHERE label = 'Grid 02'"},
		{"SELECT COUNT(*) = 0 FROM puzzles WHERE size = 9 AND symmetry_form IS NULL"},
	} {
		if count(t, d, tt.q) != 1 {
			t.Errorf("%s: false", tt.q)
		}
	}
}

// TestSymmetryForms imports random transformations of a puzzle: one
// symmetry form.
func TestSymmetryForms(t *testing.T) {
	d := openTemp(t)
	rng := rand.New(rand.NewPCG(3, 4))
	g := sudokulab.MustParse(easy)
	var b strings.Builder
	for range 20 {
		b.WriteString(symmetry.Random(rng).Apply(g).String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "variants.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := importFile(t, d, path, pipeline.Options{})
	if res.Import.PuzzlesRead != 20 {
		t.Fatalf("%+v", res.Import)
	}
	if n := count(t, d, "SELECT COUNT(DISTINCT symmetry_form) FROM puzzles"); n != 1 {
		t.Errorf("%d symmetry forms, want 1", n)
	}
}

// cancelAfter cancels the import once it has stored some puzzles.
type cancelAfter struct {
	cancel func()
	after  int
}

func (c *cancelAfter) Start(string, int64) {}
func (c *cancelAfter) Finish()             {}
func (c *cancelAfter) Update(_ int64, puzzles int) {
	if puzzles >= c.after {
		c.cancel()
	}
}

// TestFailedImportTakesItsRatings: a file whose bad entry fails the import
// leaves none of its ratings behind, and the lab's own stay as they were.
func TestFailedImportTakesItsRatings(t *testing.T) {
	d := openTemp(t)
	ctx := context.Background()
	importFile(t, d, fixture("line/top.txt"), pipeline.Options{})
	var id int64
	if err := d.QueryRowContext(ctx, "SELECT id FROM puzzles WHERE grid LIKE '1....7.9%'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	v := 3456.5
	if err := db.UpsertRating(ctx, d, sudokulab.Rating{PuzzleID: id, Rater: "human", RaterVersion: "4", Value: &v, Label: "unfair"}); err != nil {
		t.Fatal(err)
	}
	before := count(t, d, "SELECT COUNT(*) FROM ratings")
	path := filepath.Join(t.TempDir(), "bad.csv")
	// Enough puzzles that batches are stored before the bad entry (the
	// easy puzzle with its digits relabelled).
	var b strings.Builder
	b.WriteString("puzzle,ER,rating:human\n" +
		"1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..,9.9,1000\n" + easy + ",1.2,200\n")
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{easy: true}
	for len(seen) < 1200 {
		perm := rng.Perm(9)
		g := strings.Map(func(r rune) rune {
			if r == '.' {
				return r
			}
			return rune('1' + perm[r-'1'])
		}, easy)
		if !seen[g] {
			seen[g] = true
			b.WriteString(g + ",1.5,300\n")
		}
	}
	b.WriteString("12345,1,1\n")
	body := b.String()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.ImportFile(ctx, d, path, pipeline.Options{}); sudokulab.ErrorCode(err) != sudokulab.EINVALID {
		t.Fatalf("bad file: %v, want EINVALID", err)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM ratings"); n != before {
		t.Errorf("%d ratings after a failed import, want %d", n, before)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM ratings WHERE rater = 'human' AND value = 3456.5 AND import_id IS NULL"); n != 1 {
		t.Error("the computed human rating changed")
	}
	// With --skip-invalid the file's ratings are its claims, beside ours;
	// the ER top.txt gave the escargot stays.
	res := importFile(t, d, path, pipeline.Options{SkipInvalid: true})
	if n := count(t, d, "SELECT COUNT(*) FROM ratings WHERE import_id IS NOT NULL AND rater IN ('file:human', 'se-er') AND value IN (1000, 9.9, 200, 1.2)"); n != 3 {
		t.Errorf("%d of the file's 3 new ratings of its first two puzzles stored", n)
	}
	if n := count(t, d, "SELECT COUNT(*) FROM ratings WHERE rater = 'se-er' AND value = 10.5 AND import_id = 1"); n != 1 {
		t.Errorf("the escargot's ER from top.txt replaced")
	}
	if n, want := count(t, d, "SELECT COUNT(*) FROM ratings WHERE import_id = (SELECT MAX(id) FROM imports)"), 2*(len(seen)+1)-1; n != want { // the escargot and seen, less its ER
		t.Errorf("%d of the file's ratings stored, want %d", n, want)
	}
	if !slices.Contains(res.Notes, "1 of the file's ratings differ from those an earlier file gave the same puzzles under the same names: the earlier ones stay") {
		t.Errorf("notes %q", res.Notes)
	}
}

// TestImportLongLabel imports a CSV whose label is longer than a label
// may be (sudokulab.MaxLabelBytes, which merge holds a lab's labels to):
// the entry is refused with its line, and rejected with --skip-invalid.
func TestImportLongLabel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.csv")
	text := "puzzle,label\n" + easy + ",short\n" + "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..," + strings.Repeat("x", sudokulab.MaxLabelBytes+1) + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openTemp(t)
	_, err := pipeline.ImportFile(context.Background(), d, path, pipeline.Options{})
	if want := "long.csv:3: label is 1025 bytes long, more than 1024"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	res := importFile(t, d, path, pipeline.Options{SkipInvalid: true})
	if im := res.Import; im.PuzzlesNew != 1 || im.PuzzlesRejected != 1 {
		t.Errorf("counts %+v, want 1 new and 1 rejected", im)
	}
}

// TestImportNonFiniteRatings imports a CSV whose ER column holds "inf"
// and "NaN": those are no ratings (merge refuses a rating that is no
// finite number), the finite one is kept.
func TestImportNonFiniteRatings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "er.csv")
	text := "puzzle,ER\n" + easy + ",inf\n" +
		"1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..,NaN\n" +
		"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......,9.1\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openTemp(t)
	importFile(t, d, path, pipeline.Options{})
	if n := count(t, d, "SELECT COUNT(*) FROM ratings"); n != 1 {
		t.Errorf("%d ratings, want the finite one", n)
	}
	if _, err := db.Merge(context.Background(), openTemp(t), d, db.MergeOptions{}); err != nil {
		t.Errorf("merge: %v", err)
	}
}

// TestImportBadRatings imports files whose ratings merge would refuse
// (sudokulab.Rating.Check: a rater that is no name): each is a bad entry
// naming the file, its line and the reason, the import storing nothing,
// and one rejected with --skip-invalid.
func TestImportBadRatings(t *testing.T) {
	const hard = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
	tests := []struct {
		name, file, text, want string
	}{
		{"empty rater", "empty.json", "[\n{\"puzzle\": \"" + easy + "\"},\n{\"puzzle\": \"" + hard + "\", \"ratings\": {\"\": 1.5}}\n]\n",
			"empty.json:3: rating by \"\": rater is empty"},
		{"control character", "control.json", "[\n{\"puzzle\": \"" + easy + "\"},\n{\"puzzle\": \"" + hard + "\", \"ratings\": {\"a\\u0007b\": 2}}\n]\n",
			"control.json:3: rating by \"a\\ab\": rater \"a\\ab\" holds a control character"},
		{"long rater", "long.csv", "puzzle,rating:" + strings.Repeat("r", sudokulab.MaxNameBytes+1) + "\n" + easy + ",\n" + hard + ",4\n",
			"long.csv:3: rating by \"rrrr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			d := openTemp(t)
			_, err := pipeline.ImportFile(context.Background(), d, path, pipeline.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || sudokulab.ErrorCode(err) != sudokulab.EINVALID {
				t.Fatalf("error %v (code %s), want EINVALID with %q", err, sudokulab.ErrorCode(err), tt.want)
			}
			for _, table := range []string{"puzzles", "imports", "collections", "collection_puzzles", "ratings"} {
				if n := count(t, d, "SELECT COUNT(*) FROM "+table); n != 0 {
					t.Errorf("%d rows in %s after a failed import", n, table)
				}
			}
			res := importFile(t, d, path, pipeline.Options{SkipInvalid: true})
			if im := res.Import; im.PuzzlesNew != 1 || im.PuzzlesRejected != 1 || count(t, d, "SELECT COUNT(*) FROM ratings") != 0 {
				t.Errorf("--skip-invalid: counts %+v, want 1 new, 1 rejected and no rating", im)
			}
			if _, err := db.Merge(context.Background(), openTemp(t), d, db.MergeOptions{}); err != nil {
				t.Errorf("merge of what the import stored: %v", err)
			}
		})
	}
}
