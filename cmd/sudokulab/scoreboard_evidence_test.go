package main

// The runs behind docs/reproduction.md's scoreboard are committed as
// docs/data/scoreboard.db.gz, which scripts/load-scoreboard.sh merges
// into a lab made from lab.db.example. TestScoreboardEvidence does what
// the script does and checks that the scoreboard it gives is the one the
// page states: the cells of each status and the runs behind them, per
// paper.

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// evidenceMarker starts the line before the table of docs/reproduction.md
// that states the committed scoreboard.
const evidenceMarker = "<!-- scoreboard-evidence"

// evidenceColumns are the columns of that table after the paper's: one per
// status, the cells and the runs behind them.
var evidenceColumns = []string{"matched", "beaten", "short", "not run", "quoted", "cells", "runs"}

func TestScoreboardEvidence(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "scoreboard.db")
	gunzip(t, filepath.Join("..", "..", "docs", "data", "scoreboard.db.gz"), src)
	lab := filepath.Join(dir, "lab.db")
	mustRun(t, "--db", lab, "init", "--from", filepath.Join("..", "..", "lab.db.example"))
	// As scripts/load-scoreboard.sh does: the file keeps the schema it was
	// saved at, and merge takes a source at this sudokulab's version only.
	mustRun(t, "--db", src, "migrate", "up")
	mustRun(t, "--db", lab, "merge", "--fail-on-conflict", src)
	// Merging again changes nothing, as the script promises.
	mustRun(t, "--db", lab, "merge", "--fail-on-conflict", src)

	out := mustRun(t, "--db", lab, "-O", "csv", "query", "reproduction-scoreboard", "--param", "readings=all")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("scoreboard: %v\n%s", err, out)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	got := map[string]map[string]int{}
	for _, r := range recs[1:] {
		runs, err := strconv.Atoi(r[col["runs"]])
		if err != nil {
			t.Fatalf("row %v: runs: %v", r, err)
		}
		for _, p := range []string{r[col["paper"]], "all"} {
			if got[p] == nil {
				got[p] = map[string]int{}
			}
			got[p][r[col["status"]]]++
			got[p]["cells"]++
			got[p]["runs"] += runs
		}
	}

	want := evidenceTable(t, filepath.Join("..", "..", "docs", "reproduction.md"))
	bad := len(want) != len(got)
	for paper, counts := range want {
		for _, c := range evidenceColumns {
			if got[paper][c] != counts[c] {
				t.Errorf("%s, %s: the committed runs give %d, docs/reproduction.md says %d", paper, c, got[paper][c], counts[c])
				bad = true
			}
		}
	}
	if bad {
		t.Errorf("docs/reproduction.md states %d papers (with all), the scoreboard has %d; the committed runs give:\n%s",
			len(want), len(got), markdownCounts(got))
	}
}

// markdownCounts renders counts as the table evidenceTable reads, the
// papers in the scoreboard's order and all last.
func markdownCounts(counts map[string]map[string]int) string {
	var b strings.Builder
	b.WriteString("| paper | " + strings.Join(evidenceColumns, " | ") + " |\n| ---")
	b.WriteString(strings.Repeat(" | ---:", len(evidenceColumns)) + " |\n")
	for _, p := range []string{"reseda", "sato-inoue", "nb-coin", "soto-cuckoo", "franco", "all"} {
		b.WriteString("| " + p)
		for _, c := range evidenceColumns {
			fmt.Fprintf(&b, " | %d", counts[p][c])
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

// gunzip writes the decompressed file src to dst.
func gunzip(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// evidenceTable reads the table after evidenceMarker in the Markdown file
// at path: for each paper (and all), the count of each evidenceColumns.
func evidenceTable(t *testing.T, path string) map[string]map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line, in := 0, false
	var header []string
	table := map[string]map[string]int{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(text, evidenceMarker):
			in = true
		case in && strings.HasPrefix(text, "|"):
			cells := strings.Split(strings.Trim(text, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			switch {
			case header == nil:
				header = cells
				if want := append([]string{"paper"}, evidenceColumns...); fmt.Sprint(header) != fmt.Sprint(want) {
					t.Fatalf("%s:%d: columns %q, want %q", path, line, header, want)
				}
			case strings.HasPrefix(cells[0], "---"):
			default:
				if len(cells) != len(header) {
					t.Fatalf("%s:%d: %d columns, want %d", path, line, len(cells), len(header))
				}
				row := map[string]int{}
				for i, c := range evidenceColumns {
					n, err := strconv.Atoi(cells[i+1])
					if err != nil {
						t.Fatalf("%s:%d: %s: %v", path, line, c, err)
					}
					row[c] = n
				}
				table[cells[0]] = row
			}
		case in && header != nil:
			return table
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if header == nil {
		t.Fatalf("%s: no table after a line starting %q", path, evidenceMarker)
	}
	return table
}
