// Command storefloor times SQLite's part of an import in pure Go, with
// modernc.org/sqlite, the driver the lab uses, on the rows of a CSV file
// (written by scripts/bench-import.sh from a lab an import filled: grid,
// size, box_rows, box_cols, givens, solution, solution_count,
// symmetry_form, import_id, count_status, count_seconds), into a fresh
// lab's puzzles and collection_puzzles. Reading the file is not timed.
// Three ways, chosen by -mode:
//
//   - select (the default): the rows loaded into a temporary table, then
//     the two INSERT ... SELECT statements that copy them, in one
//     transaction, foreign keys off. scripts/bench-import.sh runs the same
//     statements in the sqlite3 shell (C SQLite), so the two times compare
//     the engines alone.
//   - values: the rows as the import's writer stores them (db.ImportWriter)
//     without its bookkeeping: through database/sql, 400-row INSERT ...
//     VALUES statements with bound parameters into puzzles (12 columns)
//     and then collection_puzzles (8), the new ids from the statement's
//     last insert id, four chunks (1,600 rows) per transaction, foreign
//     keys on.
//   - capi: the same statements through SQLite's C API as
//     modernc.org/sqlite/lib exposes it (prepare, bind, step, reset), on a
//     connection opened with SQLITE_OPEN_NOMUTEX, each chunk's texts copied
//     into C memory once and bound from there with SQLITE_STATIC (SQLite
//     copies none of them).
//
// Usage: storefloor [-mode select|values|capi] LAB_DB ROWS_CSV
// It prints one line: store_seconds=S rows=N mode=M.
package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"syscall"
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
	mode := flag.String("mode", "select", "how to store the rows: select, values or capi")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: storefloor [-mode select|values|capi] LAB_DB ROWS_CSV")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	dbPath, csvPath := flag.Arg(0), flag.Arg(1)
	var (
		n   int
		t   timer
		err error
	)
	switch *mode {
	case "select":
		n, err = runSelect(ctx, &t, dbPath, csvPath)
	case "values", "capi":
		var rows []row
		if rows, err = readRows(csvPath); err == nil {
			n = len(rows)
			if *mode == "values" {
				err = runValues(ctx, &t, dbPath, rows)
			} else {
				err = runCAPI(&t, dbPath, rows)
			}
		}
	default:
		err = fmt.Errorf("unknown mode %q: want select, values or capi", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storefloor:", err)
		os.Exit(1)
	}
	fmt.Printf("store_seconds=%.3f store_cpu_seconds=%.3f rows=%d mode=%s\n", t.wall.Seconds(), t.cpu.Seconds(), n, *mode)
}

// timer measures the wall and CPU time (user and system, of the whole
// process: the collector's too) between start and stop.
type timer struct {
	t0        time.Time
	c0        time.Duration
	wall, cpu time.Duration
}

func (t *timer) start() { t.t0, t.c0 = time.Now(), processCPU() }

func (t *timer) stop() { t.wall, t.cpu = time.Since(t.t0), processCPU()-t.c0 }

// processCPU returns the CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runSelect times the two INSERT ... SELECT statements.
func runSelect(ctx context.Context, t *timer, dbPath, csvPath string) (int, error) {
	// The pragmas of the shell run: WAL, synchronous NORMAL, no foreign
	// keys; the lab's page cache.
	d, err := sql.Open("sqlite", "file:"+dbPath+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_pragma=cache_size(-65536)")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	conn, err := d.Conn(ctx) // one connection: the temporary table is its own
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, createTemp); err != nil {
		return 0, err
	}
	n, err := load(ctx, conn, csvPath)
	if err != nil {
		return 0, err
	}
	t.start()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	for _, q := range []string{insertPuzzles, insertMembers} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	t.stop()
	return n, nil
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
