package db_test

import (
	"testing"

	"sudokulab"
	"sudokulab/db"
)

// TestFreezeCheck refuses a ';' ending the statement in any of a Freeze's
// SQL fields, and accepts one inside a string literal.
func TestFreezeCheck(t *testing.T) {
	for _, tc := range []struct {
		f    db.Freeze
		want string
	}{
		{db.Freeze{Where: "givens < 25", OrderBy: "givens DESC", Label: "'x;' || position"}, ""},
		{db.Freeze{}, ""},
		{db.Freeze{Where: "1; DROP TABLE puzzles"}, sudokulab.EINVALID},
		{db.Freeze{Where: "1", OrderBy: "id; DELETE FROM puzzles"}, sudokulab.EINVALID},
		{db.Freeze{Where: "1", Label: "'a'; SELECT 1"}, sudokulab.EINVALID},
	} {
		if got := sudokulab.ErrorCode(tc.f.Check()); got != tc.want {
			t.Errorf("%+v: code %q, want %q", tc.f, got, tc.want)
		}
	}
}
