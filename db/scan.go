package db

import (
	"database/sql"
	"fmt"
	"time"

	"sudokulab"
)

// TimeLayout is the form of every timestamp column: UTC, RFC 3339 with
// milliseconds, fixed width so that text order is time order, for example
// "2025-03-14T09:26:53.589Z". SQLite's date and time functions read it.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime returns t in TimeLayout.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// timeLayouts are the forms ParseTime accepts: the canonical one, RFC 3339
// with any precision or offset, and SQLite's datetime() form (UTC) for rows
// written by hand.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// ParseTime reads a timestamp column.
func ParseTime(s string) (time.Time, error) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("timestamp %q is not RFC 3339", s)
}

// now is the clock for timestamps the caller leaves zero.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// stamp returns t, or now if t is zero, rounded to what is stored.
func stamp(t time.Time) time.Time {
	if t.IsZero() {
		return now()
	}
	return t.UTC().Truncate(time.Millisecond)
}

// timeCol scans a timestamp column into a time.Time; NULL gives the zero
// time.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*c.t = time.Time{}
		return nil
	case time.Time:
		*c.t = v.UTC()
		return nil
	case string:
		t, err := ParseTime(v)
		*c.t = t
		return err
	case []byte:
		t, err := ParseTime(string(v))
		*c.t = t
		return err
	}
	return fmt.Errorf("timestamp column holds %T", src)
}

// strCol scans a nullable text column; NULL gives "".
type strCol struct{ s *string }

func (c strCol) Scan(src any) error {
	var ns sql.NullString
	if err := ns.Scan(src); err != nil {
		return err
	}
	*c.s = ns.String
	return nil
}

// idCol scans a nullable integer column; NULL gives 0.
type idCol[T int | int64] struct{ n *T }

func (c idCol[T]) Scan(src any) error {
	var ni sql.NullInt64
	if err := ni.Scan(src); err != nil {
		return err
	}
	*c.n = T(ni.Int64)
	return nil
}

// nullStr is the value for a nullable text column: NULL for "".
func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullID is the value for a nullable integer column: NULL for 0.
func nullID[T int | int64](n T) any {
	if n == 0 {
		return nil
	}
	return int64(n)
}

// boolInt is the value for a 0/1 flag column: PostgreSQL will not take a
// Go bool for an integer.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// nullTime is the value for a nullable timestamp column: NULL for the zero
// time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return FormatTime(t)
}

// nullGrid is the value for a nullable grid column: NULL for the zero Grid.
func nullGrid(g sudokulab.Grid) any {
	if len(g.Cells) == 0 {
		return nil
	}
	return g.String()
}

// parseGridCol reads a grid column of a row whose shape is known.
func parseGridCol(s string, shape sudokulab.Shape, what string) (sudokulab.Grid, error) {
	if s == "" {
		return sudokulab.Grid{}, nil
	}
	g, err := sudokulab.ParseShape(s, shape)
	if err != nil {
		return sudokulab.Grid{}, fmt.Errorf("db: stored %s %q: %w", what, s, err)
	}
	return g, nil
}
