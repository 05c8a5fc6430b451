package db_test

import (
	"database/sql/driver"
	"errors"
	"strings"
	"testing"

	"sudokulab/db"
)

// noCount is a result whose driver cannot count the rows changed.
type noCount struct{}

func (noCount) LastInsertId() (int64, error) { return 0, errors.New("no id") }
func (noCount) RowsAffected() (int64, error) { return 0, errors.New("no count") }

func TestAffected(t *testing.T) {
	tests := []struct {
		name    string
		res     driver.Result
		want    int64
		wantErr string
	}{
		{"counted", driver.RowsAffected(3), 3, ""},
		{"none changed", driver.RowsAffected(0), 0, ""},
		{"no count", noCount{}, 0, "release work: count the rows changed: no count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := db.Affected(tt.res, "release work")
			if tt.wantErr == "" {
				if err != nil || n != tt.want {
					t.Fatalf("Affected = %d, %v; want %d, nil", n, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Affected = %d, %v; want an error saying %q", n, err, tt.wantErr)
			}
		})
	}
}
