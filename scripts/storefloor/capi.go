package main

import (
	"fmt"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// cmem returns the address p of C memory (libc's allocator, outside the
// Go heap) as a pointer.
func cmem(p uintptr) unsafe.Pointer { return unsafe.Add(nil, p) }

// capiStore runs the statements through SQLite's C API, each query
// prepared once; texts are copied into one C buffer per statement and
// bound with SQLITE_STATIC.
type capiStore struct {
	tls   *libc.TLS
	db    uintptr
	stmts map[string]uintptr
	buf   uintptr // C memory for a statement's texts
	size  int
}

func (s *capiStore) errorf(what string, rc int32) error {
	return fmt.Errorf("%s: %s (%d)", what, libc.GoString(sqlite3.Xsqlite3_errmsg(s.tls, s.db)), rc)
}

// run executes SQL without parameters.
func (s *capiStore) run(query string) error {
	q, err := libc.CString(query)
	if err != nil {
		return err
	}
	defer libc.Xfree(s.tls, q)
	if rc := sqlite3.Xsqlite3_exec(s.tls, s.db, q, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return s.errorf(query, rc)
	}
	return nil
}

func (s *capiStore) begin() error  { return s.run("BEGIN") }
func (s *capiStore) commit() error { return s.run("COMMIT") }

func (s *capiStore) prepare(query string) (uintptr, error) {
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	q, err := libc.CString(query)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(s.tls, q)
	p := s.tls.Alloc(8)
	defer s.tls.Free(8)
	if rc := sqlite3.Xsqlite3_prepare_v2(s.tls, s.db, q, -1, p, 0); rc != sqlite3.SQLITE_OK {
		return 0, s.errorf("prepare", rc)
	}
	st := *(*uintptr)(cmem(p))
	s.stmts[query] = st
	return st, nil
}

func (s *capiStore) exec(query string, args []any) (int64, error) {
	st, err := s.prepare(query)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, a := range args {
		if t, ok := a.(string); ok {
			n += len(t)
		}
	}
	if n > s.size {
		if s.buf != 0 {
			libc.Xfree(s.tls, s.buf)
		}
		if s.buf = libc.Xmalloc(s.tls, libc.Tsize_t(n)); s.buf == 0 {
			return 0, fmt.Errorf("cannot allocate %d bytes", n)
		}
		s.size = n
	}
	off := 0
	for i, a := range args {
		col := int32(i + 1)
		var rc int32
		switch v := a.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(s.tls, st, col)
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(s.tls, st, col, v)
		case float64:
			rc = sqlite3.Xsqlite3_bind_double(s.tls, st, col, v)
		case string:
			p := s.buf + uintptr(off)
			copy(unsafe.Slice((*byte)(cmem(p)), len(v)), v)
			off += len(v)
			rc = sqlite3.Xsqlite3_bind_text(s.tls, st, col, p, int32(len(v)), 0) // SQLITE_STATIC
		default:
			return 0, fmt.Errorf("parameter %d: cannot bind %T", col, a)
		}
		if rc != sqlite3.SQLITE_OK {
			return 0, s.errorf("bind", rc)
		}
	}
	if rc := sqlite3.Xsqlite3_step(s.tls, st); rc != sqlite3.SQLITE_DONE {
		sqlite3.Xsqlite3_reset(s.tls, st)
		return 0, s.errorf("step", rc)
	}
	if rc := sqlite3.Xsqlite3_reset(s.tls, st); rc != sqlite3.SQLITE_OK {
		return 0, s.errorf("reset", rc)
	}
	return sqlite3.Xsqlite3_last_insert_rowid(s.tls, s.db), nil
}

// runCAPI times storing the rows as runValues does, through the C API on
// a connection opened with SQLITE_OPEN_NOMUTEX.
func runCAPI(t *timer, dbPath string, rows []row) error {
	tls := libc.NewTLS()
	defer tls.Close()
	name, err := libc.CString(dbPath)
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, name)
	p := tls.Alloc(8)
	defer tls.Free(8)
	s := &capiStore{tls: tls, stmts: map[string]uintptr{}}
	if rc := sqlite3.Xsqlite3_open_v2(tls, name, p, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_NOMUTEX, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("open %s: %d", dbPath, rc)
	}
	s.db = *(*uintptr)(cmem(p))
	defer func() {
		for _, st := range s.stmts {
			sqlite3.Xsqlite3_finalize(tls, st)
		}
		sqlite3.Xsqlite3_close_v2(tls, s.db)
		if s.buf != 0 {
			libc.Xfree(tls, s.buf)
		}
	}()
	// The lab's pragmas, as the database/sql run sets them in its DSN.
	for _, q := range append([]string{"PRAGMA foreign_keys = 1", "PRAGMA journal_mode = WAL",
		"PRAGMA synchronous = NORMAL", "PRAGMA cache_size = -65536"}, setup...) {
		if err := s.run(q); err != nil {
			return err
		}
	}
	t.start()
	if err := writeRows(s, rows); err != nil {
		return err
	}
	t.stop()
	return nil
}
