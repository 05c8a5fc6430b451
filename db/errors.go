package db

// Reading the engines' errors: which constraint a statement broke, whether
// it may succeed if tried again, and the engine's own message.

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// constraint kinds, as told by constraintOf.
type constraint int

const (
	constraintNone constraint = iota
	constraintUnique
	constraintForeignKey
	constraintCheck
	constraintNotNull
)

// constraintOf tells which kind of constraint err reports broken, if any.
func constraintOf(err error) constraint {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return constraintUnique
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return constraintForeignKey
		case sqlite3.SQLITE_CONSTRAINT_CHECK:
			return constraintCheck
		case sqlite3.SQLITE_CONSTRAINT_NOTNULL:
			return constraintNotNull
		}
		return constraintNone
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return constraintUnique
		case "23503":
			return constraintForeignKey
		case "23514":
			return constraintCheck
		case "23502":
			return constraintNotNull
		}
	}
	return constraintNone
}

// isDiskFull reports whether err says the disk, a quota or the server ran
// out of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100) or
// the system's ENOSPC.
func isDiskFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// isBusy reports whether err says another connection holds a lock:
// SQLite's "database is locked".
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_BUSY || se.Code()&0xff == sqlite3.SQLITE_LOCKED)
}

// retryable reports whether a transaction that failed with err may succeed
// when run again from the start: SQLite's lock still held after
// busy_timeout; PostgreSQL's serialization failures and deadlocks, and a
// server that went away or is starting (a restart): the pool then opens a
// new connection.
func retryable(err error) bool {
	if isBusy(err) || errors.Is(err, driver.ErrBadConn) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "40001", pe.Code == "40P01": // serialization failure, deadlock
			return true
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "57P"): // connection lost, shutdown, starting
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// refusedData reports whether err says the database refuses the data a
// statement gave it, which running the statement again cannot change:
// PostgreSQL's SQLSTATE classes 22 (data exception: an invalid byte
// sequence, a value too long for its column, a number out of range) and
// 23 (integrity constraint violation); SQLite's SQLITE_CONSTRAINT (any
// constraint, a trigger's RAISE(ABORT) included), SQLITE_TOOBIG and
// SQLITE_MISMATCH.
func refusedData(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_MISMATCH:
			return true
		}
		return false
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "22") || strings.HasPrefix(pe.Code, "23"))
}

// refusal marks an error dbError made of one the database refused the
// data with (refusedData), keeping its message and code.
type refusal struct{ err error }

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// Refused reports whether err, or an error it wraps, says the database
// refused the data a statement gave it (a constraint, a value its column
// cannot hold): an error that trying again cannot mend, unlike a lock
// held, a lost connection or an interruption.
func Refused(err error) bool {
	var r *refusal
	return errors.As(err, &r) || refusedData(err)
}

// dbMessage returns the database's own message for err, as its shell would
// print it: "no such column: x" rather than the driver's "SQL logic error:
// no such column: x (1)".
func dbMessage(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	msg := strings.TrimSuffix(se.Error(), " (SQLITE_BUSY)")
	if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") && isDigits(msg[i+2:len(msg)-1]) {
		msg = msg[:i]
	}
	// The driver writes "<description of the code>: <message>" when SQLite
	// has a specific message; the descriptions hold no colon.
	if _, rest, ok := strings.Cut(msg, ": "); ok {
		msg = rest
	}
	return msg
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
