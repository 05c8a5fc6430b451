// Command storefloor times SQLite's part of an import in pure Go: it loads
// the rows of a CSV file (written by scripts/bench-import.sh from a lab an
// import filled) into a temporary table, untimed, then times the two
// INSERT ... SELECT statements that copy them into a fresh lab's puzzles
// and collection_puzzles, in one transaction, with modernc.org/sqlite, the
// driver the lab uses. scripts/bench-import.sh runs the same statements in
// the sqlite3 shell (C SQLite), so the two times compare the engines alone.
//
// Usage: storefloor LAB_DB ROWS_CSV
// It prints one line: store_seconds=S rows=N.
package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"time"

	_ "modernc.org/sqlite"
)

// The statements of the C run in scripts/bench-import.sh.
const (
	createTemp = `CREATE TEMP TABLE t (grid TEXT, size INT, box_rows INT, box_cols INT, givens INT, solution TEXT,
		solution_count INT, symmetry_form TEXT, import_id INT, count_status TEXT, count_seconds REAL)`
	insertPuzzles = `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count, symmetry_form,
		import_id, count_status, count_seconds) SELECT * FROM t ORDER BY rowid`
	insertMembers = `INSERT INTO collection_puzzles (collection_id, puzzle_id, position, import_id, source_line)
		SELECT 1, id, id, 1, id FROM puzzles`
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: storefloor LAB_DB ROWS_CSV")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "storefloor:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dbPath, csvPath string) error {
	// The pragmas of the shell run: WAL, synchronous NORMAL, no foreign
	// keys; the lab's page cache.
	d, err := sql.Open("sqlite", "file:"+dbPath+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_pragma=cache_size(-65536)")
	if err != nil {
		return err
	}
	defer d.Close()
	conn, err := d.Conn(ctx) // one connection: the temporary table is its own
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, createTemp); err != nil {
		return err
	}
	n, err := load(ctx, conn, csvPath)
	if err != nil {
		return err
	}
	start := time.Now()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, q := range []string{insertPuzzles, insertMembers} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	fmt.Printf("store_seconds=%.3f rows=%d\n", time.Since(start).Seconds(), n)
	return nil
}

// load copies the CSV rows into the temporary table, as .import does in the
// shell run; empty fields are NULL there too for the columns that allow it.
func load(ctx context.Context, conn *sql.Conn, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	r := csv.NewReader(f)
	r.FieldsPerRecord = 11
	n := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		args := make([]any, len(rec))
		for i, v := range rec {
			args[i] = v
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return 0, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		n++
	}
	return n, tx.Commit()
}
