package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokulab/db"
)

// TestModes stores the same rows with each mode into a fresh lab and
// checks that every row landed, in order, with its membership, and that
// the foreign keys hold (where they are on). 2,001 rows make five full chunks over two
// transactions and a last chunk of one row.
func TestModes(t *testing.T) {
	const n = 2001
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "rows.csv")
	var b strings.Builder
	grids := make([]string, n)
	for i := range n {
		g := []byte(strings.Repeat(".", 81))
		for k, x := 0, i+1; x > 0; k, x = k+1, x/9 {
			g[k] = byte('1' + x%9)
		}
		grids[i] = string(g)
		// The grid stands in for its solution and form: the schema checks
		// lengths, not sudoku rules.
		fmt.Fprintf(&b, "%s,9,3,3,%d,%s,1,%s,1,counted,0.001\n", grids[i], 81-strings.Count(grids[i], "."), grids[i], grids[i])
	}
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, mode := range []string{"select", "values", "capi"} {
		t.Run(mode, func(t *testing.T) {
			lab := filepath.Join(t.TempDir(), "lab.db")
			d, err := db.Open(ctx, lab)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			var tm timer
			switch mode {
			case "select":
				if _, err = runSelect(ctx, &tm, lab, csvPath); err != nil {
					t.Fatal(err)
				}
			default:
				rows, err := readRows(csvPath)
				if err != nil {
					t.Fatal(err)
				}
				if mode == "values" {
					err = runValues(ctx, &tm, lab, rows)
				} else {
					err = runCAPI(&tm, lab, rows)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if tm.wall <= 0 {
				t.Errorf("timed %v", tm.wall)
			}
			s, err := sql.Open("sqlite", "file:"+lab+"?_pragma=foreign_keys(1)")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			q, err := s.QueryContext(ctx, `SELECT p.grid, p.solution, p.count_status
				FROM collection_puzzles c JOIN puzzles p ON p.id = c.puzzle_id WHERE c.collection_id = 1 ORDER BY c.position`)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			i := 0
			for q.Next() {
				var g, sol, status string
				if err := q.Scan(&g, &sol, &status); err != nil {
					t.Fatal(err)
				}
				if i < n && (g != grids[i] || sol != grids[i] || status != "counted") {
					t.Fatalf("position %d holds %s, %s, %s; want %s twice and counted", i+1, g, sol, status, grids[i])
				}
				i++
			}
			if err := q.Err(); err != nil {
				t.Fatal(err)
			}
			if i != n {
				t.Fatalf("%d rows stored, want %d", i, n)
			}
			var violations int
			if err := s.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&violations); err != nil {
				t.Fatal(err)
			}
			if violations != 0 && mode != "select" {
				t.Errorf("%d foreign key violations", violations)
			}
		})
	}
}
