package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// realFile is one of the files written by others in testdata/real (and
// HoDoKu's library), with what a reader of its own, not the importers,
// finds in it: its puzzles in file order and the ratings it gives.
type realFile struct {
	path       string
	collection string
	args       []string // import flags the file needs
	read       func(t *testing.T, body string) (puzzles []string, ratings map[[2]string]float64)
}

// labGrid writes a puzzle of digits and 0 or . as the lab stores it.
func labGrid(t *testing.T, s string) string {
	t.Helper()
	g := strings.ReplaceAll(strings.TrimSpace(s), "0", ".")
	if len(g) != 81 || strings.Trim(g, ".123456789") != "" {
		t.Fatalf("not a 9x9 puzzle: %q", s)
	}
	return g
}

// claim notes a file's rating, the first one for a puzzle and rater.
func claim(ratings map[[2]string]float64, grid, rater, value string) {
	v, err := strconv.ParseFloat(value, 64)
	if _, seen := ratings[[2]string{grid, rater}]; err == nil && !seen {
		ratings[[2]string{grid, rater}] = v
	}
}

var realFiles = []realFile{
	{path: "testdata/real/HardestDatabase110626.txt", collection: "HardestDatabase110626",
		read: func(t *testing.T, body string) ([]string, map[[2]string]float64) {
			// gsf's header: -c1, the puzzle in column 1 of comma-separated
			// fields, then every column's name; the raters are those
			// docs/schema.md names for the forum's columns.
			raters := map[string]string{"q1": "gsf-q1", "q2": "gsf-q2", "ER": "se-er", "EP": "se-ep", "ED": "se-ed", "Sx9": "suexrat9", "Sxt": "suexratt"}
			var names, puzzles []string
			ratings := map[[2]string]float64{}
			for line := range strings.Lines(strings.ReplaceAll(body, "\r\n", "\n")) {
				line = strings.TrimSuffix(line, "\n")
				if h, ok := strings.CutPrefix(line, "#!sudoku -c1,"); ok {
					names = strings.Split(h, ",")
					continue
				}
				if names == nil || line == "" {
					continue // the title
				}
				fields := strings.Split(line, ",")
				g := labGrid(t, fields[0])
				puzzles = append(puzzles, g)
				for i, name := range names {
					if r, ok := raters[name]; ok && i < len(fields) {
						claim(ratings, g, r, fields[i])
					}
				}
			}
			return puzzles, ratings
		}},
	{path: fixture("hodoku/reglib-1.4.txt"), collection: "reglib-1.4",
		read: func(t *testing.T, body string) ([]string, map[[2]string]float64) {
			// :technique:candidates:givens:...: a digit after + was placed.
			var puzzles []string
			for line := range strings.Lines(body) {
				if !strings.HasPrefix(line, ":") {
					continue
				}
				givens := strings.Split(line, ":")[3]
				givens = regexp.MustCompile(`\+[1-9]`).ReplaceAllString(givens, ".")
				puzzles = append(puzzles, labGrid(t, givens))
			}
			return puzzles, nil
		}},
	{path: "testdata/real/Medium.opensudoku", collection: "Hodoku Medium",
		read: func(t *testing.T, body string) ([]string, map[[2]string]float64) {
			var puzzles []string
			for _, m := range regexp.MustCompile(`<game data="([0-9]{81})"`).FindAllStringSubmatch(body, -1) {
				puzzles = append(puzzles, labGrid(t, m[1]))
			}
			return puzzles, nil
		}},
	{path: "testdata/real/sudoku.csv", collection: "sudoku",
		read: func(t *testing.T, body string) ([]string, map[[2]string]float64) {
			rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
			if err != nil || !slices.Equal(rows[0], []string{"unsolved", "solved"}) {
				t.Fatalf("sudoku.csv: %v %v", rows[0], err)
			}
			var puzzles []string
			for _, row := range rows[1:] {
				puzzles = append(puzzles, labGrid(t, row[0]))
			}
			return puzzles, nil
		}},
	{path: "testdata/real/diabolical.txt", collection: "diabolical", args: []string{"--rating-column", "field1=exchange"},
		read: func(t *testing.T, body string) ([]string, map[[2]string]float64) {
			var puzzles []string
			ratings := map[[2]string]float64{}
			for line := range strings.Lines(body) {
				f := strings.Fields(line) // <id> <puzzle> <rating>
				g := labGrid(t, f[1])
				puzzles = append(puzzles, g)
				claim(ratings, g, "exchange", f[2])
			}
			return puzzles, ratings
		}},
}

// TestRoundTripRealFiles builds a lab from five files written by others
// (testdata/real/README.md), rates it, exports every collection in csv,
// json, line and its file's own format, and imports each export into its
// collection: every rating and collection stays as it was; every rating a
// file gives is stored under its column's rater with the file's value
// (and nothing else is imported as a rating); and each export imported
// into a new collection gives the collection's puzzles in order with their
// labels and metadata. scripts/round-trip-real-files.sh does the same with
// every rater on every puzzle, checked by a reader in Python.
func TestRoundTripRealFiles(t *testing.T) {
	dir := t.TempDir()
	dbPath := initDB(t, filepath.Join(dir, "lab.db"))
	claims := map[[2]string]string{} // puzzle and rater: the value as the lab prints it
	for _, f := range realFiles {
		body, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		puzzles, ratings := f.read(t, string(body))
		mustRun(t, append(append([]string{"--db", dbPath, "import"}, f.args...), f.path)...)
		var distinct []string
		for _, p := range puzzles {
			if !slices.Contains(distinct, p) {
				distinct = append(distinct, p)
			}
		}
		got := strings.Fields(mustRun(t, "--db", dbPath, "-O", "csv", "sql",
			"SELECT grid FROM puzzle_catalog WHERE collection = '"+f.collection+"' ORDER BY position"))[1:]
		if len(distinct) < 30 || !slices.Equal(got, distinct) {
			t.Errorf("%s: collection %s holds %d puzzles, the file %d", f.path, f.collection, len(got), len(distinct))
		}
		for k, v := range ratings {
			if _, seen := claims[k]; !seen {
				claims[k] = strconv.FormatFloat(v, 'g', -1, 64) + "," + filepath.Base(f.path)
			}
		}
	}
	if len(claims) != 176 {
		t.Errorf("the files give %d ratings, want 176 (29 rows of the forum with q1 ... Sxt, 10 with ER, EP, ED, 30 exchange lines)", len(claims))
	}
	checkClaims := func(when string) {
		t.Helper()
		out := mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT p.grid, r.rater, r.value, i.file_name
			FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id JOIN imports i ON i.id = r.import_id
			WHERE r.import_id IS NOT NULL`)
		got := map[[2]string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			f := strings.Split(line, ",")
			got[[2]string{f[0], f[1]}] = f[2] + "," + filepath.Base(f[3])
		}
		for k, v := range claims {
			if got[k] != v {
				t.Errorf("%s: %s %s: the file says %s, the lab has %q", when, k[0], k[1], v, got[k])
			}
		}
		for k, v := range got {
			if _, ok := claims[k]; !ok {
				t.Errorf("%s: %s %s: %s, a rating no file gives", when, k[0], k[1], v)
			}
		}
	}
	checkClaims("after the imports")

	// The raters cheap enough for a test on every puzzle; se (seconds on
	// the forum's hardest) on the three easier files.
	mustRun(t, "--db", dbPath, "rate", "--rater", "givens", "--jobs", "2")
	mustRun(t, "--db", dbPath, "rate", "--rater", "backtrack", "--jobs", "2")
	mustRun(t, "--db", dbPath, "rate", "--rater", "human", "--jobs", "2")
	mustRun(t, "--db", dbPath, "rate", "--rater", "se", "--jobs", "2", "--where", "collection IN ('Hodoku Medium', 'sudoku', 'diabolical')")
	checkClaims("after rating")
	before := labState(t, dbPath)

	own := map[string]string{"HardestDatabase110626": "csv", "reglib-1.4": "hodoku-lib", "Hodoku Medium": "opensudoku", "sudoku": "csv", "diabolical": "line"}
	members := func(collection string) string {
		t.Helper()
		return mustRun(t, "--db", dbPath, "-O", "csv", "sql", `SELECT cp.position, p.grid, cp.label, cp.metadata
			FROM collection_puzzles cp JOIN collections c ON c.id = cp.collection_id JOIN puzzles p ON p.id = cp.puzzle_id
			WHERE c.name = '`+collection+`' ORDER BY cp.position`)
	}
	var copies [][2]string
	for i, f := range realFiles {
		for _, format := range slices.Compact(slices.Sorted(slices.Values([]string{"csv", "json", "line", own[f.collection]}))) {
			file := filepath.Join(dir, fmt.Sprintf("%d.%s", i, format))
			mustRun(t, "--db", dbPath, "export", "--collection", f.collection, "--format", format, "-o", file)
			mustRun(t, "--db", dbPath, "import", "--collection", f.collection, "--format", format, file)
			copies = append(copies, [2]string{f.collection, file})
		}
	}
	if after := labState(t, dbPath); after != before {
		t.Fatalf("importing the collections' exports into them changed the lab:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	checkClaims("after the re-imports")

	for _, c := range copies {
		copy := "copy of " + filepath.Base(c[1])
		mustRun(t, "--db", dbPath, "import", "--collection", copy, "--format", strings.TrimPrefix(filepath.Ext(c[1]), "."), c[1])
		if want, got := members(c[0]), members(copy); got != want {
			t.Errorf("%s imported as a new collection: not collection %s:\n%s\nwant:\n%s", filepath.Base(c[1]), c[0], got, want)
		}
	}
	checkClaims("after the copies")
}
