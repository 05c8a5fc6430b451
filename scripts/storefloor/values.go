package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// row is one puzzle row of the CSV file, typed as the lab stores it; a
// nil field is NULL.
type row struct {
	grid                         string
	size, boxRows, boxCols, givs int64
	solution                     any // string or nil
	solutionCount                any // int64 or nil
	symmetryForm                 any // string or nil
	importID                     any // int64 or nil
	countStatus                  any // string or nil
	countSeconds                 any // float64 or nil
}

// The writer's shapes: rows per statement, statements per transaction.
const (
	chunk   = 400
	perTx   = 4
	puzCols = 12
	memCols = 8
)

// The statements, as db.ImportWriter builds them.
const (
	insertPuzzles12 = `INSERT INTO puzzles (grid, size, box_rows, box_cols, givens, solution, solution_count,
		symmetry_form, created_at, import_id, count_status, count_seconds) VALUES `
	insertMembers8 = `INSERT INTO collection_puzzles (collection_id, puzzle_id, position, label, import_id,
		source_line, metadata, added_at) VALUES `
)

var (
	insertPuzzleValues = insertPuzzles12 + placeholders(chunk, puzCols)
	insertMemberValues = insertMembers8 + placeholders(chunk, memCols)
	// setup makes the collection and import the rows name, for the
	// foreign keys.
	setup = []string{
		`INSERT INTO collections (id, name) VALUES (1, 'storefloor')`,
		`INSERT INTO imports (id, file_name, file_sha256, format, collection_id) VALUES (1, 'rows.csv', '', 'line', 1)`,
	}
)

// placeholders returns n groups of k placeholders: "(?, ?), (?, ?)".
func placeholders(n, k int) string {
	group := "(" + strings.TrimSuffix(strings.Repeat("?, ", k), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(group+", ", n), ", ")
}

// readRows reads the CSV file into typed rows.
func readRows(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = 11
	var rows []row
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var bad error
		integer := func(s string) int64 {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil && bad == nil {
				bad = err
			}
			return v
		}
		text := func(s string) any {
			if s == "" {
				return nil
			}
			return s
		}
		nullInt := func(s string) any {
			if s == "" {
				return nil
			}
			return integer(s)
		}
		x := row{grid: rec[0], size: integer(rec[1]), boxRows: integer(rec[2]), boxCols: integer(rec[3]), givs: integer(rec[4]),
			solution: text(rec[5]), solutionCount: nullInt(rec[6]), symmetryForm: text(rec[7]), importID: nullInt(rec[8]),
			countStatus: text(rec[9])}
		if rec[10] != "" {
			v, err := strconv.ParseFloat(rec[10], 64)
			if err != nil && bad == nil {
				bad = err
			}
			x.countSeconds = v
		}
		if bad != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, len(rows)+1, bad)
		}
		rows = append(rows, x)
	}
}

// puzzleArgs and memberArgs append the parameters of row i (0-based) of
// the file to args, as db.ImportWriter binds them.
func puzzleArgs(args []any, r row, now string) []any {
	return append(args, r.grid, r.size, r.boxRows, r.boxCols, r.givs, r.solution, r.solutionCount,
		r.symmetryForm, now, r.importID, r.countStatus, r.countSeconds)
}

func memberArgs(args []any, i int, id int64, now string) []any {
	return append(args, int64(1), id, int64(i+1), "", int64(1), int64(i+1), nil, now)
}

// store is a way to run the statements: exec runs query, whose parameters
// are args, and returns the statement's last insert id.
type store interface {
	begin() error
	exec(query string, args []any) (int64, error)
	commit() error
}

// writeRows stores the rows through s as the import's writer does: per
// chunk of 400 rows one statement into puzzles, then one into
// collection_puzzles with the ids that follow from the last insert id;
// four chunks per transaction. Full chunks run the same query (prepared
// once), a shorter last chunk its own.
func writeRows(s store, rows []row) error {
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	pargs := make([]any, 0, chunk*puzCols)
	margs := make([]any, 0, chunk*memCols)
	for txStart := 0; txStart < len(rows); txStart += chunk * perTx {
		if err := s.begin(); err != nil {
			return err
		}
		for c := txStart; c < min(txStart+chunk*perTx, len(rows)); c += chunk {
			part := rows[c:min(c+chunk, len(rows))]
			pq, mq := insertPuzzleValues, insertMemberValues
			if len(part) < chunk {
				pq = insertPuzzles12 + placeholders(len(part), puzCols)
				mq = insertMembers8 + placeholders(len(part), memCols)
			}
			pargs = pargs[:0]
			for _, r := range part {
				pargs = puzzleArgs(pargs, r, now)
			}
			last, err := s.exec(pq, pargs)
			if err != nil {
				return err
			}
			margs = margs[:0]
			for i := range part {
				margs = memberArgs(margs, c+i, last-int64(len(part))+1+int64(i), now)
			}
			if _, err := s.exec(mq, margs); err != nil {
				return err
			}
		}
		if err := s.commit(); err != nil {
			return err
		}
	}
	return nil
}

// sqlStore runs the statements through database/sql: those of full
// chunks prepared once, others unprepared, as db.ImportWriter does.
type sqlStore struct {
	ctx   context.Context
	d     *sql.DB
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (s *sqlStore) begin() (err error) {
	s.tx, err = s.d.BeginTx(s.ctx, nil)
	return err
}

func (s *sqlStore) exec(query string, args []any) (int64, error) {
	var (
		res sql.Result
		err error
	)
	if st, ok := s.stmts[query]; ok {
		res, err = s.tx.StmtContext(s.ctx, st).ExecContext(s.ctx, args...)
	} else {
		res, err = s.tx.ExecContext(s.ctx, query, args...)
	}
	if err != nil {
		s.tx.Rollback()
		return 0, err
	}
	return res.LastInsertId()
}

func (s *sqlStore) commit() error { return s.tx.Commit() }

// runValues times storing the rows as the import's writer does, through
// database/sql with the lab's pragmas (foreign keys on).
func runValues(ctx context.Context, t *timer, dbPath string, rows []row) error {
	d, err := sql.Open("sqlite", "file:"+dbPath+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-65536)")
	if err != nil {
		return err
	}
	defer d.Close()
	d.SetMaxOpenConns(1)
	for _, q := range setup {
		if _, err := d.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	s := &sqlStore{ctx: ctx, d: d, stmts: map[string]*sql.Stmt{}}
	defer func() {
		for _, st := range s.stmts {
			st.Close()
		}
	}()
	t.start()
	for _, q := range []string{insertPuzzleValues, insertMemberValues} {
		st, err := d.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		s.stmts[q] = st
	}
	if err := writeRows(s, rows); err != nil {
		return err
	}
	t.stop()
	return nil
}
