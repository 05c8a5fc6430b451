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
// every rating and every collection with its members, in order.
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
	return ratings + collections + puzzles
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
	mustRun(t, "--db", dbPath, "collections", "add", "bench", "--where", "collection IN ('reseda-2012', 'claims', 'soto-2014')",
		"--order-by", "givens DESC", "--label", "'b' || id")
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
